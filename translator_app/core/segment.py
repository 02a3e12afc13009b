"""Split German text into sentences while keeping its line structure.

Sentence boundaries come from pysbd (rule-based, knows German abbreviations and ordinals
such as "z. B.", "Dr." and "am 3. Oktober"); we never split across a line break, and the
output keeps every line break, blank line and line indentation of the input.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import pysbd

# pysbd's rules are written for running prose; a very long unbroken line would only cost
# time, and the translator splits over-long sentences into pieces anyway.
_MAX_SBD_CHARS = 5000
_local = threading.local()


@dataclass(frozen=True)
class Segment:
    """A sentence: ``text == source[start:end]``, on line number ``line`` (0-based)."""

    start: int
    end: int
    text: str
    line: int


def _segmenter() -> pysbd.Segmenter:
    seg = getattr(_local, "segmenter", None)
    if seg is None:
        seg = _local.segmenter = pysbd.Segmenter(language="de", clean=False)
    return seg


def _split_line(line: str) -> list[str]:
    if len(line) > _MAX_SBD_CHARS:
        return [line]
    return _segmenter().segment(line)


def split_sentences(text: str) -> list[Segment]:
    """Sentences of ``text`` with their character offsets; blank lines yield none."""
    segments: list[Segment] = []
    offset = 0
    for line_no, line in enumerate(text.split("\n")):
        if line.strip():
            pos = 0
            for piece in _split_line(line):
                stripped = piece.strip()
                if not stripped:
                    continue
                found = line.find(stripped, pos)
                if found < 0:  # pysbd altered the text: keep the rest of the line whole
                    rest = line[pos:].strip()
                    start = line.index(rest, pos)
                    segments.append(
                        Segment(offset + start, offset + start + len(rest), rest, line_no)
                    )
                    break
                segments.append(
                    Segment(offset + found, offset + found + len(stripped), stripped, line_no)
                )
                pos = found + len(stripped)
        offset += len(line) + 1
    return segments


def join_translations(text: str, segments: Sequence[Segment], outputs: Sequence[str]) -> str:
    """Rebuild a document: each line's sentences translated and joined by a space, with
    the line's indentation, line breaks and blank lines of ``text`` kept."""
    return join_with_spans(text, segments, outputs)[0]


def join_with_spans(
    text: str, segments: Sequence[Segment], outputs: Sequence[str]
) -> tuple[str, list[tuple[int, int]]]:
    """:func:`join_translations`, plus where each output (stripped) lies in the result:
    one ``(start, end)`` per segment, so that the app can link a sentence to its output."""
    by_line: dict[int, list[int]] = {}
    for i, seg in enumerate(segments):
        by_line.setdefault(seg.line, []).append(i)
    if len(outputs) != len(segments):
        raise ValueError("one output per segment is needed")
    spans: list[tuple[int, int]] = [(0, 0)] * len(segments)
    parts: list[str] = []
    pos = 0
    for line_no, line in enumerate(text.split("\n")):
        if line_no:
            parts.append("\n")
            pos += 1
        if line_no not in by_line:
            continue
        indent = line[: len(line) - len(line.lstrip())]
        parts.append(indent)
        pos += len(indent)
        first = True
        for i in by_line[line_no]:
            out = outputs[i].strip()
            if not out:
                spans[i] = (pos, pos)
                continue
            if not first:
                parts.append(" ")
                pos += 1
            parts.append(out)
            spans[i] = (pos, pos + len(out))
            pos += len(out)
            first = False
    return "".join(parts), spans

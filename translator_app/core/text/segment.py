"""Split German text into sentences while keeping its line structure.

Sentence boundaries come from pysbd (rule-based, knows German abbreviations and ordinals
such as "z. B.", "Dr." and "am 3. Oktober"); we never split across a line break, and the
output keeps every line break, blank line and line indentation of the input.
"""

from __future__ import annotations

import bisect
import itertools
import re
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import pysbd

from translator_app.core.limits import MAX_SEGMENT_BYTES, MAX_SEGMENT_CHARS

# pysbd's rules are written for running prose and slow down on very long strings, so a
# longer line is first cut into windows of at most this many characters (at the last
# sentence end, else the last space, before the limit).
_MAX_SBD_CHARS = 5000
_SENTENCE_END = re.compile(r"[.!?…][\"'»«“”)\]]*\s+")
_CLAUSE_END = re.compile(r"[,;:–—)\]]\s+")
_SPACE = re.compile(r"\s+")
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


def _cut(text: str, start: int, stop: int, limit: int, patterns) -> int:
    """Where to end a piece of ``text[start:stop]`` that may be at most ``limit`` long:
    after the last match of the first pattern that has one in the second half of the
    window, else a hard cut that does not separate a combining mark (or a lone
    surrogate) from the character before it."""
    end = start + limit
    if end >= stop:
        return stop
    window = text[start:end]
    for pattern in patterns:
        last = None
        for m in pattern.finditer(window, limit // 2):
            last = m
        if last is not None:
            return start + last.end()
    cut = end
    while cut > start + 1 and (
        unicodedata.combining(text[cut]) or "\udc00" <= text[cut] <= "\udfff"
    ):
        cut -= 1
    return cut if cut > start + 1 else end


def _bounded(
    text: str, start: int, end: int, limit: int, patterns, cost: list[int] | None = None
) -> list[tuple[int, int]]:
    """``text[start:end]`` as consecutive spans of at most ``limit`` characters and, with
    ``cost`` (cumulative bytes per character of ``text[start:end]``), at most
    MAX_SEGMENT_BYTES bytes."""
    spans, origin = [], start
    while True:
        size = limit
        if cost is not None:
            budget = cost[start - origin] + MAX_SEGMENT_BYTES
            hi = min(len(cost), start - origin + limit + 1)
            fits = bisect.bisect_right(cost, budget, start - origin, hi)
            size = max(1, fits - 1 - (start - origin))
        if end - start <= size:
            break
        cut = _cut(text, start, end, size, patterns)
        spans.append((start, cut))
        start = cut
    spans.append((start, end))
    return spans


def _byte_cost(text: str) -> list[int] | None:
    """Cumulative UTF-8 bytes of ``text`` after the tokenizer's NFKC normalisation, per
    character (None when the whole text is within MAX_SEGMENT_BYTES). Each token of the
    tokenizer covers at least one byte, so this bounds the tokens a piece becomes: one
    character can grow to 18 (U+FDFA), a flag emoji is 8 byte pieces."""
    if (
        len(unicodedata.normalize("NFKC", text).encode("utf-8", "surrogatepass"))
        <= MAX_SEGMENT_BYTES
    ):
        return None
    return [0, *itertools.accumulate(
        len(unicodedata.normalize("NFKC", ch).encode("utf-8", "surrogatepass")) for ch in text
    )]  # fmt: skip


# A line with no sentence end but at its close („Das ist Satz 12.“, a heading, a list
# item), and no brackets (pysbd splits „(H6:3) Und …“ after them): one sentence, as
# pysbd finds it, without pysbd (whose rules took 14 s before the
# first sentence of a .docx of 90,000 such paragraphs could be translated).
_ONE_SENTENCE = re.compile(r"[^.!?…()\[\]]*(?:\.|…|[!?]+)?[\s\"'»«“”’]*")


def _sentences(line: str) -> list[tuple[int, int]]:
    """Sentence spans of one line, stripped, each at most MAX_SEGMENT_CHARS long and at
    most MAX_SEGMENT_BYTES once normalised."""
    spans: list[tuple[int, int]] = []
    if len(line) <= _MAX_SBD_CHARS and _ONE_SENTENCE.fullmatch(line):
        windows = []
        whole = _stripped(line, 0, len(line))
        spans = [whole] if whole else []
    else:
        windows = _bounded(line, 0, len(line), _MAX_SBD_CHARS, (_SENTENCE_END, _SPACE))
    for w_start, w_end in windows:
        window = line[w_start:w_end]
        pos = 0
        for piece in _segmenter().segment(window):
            stripped = piece.strip()
            if not stripped:
                continue
            found = window.find(stripped, pos)
            if found < 0:  # pysbd altered the text: _fill_gaps keeps the rest whole
                break
            spans.append((w_start + found, w_start + found + len(stripped)))
            pos = found + len(stripped)
    spans = _dates_joined(line, spans)
    bounded = []
    for start, end in _fill_gaps(line, spans):
        cost = _byte_cost(line[start:end])
        for a, b in _bounded(line, start, end, MAX_SEGMENT_CHARS, (_CLAUSE_END, _SPACE), cost):
            span = _stripped(line, a, b)
            if span:
                bounded.append(span)
    return bounded


# A number with a point, then a word in lower case: a date or an ordinal inside a
# sentence („Am 24.12. ist …“), where pysbd ends one (a German sentence opens with a
# capital).
_ORDINAL_END = re.compile(r"\d\.$")


def _dates_joined(line: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` with each one that opens in lower case after one that ends in a number
    and a point joined to it."""
    joined: list[tuple[int, int]] = []
    for start, end in spans:
        if joined and line[start].islower() and _ORDINAL_END.search(line, 0, joined[-1][1]):
            joined[-1] = (joined[-1][0], end)
        else:
            joined.append((start, end))
    return joined


def _stripped(line: str, start: int, end: int) -> tuple[int, int] | None:
    """``line[start:end]`` without its surrounding spaces, as a span; None if blank."""
    piece = line[start:end]
    body = piece.strip()
    if not body:
        return None
    lead = start + len(piece) - len(piece.lstrip())
    return lead, lead + len(body)


def _fill_gaps(line: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` plus a span for every stretch of the line that they leave out and that
    holds more than spaces: pysbd may return nothing for odd text, or alter a sentence so
    that it is found further on. Every character of the input must be translated."""
    filled, pos = [], 0
    for start, end in [*spans, (len(line), len(line))]:
        gap = _stripped(line, pos, start) if start > pos else None
        if gap:
            filled.append(gap)
        if end > start:
            filled.append((start, end))
        pos = max(pos, end)
    return filled


def split_sentences(text: str) -> list[Segment]:
    """Sentences of ``text`` with their character offsets; blank lines yield none. A
    sentence longer than MAX_SEGMENT_CHARS is cut at clause ends or spaces, so that every
    character of the input is in one bounded segment."""
    segments: list[Segment] = []
    offset = 0
    for line_no, line in enumerate(text.split("\n")):
        if line.strip():
            for start, end in _sentences(line):
                segments.append(Segment(offset + start, offset + end, line[start:end], line_no))
        offset += len(line) + 1
    return segments


def join_with_spans(
    text: str, segments: Sequence[Segment], outputs: Sequence[str]
) -> tuple[str, list[tuple[int, int]]]:
    """Rebuild a document: each line's sentences translated and joined by a space, with
    the line's indentation, line breaks and blank lines of ``text`` kept. Also where each
    output (stripped) lies in the result: one ``(start, end)`` per segment, so that the
    app can link a sentence to its output."""
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

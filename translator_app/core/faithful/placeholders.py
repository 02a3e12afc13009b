"""Placeholders: the last resort for a name or place that no candidate kept (issue 30).

The model copies the names it saw thousands of times in training (Tom, Mary, Berlin)
without fail, even where it turns a rarer name that is also a German word into a noun
(„Frau Bäumer“ -> "Mrs trees") or drops a place from a construction it knows badly
(„findet dieses Jahr in Passau statt“). So where every candidate lost a protected name or
place, the translator decodes the sentence once more with each lost one replaced by such
a placeholder, then writes the real name (or its English form: Nürnberg -> Nuremberg)
where the placeholder came out: in its pieces and ids too where the placeholder is a word
of its own pieces (postedit/facts.py respells it), else in the text and its character
spans alone; the source's spans are those of the user's sentence.

Pure functions over immutable values: :func:`substitute` before the decode,
:func:`restore_source` and :func:`restore_candidate` after it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from translator_app.core.text.tokenizer import Span
from translator_app.core.values import TermUse

# Copied without fail by the base model (measured on bench_faithful's failures: 9 of 9
# sentences each, app's default search); German and English spell them alike.
NAME_PLACEHOLDERS = ("Tom", "Mary", "Nora", "Smith")
PLACE_PLACEHOLDERS = ("Berlin", "London", "Paris")


@dataclass(frozen=True)
class Edit:
    """One replacement: ``placeholder`` stands at [start, end) of the substituted text
    for ``use`` (whose span is in the user's text)."""

    start: int
    end: int
    placeholder: str
    use: TermUse


def _word(w: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(w)}(?![\w-])")


def substitute(
    text: str, uses: Sequence[TermUse], is_place: Sequence[bool], skip: int = 0
) -> tuple[str, tuple[Edit, ...]]:
    """``text`` with each of ``uses`` (no overlaps) replaced by a placeholder that the
    text does not already hold, after the first ``skip`` of those (a second try, where
    the model mistranslated the first); uses beyond the free placeholders stay as they
    are."""
    free = {
        True: [p for p in PLACE_PLACEHOLDERS if not _word(p).search(text)][skip:],
        False: [p for p in NAME_PLACEHOLDERS if not _word(p).search(text)][skip:],
    }
    out, edits, pos, shift = [], [], 0, 0
    for use, place in sorted(zip(uses, is_place, strict=True), key=lambda x: x[0].start):
        if not free[place] or use.start < pos:
            continue
        ph = free[place].pop(0)
        out.append(text[pos : use.start])
        start = use.start + shift
        edits.append(Edit(start, start + len(ph), ph, use))
        out.append(ph)
        shift += len(ph) - (use.end - use.start)
        pos = use.end
    out.append(text[pos:])
    return "".join(out), tuple(edits)


def _map_span(span: Span, moves: Sequence[tuple[int, int, int, int]]) -> Span:
    """A span of one text in the other, given the (start, end) -> (start', end') pairs of
    the replaced stretches, left to right; a span that reaches into a stretch takes all of
    its counterpart."""
    a, b = span
    start = end = None
    shift = 0
    for s, e, s2, e2 in moves:
        if start is None and a < e:
            start = a + shift if a < s else s2
        if b <= e:
            end = b + shift if b <= s else e2
            break
        shift = e2 - e
    start = a + shift if start is None else start
    end = b + shift if end is None else end
    return start, max(start, end)


def restore_source(spans: Sequence[Span], edits: Sequence[Edit]) -> tuple[Span, ...]:
    """Spans into the substituted text as spans into the user's text."""
    moves = [(e.start, e.end, e.use.start, e.use.end) for e in edits]
    return tuple(_map_span(s, moves) for s in spans)


def placeholders_in(english: str, edits: Sequence[Edit]) -> list[tuple[int, int, str]]:
    """(start, end, the use's English) of each placeholder's first occurrence in
    ``english``, left to right and apart."""
    found = []
    for e in edits:
        m = _word(e.placeholder).search(english)
        if m:
            found.append((m.start(), m.end(), e.use.english))
    found.sort()
    apart: list[tuple[int, int, str]] = []
    for s, t, target in found:
        if not apart or s >= apart[-1][1]:
            apart.append((s, t, target))
    return apart


def restore_text(
    english: str, edits: Sequence[Edit]
) -> tuple[str, list[tuple[int, int, int, int]]]:
    """The English with each placeholder's first occurrence replaced by its use's
    English, and the (start, end) -> (start', end') moves that made it."""
    out, moves, pos, shift = [], [], 0, 0
    for s, t, target in placeholders_in(english, edits):
        out += [english[pos:s], target]
        moves.append((s, t, s + shift, s + shift + len(target)))
        shift += len(target) - (t - s)
        pos = t
    out.append(english[pos:])
    return "".join(out), moves


def restore_candidate(cand, edits: Sequence[Edit]):
    """A :class:`~translator_app.core.engine.translation.Candidate` of the substituted text with
    the real names written back into its text and spans."""
    text, moves = restore_text(cand.text, edits)
    if not moves:
        return cand
    spans = tuple(_map_span(s, moves) for s in cand.target_spans)
    return replace(cand, text=text, target_spans=spans)

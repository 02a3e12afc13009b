"""Emoji and other symbols kept from the model and put back in the English (issue 65 §1,
issue 86: „Das Wetter ist schön ☀️ und warm.“ came out "The weather is good at ‘Gerage
and warm.").

The model was trained on text without them and invents words for them. A sentence's
closing run (:func:`symbol_tail`) is carried to the end of the English; a run anywhere
else (:func:`symbol_runs`) is taken out of the German the model reads and written into
the English after the word that attends most to the German word before it (at the
start where none stands before it). The English's pieces and attention stay the model's:
only the text and the pieces' character spans move.

>>> bare, origins, runs = without_symbol_runs("Daumen 👍🏽 hoch")
>>> bare, runs[0].symbols
('Daumen hoch', '👍🏽')
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from translator_app.core.engine.candidates import has_words
from translator_app.core.engine.translation import Candidate

# Emoji and pictographs with what joins and modifies them (skin tones, the emoji variation
# selector, the zero-width joiner): symbols from the arrows (U+2190) up. Below them stand
# the symbols of running text, which the model reads: currency („5 €“), the degree
# („25 °C“), ©, ®, ™, №; and U+FFFD, which stands for bytes that were not text.
_SYMBOL_CATEGORIES = {"So", "Sk", "Me"}
_SYMBOL_JOINERS = {"\u200d", "\ufe0e", "\ufe0f"}
_FIRST_PICTOGRAPH = 0x2190
_NOT_PICTOGRAPHS = {"\ufffd", "\ufffc"}
_WORD_END = re.compile(r"[\w'’-]*")


def is_symbol(ch: str) -> bool:
    """Whether ``ch`` is part of an emoji or pictograph run."""
    if ch in _SYMBOL_JOINERS:
        return True
    return (
        ord(ch) >= _FIRST_PICTOGRAPH
        and ch not in _NOT_PICTOGRAPHS
        and unicodedata.category(ch) in _SYMBOL_CATEGORIES
    )


def symbol_tail(text: str) -> int:
    """Where a sentence's closing run of emoji and other symbols begins (with the spaces
    before it), or ``len(text)`` where it has none or is nothing else. The model, trained
    on text without them, wrote "I love you €2." for „Ich liebe dich ❤️“ (issue 65 §1):
    such a run is carried to the end of the English as it is, not translated."""
    cut = len(text)
    while cut > 0 and (text[cut - 1].isspace() or is_symbol(text[cut - 1])):
        cut -= 1
    if not any(is_symbol(ch) for ch in text[cut:]) or not has_words(text[:cut]):
        return len(text)
    return cut


def tail_added(english: str, tail: str) -> str:
    """``english`` with ``tail`` (the symbols its German closed with) after it."""
    return english.rstrip() + tail if tail else english


def with_tail(cand: Candidate, tail: str) -> Candidate:
    """``cand`` with the symbols its source closed with after its text (the pieces,
    their spans and the attention stay the model's)."""
    return replace(cand, text=tail_added(cand.text, tail))


@dataclass(frozen=True)
class Run:
    """A run of symbols inside a sentence: ``symbols`` as written, standing at
    [``start``, ``end``) of the user's text."""

    start: int
    end: int
    symbols: str


def without_symbol_runs(text: str) -> tuple[str, tuple[int, ...] | None, tuple[Run, ...]]:
    """``text`` (without its closing run: :func:`symbol_tail`) with each run of symbols
    inside it taken out, with the spaces before it (a run between two letters leaves one
    space); where each character of the result (and its end) stands in ``text``, or None
    where nothing was taken out; and the runs. A text of symbols alone is left as it is."""
    if not has_words(text):
        return text, None, ()
    runs, i = [], 0
    while i < len(text):
        if not is_symbol(text[i]) or text[i] in _SYMBOL_JOINERS:
            i += 1
            continue
        j = i
        while j < len(text) and is_symbol(text[j]):
            j += 1
        runs.append(Run(i, j, text[i:j]))
        i = j
    if not runs:
        return text, None, ()
    bare, origins, pos = "", [], 0
    for run in runs:
        cut = run.start
        while cut > pos and text[cut - 1].isspace():
            cut -= 1
        bare += text[pos:cut]
        origins.extend(range(pos, cut))
        pos = run.end
        if not bare:  # a run that opens the sentence: the spaces after it go too
            while pos < len(text) and text[pos].isspace():
                pos += 1
        elif not bare[-1].isspace() and pos < len(text) and not text[pos].isspace():
            bare += " "  # „schön☀️und“: the words stay apart
            origins.append(run.start)
    bare += text[pos:]
    origins.extend(range(pos, len(text) + 1))
    return bare, tuple(origins), tuple(runs)


def with_runs(
    cand: Candidate, runs: Sequence[Run], source_spans: Sequence[tuple[int, int]]
) -> Candidate:
    """``cand`` with each of ``runs`` written into its text: after the English word
    linked (by its piece's attention) to the German piece closest before the run
    (``source_spans``: the source pieces' spans in the user's text, its EOS last), or at
    the start where no English word is linked to a German one before it. The pieces'
    spans move with the text."""
    if not runs or not cand.text:
        return cand
    attention = np.asarray(cand.attention)
    rows = max(len(cand.target_spans) - 1, 0)
    if attention.ndim != 2 or attention.shape[0] < rows or attention.shape[1] < 2:
        return cand
    # each English piece's German piece, as the alignment panel links them (the EOS aside)
    aligned = [int(np.argmax(attention[r, :-1])) for r in range(rows)]
    inserts = []  # (offset in the English, text to insert)
    for run in runs:
        before = [
            (aligned[r], -r)
            for r in range(rows)
            if aligned[r] < len(source_spans) - 1 and source_spans[aligned[r]][0] < run.start
        ]
        if not before:
            inserts.append((0, run.symbols + " "))
            continue
        _, row = max(before)  # the first English of the German closest before the run
        row = -row
        end = cand.target_spans[row][1]
        end += _WORD_END.match(cand.text, end).end() - end
        inserts.append((end, " " + run.symbols))
    text, spans = cand.text, list(cand.target_spans)
    for offset, piece in sorted(inserts, key=lambda x: x[0], reverse=True):
        text = text[:offset] + piece + text[offset:]
        spans = [
            (a + len(piece) if a >= offset else a, b + len(piece) if b > offset else b)
            for a, b in spans
        ]
    return replace(cand, text=text, target_spans=tuple(spans))


def without_inserted(text: str, runs: Sequence[Run]) -> str:
    """``text`` with each of ``runs`` that :func:`with_runs` wrote into it taken out
    again (the English its pieces decode to)."""
    for run in runs:
        for written in (" " + run.symbols, run.symbols + " "):
            at = text.find(written)
            if at >= 0:
                text = text[:at] + text[at + len(written) :]
                break
    return text

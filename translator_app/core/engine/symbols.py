"""Emoji and other symbols kept from the model and put back in the English (issue 65 §1,
issue 86: „Das Wetter ist schön ☀️ und warm.“ came out "The weather is good at ‘Gerage
and warm.").

The model was trained on text without them and invents words for them. A sentence's
closing run (:func:`symbol_tail`) is carried to the end of the English; a run anywhere
else (:func:`symbol_runs`) is taken out of the German the model reads and written into
the English after the word that attends most to the German word before it (at the
start where none stands before it). The symbols are written into the English's ids too,
as the tokenizer's byte pieces (its byte fallback), each with an attention row on the
German's end (they translate no German word the model read): the English stays the
decode of its ids, and a decode given those ids as its beginning reads them as the model
wrote it (:func:`model_ids`). A tokenizer without byte fallback (an imported model's)
cannot spell them: only the text and the pieces' spans move.

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

from translator_app.core.engine.batching import frozen_array
from translator_app.core.engine.candidates import has_words, shown, text_of
from translator_app.core.engine.translation import Candidate
from translator_app.core.text.tokenizer import EOS_PIECE, PIECE_MARK, Tokenizer

# Emoji and pictographs with what joins and modifies them (skin tones, the emoji variation
# selector, the zero-width joiner): symbols from the arrows (U+2190) up. Below them stand
# the symbols of running text, which the model reads: currency („5 €“), the degree
# („25 °C“), ©, ®, ™, №; and U+FFFD, which stands for bytes that were not text.
_SYMBOL_CATEGORIES = {"So", "Sk", "Me"}
_SYMBOL_JOINERS = {"\u200d", "\ufe0e", "\ufe0f"}
_FIRST_PICTOGRAPH = 0x2190
_NOT_PICTOGRAPHS = {"\ufffd", "\ufffc"}
_WORD_END = re.compile(r"[\w'’-]*")
_BYTE_PIECE = re.compile(r"<0x([0-9A-F]{2})>")


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


def with_tail(cand: Candidate, tail: str, tokenizer: Tokenizer | None = None) -> Candidate:
    """``cand`` with the symbols its source closed with after its text, and after its
    ids before the end (``tokenizer``'s byte pieces: :func:`with_symbol_ids`); the
    model's pieces, their spans and attention stay as they were. Without a tokenizer
    that spells them, after its text only."""
    if not tail:
        return cand
    spelled = _spelled(tokenizer, tail, spaced=tail[:1].isspace())
    if spelled is not None:
        ids = cand.target_ids
        end = len(ids) - 1 if ids and ids[-1] == tokenizer.eos_id else len(ids)
        written = with_symbol_ids(tokenizer, cand, [(end, spelled)])
        if written is not None:
            return written
    return replace(cand, text=tail_added(cand.text, tail))


def _spelled(tokenizer: Tokenizer | None, symbols: str, spaced: bool) -> tuple[int, ...] | None:
    """The ids that write ``symbols`` after a word (``spaced``: with a space before
    them): the tokenizer's pieces of them, byte pieces for emoji; None where it has no
    byte fallback to spell them with."""
    if tokenizer is None or not tokenizer.has_byte_fallback() or not symbols.strip():
        return None
    enc = tokenizer.encode(symbols.strip())
    ids = enc.ids[1:] if not spaced and enc.pieces[:1] == (PIECE_MARK,) else enc.ids
    return tuple(ids) or None


def with_symbol_ids(
    tokenizer: Tokenizer, cand: Candidate, inserts: Sequence[tuple[int, tuple[int, ...]]]
) -> Candidate | None:
    """``cand`` with each (piece index, ids) of ``inserts`` written into its ids before
    that piece, each new piece given an attention row on the source's end (and a row of
    each layer so); its text, pieces and spans are those the new ids decode to. None
    where ``cand``'s text is not the decode of its ids (a step changed its text alone:
    the symbols then go in its text only)."""
    if text_of(tokenizer, cand.target_ids) != cand.text:
        return None
    ids = list(cand.target_ids)
    attention, layers = np.asarray(cand.attention), cand.layers
    if attention.ndim != 2 or attention.shape[0] != len(ids) or attention.shape[1] < 1:
        return None
    # from the last: the earlier of two at one place goes before the later
    for _, k, new in sorted(
        ((i, k, new) for i, (k, new) in enumerate(inserts)),
        key=lambda x: (x[1], x[0]),
        reverse=True,
    ):
        ids[k:k] = new
        attention = np.insert(attention, [k] * len(new), _end_row(attention.shape[1:]), axis=0)
        if layers is not None:
            layers = np.insert(layers, [k] * len(new), _end_row(layers.shape[1:]), axis=0)
    dec = tokenizer.decode(ids)
    body = len(ids) - 1 if ids[-1] == tokenizer.eos_id else len(ids)
    if len(dec.pieces) != body:
        return None
    text = shown(dec.text)
    return replace(
        cand,
        text=text,
        target_ids=tuple(ids),
        target_pieces=dec.pieces + (EOS_PIECE,),
        target_spans=dec.spans + ((len(text), len(text)),),
        attention=frozen_array(attention),
        layers=None if layers is None else frozen_array(layers),
    )


def _end_row(shape: tuple[int, ...]) -> np.ndarray:
    """An attention row (of ``shape``: [source] or [layers, heads, source]) all on the
    source's last piece, its end."""
    row = np.zeros(shape, np.float32)
    row[..., -1] = 1.0
    return row


def symbol_rows(tokenizer: Tokenizer, ids: Sequence[int]) -> frozenset[int]:
    """The positions of ``ids`` that write emoji and symbols (:func:`with_symbol_ids`):
    each run of byte pieces that spells symbols only, with the word mark before it."""
    rows: set[int] = set()
    pieces = [tokenizer.piece(i) for i in ids]
    k = 0
    while k < len(pieces):
        j = k
        raw = bytearray()
        while j < len(pieces) and (byte := _BYTE_PIECE.fullmatch(pieces[j])):
            raw.append(int(byte[1], 16))
            j += 1
        written = raw.decode("utf-8", "replace")
        if written and all(is_symbol(ch) for ch in written):
            rows.update(range(k, j))
            if k > 0 and pieces[k - 1] == PIECE_MARK:
                rows.add(k - 1)
        k = max(j, k + 1)
    return frozenset(rows)


def model_ids(tokenizer: Tokenizer, ids: Sequence[int]) -> tuple[int, ...]:
    """``ids`` (a shown English's, or a beginning of it) without the symbols
    :func:`with_symbol_ids` wrote into them: the English as the model wrote it, which a
    decode given it as its beginning goes on from (the symbols are put back after).

    >>> from translator_app.core import bundled_model_dir
    >>> tok = Tokenizer.from_file(bundled_model_dir() / "spm.model")
    >>> tok.decode(model_ids(tok, tok.encode("Great 👍 thing").ids)).text
    'Great thing'
    """
    rows = symbol_rows(tokenizer, ids)
    return tuple(i for k, i in enumerate(ids) if k not in rows)


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
    cand: Candidate,
    runs: Sequence[Run],
    source_spans: Sequence[tuple[int, int]],
    tokenizer: Tokenizer | None = None,
) -> Candidate:
    """``cand`` with each of ``runs`` written into its text (and its ids where
    ``tokenizer`` spells them: :func:`with_symbol_ids`): after the English word linked
    (by its piece's attention) to the German piece closest before the run
    (``source_spans``: the source pieces' spans in the user's text, its EOS last), or at
    the start where no English word is linked to a German one before it. The pieces'
    spans move with the text."""
    if not runs or not cand.text:
        return cand
    attention = np.asarray(cand.attention)
    rows = max(len(cand.target_spans) - 1, 0)
    if attention.ndim != 2 or attention.shape[0] < rows or attention.shape[1] < 2:
        return cand
    # each English piece's German piece, as the alignment panel links them (the EOS aside;
    # a symbol's piece looks at the end only, and links to none)
    aligned = [
        int(np.argmax(attention[r, :-1])) if attention[r, :-1].any() else -1 for r in range(rows)
    ]
    inserts = []  # (offset in the English, text to insert, piece index, symbols)
    for run in runs:
        before = [
            (aligned[r], -r)
            for r in range(rows)
            if 0 <= aligned[r] < len(source_spans) - 1 and source_spans[aligned[r]][0] < run.start
        ]
        if not before:
            inserts.append((0, run.symbols + " ", 0, run.symbols))
            continue
        _, row = max(before)  # the first English of the German closest before the run
        row = -row
        end = cand.target_spans[row][1]
        end += _WORD_END.match(cand.text, end).end() - end
        at = next((k for k in range(row + 1, rows) if cand.target_spans[k][0] >= end), rows)
        inserts.append((end, " " + run.symbols, at, run.symbols))
    spelled = [_spelled(tokenizer, symbols, spaced=True) for *_, symbols in inserts]
    if all(s is not None for s in spelled):
        at = [(x[2], ids) for x, ids in zip(inserts, spelled, strict=True)]
        written = with_symbol_ids(tokenizer, cand, at)
        if written is not None:
            return written
    text, spans = cand.text, list(cand.target_spans)
    for offset, piece, *_ in sorted(inserts, key=lambda x: x[0], reverse=True):
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

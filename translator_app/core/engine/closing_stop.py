"""A sentence that does not close with punctuation: a heading, a form's field, a list
item, a chat message, a line still being typed.

The model learnt from sentences that close with a full stop, and it translates a text
without one worse: „Geburtsdatum“ became "birth date", „Die Ernährung“ "the agency",
„Angebot für Büromöbel“ "office mandate", while each with a full stop became "Date of
birth.", "The diet.", "offer for office furniture.". So such a text is given to the
model with a full stop after its last word, and the full stop the English closes with is
taken off again: the user's text and the English both end as the user's did. On the dev
sets' lines without closing punctuation, the app's search (beam 5): register dev (22
lines) BLEU 38.5 -> 46.4, newstest2013 (134) 19.3 -> 20.6, Multi30k val (48) 35.9 ->
37.4; greedy likewise (bench/bench_closing_stop.py; docs/benchmarks.md, "A closing full
stop").

The full stop stays among the source pieces (the model read it), with an empty span at
the end of the text: it belongs to no word the user wrote (core/text/piece_words.py joins
it to the last one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from translator_app.core.engine.batching import frozen_array
from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.text.tokenizer import EOS_PIECE, Pieces, Span, Tokenizer

STOP = "."


def needs_stop(text: str) -> bool:
    """Whether ``text`` ends in a letter or digit (spaces after it aside): no closing
    punctuation, quotation mark, bracket or symbol."""
    body = text.rstrip()
    return bool(body) and body[-1].isalnum()


def with_stop(text: str) -> str:
    """``text`` as the model reads it where it :func:`needs_stop`: a full stop after its
    last character (its trailing spaces, which have no pieces, dropped)."""
    return text.rstrip() + STOP


def stop_spans(spans: Sequence[Span], text: str) -> tuple[Span, ...]:
    """``spans`` of the pieces of :func:`with_stop` (``text``), each held within the
    user's ``text``: the full stop's piece gets the empty span after the last character."""
    end = len(text.rstrip())
    return tuple((min(a, end), min(b, end)) for a, b in spans)


def encode_with_stop(encode: Callable[[str], Pieces], text: str) -> Pieces:
    """The pieces of ``text`` with a full stop after it, spans in ``text``."""
    enc = encode(with_stop(text))
    return Pieces(text, enc.ids, enc.pieces, stop_spans(enc.spans, text))


def without_stop(tokenizer: Tokenizer, cand: Candidate) -> Candidate:
    """``cand`` without the full stop it closes with (its piece, the piece's span and
    attention rows); unchanged where its last piece is no full stop of its own ("?",
    "etc.", nothing)."""
    ids = cand.target_ids
    if (
        len(ids) < 2
        or ids[-1] != tokenizer.eos_id  # cut at the length limit: no sentence end
        or tokenizer.piece(ids[-2]) != STOP
        or len(cand.target_pieces) != len(ids)
    ):
        return cand
    row = len(ids) - 2  # the full stop's, in the pieces and the attention
    text = cand.text[: cand.target_spans[row][0]].rstrip()
    end = len(text)
    layers = None if cand.layers is None else frozen_array(np.delete(cand.layers, row, axis=0))
    return replace(
        cand,
        text=text,
        target_ids=ids[:row] + ids[row + 1 :],
        target_pieces=cand.target_pieces[:row] + (EOS_PIECE,),
        target_spans=cand.target_spans[:row] + ((end, end),),
        attention=frozen_array(np.delete(np.asarray(cand.attention), row, axis=0)),
        layers=layers,
    )


def stop_added(translation: Translation) -> bool:
    """Whether the model read ``translation``'s source with a full stop that the user
    did not write (its piece before the end, with an empty span: a full stop of the
    user's spans its character)."""
    pieces, spans = translation.source_pieces, translation.source_spans
    return len(pieces) >= 2 and pieces[-2] == STOP and spans[-2][0] == spans[-2][1]


def as_read(translation: Translation) -> tuple[tuple[int, ...], int | None]:
    """The target ids of ``translation``'s best candidate as the model wrote them, for a
    pass that reads them again (the panel's layers, the dropped-words check): the full
    stop put back before the end where the source was read with one and the English
    closes with a word; and the row the full stop takes (None where none was put back)."""
    ids = translation.best.target_ids
    if not stop_added(translation) or not ids or not needs_stop(translation.best.text):
        return ids, None
    row = len(ids) - 1
    return ids[:row] + (translation.source_ids[-2],) + ids[row:], row

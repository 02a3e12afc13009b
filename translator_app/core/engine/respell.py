"""One word of a candidate's English written otherwise, its pieces and attention kept in
step with the text (core/postedit/first_capital.py gives a first word its capital,
core/postedit/term_articles.py an article the sound of the term after it).

The word's pieces are encoded anew and each takes the mean of the attention rows (and
layers) of the pieces it replaces, so that each row still sums to one and the
alignment, the panel's layers and the passes that read the ids again see the text the
user sees.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from translator_app.core.engine.batching import frozen_array
from translator_app.core.engine.candidates import shown
from translator_app.core.engine.translation import Candidate
from translator_app.core.text.tokenizer import PIECE_MARK, Tokenizer


def respelled(tokenizer: Tokenizer, cand: Candidate, begin: int, end: int, word: str) -> Candidate:
    """``cand`` with its text's word at ``begin``..``end`` written as ``word``; unchanged
    where that word is not whole pieces that begin with a piece of its own, or the new
    pieces would not spell the text."""
    rows = [k for k, (a, b) in enumerate(cand.target_spans[:-1]) if a < end and b > begin]
    if not rows or rows != list(range(rows[0], rows[-1] + 1)):
        return cand
    first, last = rows[0], rows[-1]
    # a piece that begins a word holds the space before it in its span
    spaced = cand.text[cand.target_spans[first][0] : begin]
    if not cand.target_pieces[first].startswith(PIECE_MARK) or spaced.strip():
        return cand
    # the pieces may hold more than the word ("name." as one piece): encoded with it
    stop = max(end, cand.target_spans[last][1])
    region = word + cand.text[end:stop]
    new_ids = tuple(tokenizer.encode_ids([region], side="target")[0])  # "▁" + the region
    ids = cand.target_ids[:first] + new_ids + cand.target_ids[last + 1 :]
    text = cand.text[:begin] + region + cand.text[stop:]
    dec = tokenizer.decode(ids)
    n_new = len(new_ids)
    if (
        shown(dec.text) != text
        or len(dec.pieces) != len(cand.target_pieces) - 1 - (last - first + 1) + n_new
    ):
        return cand
    return replace(
        cand,
        text=text,
        target_ids=ids,
        target_pieces=dec.pieces + cand.target_pieces[-1:],
        target_spans=dec.spans + ((len(text), len(text)),),  # the end's
        attention=_rows_merged(cand.attention, first, last, n_new),
        layers=None if cand.layers is None else _rows_merged(cand.layers, first, last, n_new),
    )


def _rows_merged(matrix: np.ndarray, first: int, last: int, copies: int) -> np.ndarray:
    """``matrix`` with rows ``first``..``last`` replaced by ``copies`` copies of their
    mean (along the first axis)."""
    matrix = np.asarray(matrix)
    mean = matrix[first : last + 1].mean(axis=0, keepdims=True)
    out = np.concatenate(
        [matrix[:first], np.repeat(mean, copies, axis=0), matrix[last + 1 :]], axis=0
    )
    return frozen_array(out.astype(matrix.dtype, copy=False))

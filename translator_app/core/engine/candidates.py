"""Candidates from hypotheses: the text a hypothesis decodes to, with its pieces, their
spans, its attention (read-only NumPy arrays), and one candidate joined from the
translations of an over-long sentence's parts.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

import numpy as np

from translator_app.core.engine.batching import frozen_array
from translator_app.core.engine.search_types import Hypothesis
from translator_app.core.engine.translation import Candidate
from translator_app.core.text.tokenizer import EOS_PIECE, Tokenizer

# A sentence's translation is one line: byte-fallback output of line breaks or control
# characters becomes spaces (one for one, so piece spans stay valid).
_OUTPUT_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def text_of(tokenizer: Tokenizer, ids: Sequence[int]) -> str:
    """The text that target ``ids`` decode to, as a candidate shows it."""
    return shown(tokenizer.decode(ids).text)


def shown(decoded: str) -> str:
    """A decoded text as a candidate shows it (control characters as spaces)."""
    return _OUTPUT_CONTROL.sub(" ", decoded)


def candidate(tokenizer: Tokenizer, h: Hypothesis) -> Candidate:
    """The candidate a hypothesis decodes to (text, pieces, spans, attention)."""
    dec = tokenizer.decode(h.tokens)
    pieces, spans = dec.pieces, dec.spans
    body = h.tokens[:-1] if h.tokens and h.tokens[-1] == tokenizer.eos_id else h.tokens
    if len(pieces) != len(body):  # defensive: keep one piece per attention row
        pieces = tuple(tokenizer.piece(t) for t in body)
        spans = tuple((0, 0) for _ in body)
    end = len(dec.text)
    return Candidate(
        text=shown(dec.text),
        target_ids=tuple(h.tokens),
        target_pieces=pieces + (EOS_PIECE,),
        target_spans=spans + ((end, end),),
        attention=frozen_array(h.attention),
        score=h.score,
        logprob=h.logprob,
        layers=frozen_array(h.layers),
    )


def merge_chunks(tokenizer: Tokenizer, hyps: list[Hypothesis], src_len: int) -> Candidate:
    """Join the translations of an over-long sentence's pieces into one candidate;
    the attention is block-diagonal, each piece's EOS column folded into the final
    EOS so rows still sum to one."""
    eos = tokenizer.eos_id
    tokens: list[int] = []
    rows = []
    col = 0
    for k, h in enumerate(hyps):
        last = k == len(hyps) - 1
        toks = list(h.tokens) if last else [t for t in h.tokens if t != eos]
        attn = frozen_array(h.attention)[: len(toks)]  # a tensor or an array
        block = np.zeros((len(toks), src_len), dtype=np.float32)
        n_src = attn.shape[1] - 1  # this chunk's tokens without its EOS
        block[:, col : col + n_src] = attn[:, :n_src]
        block[:, src_len - 1] += attn[:, n_src]
        rows.append(block)
        tokens.extend(toks)
        col += n_src
    merged = Hypothesis(
        tokens=tuple(tokens),
        logprob=sum(h.logprob for h in hyps),
        score=sum(h.score for h in hyps),
        attention=np.concatenate(rows, 0),
    )
    return candidate(tokenizer, merged)


def has_words(text: str) -> bool:
    """Whether ``text`` holds a letter or digit: something to translate. A line of emoji,
    arrows or dashes has none, and the model, trained on sentences, invents words for it
    („😀“ became "accommodation")."""
    return any(ch.isalnum() for ch in text)


def in_another_script(text: str) -> bool:
    """Whether most letters of ``text`` are of a script other than the Latin one (Hebrew,
    Arabic, Cyrillic, Greek, Chinese…): not German, and the model, trained on German,
    invents English for it („שלום, מה שלומך?“ became "— myself. . .g."); a German
    sentence with a π in it is German."""
    letters = [ch for ch in text if ch.isalpha()]
    other = sum(not unicodedata.name(ch, "LATIN").startswith("LATIN") for ch in letters)
    return 2 * other > len(letters)


def verbatim(
    tokenizer: Tokenizer, text: str, source_spans: Sequence[tuple[int, int]]
) -> Candidate | None:
    """``text`` (no words in it: see :func:`has_words`) as its own translation, each
    target piece attending to the source pieces under the same characters (the EOS to
    the EOS); None where the target side cannot spell it exactly."""
    stripped = text.strip()
    ids = tokenizer.encode_ids([stripped], side="target")[0] + [tokenizer.eos_id]
    dec = tokenizer.decode(ids)
    if not stripped or dec.text != stripped or len(dec.pieces) != len(ids) - 1:
        return None
    offset = len(text) - len(text.lstrip())
    n_src = len(source_spans)  # the last is the source EOS
    attention = np.zeros((len(ids), n_src), dtype=np.float32)
    for row, (a, b) in enumerate(dec.spans):
        a, b = a + offset, max(b, a + 1) + offset
        cols = [c for c, (s, e) in enumerate(source_spans[:-1]) if s < b and a < max(e, s + 1)]
        attention[row, cols or list(range(max(n_src - 1, 1)))] = 1.0
    attention[-1, n_src - 1] = 1.0
    attention /= attention.sum(axis=1, keepdims=True)
    end = len(dec.text)
    return Candidate(
        text=dec.text,
        target_ids=tuple(ids),
        target_pieces=dec.pieces + (EOS_PIECE,),
        target_spans=dec.spans + ((end, end),),
        attention=frozen_array(attention),
        score=0.0,
        logprob=0.0,
    )

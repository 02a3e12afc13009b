"""From pairs of text to batches of token ids (the filters are in core/data/corpus.py).

Batches hold up to
``batch_tokens`` tokens (padding included) of sentences of similar length, so that little
compute is spent on padding; the batch order is a pure function of (seed, epoch), which is
what makes an interrupted and resumed run identical to an uninterrupted one.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass

import torch

from translator_app.core.data.corpus import Pair
from translator_app.core.engine.batching import length_batches, pad_rows


@dataclass
class Encoded:
    """Token ids of a parallel corpus; targets end with EOS, sources too. Each row is an
    ``array("i")`` (4 bytes an id; a list of ints took about 36, and a million pairs
    ran out of memory while being encoded), shared between equal texts: never changed."""

    src: list[Sequence[int]]
    tgt: list[Sequence[int]]

    def __len__(self) -> int:
        return len(self.src)


_ENCODE_AT_ONCE = 20_000  # texts encoded in one call (SentencePiece's threads)


def _encode_once(tokenizer, texts: list[str], side: str, eos: int) -> list[array]:
    """Each distinct text encoded once, with EOS, as one compact row (``[data] repeat``
    makes most of a mix copies): equal texts share it."""
    distinct = list(dict.fromkeys(texts))
    rows = {}
    for start in range(0, len(distinct), _ENCODE_AT_ONCE):  # lists of ints: a part at once
        part = distinct[start : start + _ENCODE_AT_ONCE]
        encoded = tokenizer.encode_ids(part, side=side)
        rows.update((t, array("i", [*ids, eos])) for t, ids in zip(part, encoded, strict=True))
    return [rows[t] for t in texts]


def encode_pairs(pairs: Sequence[Pair], tokenizer, max_tokens: int) -> tuple[Encoded, int]:
    """Encode both sides (batch encoding in SentencePiece's C++ threads); pairs with a
    side longer than ``max_tokens`` (EOS included) are dropped. Returns the data and the
    number dropped."""
    eos = tokenizer.eos_id
    src_ids = _encode_once(tokenizer, [de for de, _ in pairs], "source", eos)
    tgt_ids = _encode_once(tokenizer, [en for _, en in pairs], "target", eos)
    src, tgt, dropped = [], [], 0
    for s, t in zip(src_ids, tgt_ids, strict=True):
        if len(s) > max_tokens or len(t) > max_tokens:
            dropped += 1
            continue
        src.append(s)
        tgt.append(t)
    return Encoded(src, tgt), dropped


def make_batches(data: Encoded, batch_tokens: int) -> list[list[int]]:
    """Indices grouped into batches of similar length holding at most ``batch_tokens``
    padded tokens on the larger side. Deterministic (no randomness here)."""
    order = sorted(range(len(data)), key=lambda i: (len(data.src[i]), len(data.tgt[i]), i))
    widths = [max(len(s), len(t)) for s, t in zip(data.src, data.tgt, strict=True)]
    return length_batches(widths, batch_tokens, order=order)


def padding_fraction(data: Encoded, batches: list[list[int]]) -> float:
    """The share of padding in the batches' token slots, both sides (BOS/EOS counted as
    tokens): compute spent on nothing."""
    slots = real = 0
    for idx in batches:
        for side in (data.src, data.tgt):
            lengths = [len(side[i]) for i in idx]
            slots += max(lengths) * len(lengths)
            real += sum(lengths)
    return 1 - real / slots if slots else 0.0


def epoch_order(n_batches: int, seed: int, epoch: int) -> list[int]:
    """The batch order of one epoch: a pure function of (seed, epoch)."""
    g = torch.Generator().manual_seed(seed * 100_003 + epoch)
    return torch.randperm(n_batches, generator=g).tolist()


def collate(data: Encoded, indices: Sequence[int], pad: int, bos: int):
    """Tensors for one batch: src [B, S], tgt_in [B, T] (BOS + target), tgt_out [B, T]."""
    src, _ = pad_rows([data.src[i] for i in indices], pad)
    tgt_out, real = pad_rows([data.tgt[i] for i in indices], pad)
    tgt_in = torch.full_like(tgt_out, pad)
    tgt_in[:, 0] = bos
    tgt_in[:, 1:] = tgt_out[:, :-1]
    tgt_in[~real] = pad  # each row's last token (EOS) is no decoder input
    return src, tgt_in, tgt_out

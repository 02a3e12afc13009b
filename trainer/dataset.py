"""From pairs of text to batches of token ids.

Filters (each with a count printed): empty sides, length limits, length ratio, exact
duplicates, and pairs whose German side is in a test set. Batches hold up to
``batch_tokens`` tokens (padding included) of sentences of similar length, so that little
compute is spent on padding; the batch order is a pure function of (seed, epoch), which is
what makes an interrupted and resumed run identical to an uninterrupted one.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import torch

from trainer.data import Pair, read_all


def normalise(text: str) -> str:
    """The "normalised match" used to find test sentences: NFKC, case- and
    whitespace-insensitive."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


@dataclass
class FilterReport:
    read: int = 0
    kept: int = 0
    dropped: Counter = field(default_factory=Counter)

    def lines(self) -> list[str]:
        out = [f"read {self.read} pairs, kept {self.kept}"]
        out += [f"  dropped {n:>8}  {why}" for why, n in self.dropped.most_common()]
        return out


def test_sentences(paths: Sequence[Path]) -> set[str]:
    """Normalised German sides of the pairs in test files."""
    found: set[str] = set()
    for p in paths:
        for de, _ in read_all([p]):
            found.add(normalise(de))
    return found


def filter_pairs(
    pairs: Iterable[Pair],
    *,
    max_chars: int = 1000,
    max_ratio: float = 3.0,
    exclude: set[str] | None = None,
    report: FilterReport | None = None,
) -> list[Pair]:
    """Keep the usable pairs. ``exclude``: normalised German sentences (test sets)."""
    report = report if report is not None else FilterReport()
    seen: set[Pair] = set()
    kept: list[Pair] = []
    for de, en in pairs:
        report.read += 1
        de, en = de.strip(), en.strip()
        if not de or not en:
            report.dropped["empty side"] += 1
        elif len(de) > max_chars or len(en) > max_chars:
            report.dropped[f"longer than {max_chars} characters"] += 1
        elif max(len(de), len(en)) > max_ratio * min(len(de), len(en)) + 10:
            report.dropped[f"length ratio above {max_ratio}"] += 1
        elif exclude and normalise(de) in exclude:
            report.dropped["German side in a test set"] += 1
        elif (de, en) in seen:
            report.dropped["exact duplicate"] += 1
        else:
            seen.add((de, en))
            kept.append((de, en))
    report.kept = len(kept)
    return kept


def split_heldout(pairs: list[Pair], size: int, seed: int) -> tuple[list[Pair], list[Pair]]:
    """A reproducible held-out split: (train, held-out)."""
    size = max(0, min(size, len(pairs) // 5 if len(pairs) >= 5 else 0))
    g = torch.Generator().manual_seed(seed)
    order = torch.randperm(len(pairs), generator=g).tolist()
    held = sorted(order[:size])
    held_set = set(held)
    return [p for i, p in enumerate(pairs) if i not in held_set], [pairs[i] for i in held]


@dataclass
class Encoded:
    """Token ids of a parallel corpus; targets end with EOS, sources too."""

    src: list[list[int]]
    tgt: list[list[int]]

    def __len__(self) -> int:
        return len(self.src)


def encode_pairs(pairs: Sequence[Pair], tokenizer, max_tokens: int) -> tuple[Encoded, int]:
    """Encode both sides (batch encoding in SentencePiece's C++ threads); pairs with a
    side longer than ``max_tokens`` are dropped. Returns the data and the number dropped."""
    eos = tokenizer.eos_id
    src_ids = tokenizer.encode_ids([de for de, _ in pairs])
    tgt_ids = tokenizer.encode_ids([en for _, en in pairs], side="target")
    src, tgt, dropped = [], [], 0
    for s, t in zip(src_ids, tgt_ids, strict=True):
        if len(s) + 1 > max_tokens or len(t) + 1 > max_tokens:
            dropped += 1
            continue
        src.append(s + [eos])
        tgt.append(t + [eos])
    return Encoded(src, tgt), dropped


def make_batches(data: Encoded, batch_tokens: int) -> list[list[int]]:
    """Indices grouped into batches of similar length holding at most ``batch_tokens``
    padded tokens on the larger side. Deterministic (no randomness here)."""
    order = sorted(range(len(data)), key=lambda i: (len(data.src[i]), len(data.tgt[i]), i))
    batches, current, width = [], [], 0
    for i in order:
        w = max(width, len(data.src[i]), len(data.tgt[i]))
        if current and w * (len(current) + 1) > batch_tokens:
            batches.append(current)
            current, w = [], max(len(data.src[i]), len(data.tgt[i]))
        current.append(i)
        width = w
    if current:
        batches.append(current)
    return batches


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
    b = len(indices)
    s = max(len(data.src[i]) for i in indices)
    t = max(len(data.tgt[i]) for i in indices)
    src = torch.full((b, s), pad, dtype=torch.long)
    tgt_in = torch.full((b, t), pad, dtype=torch.long)
    tgt_out = torch.full((b, t), pad, dtype=torch.long)
    for r, i in enumerate(indices):
        src[r, : len(data.src[i])] = torch.tensor(data.src[i])
        y = data.tgt[i]
        tgt_in[r, 0] = bos
        tgt_in[r, 1 : len(y)] = torch.tensor(y[:-1])
        tgt_out[r, : len(y)] = torch.tensor(y)
    return src, tgt_in, tgt_out

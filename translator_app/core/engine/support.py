"""How much does an English translation need each German word? (issue 48, section 3)

:func:`word_supports` leaves each given word out of the source in turn and scores the
same English under every variant, in one teacher-forced pass of the PyTorch model over
a batch of the sentence and its variants. A word's support is how many nats of
log-probability the English loses without it: high where the English carries the word,
near zero where it does not (core/faithful/dropped.py decides).
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from translator_app.core.engine.batching import pad_rows
from translator_app.core.faithful.dropped import SourceWord, content_words, not_carried
from translator_app.core.text.tokenizer import Span


def word_supports(
    model: torch.nn.Module,
    source_ids: Sequence[int],
    target_ids: Sequence[int],
    words: Sequence[Sequence[int]],
) -> list[float]:
    """For each entry of ``words`` (source piece indices), the log-probability the
    target loses when those pieces are left out of the source.

    source_ids and target_ids end with EOS; the pass is one batch of len(words) + 1
    rows: [B, S] sources against the same [T] target.
    """
    if not words or not target_ids:
        return []
    cfg = model.config
    device = next(model.parameters()).device
    dropped = [set(w) for w in words]
    variants = [list(source_ids)] + [
        [t for i, t in enumerate(source_ids) if i not in gone] for gone in dropped
    ]
    src, mask = pad_rows(variants, cfg.pad_id)
    gold = torch.tensor(list(target_ids), dtype=torch.long)
    tgt = torch.tensor([cfg.start_id, *target_ids[:-1]], dtype=torch.long)
    tgt = tgt.unsqueeze(0).expand(len(variants), -1)
    with torch.inference_mode():
        logits, _ = model(src.to(device), mask.to(device), tgt.to(device))
        logprobs = logits.float().log_softmax(-1).cpu()  # [B, T, V]
    per_row = logprobs.gather(-1, gold.expand(len(variants), -1).unsqueeze(-1)).sum((1, 2))
    return [float(per_row[0] - per_row[k]) for k in range(1, len(variants))]


def content_supports(
    model: torch.nn.Module,
    source: str,
    source_ids: Sequence[int],
    source_spans: Sequence[Span],
    target_ids: Sequence[int],
) -> list[tuple[SourceWord, float]]:
    """Each content word of ``source`` with its support. (Leaving neighbouring words
    out together as well found no more dropped words on bench/bench_dropped.py's set
    and marked more kept ones.)"""
    words = content_words(source, source_spans)
    supports = word_supports(model, source_ids, target_ids, [w.pieces for w in words])
    return list(zip(words, supports, strict=True))


def words_not_carried(
    model: torch.nn.Module,
    source: str,
    source_ids: Sequence[int],
    source_spans: Sequence[Span],
    target_ids: Sequence[int],
) -> list[SourceWord]:
    """The content words of ``source`` that the target does not seem to carry."""
    scored = content_supports(model, source, source_ids, source_spans, target_ids)
    return not_carried([w for w, _ in scored], [s for _, s in scored])

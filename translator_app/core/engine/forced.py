"""Teacher-forced passes of the PyTorch model: what it attends to while reading a given
English (the alignment panel's every layer and head), which pieces it finds likeliest
after a given beginning (the word menu, where CTranslate2 is not used), and how much
likelihood a given English loses when source words are left out (the check for dropped
content, core/engine/support.py).

Shapes: ``B`` sentences, ``T`` target pieces, ``S`` source pieces, ``L`` layers, ``H``
heads.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from translator_app.core.engine.batching import pad_rows


def _device(model: torch.nn.Module) -> torch.device:
    return next(model.parameters()).device


def attention_layers(
    model: torch.nn.Module,
    sources: Sequence[Sequence[int]],
    targets: Sequence[Sequence[int]],
) -> list[torch.Tensor]:
    """[T, L, H, S] cross-attention of each target (ids ending with EOS) read with its
    source (ids ending with EOS), from one pass over the batch."""
    cfg, device = model.config, _device(model)
    src, mask = pad_rows([list(s) for s in sources], cfg.pad_id)
    tgt, _ = pad_rows([[cfg.start_id, *t[:-1]] for t in targets], cfg.pad_id)
    with torch.inference_mode():
        layers = (
            model.attention_layers(src.to(device), mask.to(device), tgt.to(device)).float().cpu()
        )
    return [
        layers[k, : len(t), :, :, : len(s)]
        for k, (s, t) in enumerate(zip(sources, targets, strict=True))
    ]


def likeliest_next(
    model: torch.nn.Module, src: list[int], prefix: tuple[int, ...], k: int, min_prob: float
) -> list[int]:
    """The ``k`` likeliest target ids after ``prefix``, each at least ``min_prob``;
    never padding, BOS, UNK or EOS."""
    cfg, device = model.config, _device(model)
    src_t, mask = pad_rows([src], cfg.pad_id)
    tgt = torch.tensor([[cfg.start_id, *prefix]], dtype=torch.long)
    with torch.inference_mode():
        logits, _ = model(src_t.to(device), mask.to(device), tgt.to(device))
    last = logits[0, -1].float().cpu().clone()
    # masked before the softmax, as CTranslate2 does, so both engines offer the same
    last[[i for i in (cfg.pad_id, cfg.bos_id, cfg.unk_id) if i != cfg.eos_id]] = -torch.inf
    probs = last.softmax(-1)
    probs[cfg.eos_id] = 0.0  # ending the sentence is no alternative (nor in CTranslate2)
    top = probs.topk(min(k, probs.numel()))
    return [int(i) for p, i in zip(top.values, top.indices, strict=True) if p >= min_prob]


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
    cfg, device = model.config, _device(model)
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

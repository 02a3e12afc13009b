"""One training step's pieces, shared by the trainer (trainer/train.py: Run.step) and
bench/bench_train_step.py, which times them apart: the token loss, a batch's forward
pass and loss, and the optimiser's step."""

from __future__ import annotations

import torch
import torch.nn.functional as F


def token_loss(
    logits: torch.Tensor, tgt_out: torch.Tensor, pad: int, label_smoothing: float = 0.0
) -> torch.Tensor:
    """Summed cross-entropy over the non-padding target tokens, in fp32 whatever the
    autocast. logits [B, T, V], tgt_out [B, T]."""
    return F.cross_entropy(
        logits.float().flatten(0, 1),
        tgt_out.flatten(),
        ignore_index=pad,
        label_smoothing=label_smoothing,
        reduction="sum",
    )


def batch_loss(
    net,
    src: torch.Tensor,
    tgt_in: torch.Tensor,
    tgt_out: torch.Tensor,
    pad: int,
    label_smoothing: float,
    autocast,
) -> tuple[torch.Tensor, int]:
    """A batch's forward pass: its mean token loss (label-smoothed, per target token) and
    its number of target tokens. src [B, S], tgt_in and tgt_out [B, T]."""
    with autocast:
        logits, _ = net(src, src != pad, tgt_in)
    n_tokens = int((tgt_out != pad).sum())
    return token_loss(logits, tgt_out, pad, label_smoothing) / max(1, n_tokens), n_tokens


def optimiser_step(model: torch.nn.Module, optimizer, clip_norm: float) -> None:
    """The step after ``backward()``: gradients clipped to ``clip_norm``, applied, cleared."""
    torch.nn.utils.clip_grad_norm_(model.parameters(), clip_norm)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)

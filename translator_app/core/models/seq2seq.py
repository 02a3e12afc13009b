"""The interface every encoder-decoder implements, so that search and training need not
know which architecture they drive.

Decoding state is a flat ``dict`` of batch-first tensors (plus plain ints such as the
step counter). Beam search reorders or expands it with :func:`select_state`, one
``index_select`` per tensor, whatever the architecture keeps in it (RNN hidden states,
Transformer key/value caches, the encoder memory).
"""

from __future__ import annotations

from typing import NamedTuple

import torch
from torch import nn

from translator_app.core.models.config import ModelConfig

State = dict[str, "torch.Tensor | int"]


class StepOutput(NamedTuple):
    """One decoding step for a batch of prefixes.

    logits: [B, V]; attention: [B, S] (the alignment distribution);
    layers: [B, L, H, S] cross-attention of every layer and head, only when asked for.
    """

    logits: torch.Tensor
    attention: torch.Tensor
    layers: torch.Tensor | None
    state: State


def select_state(state: State, index: torch.Tensor) -> State:
    """Rows ``index`` of every tensor in ``state`` (beam reordering and expansion)."""
    return {k: v.index_select(0, index) if torch.is_tensor(v) else v for k, v in state.items()}


class EncoderDecoder(nn.Module):
    """Base class of the RNN and Transformer models."""

    config: ModelConfig

    def start(self, src: torch.Tensor, src_mask: torch.Tensor) -> State:
        """Encode the source and return the initial decoding state.

        src: [B, S] token ids; src_mask: [B, S] bool, True for real tokens.
        """
        raise NotImplementedError

    def step(self, state: State, prev_tokens: torch.Tensor, all_layers: bool = False) -> StepOutput:
        """Advance every prefix by one token. prev_tokens: [B] (BOS at the first step)."""
        raise NotImplementedError

    def forward(
        self, src: torch.Tensor, src_mask: torch.Tensor, tgt_in: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Teacher-forced pass for training and scoring.

        tgt_in: [B, T] (BOS followed by the target without its EOS).
        Returns logits [B, T, V] and alignment attention [B, T, S].
        """
        raise NotImplementedError

    @property
    def num_parameters(self) -> int:
        seen: set[int] = set()
        total = 0
        for p in self.parameters():
            if id(p) not in seen:
                seen.add(id(p))
                total += p.numel()
        return total

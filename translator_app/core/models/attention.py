"""Attention scorers for the RNN encoder-decoder.

Every scorer maps a decoder query and the encoder states to a distribution over source
positions and returns ``(context, weights)``. Nothing sentence-specific is kept on the
module: work that depends only on the keys (the key projection of the additive scorer,
say) is returned by :meth:`AttentionScorer.prepare_keys` and handed back by the caller,
which keeps it in its decoding state so that beam search can reorder it.

Shapes: ``B`` batch, ``T`` query steps, ``S`` source positions.
"""

from __future__ import annotations

import math

import torch
from torch import nn


def masked_softmax(scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Softmax over the last axis where ``mask`` is True; masked positions get exactly 0.

    scores: [B, T, S]; mask: [B, S] (True = a real source token).
    """
    valid = mask.unsqueeze(1)
    scores = scores.float().masked_fill(~valid, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    # A row with no valid key would be NaN; it cannot happen for real input (every source
    # ends with EOS) but padding rows of a batch must not poison the others.
    return torch.where(valid, weights, torch.zeros_like(weights))


class AttentionScorer(nn.Module):
    """Base class: subclasses define :meth:`score` (and optionally :meth:`prepare_keys`)."""

    def prepare_keys(self, keys: torch.Tensor) -> torch.Tensor:
        """Key-only computation, done once per sentence. keys: [B, S, Dk]."""
        return keys

    def score(self, query: torch.Tensor, prepared_keys: torch.Tensor) -> torch.Tensor:
        """Unnormalised scores. query: [B, T, Dq] -> [B, T, S]."""
        raise NotImplementedError

    def forward(
        self,
        query: torch.Tensor,
        keys: torch.Tensor,
        mask: torch.Tensor,
        prepared_keys: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Attend from ``query`` over ``keys`` (which are also the values).

        query: [B, Dq] or [B, T, Dq]; keys: [B, S, Dk]; mask: [B, S].
        Returns context [B, (T,) Dk] and weights [B, (T,) S], rows summing to 1.
        """
        single = query.dim() == 2
        if single:
            query = query.unsqueeze(1)
        if prepared_keys is None:
            prepared_keys = self.prepare_keys(keys)
        weights = masked_softmax(self.score(query, prepared_keys), mask)
        context = torch.bmm(weights.to(keys.dtype), keys)
        if single:
            return context.squeeze(1), weights.squeeze(1)
        return context, weights


class AdditiveScorer(AttentionScorer):
    """Bahdanau et al. (2015): ``v^T tanh(W q + U k)``."""

    def __init__(self, query_dim: int, key_dim: int, attn_dim: int) -> None:
        super().__init__()
        self.query_proj = nn.Linear(query_dim, attn_dim, bias=False)
        self.key_proj = nn.Linear(key_dim, attn_dim, bias=True)
        self.v = nn.Linear(attn_dim, 1, bias=False)

    def prepare_keys(self, keys: torch.Tensor) -> torch.Tensor:
        return self.key_proj(keys)  # [B, S, A]

    def score(self, query: torch.Tensor, prepared_keys: torch.Tensor) -> torch.Tensor:
        q = self.query_proj(query).unsqueeze(2)  # [B, T, 1, A]
        return self.v(torch.tanh(q + prepared_keys.unsqueeze(1))).squeeze(-1)


class DotScorer(AttentionScorer):
    """Luong et al. (2015) "dot": ``q . k`` (query and key sizes must match)."""

    def score(self, query: torch.Tensor, prepared_keys: torch.Tensor) -> torch.Tensor:
        return torch.bmm(query, prepared_keys.transpose(1, 2))


class ScaledDotScorer(AttentionScorer):
    """Vaswani et al. (2017): ``q . k / sqrt(d)``, keeping softmax out of saturation."""

    def score(self, query: torch.Tensor, prepared_keys: torch.Tensor) -> torch.Tensor:
        return torch.bmm(query, prepared_keys.transpose(1, 2)) / math.sqrt(query.size(-1))


class GeneralScorer(AttentionScorer):
    """Luong "general" (bilinear): ``q^T W k``, computed as ``(W^T q) . k``."""

    def __init__(self, query_dim: int, key_dim: int) -> None:
        super().__init__()
        self.bilinear = nn.Linear(query_dim, key_dim, bias=False)

    def score(self, query: torch.Tensor, prepared_keys: torch.Tensor) -> torch.Tensor:
        return torch.bmm(self.bilinear(query), prepared_keys.transpose(1, 2))


class ConcatScorer(AttentionScorer):
    """Luong "concat": ``v^T tanh(W [q; k])`` on the literal concatenation."""

    def __init__(self, query_dim: int, key_dim: int, attn_dim: int) -> None:
        super().__init__()
        self.proj = nn.Linear(query_dim + key_dim, attn_dim)
        self.v = nn.Linear(attn_dim, 1, bias=False)

    def score(self, query: torch.Tensor, prepared_keys: torch.Tensor) -> torch.Tensor:
        b, t, _ = query.shape
        s = prepared_keys.size(1)
        pairs = torch.cat(
            [
                query.unsqueeze(2).expand(b, t, s, -1),
                prepared_keys.unsqueeze(1).expand(b, t, s, -1),
            ],
            dim=-1,
        )
        return self.v(torch.tanh(self.proj(pairs))).squeeze(-1)


def build_scorer(kind: str, query_dim: int, key_dim: int, attn_dim: int) -> AttentionScorer:
    if kind == "additive":
        return AdditiveScorer(query_dim, key_dim, attn_dim)
    if kind == "dot":
        return DotScorer()
    if kind == "scaled_dot":
        return ScaledDotScorer()
    if kind == "general":
        return GeneralScorer(query_dim, key_dim)
    if kind == "concat":
        return ConcatScorer(query_dim, key_dim, attn_dim)
    raise ValueError(f"unknown attention scorer {kind!r}")

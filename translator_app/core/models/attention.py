"""Attention scorers for the RNN encoder-decoder, global or local.

Every scorer maps a decoder query and the encoder states to a distribution over source
positions and returns ``(context, weights)``. Nothing sentence-specific is kept on the
module: work that depends only on the keys (the key projection of the additive scorer,
say) is returned by :meth:`AttentionScorer.prepare_keys` and handed back by the caller,
which keeps it in its decoding state so that beam search can reorder it.

A scorer may carry a :class:`LocalWindow` (Luong et al. 2015, section 3.2): the
distribution is then restricted to positions around a centre, the decoder's step
(local-m) or a position the decoder predicts (local-p, weighted by a Gaussian).

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


class LocalWindow(nn.Module):
    """Local attention's window (Luong et al. 2015): only the source positions ``s``
    with ``|s - p_t| <= D`` around a centre ``p_t`` may be attended to.

    local-m: ``p_t = t``, the target step (monotonic alignment), at most the last real
    source position. local-p: ``p_t = S * sigmoid(v_p^T tanh(W_p h_t))`` with ``S`` the
    sentence's source length, and the weights are multiplied by
    ``exp(-(s - p_t)^2 / (2 sigma^2))`` with ``sigma = D / 2``. Unlike the paper, the
    weights are then renormalised to sum to one, as every attention of this project does
    (the alignment panel and the coverage checks read rows as distributions).
    """

    def __init__(self, kind: str, query_dim: int, attn_dim: int, window: int) -> None:
        super().__init__()
        if kind not in ("local-m", "local-p"):
            raise ValueError(f"unknown local attention {kind!r}")
        self.kind, self.window = kind, window
        if kind == "local-p":
            self.w_p = nn.Linear(query_dim, attn_dim, bias=False)
            self.v_p = nn.Linear(attn_dim, 1, bias=False)

    def centre(self, query: torch.Tensor, step: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """p_t: [B, T] from query [B, T, Dq], step [B] (the first query's target
        position) and mask [B, S]."""
        length = mask.sum(-1, keepdim=True).float()  # [B, 1]
        if self.kind == "local-m":
            t = step.float().unsqueeze(1) + torch.arange(query.size(1), device=query.device)
            return torch.minimum(t, length - 1)
        p = length * torch.sigmoid(self.v_p(torch.tanh(self.w_p(query))).squeeze(-1).float())
        return torch.minimum(p, length - 1)

    def forward(
        self, scores: torch.Tensor, mask: torch.Tensor, query: torch.Tensor, step: torch.Tensor
    ) -> torch.Tensor:
        """Weights [B, T, S] from scores [B, T, S] inside the window around p_t."""
        p = self.centre(query, step, mask).unsqueeze(-1)  # [B, T, 1]
        positions = torch.arange(scores.size(-1), device=scores.device).float()
        distance = positions - p  # [B, T, S]
        inside = (distance.abs() <= self.window) & mask.unsqueeze(1)
        scores = scores.float().masked_fill(~inside, float("-inf"))
        weights = torch.where(inside, torch.softmax(scores, -1), torch.zeros_like(scores))
        if self.kind == "local-p":
            sigma = self.window / 2
            weights = weights * torch.exp(-(distance**2) / (2 * sigma**2))
            weights = weights / weights.sum(-1, keepdim=True).clamp_min(1e-30)
        return weights


class AttentionScorer(nn.Module):
    """Base class: subclasses define :meth:`score` (and optionally :meth:`prepare_keys`).
    ``window``, set by :func:`build_scorer` for local attention, restricts where it
    attends."""

    def __init__(self) -> None:
        super().__init__()
        self.window: LocalWindow | None = None

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
        step: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Attend from ``query`` over ``keys`` (which are also the values).

        query: [B, Dq] or [B, T, Dq]; keys: [B, S, Dk]; mask: [B, S]; step: [B], the
        target position of the (first) query, for local attention (default 0).
        Returns context [B, (T,) Dk] and weights [B, (T,) S], rows summing to 1.
        """
        single = query.dim() == 2
        if single:
            query = query.unsqueeze(1)
        if prepared_keys is None:
            prepared_keys = self.prepare_keys(keys)
        scores = self.score(query, prepared_keys)
        if self.window is None:
            weights = masked_softmax(scores, mask)
        else:
            if step is None:
                step = torch.zeros(query.size(0), device=query.device)
            weights = self.window(scores, mask, query, step)
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


class CosineScorer(AttentionScorer):
    """Cosine similarity of the projected query and the key, times a learned inverse
    temperature: ``g * cos(W q, k)``. Cosines lie in [-1, 1], so without ``g`` the
    softmax could never be sharp; ``g`` starts at :attr:`START_SCALE` and is learned in
    log space (it stays positive)."""

    START_SCALE = 10.0

    def __init__(self, query_dim: int, key_dim: int) -> None:
        super().__init__()
        self.proj = nn.Linear(query_dim, key_dim, bias=False)
        self.log_scale = nn.Parameter(torch.tensor(math.log(self.START_SCALE)))

    def prepare_keys(self, keys: torch.Tensor) -> torch.Tensor:
        return nn.functional.normalize(keys, dim=-1)

    def score(self, query: torch.Tensor, prepared_keys: torch.Tensor) -> torch.Tensor:
        q = nn.functional.normalize(self.proj(query), dim=-1)
        return self.log_scale.exp() * torch.bmm(q, prepared_keys.transpose(1, 2))


def build_scorer(
    kind: str,
    query_dim: int,
    key_dim: int,
    attn_dim: int,
    locality: str = "global",
    window: int = 10,
) -> AttentionScorer:
    """The scorer ``kind``, local where ``locality`` says so (config.LOCALITIES)."""
    scorer = _scorer(kind, query_dim, key_dim, attn_dim)
    if locality != "global":
        scorer.window = LocalWindow(locality, query_dim, attn_dim, window)
    return scorer


def _scorer(kind: str, query_dim: int, key_dim: int, attn_dim: int) -> AttentionScorer:
    if kind == "cosine":
        return CosineScorer(query_dim, key_dim)
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

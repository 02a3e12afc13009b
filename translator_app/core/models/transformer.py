"""Transformer encoder-decoder (Vaswani et al. 2017) with tied embeddings.

Our own models are pre-norm with ReLU; the configuration also describes Marian's
Transformer (the OPUS-MT models): post-norm, SiLU feed-forward, sines-then-cosines
positions, an output bias and decoding that starts from the padding id.

Incremental decoding keeps, per decoder layer, the self-attention keys/values of the
prefix and the cross-attention keys/values of the source in the decoding state, so a
step costs one token's worth of work. The attention modules themselves hold no
per-sentence state.

Shapes: B batch, S source length, T target length, D model size, H heads, Dh = D / H.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from translator_app.core.models.config import ModelConfig
from translator_app.core.models.seq2seq import EncoderDecoder, State, StepOutput

# The position tables are computed on the CPU even where a model is built under another
# default device: on the meta device (the bundle's shape check) each of these ops would
# run a Python decomposition that imports PyTorch's compiler (seconds at start-up).
CPU = torch.device("cpu")


def sinusoidal_table(length: int, dim: int) -> torch.Tensor:
    position = torch.arange(length, dtype=torch.float32, device=CPU).unsqueeze(1)
    steps = torch.arange(0, dim, 2, dtype=torch.float32, device=CPU)
    div = torch.exp(steps * (-math.log(10000.0) / dim))
    table = torch.zeros(length, dim, device=CPU)
    table[:, 0::2] = torch.sin(position * div)
    table[:, 1::2] = torch.cos(position * div[: dim // 2])
    return table


def sinusoidal_halves_table(length: int, dim: int) -> torch.Tensor:
    """Marian's positions: the sines of all frequencies, then their cosines (for an odd
    ``dim`` one more sine than cosines). Computed in float64 as Marian's converter does."""
    position = torch.arange(length, dtype=torch.float64, device=CPU).unsqueeze(1)
    n_sin, n_cos = (dim + 1) // 2, dim // 2
    freq = torch.pow(10000.0, -2 * torch.arange(n_sin, dtype=torch.float64, device=CPU) / dim)
    return torch.cat(
        [torch.sin(position * freq), torch.cos(position * freq[:n_cos])], dim=1
    ).float()


# cuDNN's fused attention, PyTorch's first choice on Hopper GPUs, builds an execution
# graph for every new tensor shape (hundreds of milliseconds each, cached per shape).
# Training batches and decoding steps change shape nearly every call: on the first GPU
# lease (issue 63) an H100 spent about 31 ms of device time per 32k-token training step
# and 530 ms of wall time. The flash and memory-efficient kernels have no such cost.
if hasattr(torch.backends.cuda, "enable_cudnn_sdp"):
    torch.backends.cuda.enable_cudnn_sdp(False)

POSITION_TABLES = {"sinusoidal": sinusoidal_table, "sinusoidal_halves": sinusoidal_halves_table}
ACTIVATIONS = {"relu": nn.ReLU, "silu": nn.SiLU, "gelu": nn.GELU}


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int, dropout: float) -> None:
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.kv_proj = nn.Linear(d_model, 2 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.dropout = dropout

    def _heads(self, x: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.head_dim).transpose(1, 2)  # [B, H, T, Dh]

    def keys_values(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """x: [B, S, D] -> keys and values [B, H, S, Dh]."""
        k, v = self.kv_proj(x).chunk(2, dim=-1)
        return self._heads(k), self._heads(v)

    def forward(
        self,
        x: torch.Tensor,
        k: torch.Tensor,
        v: torch.Tensor,
        mask: torch.Tensor | None,
        need_weights: bool = False,
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        """x: [B, T, D] queries; k, v: [B, H, S, Dh]; mask: bool, broadcastable to
        [B, H, T, S], True where attending is allowed.

        Returns (context [B, T, D], weights [B, H, T, S] or None).
        """
        q = self._heads(self.q_proj(x))
        p = self.dropout if self.training else 0.0
        if need_weights:
            scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)
            if mask is not None:
                scores = scores.masked_fill(~mask, float("-inf"))
            weights = torch.softmax(scores.float(), dim=-1)
            ctx = torch.matmul(F.dropout(weights, p, self.training).to(v.dtype), v)
        else:
            # The fused kernel is much faster; used wherever nobody looks at the weights.
            weights = None
            ctx = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=p)
        b, _, t, _ = ctx.shape
        return self.out_proj(ctx.transpose(1, 2).reshape(b, t, -1)), weights


class FeedForward(nn.Module):
    def __init__(self, d_model: int, ff_dim: int, dropout: float, activation: str = "relu") -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_model, ff_dim),
            ACTIVATIONS[activation](),
            nn.Dropout(dropout),
            nn.Linear(ff_dim, d_model),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


class EncoderLayer(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.pre = cfg.norm == "pre"
        self.norm1 = nn.LayerNorm(cfg.d_model)
        self.attn = MultiHeadAttention(cfg.d_model, cfg.n_heads, cfg.dropout)
        self.norm2 = nn.LayerNorm(cfg.d_model)
        self.ff = FeedForward(cfg.d_model, cfg.ff_dim, cfg.dropout, cfg.activation)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        if self.pre:
            h = self.norm1(x)
            k, v = self.attn.keys_values(h)
            x = x + self.drop(self.attn(h, k, v, mask)[0])
            return x + self.drop(self.ff(self.norm2(x)))
        k, v = self.attn.keys_values(x)
        x = self.norm1(x + self.drop(self.attn(x, k, v, mask)[0]))
        return self.norm2(x + self.drop(self.ff(x)))


class DecoderLayer(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.pre = cfg.norm == "pre"
        self.norm1 = nn.LayerNorm(cfg.d_model)
        self.self_attn = MultiHeadAttention(cfg.d_model, cfg.n_heads, cfg.dropout)
        self.norm2 = nn.LayerNorm(cfg.d_model)
        self.cross_attn = MultiHeadAttention(cfg.d_model, cfg.n_heads, cfg.dropout)
        self.norm3 = nn.LayerNorm(cfg.d_model)
        self.ff = FeedForward(cfg.d_model, cfg.ff_dim, cfg.dropout, cfg.activation)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(
        self,
        x: torch.Tensor,
        past_k: torch.Tensor | None,
        past_v: torch.Tensor | None,
        self_mask: torch.Tensor | None,
        cross_k: torch.Tensor,
        cross_v: torch.Tensor,
        cross_mask: torch.Tensor,
        need_weights: bool,
    ) -> tuple[torch.Tensor, torch.Tensor | None, torch.Tensor, torch.Tensor]:
        """x: [B, T, D] new positions; past_k/v: [B, H, T0, Dh] cached prefix or None.

        Returns the output [B, T, D], the cross-attention weights [B, H, T, S] (or
        None) and the self-attention keys/values of prefix + x, the next step's cache.
        """
        # Pre-norm: each sublayer reads norm(x) and adds to x. Post-norm: each sublayer
        # reads x and the sum is normalised.
        pre = self.norm1 if self.pre else nn.Identity()
        h = pre(x)
        k, v = self.self_attn.keys_values(h)
        if past_k is not None:
            k, v = torch.cat([past_k, k], dim=2), torch.cat([past_v, v], dim=2)
        x = x + self.drop(self.self_attn(h, k, v, self_mask)[0])
        if not self.pre:
            x = self.norm1(x)
        ctx, weights = self.cross_attn(
            self.norm2(x) if self.pre else x, cross_k, cross_v, cross_mask, need_weights
        )
        x = x + self.drop(ctx)
        if self.pre:
            return x + self.drop(self.ff(self.norm3(x))), weights, k, v
        x = self.norm2(x)
        return self.norm3(x + self.drop(self.ff(x))), weights, k, v


class TransformerSeq2Seq(EncoderDecoder):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.config = cfg
        self.embedding = nn.Embedding(cfg.vocab_size, cfg.d_model, padding_idx=cfg.pad_id)
        nn.init.normal_(self.embedding.weight, std=cfg.d_model**-0.5)
        if cfg.positions == "learned":
            self.pos_embedding = nn.Embedding(cfg.max_positions, cfg.d_model)
        else:
            table = POSITION_TABLES[cfg.positions](cfg.max_positions, cfg.d_model)
            self.register_buffer("pos_table", table, persistent=False)
        self.drop = nn.Dropout(cfg.dropout)
        self.enc_layers = nn.ModuleList(EncoderLayer(cfg) for _ in range(cfg.enc_layers))
        self.dec_layers = nn.ModuleList(DecoderLayer(cfg) for _ in range(cfg.dec_layers))
        # Pre-norm stacks end in a norm; post-norm layers already end in one.
        if cfg.norm == "pre":
            self.enc_norm = nn.LayerNorm(cfg.d_model)
            self.dec_norm = nn.LayerNorm(cfg.d_model)
        else:
            self.enc_norm = self.dec_norm = nn.Identity()
        self.output = nn.Linear(cfg.d_model, cfg.vocab_size, bias=cfg.output_bias)
        if cfg.output_bias:
            nn.init.zeros_(self.output.bias)
        if cfg.tie_embeddings:
            self.output.weight = self.embedding.weight
        self.scale = math.sqrt(cfg.d_model) if cfg.scale_embeddings else 1.0

    @property
    def align_layer(self) -> int:
        return self.config.alignment_layer_index

    @property
    def align_head(self) -> int:
        return self.config.alignment_head

    def alignment_of(self, weights: torch.Tensor) -> torch.Tensor:
        """[B, H, T, S] -> [B, T, S] (or [T, H, S] -> [T, S]): the alignment head, or the
        heads' mean."""
        return weights.mean(1) if self.align_head < 0 else weights[:, self.align_head]

    def _embed(self, tokens: torch.Tensor, offset: int = 0) -> torch.Tensor:
        """tokens: [B, T] -> [B, T, D]; positions must fit max_positions (the
        translator splits longer input)."""
        t = tokens.size(1)
        if offset + t > self.config.max_positions:
            raise ValueError(
                f"sequence of {offset + t} positions exceeds max_positions={self.config.max_positions}"
            )
        if self.config.positions == "learned":
            pos = self.pos_embedding.weight[offset : offset + t]
        else:
            pos = self.pos_table[offset : offset + t]
        return self.drop(self.embedding(tokens) * self.scale + pos)

    def encode(self, src: torch.Tensor, src_mask: torch.Tensor) -> torch.Tensor:
        """src: [B, S] -> memory [B, S, D]."""
        x = self._embed(src)
        mask = src_mask[:, None, None, :]
        for layer in self.enc_layers:
            x = layer(x, mask)
        return self.enc_norm(x)

    def start(self, src: torch.Tensor, src_mask: torch.Tensor) -> State:
        memory = self.encode(src, src_mask)
        state: State = {"mask": src_mask, "step": 0}
        for i, layer in enumerate(self.dec_layers):
            state[f"cross_k{i}"], state[f"cross_v{i}"] = layer.cross_attn.keys_values(memory)
            empty = memory.new_zeros(src.size(0), self.config.n_heads, 0, layer.self_attn.head_dim)
            state[f"self_k{i}"], state[f"self_v{i}"] = empty, empty
        return state

    def step(self, state: State, prev_tokens: torch.Tensor, all_layers: bool = False) -> StepOutput:
        t = int(state["step"])
        x = self._embed(prev_tokens.unsqueeze(1), offset=t)  # [B, 1, D]
        cross_mask = state["mask"][:, None, None, :]
        new_state: State = {"mask": state["mask"], "step": t + 1}
        per_layer = []
        for i, layer in enumerate(self.dec_layers):
            ck, cv = state[f"cross_k{i}"], state[f"cross_v{i}"]
            need = all_layers or i == self.align_layer
            x, weights, self_k, self_v = layer(
                x, state[f"self_k{i}"], state[f"self_v{i}"], None, ck, cv, cross_mask, need
            )
            new_state[f"self_k{i}"], new_state[f"self_v{i}"] = self_k, self_v
            new_state[f"cross_k{i}"], new_state[f"cross_v{i}"] = ck, cv
            per_layer.append(weights)
        logits = self.output(self.dec_norm(x))[:, 0]
        align = self.alignment_of(per_layer[self.align_layer])[:, 0]  # [B, S]
        layers = torch.stack([w[:, :, 0] for w in per_layer], 1) if all_layers else None
        return StepOutput(logits, align, layers, new_state)

    def forward(self, src, src_mask, tgt_in):
        memory = self.encode(src, src_mask)
        x = self._embed(tgt_in)
        t = tgt_in.size(1)
        causal = torch.ones(t, t, dtype=torch.bool, device=src.device).tril()
        cross_mask = src_mask[:, None, None, :]
        align = None
        for i, layer in enumerate(self.dec_layers):
            ck, cv = layer.cross_attn.keys_values(memory)
            need = i == self.align_layer
            x, weights, _, _ = layer(x, None, None, causal, ck, cv, cross_mask, need)
            if weights is not None:
                align = self.alignment_of(weights)
        return self.output(self.dec_norm(x)), align

    @torch.inference_mode()
    def attention_layers(
        self, src: torch.Tensor, src_mask: torch.Tensor, tgt_in: torch.Tensor
    ) -> torch.Tensor:
        """Teacher-forced cross-attention of every layer and head for given outputs (the
        alignment panel's view of a decode made elsewhere, e.g. by CTranslate2).
        src, src_mask: [B, S]; tgt_in: [B, T] (the start id, then the output without its
        last token). Returns [B, T, L, H, S]."""
        memory = self.encode(src, src_mask)
        x = self._embed(tgt_in)
        t = tgt_in.size(1)
        causal = torch.ones(t, t, dtype=torch.bool, device=src.device).tril()
        cross_mask = src_mask[:, None, None, :]
        per_layer = []
        for layer in self.dec_layers:
            ck, cv = layer.cross_attn.keys_values(memory)
            x, weights, _, _ = layer(x, None, None, causal, ck, cv, cross_mask, True)
            per_layer.append(weights)  # [B, H, T, S]
        return torch.stack(per_layer, 1).permute(0, 3, 1, 2, 4)

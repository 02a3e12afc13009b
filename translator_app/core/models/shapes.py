"""The tensors a Transformer config needs, without PyTorch: names and shapes of its
state dict, as :class:`~translator_app.core.models.transformer.TransformerSeq2Seq` builds
them (tied aliases left out). A bundle's weights header can be checked against these
before anything is loaded and without importing PyTorch (issue 49: start-up); a test
checks them equal to a real build for every Transformer option.
"""

from __future__ import annotations

from translator_app.core.models.config import ModelConfig

Shapes = dict[str, tuple[int, ...]]


def _linear(name: str, n_in: int, n_out: int, bias: bool = True) -> Shapes:
    out = {f"{name}.weight": (n_out, n_in)}
    if bias:
        out[f"{name}.bias"] = (n_out,)
    return out


def _norm(name: str, d: int) -> Shapes:
    return {f"{name}.weight": (d,), f"{name}.bias": (d,)}


def _attention(name: str, d: int) -> Shapes:
    return {
        **_linear(f"{name}.q_proj", d, d),
        **_linear(f"{name}.kv_proj", d, 2 * d),
        **_linear(f"{name}.out_proj", d, d),
    }


def _feed_forward(name: str, d: int, ff: int) -> Shapes:
    return {**_linear(f"{name}.net.0", d, ff), **_linear(f"{name}.net.3", ff, d)}


def transformer_shapes(cfg: ModelConfig) -> Shapes:
    """Name -> shape of every tensor of ``cfg``'s Transformer that a bundle stores."""
    if cfg.arch != "transformer":
        raise ValueError(f"not a Transformer config: arch={cfg.arch!r}")
    d, v = cfg.d_model, cfg.vocab_size
    shapes: Shapes = {"embedding.weight": (v, d)}
    if cfg.positions == "learned":
        shapes["pos_embedding.weight"] = (cfg.max_positions, d)
    for i in range(cfg.enc_layers):
        p = f"enc_layers.{i}"
        shapes |= _attention(f"{p}.attn", d) | _feed_forward(f"{p}.ff", d, cfg.ff_dim)
        shapes |= _norm(f"{p}.norm1", d) | _norm(f"{p}.norm2", d)
    for i in range(cfg.dec_layers):
        p = f"dec_layers.{i}"
        shapes |= _attention(f"{p}.self_attn", d) | _attention(f"{p}.cross_attn", d)
        shapes |= _feed_forward(f"{p}.ff", d, cfg.ff_dim)
        shapes |= _norm(f"{p}.norm1", d) | _norm(f"{p}.norm2", d) | _norm(f"{p}.norm3", d)
    if cfg.norm == "pre":
        shapes |= _norm("enc_norm", d) | _norm("dec_norm", d)
    if not cfg.tie_embeddings:
        shapes["output.weight"] = (v, d)
    if cfg.output_bias:
        shapes["output.bias"] = (v,)
    return shapes

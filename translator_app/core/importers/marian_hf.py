"""Read a Hugging Face Marian folder (``config.json``, ``model.safetensors`` or
``pytorch_model.bin`` read with ``torch.load(weights_only=True)``, ``source.spm``,
``target.spm``, ``vocab.json``) into our configuration and state dict."""

from __future__ import annotations

from pathlib import Path

import torch

from translator_app.core.importers.marian_common import (
    MarianImportError,
    check_finite,
    check_shapes,
    check_weights_size,
    marian_config,
    pair_tokenizer,
    read_limited,
    short,
)
from translator_app.core.limits import (
    MAX_CONFIG_BYTES,
    MAX_HEADS,
    MAX_LAYERS,
    MAX_POSITIONS,
    MAX_SPM_BYTES,
    MAX_VOCAB,
    MAX_WIDTH,
    parse_json,
)
from translator_app.core.models.config import ModelConfig
from translator_app.core.text.pair_tokenizer import (
    SOURCE_SPM_FILE,
    TARGET_SPM_FILE,
    VOCAB_FILE,
    PairTokenizer,
)

HF_CONFIG = "config.json"
HF_SAFETENSORS = "model.safetensors"
HF_BIN = "pytorch_model.bin"
SIZE_LIMITS = {
    "encoder_layers": MAX_LAYERS,
    "decoder_layers": MAX_LAYERS,
    "encoder_attention_heads": MAX_HEADS,
    "decoder_attention_heads": MAX_HEADS,
    "vocab_size": MAX_VOCAB,
    "max_position_embeddings": MAX_POSITIONS,
}

# ---------------------------------------------------------------- Hugging Face layout
# Hugging Face names (after "model.") -> ours, per layer; k and v are stacked into kv_proj.
_HF_ENCODER = {
    "self_attn.q_proj": "attn.q_proj",
    "self_attn.out_proj": "attn.out_proj",
    "self_attn_layer_norm": "norm1",
    "fc1": "ff.net.0",
    "fc2": "ff.net.3",
    "final_layer_norm": "norm2",
}
_HF_DECODER = {
    "self_attn.q_proj": "self_attn.q_proj",
    "self_attn.out_proj": "self_attn.out_proj",
    "self_attn_layer_norm": "norm1",
    "encoder_attn.q_proj": "cross_attn.q_proj",
    "encoder_attn.out_proj": "cross_attn.out_proj",
    "encoder_attn_layer_norm": "norm2",
    "fc1": "ff.net.0",
    "fc2": "ff.net.3",
    "final_layer_norm": "norm3",
}
_HF_KV = {
    "encoder": {"self_attn": "attn"},
    "decoder": {"self_attn": "self_attn", "encoder_attn": "cross_attn"},
}
_EMBEDDINGS = (
    "shared.weight",
    "encoder.embed_tokens.weight",
    "decoder.embed_tokens.weight",
    "lm_head.weight",
)


def hf_config(folder: Path, tokenizer: PairTokenizer) -> ModelConfig:
    path = folder / HF_CONFIG
    try:
        cfg = parse_json(read_limited(path, MAX_CONFIG_BYTES).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:  # bad JSON, too deep, 5,000-digit numbers
        raise MarianImportError(path, f"is not a usable JSON file ({e})") from None
    if not isinstance(cfg, dict):
        raise MarianImportError(path, "must hold a JSON object")
    kind = cfg.get("model_type")
    if kind != "marian":
        raise MarianImportError(path, f"describes a {kind!r} model, not a Marian one")

    def get(key: str, kind=int):
        value = cfg.get(key)
        if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
            raise MarianImportError(path, f"{key} is {short(value)}, expected a {kind.__name__}")
        if kind is int and not 1 <= value <= SIZE_LIMITS.get(key, MAX_WIDTH):
            raise MarianImportError(
                path, f"{key} is {value}, expected 1 to {SIZE_LIMITS.get(key, MAX_WIDTH)}"
            )
        return value

    for a, b in (
        ("encoder_attention_heads", "decoder_attention_heads"),
        ("encoder_ffn_dim", "decoder_ffn_dim"),
    ):
        if get(a) != get(b):
            raise MarianImportError(path, f"{a} and {b} differ; not supported")
    if not cfg.get("share_encoder_decoder_embeddings", True) or not cfg.get(
        "tie_word_embeddings", True
    ):
        raise MarianImportError(
            path, "has separate source and target embeddings; only shared ones are supported"
        )
    if cfg.get("normalize_before", False) or cfg.get("normalize_embedding", False):
        raise MarianImportError(path, "uses pre-norm or embedding norm; not a Marian layout")
    for key, want in (
        ("pad_token_id", tokenizer.pad_id),
        ("eos_token_id", tokenizer.eos_id),
        ("decoder_start_token_id", tokenizer.pad_id),
    ):
        if key in cfg and cfg[key] != want:
            raise MarianImportError(path, f"{key} is {short(cfg[key])}, vocab.json says {want}")
    return marian_config(
        vocab_size=get("vocab_size"),
        d_model=get("d_model"),
        enc_layers=get("encoder_layers"),
        dec_layers=get("decoder_layers"),
        n_heads=get("encoder_attention_heads"),
        ff_dim=get("encoder_ffn_dim"),
        max_positions=get("max_position_embeddings"),
        activation=get("activation_function", str),
        scale_embeddings=bool(cfg.get("scale_embedding", True)),
        tokenizer=tokenizer,
        where=path,
    )


def _hf_tensors(folder: Path, config: ModelConfig) -> tuple[dict[str, torch.Tensor], Path]:
    """The weights file's tensors (names without "model."). Shapes are checked against the
    config (from the header, for safetensors) before the values are used."""
    st, pt = folder / HF_SAFETENSORS, folder / HF_BIN
    if st.is_file():
        from safetensors import SafetensorError, safe_open

        check_weights_size(st)
        try:
            with safe_open(str(st), framework="pt") as f:
                names = list(f.keys())
                shapes = {n: tuple(f.get_slice(n).get_shape()) for n in names}
                _check_hf_shapes(shapes, config, st)
                tensors = {n: f.get_tensor(n) for n in names}
        except (SafetensorError, OSError, ValueError, RuntimeError) as e:
            raise MarianImportError(st, f"weights are truncated or corrupt ({e})") from None
        return _strip(tensors), st
    if pt.is_file():
        check_weights_size(pt)
        try:
            # weights_only: tensors and plain containers only; a pickle that would run
            # code is refused by torch.load itself. mmap: nothing is read before the check.
            raw = torch.load(pt, map_location="cpu", weights_only=True, mmap=True)
        except Exception as e:  # noqa: BLE001 - any refusal of torch.load is the same error
            raise MarianImportError(
                pt, f"is not a plain weights file; refused ({str(e).splitlines()[0][:200]})"
            ) from None
        if not isinstance(raw, dict) or not all(torch.is_tensor(v) for v in raw.values()):
            raise MarianImportError(pt, "does not hold a mapping of names to tensors")
        _check_hf_shapes({n: tuple(t.shape) for n, t in raw.items()}, config, pt)
        return _strip(raw), pt
    raise MarianImportError(folder, f"holds neither {HF_SAFETENSORS} nor {HF_BIN}")


def _strip(tensors: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    return {n.removeprefix("model."): t for n, t in tensors.items()}


def _check_hf_shapes(shapes: dict[str, tuple], config: ModelConfig, where: Path) -> None:
    fake = convert_hf({n: torch.empty(s, device="meta") for n, s in _strip(shapes).items()}, where)
    fake.setdefault("output.bias", torch.empty(config.vocab_size, device="meta"))
    check_shapes(fake, config, where)


def convert_hf(tensors: dict[str, torch.Tensor], where: Path) -> dict[str, torch.Tensor]:
    """Hugging Face Marian names -> ours. Unknown names are kept as they are, so that the
    shape check reports them."""
    out: dict[str, torch.Tensor] = {}
    emb = next((tensors[n] for n in _EMBEDDINGS if n in tensors), None)
    if emb is None:
        raise MarianImportError(where, "holds no embedding matrix (shared.weight)")
    out["embedding.weight"] = emb
    used = set(_EMBEDDINGS) | {"encoder.embed_positions.weight", "decoder.embed_positions.weight"}
    if "final_logits_bias" in tensors:
        out["output.bias"] = tensors["final_logits_bias"].reshape(-1)
        used.add("final_logits_bias")
    for side, table, ours in (
        ("encoder", _HF_ENCODER, "enc_layers"),
        ("decoder", _HF_DECODER, "dec_layers"),
    ):
        layer = 0
        while f"{side}.layers.{layer}.fc1.weight" in tensors:
            pre = f"{side}.layers.{layer}."
            for hf, mine in table.items():
                for p in ("weight", "bias"):
                    if pre + f"{hf}.{p}" in tensors:
                        out[f"{ours}.{layer}.{mine}.{p}"] = tensors[pre + f"{hf}.{p}"]
                        used.add(pre + f"{hf}.{p}")
            for hf, mine in _HF_KV[side].items():
                for p in ("weight", "bias"):
                    k, v = pre + f"{hf}.k_proj.{p}", pre + f"{hf}.v_proj.{p}"
                    if k in tensors and v in tensors:
                        out[f"{ours}.{layer}.{mine}.kv_proj.{p}"] = torch.cat(
                            [tensors[k], tensors[v]], 0
                        )
                        used.update((k, v))
            layer += 1
    for name, t in tensors.items():
        if name not in used and not name.startswith(("encoder.layers.", "decoder.layers.")):
            out[name] = t  # reported as unexpected by check_shapes
    return out


def read_hf_folder(folder: Path) -> tuple[ModelConfig, dict[str, torch.Tensor], PairTokenizer]:
    tokenizer = pair_tokenizer(
        read_limited(folder / SOURCE_SPM_FILE, MAX_SPM_BYTES),
        read_limited(folder / TARGET_SPM_FILE, MAX_SPM_BYTES),
        read_limited(folder / VOCAB_FILE, MAX_CONFIG_BYTES * 4),
        folder,
    )
    config = hf_config(folder, tokenizer)
    tensors, where = _hf_tensors(folder, config)
    check_finite(tensors, where)
    state = convert_hf(tensors, where)
    if "output.bias" not in state:  # older exports keep the bias at zero and omit it
        state["output.bias"] = torch.zeros(config.vocab_size)
    check_shapes(state, config, where)
    return config, {k: v.float().contiguous() for k, v in state.items()}, tokenizer

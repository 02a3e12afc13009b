"""Import published Marian models (OPUS-MT, Helsinki-NLP) as ordinary bundles.

Two layouts are read, both without running any code from the download:

* a Hugging Face folder: ``config.json``, ``model.safetensors`` (or ``pytorch_model.bin``,
  read with ``torch.load(weights_only=True)``), ``source.spm``, ``target.spm``,
  ``vocab.json``;
* an OPUS-MT release folder or zip: ``*.npz`` (read with ``allow_pickle=False``),
  ``source.spm``, ``target.spm``, ``*.vocab.yml`` and ``decoder.yml`` (see
  :mod:`.marian_npz`).

The network is our Transformer configured as Marian's (post-norm, SiLU, sines-then-cosines
positions, output bias, decoding from the padding id); sizes come from the download's own
configuration. Every problem is one :class:`MarianImportError` naming the file.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import torch

from .config import ConfigError, ModelConfig
from .limits import (
    MAX_CONFIG_BYTES,
    MAX_HEADS,
    MAX_LAYERS,
    MAX_POSITIONS,
    MAX_SPM_BYTES,
    MAX_VOCAB,
    MAX_WIDTH,
    parse_json,
)
from .model import build_model
from .pair_tokenizer import (
    SOURCE_SPM_FILE,
    TARGET_SPM_FILE,
    VOCAB_FILE,
    PairTokenizer,
    VocabularyError,
)

HF_CONFIG = "config.json"
HF_SAFETENSORS = "model.safetensors"
HF_BIN = "pytorch_model.bin"
MAX_WEIGHTS_BYTES = 4 * 1024**3  # opus-mt-de-en is 298 MB; "big" models about 900 MB
ACTIVATIONS = {"swish": "silu", "silu": "silu", "relu": "relu", "gelu": "gelu"}
# Marian trains its guided alignment on the first head of the last decoder layer
# (--transformer-guided-alignment-layer last); the import measures it (alignment_choice).
GUIDED_LAYER, GUIDED_HEAD = -1, 0


# What a user can do about any refused download (one line with the file and the problem).
WHAT_TO_DO = "download the model again from its publisher, or choose another model"


class MarianImportError(Exception):
    """A download that cannot be imported; ``str()`` is one line: the file, the problem
    and what the user can do."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}; {WHAT_TO_DO}")


def check_finite(tensors: dict[str, Any], where: Path) -> None:
    """Refuse NaN or infinite weights (a model with them translates garbage), naming the
    tensor. ``tensors``: names to tensors or NumPy arrays, as the download names them."""
    for name, t in tensors.items():
        t = torch.as_tensor(t)
        if t.is_floating_point() and t.numel() and not bool(torch.isfinite(t).all()):
            raise MarianImportError(where, f"tensor {name} holds NaN or infinite values")


# Bounds of the sizes a configuration may give (beyond them it is not a model: a layer
# count of a billion would build for hours).
SIZE_LIMITS = {
    "encoder_layers": MAX_LAYERS,
    "decoder_layers": MAX_LAYERS,
    "encoder_attention_heads": MAX_HEADS,
    "decoder_attention_heads": MAX_HEADS,
    "vocab_size": MAX_VOCAB,
    "max_position_embeddings": MAX_POSITIONS,
}


def short(value: Any) -> str:
    """A value for a message: its repr, cut to 60 characters (a 5,000-digit number or a
    nested list must not flood the one line)."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**30 else "a huge number"
    return text if len(text) <= 60 else text[:57] + "..."


def read_limited(path: Path, limit: int) -> bytes:
    """The bytes of ``path``; a missing, unreadable or oversized file is one clear error."""
    if not path.is_file():
        raise MarianImportError(path, "is missing from the model folder")
    if path.stat().st_size > limit:
        raise MarianImportError(path, f"is larger than {limit // 1024**2} MB; refused")
    try:
        return path.read_bytes()
    except OSError as e:
        raise MarianImportError(path, f"cannot be read ({e.strerror or e})") from None


def pair_tokenizer(source: bytes, target: bytes, vocab: bytes, folder: Path) -> PairTokenizer:
    try:
        return PairTokenizer(source, target, vocab)
    except VocabularyError as e:
        raise MarianImportError(folder / VOCAB_FILE, str(e)) from None
    except (RuntimeError, OSError) as e:  # SentencePiece refuses a corrupt model
        raise MarianImportError(
            folder, f"source.spm or target.spm is not a SentencePiece model ({e})"
        ) from None


def marian_config(
    *,
    vocab_size: int,
    d_model: int,
    enc_layers: int,
    dec_layers: int,
    n_heads: int,
    ff_dim: int,
    max_positions: int,
    activation: str,
    scale_embeddings: bool,
    tokenizer: PairTokenizer,
    where: Path,
) -> ModelConfig:
    """Our Transformer configured as Marian's, from sizes read off the download."""
    if activation not in ACTIVATIONS:
        raise MarianImportError(
            where, f"uses the activation {activation!r}; supported: {', '.join(ACTIVATIONS)}"
        )
    if tokenizer.vocab_size > vocab_size:
        raise MarianImportError(
            where,
            f"the vocabulary has {tokenizer.vocab_size} pieces but the model only "
            f"{vocab_size} embeddings",
        )
    try:
        return ModelConfig(
            arch="transformer",
            vocab_size=vocab_size,
            pad_id=tokenizer.pad_id,
            unk_id=tokenizer.unk_id,
            bos_id=tokenizer.pad_id,
            eos_id=tokenizer.eos_id,
            dropout=0.1,
            tie_embeddings=True,
            enc_layers=enc_layers,
            dec_layers=dec_layers,
            d_model=d_model,
            n_heads=n_heads,
            ff_dim=ff_dim,
            positions="sinusoidal_halves",
            max_positions=max_positions,
            alignment_layer=GUIDED_LAYER,
            alignment_head=GUIDED_HEAD,
            norm="post",
            activation=ACTIVATIONS[activation],
            scale_embeddings=scale_embeddings,
            output_bias=True,
            decoder_start="pad",
        )
    except ConfigError as e:
        raise MarianImportError(where, str(e)) from None


def expected_shapes(config: ModelConfig) -> dict[str, tuple[int, ...]]:
    """Our state-dict names and shapes for ``config``, built on the meta device (nothing
    allocated), without the tied output weight."""
    with torch.device("meta"):
        model = build_model(config)
    return {k: tuple(v.shape) for k, v in model.state_dict().items() if k != "output.weight"}


def check_shapes(
    state: dict[str, Any], config: ModelConfig, where: Path, shape=lambda t: tuple(t.shape)
) -> None:
    """Every tensor the config needs is there with its shape, and nothing else."""
    want = expected_shapes(config)
    missing = sorted(set(want) - set(state))
    extra = sorted(set(state) - set(want))
    if missing or extra:
        parts = [f"missing {', '.join(missing[:4])}"] if missing else []
        parts += [f"unexpected {', '.join(extra[:4])}"] if extra else []
        raise MarianImportError(
            where, "weights do not match the configuration: " + "; ".join(parts)
        )
    for name, size in want.items():
        if tuple(shape(state[name])) != size:
            raise MarianImportError(
                where,
                f"tensor for {name} has shape {tuple(shape(state[name]))}, the configuration "
                f"implies {size}",
            )


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


def check_weights_size(path: Path) -> None:
    if path.stat().st_size > MAX_WEIGHTS_BYTES:
        raise MarianImportError(path, f"is larger than {MAX_WEIGHTS_BYTES // 1024**3} GB; refused")


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


def load_marian_model(folder: str | Path):
    """(model in eval mode, tokenizer) from a Hugging Face Marian folder."""
    config, state, tokenizer = read_hf_folder(Path(folder))
    model = build_model(config)
    model.load_state_dict(state, strict=False)  # output.weight is tied to the embedding
    return model.eval(), tokenizer


# ---------------------------------------------------------------- alignment head
# German sentences of several kinds and lengths, translated at import to find the head
# whose cross-attention is cleanest.
PROBE_SENTENCES = (
    "Das Haus ist klein.",
    "Ich habe heute leider keine Zeit, weil ich zum Arzt muss.",
    "Der Hund läuft schnell über die Straße.",
    "Wir treffen uns morgen um acht Uhr am Bahnhof.",
    "Die Regierung hat gestern neue Gesetze für den Klimaschutz beschlossen.",
    "Kannst du mir bitte sagen, wo der nächste Supermarkt ist?",
)


def head_entropies(model, tokenizer, sentences=PROBE_SENTENCES) -> torch.Tensor:
    """[L, H]: the mean entropy (nats) of each decoder layer's and head's cross-attention
    over the words of greedy translations of ``sentences``. A head that aligns puts each
    target word's weight on one or two source pieces: low entropy. The EOS rows and
    columns are left out (attention parks there)."""
    from .batching import pad_rows
    from .search import SearchOptions, greedy_search

    rows = [list(tokenizer.encode(t).ids) + [tokenizer.eos_id] for t in sentences]
    src, mask = pad_rows(rows, tokenizer.pad_id)
    with torch.no_grad():
        hyps = greedy_search(model, src, mask, SearchOptions(all_layers=True))
    total, count = None, 0
    for row, [h] in zip(rows, hyps, strict=True):
        att = h.layers[:-1, :, :, : len(row) - 1].float()  # words only: no EOS row or column
        if att.numel() == 0:
            continue
        att = att / att.sum(-1, keepdim=True).clamp_min(1e-9)
        ent = -(att * att.clamp_min(1e-9).log()).sum(-1)  # [T, L, H]
        total = ent.sum(0) if total is None else total + ent.sum(0)
        count += ent.size(0)
    if total is None:
        cfg = model.config
        return torch.zeros(cfg.dec_layers, cfg.n_heads)
    return total / count


def alignment_choice(model, tokenizer) -> tuple[int, int]:
    """(layer, head) with the lowest entropy; OPUS-MT models were trained with guided
    alignment on one head (Marian: the last layer's first), which this finds when it is
    the sharpest. Ties keep that head."""
    ent = head_entropies(model, tokenizer)
    layers, heads = ent.shape
    guided = (layers - 1, 0)
    scored = [
        (ent[layer, head].item(), (layer, head) != guided, layer, head)
        for layer in range(layers)
        for head in range(heads)
    ]
    _, _, layer, head = min(scored)
    return layer, head


# ---------------------------------------------------------------- the bundle
LICENCE_NOTE = (
    "The OPUS-MT models of Helsinki-NLP are published under CC-BY 4.0: use, share and adapt "
    "them (also commercially) with attribution. Cite: Jörg Tiedemann and Santhosh "
    'Thottingal (2020), "OPUS-MT — Building open translation services for the World", '
    "EAMT 2020. Check the licence in the downloaded folder for models from elsewhere."
)


def import_card(name: str, src: Path, config: ModelConfig, n_params: int, layout: str) -> str:
    what = "an OPUS-MT release" if layout == "opus-mt" else "a Hugging Face Marian folder"
    return "\n".join(
        [
            f"# {name} — imported Marian model",
            "",
            f"Imported with `translator-train import-marian` from `{src.name}` "
            f"({what}). The weights are the published ones, unchanged apart from their "
            "layout (key and value matrices stacked, Marian's matrices transposed, a zero row "
            "for <pad>); nothing from the download was run.",
            "",
            "## Origin, licence and attribution",
            "",
            LICENCE_NOTE,
            "",
            "## Architecture (read from the download's configuration)",
            "",
            f"- Transformer, post-norm, {config.enc_layers} encoder and {config.dec_layers} "
            f"decoder layers, d_model {config.d_model}, {config.n_heads} heads, "
            f"feed-forward {config.ff_dim} ({config.activation}), {n_params / 1e6:.1f} M parameters",
            f"- vocabulary of {config.vocab_size} pieces shared by source and target "
            "(source.spm, target.spm, vocab.json)",
            f"- alignment shown in the app: decoder layer {config.alignment_layer_index + 1}, "
            f"head {config.alignment_head + 1}, the head whose cross-attention was sharpest "
            f"(lowest entropy) on {len(PROBE_SENTENCES)} German sentences translated at import",
            "",
            "No scores were measured at import: run `translator-train eval --model THIS_FOLDER "
            "--test FILE` for them.",
        ]
    )


def import_marian(
    src: str | Path, out: str | Path, *, name: str | None = None, overwrite: bool = False
) -> Path:
    """Read a Marian model folder and write it as a bundle at ``out``."""
    from .bundle import SearchDefaults, save_bundle

    src = Path(src)
    if not src.exists():
        raise MarianImportError(src, "no such file or folder")
    if src.is_file() or any(src.glob("*.npz")):  # an OPUS-MT release, zipped or not
        from .marian_npz import read_opus_release

        config, state, tokenizer = read_opus_release(src)
        layout = "opus-mt"
    else:
        config, state, tokenizer = read_hf_folder(src)
        layout = "huggingface"
    model = build_model(config)
    model.load_state_dict(state, strict=False)  # output.weight is tied to the embedding
    model.eval()
    layer, head = alignment_choice(model, tokenizer)
    # The alignment is read from the config at each step: no weights change.
    config = model.config = dataclasses.replace(config, alignment_layer=layer, alignment_head=head)
    name = name or src.name
    card = import_card(name, src, config, model.num_parameters, layout)
    origin = {"imported_from": src.name, "layout": layout, "licence": "CC-BY-4.0"}
    return save_bundle(
        out,
        model,
        tokenizer,
        name=name,
        card=card,
        metrics={},
        search=SearchDefaults(beam=4, length_penalty=0.6),
        extra={"origin": origin},
        overwrite=overwrite,
    )

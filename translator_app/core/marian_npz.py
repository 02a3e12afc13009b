"""OPUS-MT release folders and zips (Marian's own format) read without running code.

A release holds ``*.npz`` weights, ``source.spm``, ``target.spm``, ``*.vocab.yml`` and
``decoder.yml``. The weights are read with ``numpy.load(allow_pickle=False)``, so an
object array (a pickle) is refused; the model's configuration is the ``special:model.yml``
entry of the npz. Marian stores matrices as [in, out] (ours are [out, in]) and has no
padding token: like Hugging Face's converter, we add ``<pad>`` as the last id, with a
zero embedding row and a zero output bias.
"""

from __future__ import annotations

import json
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import torch

from .config import ModelConfig
from .limits import MAX_CONFIG_BYTES, MAX_SPM_BYTES
from .marian import (
    MAX_WEIGHTS_BYTES,
    MarianImportError,
    check_shapes,
    check_weights_size,
    convert_hf,
    marian_config,
    pair_tokenizer,
    read_limited,
)
from .pair_tokenizer import SOURCE_SPM_FILE, TARGET_SPM_FILE, PairTokenizer

# Marian's names within a layer -> Hugging Face's (then convert_hf maps them to ours).
_LAYER = {
    "self_Wq": "self_attn.q_proj.weight",
    "self_Wk": "self_attn.k_proj.weight",
    "self_Wv": "self_attn.v_proj.weight",
    "self_Wo": "self_attn.out_proj.weight",
    "self_bq": "self_attn.q_proj.bias",
    "self_bk": "self_attn.k_proj.bias",
    "self_bv": "self_attn.v_proj.bias",
    "self_bo": "self_attn.out_proj.bias",
    "self_Wo_ln_scale": "self_attn_layer_norm.weight",
    "self_Wo_ln_bias": "self_attn_layer_norm.bias",
    "context_Wq": "encoder_attn.q_proj.weight",
    "context_Wk": "encoder_attn.k_proj.weight",
    "context_Wv": "encoder_attn.v_proj.weight",
    "context_Wo": "encoder_attn.out_proj.weight",
    "context_bq": "encoder_attn.q_proj.bias",
    "context_bk": "encoder_attn.k_proj.bias",
    "context_bv": "encoder_attn.v_proj.bias",
    "context_bo": "encoder_attn.out_proj.bias",
    "context_Wo_ln_scale": "encoder_attn_layer_norm.weight",
    "context_Wo_ln_bias": "encoder_attn_layer_norm.bias",
    "ffn_W1": "fc1.weight",
    "ffn_b1": "fc1.bias",
    "ffn_W2": "fc2.weight",
    "ffn_b2": "fc2.bias",
    "ffn_ffn_ln_scale": "final_layer_norm.weight",
    "ffn_ffn_ln_bias": "final_layer_norm.bias",
}
EMBEDDING = "Wemb"
OUTPUT_BIAS = "decoder_ff_logit_out_b"
CONFIG_ENTRY = "special:model.yml"
MAX_MEMBERS = 64  # a release has about ten files


def _yaml(raw: bytes, where: Path):
    import yaml

    try:
        return yaml.load(raw.decode("utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (UnicodeDecodeError, yaml.YAMLError) as e:
        raise MarianImportError(where, f"is not a YAML file ({str(e).splitlines()[0]})") from None


def _unzip(zip_path: Path, into: Path) -> Path:
    """The release's files, flattened into ``into``; member names never leave it."""
    try:
        with zipfile.ZipFile(zip_path) as z:
            members = [m for m in z.infolist() if not m.is_dir()]
            if len(members) > MAX_MEMBERS:
                raise MarianImportError(zip_path, "holds too many files for a model release")
            total = sum(m.file_size for m in members)
            if total > MAX_WEIGHTS_BYTES + 4 * MAX_SPM_BYTES:
                raise MarianImportError(zip_path, "unpacks to more than a model's size; refused")
            for m in members:
                name = Path(m.filename).name  # no folders, no "..": flat and inside
                if not name or name.startswith("."):
                    continue
                with z.open(m) as src, open(into / name, "wb") as dst:
                    while block := src.read(1 << 20):
                        dst.write(block)
    except zipfile.BadZipFile as e:
        raise MarianImportError(zip_path, f"is not a readable zip file ({e})") from None
    return into


def _pick(folder: Path, pattern: str, listed: str | None) -> Path:
    if listed:
        return folder / Path(listed).name
    found = sorted(folder.glob(pattern))
    if len(found) != 1:
        what = "none" if not found else ", ".join(p.name for p in found)
        raise MarianImportError(folder, f"needs exactly one {pattern} file (found {what})")
    return found[0]


def _release_files(folder: Path) -> tuple[Path, Path]:
    """(weights .npz, vocabulary .yml), as decoder.yml names them when it is there."""
    listed_model = listed_vocab = None
    decoder = folder / "decoder.yml"
    if decoder.is_file():
        cfg = _yaml(read_limited(decoder, MAX_CONFIG_BYTES), decoder)
        models, vocabs = (cfg or {}).get("models") or [], (cfg or {}).get("vocabs") or []
        if len(models) != 1:
            raise MarianImportError(
                decoder, "must name exactly one model (ensembles are not supported)"
            )
        if len(set(vocabs)) > 1:
            raise MarianImportError(
                decoder, "names two vocabularies; only a shared one is supported"
            )
        listed_model, listed_vocab = str(models[0]), str(vocabs[0]) if vocabs else None
    return _pick(folder, "*.npz", listed_model), _pick(folder, "*.vocab.yml", listed_vocab)


def npz_headers(path: Path) -> dict[str, tuple[tuple[int, ...], np.dtype]]:
    """Name -> (shape, dtype) of every array, from the .npy headers alone: nothing is
    allocated, and an object array (a pickle) is refused before anything is read."""
    out = {}
    try:
        with zipfile.ZipFile(path) as z:
            for member in z.infolist():
                with z.open(member) as f:
                    version = np.lib.format.read_magic(f)
                    if version == (1, 0):
                        shape, _, dtype = np.lib.format.read_array_header_1_0(f)
                    else:
                        shape, _, dtype = np.lib.format.read_array_header_2_0(f)
                name = member.filename.removesuffix(".npy")
                if dtype.hasobject:
                    raise MarianImportError(path, f"array {name} holds Python objects; refused")
                out[name] = (tuple(shape), dtype)
    except (zipfile.BadZipFile, ValueError, OSError, EOFError) as e:
        raise MarianImportError(path, f"is not a readable .npz file ({e})") from None
    return out


def _load_npz(path: Path) -> dict[str, np.ndarray]:
    try:
        with np.load(path, allow_pickle=False) as npz:
            return {name: npz[name] for name in npz.files}
    except ValueError as e:  # "Object arrays cannot be loaded when allow_pickle=False"
        raise MarianImportError(
            path, f"holds something other than plain arrays; refused ({e})"
        ) from None
    except (OSError, zipfile.BadZipFile, EOFError) as e:
        raise MarianImportError(path, f"is not a readable .npz file ({e})") from None


def _vocab_json(vocab_yml: Path) -> bytes:
    """Marian's piece -> id YAML, plus <pad> as the last id, as vocab.json bytes."""
    data = _yaml(read_limited(vocab_yml, MAX_SPM_BYTES), vocab_yml)
    if not isinstance(data, dict):
        raise MarianImportError(vocab_yml, "must map pieces to ids")
    vocab = {str(k): v for k, v in data.items()}
    if "<pad>" in vocab:
        raise MarianImportError(vocab_yml, "already has <pad>; not an OPUS-MT vocabulary")
    vocab["<pad>"] = len(vocab)
    return json.dumps(vocab, ensure_ascii=False).encode("utf-8")


def _model_config(
    model_yml: np.ndarray, shapes: dict, npz: Path, tokenizer: PairTokenizer
) -> ModelConfig:
    cfg = _yaml(model_yml.tobytes().rstrip(b"\0"), npz)
    if not isinstance(cfg, dict):
        raise MarianImportError(npz, f"its {CONFIG_ENTRY} is not a mapping")
    if cfg.get("type", "transformer") != "transformer":
        raise MarianImportError(
            npz, f"is a {cfg.get('type')!r} model; only transformers are supported"
        )
    for key, want in (("transformer-postprocess", "dan"), ("transformer-preprocess", "")):
        if str(cfg.get(key, want) or "") != want:
            raise MarianImportError(npz, f"{key} is {cfg.get(key)!r}; only {want!r} is supported")
    if cfg.get("tied-embeddings-all") is False or EMBEDDING not in shapes:
        raise MarianImportError(npz, "has no shared embedding matrix (Wemb); not supported")
    heads, dim = cfg.get("transformer-heads"), cfg.get("dim-emb")
    wemb = shapes[EMBEDDING]
    if len(wemb) != 2:
        raise MarianImportError(npz, f"Wemb has shape {wemb}, expected a matrix")
    enc = 1 + max(
        (int(k.split("_")[1][1:]) for k in shapes if k.startswith("encoder_l")), default=0
    )
    dec = 1 + max(
        (int(k.split("_")[1][1:]) for k in shapes if k.startswith("decoder_l")), default=0
    )
    return marian_config(
        vocab_size=int(wemb[0]) + 1,  # + <pad>
        d_model=int(dim or wemb[1]),
        enc_layers=int(cfg.get("enc-depth", enc - 1)),
        dec_layers=int(cfg.get("dec-depth", dec - 1)),
        n_heads=int(heads or 0),
        ff_dim=int(cfg.get("transformer-dim-ffn", 0)),
        max_positions=512,
        activation=str(cfg.get("transformer-ffn-activation", "swish")),
        scale_embeddings=True,
        tokenizer=tokenizer,
        where=npz,
    )


def _real(a: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float32))


def _meta(shape: tuple[int, ...]) -> torch.Tensor:
    return torch.empty(shape, device="meta")


def _to_hf(arrays: dict, tensor=_real) -> dict[str, torch.Tensor]:
    """Marian names and layouts -> Hugging Face names (shapes are checked afterwards).
    ``tensor`` makes each tensor: from the array, or (``_meta``) from its shape alone."""
    out: dict[str, torch.Tensor] = {}
    for name, a in arrays.items():
        t = tensor(a)
        if name == EMBEDDING:
            out["shared.weight"] = torch.cat([t, t.new_zeros(1, t.shape[1])])  # <pad> row
        elif name == OUTPUT_BIAS:
            b = t.reshape(-1)
            out["final_logits_bias"] = torch.cat([b, b.new_zeros(1)])
        elif name.startswith(("encoder_l", "decoder_l")):
            side, layer, rest = name.split("_", 2)
            if rest not in _LAYER or not layer[1:].isdigit():
                out[name] = t  # reported as unexpected
                continue
            hf = f"{side}.layers.{int(layer[1:]) - 1}.{_LAYER[rest]}"
            out[hf] = t.reshape(-1) if t.dim() == 1 or 1 in t.shape else t.T.contiguous()
        else:
            out[name] = t
    return out


def read_opus_release(src: Path) -> tuple[ModelConfig, dict[str, torch.Tensor], PairTokenizer]:
    """A release folder or zip -> (config, our state dict, tokenizer)."""
    with tempfile.TemporaryDirectory(prefix="opus-mt-") as tmp:
        folder = _unzip(src, Path(tmp)) if src.is_file() else src
        npz, vocab_yml = _release_files(folder)
        tokenizer = pair_tokenizer(
            read_limited(folder / SOURCE_SPM_FILE, MAX_SPM_BYTES),
            read_limited(folder / TARGET_SPM_FILE, MAX_SPM_BYTES),
            _vocab_json(vocab_yml),
            folder,
        )
        where = Path(src.name) / npz.name if src.is_file() else npz
        check_weights_size(npz)
        headers = npz_headers(npz)
        if CONFIG_ENTRY not in headers:
            raise MarianImportError(where, f"has no {CONFIG_ENTRY} entry (not a Marian model)")
        with np.load(npz, allow_pickle=False) as z:  # the small config entry only
            model_yml = z[CONFIG_ENTRY]
        shapes = {n: shape for n, (shape, _) in headers.items() if n != CONFIG_ENTRY}
        config = _model_config(model_yml, shapes, where, tokenizer)
        # Shapes first, from the headers: nothing large is read for a mismatched file.
        check_shapes(convert_hf(_to_hf(shapes, _meta), where), config, where)
        arrays = _load_npz(npz)
        arrays.pop(CONFIG_ENTRY, None)
    state = convert_hf(_to_hf(arrays), where)
    check_shapes(state, config, where)
    return config, {k: v.contiguous() for k, v in state.items()}, tokenizer

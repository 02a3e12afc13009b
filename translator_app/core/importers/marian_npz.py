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
import re
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import torch

from translator_app.core.importers.marian_common import (
    MAX_WEIGHTS_BYTES,
    MarianImportError,
    check_finite,
    check_shapes,
    check_weights_size,
    marian_config,
    pair_tokenizer,
    read_limited,
    short,
)
from translator_app.core.importers.marian_hf import convert_hf
from translator_app.core.limits import (
    MAX_CONFIG_BYTES,
    MAX_HEADS,
    MAX_LAYERS,
    MAX_SPM_BYTES,
    MAX_VOCAB_YML_BYTES,
    MAX_WIDTH,
)
from translator_app.core.models.config import ModelConfig
from translator_app.core.text.pair_tokenizer import SOURCE_SPM_FILE, TARGET_SPM_FILE, PairTokenizer

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
MAX_ARRAYS = 4096  # a 16-layer model has about 600
MAX_YAML_DEPTH = 16  # Marian's YAML is a mapping of scalars and short lists
# A member that unpacks to more than this many times its packed size (and to more than a
# few MB) is a decompression bomb: weights in float32 hardly compress, YAML about 5x.
MAX_RATIO = 20
_SMALL = 16 * 1024 * 1024
_LAYER_NAME = re.compile(r"(encoder|decoder)_l(\d{1,3})_(.+)")


def _yaml(raw: bytes, where: Path):
    """Parse Marian's YAML safely. Its files are plain mappings and lists, so anchors and
    aliases are refused before anything is built: a few hundred bytes of nested aliases
    (a "billion laughs") otherwise expand into gigabytes, which ``safe_load`` does not
    stop. Nesting is bounded too (the constructor recurses)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    opening = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
    closing = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    try:
        text = raw.decode("utf-8")
        depth = 0
        for event in yaml.parse(text, Loader=loader):  # events only: nothing expanded
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise MarianImportError(
                    where, "uses YAML anchors or aliases, which Marian never writes; refused"
                )
            if isinstance(event, opening):
                depth += 1
                if depth > MAX_YAML_DEPTH:
                    raise MarianImportError(
                        where, f"is nested more than {MAX_YAML_DEPTH} levels deep; refused"
                    )
            elif isinstance(event, closing):
                depth -= 1
        return yaml.load(text, Loader=loader)
    except yaml.YAMLError as e:
        if "flow level" in str(e):  # PyYAML 6.0.4 and later bound the nesting themselves
            raise MarianImportError(where, "is nested too deeply; refused") from None
        raise MarianImportError(where, f"is not a YAML file ({str(e).splitlines()[0]})") from None
    except UnicodeDecodeError as e:
        raise MarianImportError(where, f"is not a YAML file ({e})") from None
    except ValueError as e:  # a 5,000-digit integer
        raise MarianImportError(where, f"holds a value that cannot be read ({e})") from None


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
            seen: set[str] = set()
            for m in members:
                # no folders, no "..", no backslash paths: flat and inside
                name = Path(m.filename.replace("\\", "/")).name
                if not name or name.startswith("."):
                    continue
                if name in seen:
                    raise MarianImportError(zip_path, f"holds two files named {name}; refused")
                seen.add(name)
                limit = MAX_WEIGHTS_BYTES if name.endswith(".npz") else MAX_SPM_BYTES
                if m.file_size > limit:
                    raise MarianImportError(
                        zip_path, f"its {name} unpacks to {m.file_size // 1024**2} MB; refused"
                    )
                check_ratio(m, zip_path, name)
                with z.open(m) as src, open(into / name, "wb") as dst:
                    while block := src.read(1 << 20):  # never more than the stated size
                        dst.write(block)
    except zipfile.BadZipFile as e:
        raise MarianImportError(zip_path, f"is not a readable zip file ({e})") from None
    except OSError as e:
        raise MarianImportError(zip_path, f"cannot be unpacked ({e.strerror or e})") from None
    return into


def check_ratio(member: zipfile.ZipInfo, where: Path, name: str) -> None:
    """Refuse a zip member that unpacks to far more than its packed size."""
    if member.file_size > _SMALL and member.file_size > MAX_RATIO * max(member.compress_size, 1):
        raise MarianImportError(
            where,
            f"its {name} unpacks from {member.compress_size // 1024} KB to "
            f"{member.file_size // 1024**2} MB (a decompression bomb); refused",
        )


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
        cfg = _yaml(read_limited(decoder, MAX_CONFIG_BYTES), decoder) or {}
        if not isinstance(cfg, dict):
            raise MarianImportError(decoder, "must be a mapping (models:, vocabs:)")
        models, vocabs = cfg.get("models") or [], cfg.get("vocabs") or []
        for key, value in (("models", models), ("vocabs", vocabs)):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise MarianImportError(decoder, f"{key} must be a list of file names")
        if len(models) != 1:
            raise MarianImportError(
                decoder, "must name exactly one model (ensembles are not supported)"
            )
        if len(set(vocabs)) > 1:
            raise MarianImportError(
                decoder, "names two vocabularies; only a shared one is supported"
            )
        listed_model, listed_vocab = models[0], vocabs[0] if vocabs else None
    return _pick(folder, "*.npz", listed_model), _pick(folder, "*.vocab.yml", listed_vocab)


def npz_headers(path: Path) -> dict[str, tuple[tuple[int, ...], np.dtype]]:
    """Name -> (shape, dtype) of every array, from the .npy headers alone: nothing is
    allocated, and an object array (a pickle) is refused before anything is read."""
    out = {}
    try:
        with zipfile.ZipFile(path) as z:
            members = z.infolist()
            if len(members) > MAX_ARRAYS:
                raise MarianImportError(path, f"holds more than {MAX_ARRAYS} arrays; refused")
            total = 0
            for member in members:
                name = member.filename.removesuffix(".npy")
                if name in out:
                    raise MarianImportError(path, f"holds two arrays named {name}; refused")
                check_ratio(member, path, f"array {name}")
                with z.open(member) as f:
                    version = np.lib.format.read_magic(f)
                    if version == (1, 0):
                        shape, _, dtype = np.lib.format.read_array_header_1_0(f)
                    else:
                        shape, _, dtype = np.lib.format.read_array_header_2_0(f)
                    header = f.tell()
                if dtype.hasobject:
                    raise MarianImportError(path, f"array {name} holds Python objects; refused")
                _check_dtype(name, dtype, path)
                if any(d < 0 for d in shape):
                    raise MarianImportError(path, f"array {name} has a negative size {shape}")
                size = header + dtype.itemsize * _count(shape)
                if member.file_size != size:  # the header lies about what follows
                    raise MarianImportError(
                        path,
                        f"array {name} holds {member.file_size} bytes, its header "
                        f"implies {size}; the file is corrupt",
                    )
                if name == CONFIG_ENTRY and size > MAX_CONFIG_BYTES:
                    raise MarianImportError(path, f"its {CONFIG_ENTRY} is too large; refused")
                total += size
                if total > MAX_WEIGHTS_BYTES:
                    raise MarianImportError(
                        path, f"unpacks to more than {MAX_WEIGHTS_BYTES // 1024**3} GB; refused"
                    )
                out[name] = (tuple(shape), dtype)
    except (zipfile.BadZipFile, ValueError, OSError, EOFError) as e:
        raise MarianImportError(path, f"is not a readable .npz file ({e})") from None
    return out


def _count(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _check_dtype(name: str, dtype: np.dtype, path: Path) -> None:
    """Weights are floating-point numbers; the configuration entry is bytes of text."""
    if name == CONFIG_ENTRY:
        ok = dtype.kind in "iuS" and dtype.itemsize == 1 and dtype.fields is None
    else:
        ok = dtype.kind == "f" and dtype.fields is None
    if not ok:
        raise MarianImportError(
            path,
            f"array {name} has the data type {dtype.str}, not {'text' if name == CONFIG_ENTRY else 'floating-point numbers'}; refused",
        )


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
    data = _yaml(read_limited(vocab_yml, MAX_VOCAB_YML_BYTES), vocab_yml)
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

    def text(key: str, default: str) -> str:
        value = cfg.get(key, default)
        if value is None:
            return default
        if not isinstance(value, str):
            raise MarianImportError(
                npz, f"its {CONFIG_ENTRY} gives {key} = {short(value)}; expected text"
            )
        return value

    def number(key: str, default: int | None, high: int) -> int:
        value = cfg.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
            raise MarianImportError(
                npz,
                f"its {CONFIG_ENTRY} gives {key} = {short(value)}; expected a whole number "
                f"from 1 to {high}",
            )
        return value

    if text("type", "transformer") != "transformer":
        raise MarianImportError(
            npz, f"is a {short(cfg.get('type'))} model; only transformers are supported"
        )
    for key, want in (("transformer-postprocess", "dan"), ("transformer-preprocess", "")):
        if text(key, want) != want:
            raise MarianImportError(
                npz, f"{key} is {short(cfg.get(key))}; only {want!r} is supported"
            )
    if cfg.get("tied-embeddings-all") is False or EMBEDDING not in shapes:
        raise MarianImportError(npz, "has no shared embedding matrix (Wemb); not supported")
    wemb = shapes[EMBEDDING]
    if len(wemb) != 2 or not all(wemb):
        raise MarianImportError(npz, f"Wemb has shape {wemb}, expected a matrix")
    depth = {"encoder": 0, "decoder": 0}
    for k in shapes:
        m = _LAYER_NAME.fullmatch(k)
        if m:
            depth[m.group(1)] = max(depth[m.group(1)], int(m.group(2)))
        elif k.startswith(("encoder_", "decoder_")) and k != OUTPUT_BIAS:
            raise MarianImportError(npz, f"has an array named {short(k)}, not a Marian layer name")
    return marian_config(
        vocab_size=int(wemb[0]) + 1,  # + <pad>
        d_model=number("dim-emb", int(wemb[1]), MAX_WIDTH),
        enc_layers=number("enc-depth", depth["encoder"] or None, MAX_LAYERS),
        dec_layers=number("dec-depth", depth["decoder"] or None, MAX_LAYERS),
        n_heads=number("transformer-heads", None, MAX_HEADS),
        ff_dim=number("transformer-dim-ffn", None, MAX_WIDTH),
        max_positions=512,
        activation=text("transformer-ffn-activation", "swish"),
        scale_embeddings=True,
        tokenizer=tokenizer,
        where=npz,
    )


def _real(a: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float32))


def _meta(shape: tuple[int, ...]) -> torch.Tensor:
    return torch.empty(shape, device="meta")


def marian_to_hf(arrays: dict, tensor=_real) -> dict[str, torch.Tensor]:
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
        elif (m := _LAYER_NAME.fullmatch(name)) and m.group(3) in _LAYER and int(m.group(2)):
            side, layer, rest = m.groups()
            hf = f"{side}.layers.{int(layer) - 1}.{_LAYER[rest]}"
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
        check_shapes(convert_hf(marian_to_hf(shapes, _meta), where), config, where)
        arrays = _load_npz(npz)
        arrays.pop(CONFIG_ENTRY, None)
        check_finite(arrays, where)
    state = convert_hf(marian_to_hf(arrays), where)
    check_shapes(state, config, where)
    return config, {k: v.contiguous() for k, v in state.items()}, tokenizer

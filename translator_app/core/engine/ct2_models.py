"""Converted CTranslate2 models: a bundle's PyTorch weights written as CTranslate2's
``TransformerSpec`` (:func:`transformer_spec`), and the folders that hold the result.

The alignment head is moved to the front of its layer so that CTranslate2's alignment
(the mean of the first ``alignment_heads`` heads of ``alignment_layer``) is ours.
Converting takes about 0.1 s, so a bundle is converted at its first load into the
user's cache, keyed by the weights' hash, and once only; a bundle may also carry its own
converted model (``ct2/``, stamped with the weights it was made from), used where it
matches. Every converted folder's stamp lists a checksum of each file, so that a damaged
copy is converted again rather than trusted (issue 47).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from translator_app.core.engine.lazy_model import materialised
from translator_app.core.models.config import ModelConfig
from translator_app.core.platform.checksums import sha256_file

if TYPE_CHECKING:  # imported where a model is converted: decoding needs no PyTorch
    import torch

try:  # a base dependency, but the app must still run where a platform has no wheel
    import ctranslate2
except ImportError:  # pragma: no cover - depends on the platform
    ctranslate2 = None

CT2_DIR = "ct2"  # inside a bundle: its own converted model, where it has one
CT2_QUANTIZATION = "int8"  # the smallest; CPU and CUDA run it
ACTIVATIONS = {"relu": "RELU", "silu": "SWISH", "gelu": "GELU"}
_STAMP = "converted_from.json"  # which weights a converted model was made from
VMAP_FILE = "vmap.txt"  # CTranslate2's name for a vocabulary map in a model folder
_TMP_PREFIX = ".converting-"  # a conversion in progress, renamed into place when whole
_STALE_TMP_SECONDS = 600  # a conversion takes seconds: older ones were left by a kill


class Ct2Unavailable(RuntimeError):
    """CTranslate2 is missing or cannot run this model; the PyTorch search is used."""


def supports(cfg: ModelConfig) -> bool:
    """Whether CTranslate2 can decode a model of this configuration."""
    return cfg.arch == "transformer" and cfg.activation in ACTIVATIONS


def vocabulary(tokenizer, size: int) -> list[str]:
    """The model's id -> piece table; ids the tokenizer lacks (an imported model's spare
    rows) get names of their own, since CTranslate2 needs distinct tokens."""
    pieces = [tokenizer.piece(i) for i in range(min(tokenizer.vocab_size, size))]
    pieces += [f"<unused{i}>" for i in range(len(pieces), size)]
    return pieces


def _np(t: torch.Tensor) -> np.ndarray:
    # A copy: the spec's optimisation (quantisation) works in place, and must never
    # write into the PyTorch model's weights.
    return t.detach().float().cpu().numpy().copy()


def _head_order(n: int, head: int, n_heads: int) -> np.ndarray:
    """Indices of ``n`` head-major rows with head ``head``'s block first."""
    blocks = np.arange(n).reshape(n_heads, -1)
    return np.concatenate([blocks[head]] + [blocks[h] for h in range(n_heads) if h != head])


def _move_head_first(attention, head: int, n_heads: int) -> None:
    """Reorder a cross-attention's heads so ``head`` comes first (exact: the heads are
    independent until the output projection, whose input columns move with them)."""
    q, kv, out = attention.linear
    d = q.weight.shape[0]
    rows = _head_order(d, head, n_heads)
    q.weight, q.bias = q.weight[rows], q.bias[rows]
    kv_rows = np.concatenate([rows, d + rows])
    kv.weight, kv.bias = kv.weight[kv_rows], kv.bias[kv_rows]
    out.weight = out.weight[:, rows]


def transformer_spec(model: torch.nn.Module, vocab: list[str]):
    """A CTranslate2 TransformerSpec holding ``model``'s weights (float32)."""
    if ctranslate2 is None:
        raise Ct2Unavailable("CTranslate2 is not installed")
    from ctranslate2.specs import common_spec
    from ctranslate2.specs import transformer_spec as ts

    cfg: ModelConfig = model.config
    if not supports(cfg):
        raise Ct2Unavailable(f"CTranslate2 cannot run a {cfg.arch} model with {cfg.activation}")
    pre = cfg.norm == "pre"
    align_heads = cfg.n_heads if cfg.alignment_head < 0 else 1
    spec = ts.TransformerSpec.from_config(
        (cfg.enc_layers, cfg.dec_layers),
        cfg.n_heads,
        pre_norm=pre,
        activation=getattr(common_spec.Activation, ACTIVATIONS[cfg.activation]),
        alignment_layer=cfg.alignment_layer_index,
        alignment_heads=align_heads,
    )
    w = _StateDict({k: _np(v) for k, v in model.state_dict().items()}, cfg)
    positions = w.sd["pos_embedding.weight"] if cfg.positions == "learned" else _np(model.pos_table)
    _fill_encoder(spec.encoder, w, positions)
    _fill_decoder(spec.decoder, w, positions)
    spec.register_source_vocabulary(vocab)
    spec.register_target_vocabulary(vocab)
    c = spec.config
    c.unk_token, c.bos_token, c.eos_token = (
        vocab[cfg.unk_id],
        vocab[cfg.bos_id],
        vocab[cfg.eos_id],
    )
    c.decoder_start_token = vocab[cfg.start_id]
    c.add_source_bos = c.add_source_eos = False  # the translator adds EOS itself
    c.layer_norm_epsilon = 1e-5  # torch.nn.LayerNorm's
    return spec


class _StateDict:
    """A model's weights as NumPy arrays, written into CTranslate2's spec objects."""

    def __init__(self, sd: dict[str, np.ndarray], cfg: ModelConfig) -> None:
        self.sd, self.cfg = sd, cfg

    def norm(self, spec_ln, prefix: str) -> None:
        spec_ln.gamma, spec_ln.beta = self.sd[prefix + ".weight"], self.sd[prefix + ".bias"]

    def linear(self, spec_lin, prefix: str) -> None:
        spec_lin.weight = self.sd[prefix + ".weight"]
        spec_lin.bias = self.sd[prefix + ".bias"]

    def fused(self, spec_lin, prefixes: Sequence[str]) -> None:
        spec_lin.weight = np.concatenate([self.sd[p + ".weight"] for p in prefixes])
        spec_lin.bias = np.concatenate([self.sd[p + ".bias"] for p in prefixes])

    def ffn(self, spec_ffn, prefix: str, ln: str) -> None:
        self.norm(spec_ffn.layer_norm, ln)
        self.linear(spec_ffn.linear_0, prefix + ".ff.net.0")
        self.linear(spec_ffn.linear_1, prefix + ".ff.net.3")

    def common(self, side, norm_name: str, positions: np.ndarray) -> None:
        side.scale_embeddings = self.cfg.scale_embeddings
        side.position_encodings.encodings = positions
        if self.cfg.norm == "pre":
            self.norm(side.layer_norm, norm_name)


def _fill_encoder(enc, w: _StateDict, positions: np.ndarray) -> None:
    enc.embeddings[0].weight = w.sd["embedding.weight"]
    w.common(enc, "enc_norm", positions)
    for i, layer in enumerate(enc.layer):
        p = f"enc_layers.{i}"
        w.norm(layer.self_attention.layer_norm, p + ".norm1")
        w.fused(layer.self_attention.linear[0], [p + ".attn.q_proj", p + ".attn.kv_proj"])
        w.linear(layer.self_attention.linear[1], p + ".attn.out_proj")
        w.ffn(layer.ffn, p, p + ".norm2")


def _fill_decoder(dec, w: _StateDict, positions: np.ndarray) -> None:
    cfg, sd = w.cfg, w.sd
    dec.embeddings.weight = sd["embedding.weight"]
    w.common(dec, "dec_norm", positions)
    dec.projection.weight = sd["output.weight"] if "output.weight" in sd else sd["embedding.weight"]
    if cfg.output_bias:
        dec.projection.bias = sd["output.bias"]
    for i, layer in enumerate(dec.layer):
        p = f"dec_layers.{i}"
        w.norm(layer.self_attention.layer_norm, p + ".norm1")
        w.fused(layer.self_attention.linear[0], [p + ".self_attn.q_proj", p + ".self_attn.kv_proj"])
        w.linear(layer.self_attention.linear[1], p + ".self_attn.out_proj")
        w.norm(layer.attention.layer_norm, p + ".norm2")
        w.linear(layer.attention.linear[0], p + ".cross_attn.q_proj")
        w.fused(layer.attention.linear[1], [p + ".cross_attn.kv_proj"])
        w.linear(layer.attention.linear[2], p + ".cross_attn.out_proj")
        if i == cfg.alignment_layer_index and cfg.alignment_head > 0:
            _move_head_first(layer.attention, cfg.alignment_head, cfg.n_heads)
        w.ffn(layer.ffn, p, p + ".norm3")


# ------------------------------------------------------------------ converted models
def save_converted(
    model: torch.nn.Module,
    tokenizer,
    out_dir: str | Path,
    quantization: str = CT2_QUANTIZATION,
    weights_sha256: str = "",
    shortlist: str = "",
) -> Path:
    """Convert ``model`` into ``out_dir`` (replaced whole, never left half written), with
    the bundle's vocabulary ``shortlist`` as CTranslate2's ``vmap.txt`` where it has one.
    The stamp records a checksum of every file, so that a damaged copy is noticed."""
    out_dir = Path(out_dir)
    spec = transformer_spec(model, vocabulary(tokenizer, model.config.vocab_size))
    spec.validate()
    spec.optimize(quantization=quantization)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out_dir.parent, prefix=f"{_TMP_PREFIX}{out_dir.name}-"))
    try:
        spec.save(str(tmp))
        if shortlist:
            (tmp / VMAP_FILE).write_text(shortlist, encoding="utf-8")
        stamp = {
            "weights_sha256": weights_sha256,
            "quantization": quantization,
            "shortlist_sha256": _sha(shortlist),
            "ctranslate2": ctranslate2.__version__,
            "files": _file_hashes(tmp),
        }
        (tmp / _STAMP).write_text(json.dumps(stamp, indent=1) + "\n", encoding="utf-8")
        if out_dir.exists():
            shutil.rmtree(out_dir)
        os.replace(tmp, out_dir)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return out_dir


def _stamp(model_dir: Path) -> dict:
    try:
        stamp = json.loads((model_dir / _STAMP).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return stamp if isinstance(stamp, dict) else {}


def _file_hashes(folder: Path) -> dict[str, str]:
    return {
        p.name: sha256_file(p) for p in sorted(folder.iterdir()) if p.is_file() and p.name != _STAMP
    }


def damage(model_dir: Path) -> str:
    """What is wrong with a converted model's files ("" when every file its stamp lists is
    there with its checksum): about 20 ms for the bundled model, paid once per load."""
    files = _stamp(model_dir).get("files")
    if not isinstance(files, dict) or "model.bin" not in files:
        return "it has no checksums of its files"
    for name, sha in files.items():
        path = model_dir / str(name)
        if not path.is_file():
            return f"{name} is missing"
        if sha256_file(path) != sha:
            return f"{name} is damaged"
    return ""


def cache_root() -> Path:
    from translator_app.core.platform.paths import user_cache_dir

    return user_cache_dir() / "ctranslate2"


def remove_stale_temporaries(root: Path, now: float | None = None) -> None:
    """Remove conversion folders a killed process left (older than a conversion takes)."""
    now = time.time() if now is None else now
    try:
        leftovers = [p for p in root.iterdir() if p.name.startswith(_TMP_PREFIX)]
    except OSError:
        return
    for p in leftovers:
        try:
            if now - p.stat().st_mtime > _STALE_TMP_SECONDS:
                shutil.rmtree(p, ignore_errors=True)
        except OSError:
            continue


@dataclass(frozen=True)
class Converted:
    """A converted model's folder and, where the cached copy had to be made again, why."""

    path: Path
    repaired: str = ""


def converted_model(
    bundle_path: Path,
    weights_sha256: str,
    model: Any,
    tokenizer,
    quantization: str = CT2_QUANTIZATION,
    shortlist: str = "",
) -> Converted:
    """The converted model for a bundle: its own ``ct2/`` where that was made from these
    weights in this quantization with this shortlist and is intact, else one in the
    user's cache (converted now if missing, converted again if damaged, so once per
    weights, quantization and shortlist). ``model``: the PyTorch model or a
    :class:`~translator_app.core.engine.lazy_model.LazyModel`, built only to convert."""
    own = Path(bundle_path) / CT2_DIR
    wanted = _wanted(weights_sha256, quantization, shortlist)
    if (own / "model.bin").is_file() and _matches(_stamp(own), wanted) and not damage(own):
        return Converted(own)
    key = hashlib.sha256(":".join(wanted.values()).encode()).hexdigest()[:24]
    root = cache_root()
    remove_stale_temporaries(root)
    cached = root / key
    repaired = ""
    if cached.exists():
        problem = (
            damage(cached) if _matches(_stamp(cached), wanted) else "it was made from other weights"
        )
        if not problem:
            return Converted(cached)
        repaired = f"the converted model in {cached} was made again ({problem})"
    model = materialised(model)
    path = save_converted(model, tokenizer, cached, quantization, weights_sha256, shortlist)
    return Converted(path, repaired)


def has_converted(bundle_path: Path, weights_sha256: str, shortlist: str = "") -> bool:
    """Whether a converted model of these weights (either quantization) is at hand, in
    the bundle or the cache: then the bundle is loaded without PyTorch; else the
    conversion needs the PyTorch model anyway, and one load of it is the quickest
    (its integrity is checked by :func:`converted_model`, when it is used)."""
    if not weights_sha256:
        return False
    for quantization in ("int8", "float32"):
        wanted = _wanted(weights_sha256, quantization, shortlist)
        key = hashlib.sha256(":".join(wanted.values()).encode()).hexdigest()[:24]
        for folder in (Path(bundle_path) / CT2_DIR, cache_root() / key):
            if (folder / "model.bin").is_file() and _matches(_stamp(folder), wanted):
                return True
    return False


def _wanted(weights_sha256: str, quantization: str, shortlist: str) -> dict[str, str]:
    """What a converted model's stamp must say to serve these weights."""
    return {
        "weights_sha256": weights_sha256,
        "quantization": quantization,
        "shortlist_sha256": _sha(shortlist),
    }


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest() if text else ""


def _matches(stamp: dict, wanted: dict) -> bool:
    return all(stamp.get(k) == v for k, v in wanted.items()) and bool(wanted["weights_sha256"])


def state_sha256(model: torch.nn.Module) -> str:
    """A hash of the model's weights (names, shapes and values): the cache key of its
    converted model, for bundles and for models built in memory alike."""
    import torch

    h = hashlib.sha256()
    for name, t in sorted(model.state_dict().items()):
        a = t.detach().cpu().contiguous()
        h.update(f"{name}:{tuple(a.shape)}:{a.dtype}".encode())
        h.update(a.view(torch.uint8).numpy().tobytes() if a.numel() else b"")
    return h.hexdigest()

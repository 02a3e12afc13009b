"""The PyTorch side of bundles: writing one (:func:`save_bundle`), building and
checking the model of one (:func:`load_model`), and placing it on a device. Imported
only where PyTorch is needed: a Transformer translated with CTranslate2 is loaded by
core/engine/bundle.py without it (issue 49)."""

from __future__ import annotations

import json
import os
import shutil
import warnings
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, save_file
from torch.overrides import TorchFunctionMode

from translator_app.core.engine.bundle_files import (
    BundleError,
    check_free_space,
    check_header,
    first_line,
    holds_files,
    rename_no_replace,
)
from translator_app.core.engine.bundle_format import (
    CARD_FILE,
    CONFIG_FILE,
    FORMAT_NAME,
    FORMAT_VERSION,
    METRICS_FILE,
    PAIR_FORMAT_VERSION,
    PAIR_TYPE,
    TERMS_FILE,
    WEIGHTS_FILE,
    DeviceFallbackWarning,
    SearchDefaults,
    raise_if_cancelled,
)
from translator_app.core.faithful.glossary import Glossary, glossary_text
from translator_app.core.limits import MAX_WEIGHT_ABS
from translator_app.core.models.config import ModelConfig
from translator_app.core.models.model import build_model
from translator_app.core.models.seq2seq import EncoderDecoder
from translator_app.core.platform.checksums import sha256_file
from translator_app.core.platform.paths import (
    apply_umask,
    export_tmp_name,
    remove_dead_temporaries,
)
from translator_app.core.text.pair_tokenizer import PairTokenizer
from translator_app.core.text.tokenizer import SPM_FILE, Tokenizer


def tied_aliases(model: torch.nn.Module) -> set[str]:
    """State-dict names of parameters and buffers that are the same tensor as an earlier
    name (tied embeddings); the weights file stores each shared tensor once, under its
    first name. By identity, so that it also works on the meta device (no storage)."""
    seen: set[int] = set()
    aliases = set()
    named = [
        *model.named_parameters(remove_duplicate=False),
        *model.named_buffers(remove_duplicate=False),
    ]
    for name, tensor in named:
        if id(tensor) in seen:
            aliases.add(name)
        seen.add(id(tensor))
    return aliases


def save_bundle(
    out_dir: str | Path,
    model: EncoderDecoder,
    tokenizer: bytes | Tokenizer | PairTokenizer,
    *,
    name: str,
    card: str,
    metrics: dict[str, Any],
    search: SearchDefaults | None = None,
    fp16: bool = False,
    extra: dict[str, Any] | None = None,
    overwrite: bool = False,
    terms: Glossary | None = None,
) -> Path:
    """Write a bundle atomically: into a temporary sibling directory, then renamed, so a
    crash never leaves a half-written bundle under ``out_dir``. ``tokenizer``: a tokenizer,
    or the bytes of a joint ``spm.model``."""
    if isinstance(tokenizer, bytes | bytearray):
        tokenizer = Tokenizer(bytes(tokenizer))
    out_dir = Path(out_dir)
    if not overwrite and holds_files(out_dir):
        raise BundleError(out_dir, "already exists (choose another output directory)")
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    aliases = tied_aliases(model)
    dtype = torch.float16 if fp16 else torch.float32
    tensors = {
        k: v.detach().to("cpu", dtype if v.is_floating_point() else v.dtype).contiguous()
        for k, v in model.state_dict().items()
        if k not in aliases
    }
    check_free_space(out_dir.parent, sum(t.numel() * t.element_size() for t in tensors.values()))
    # Named with our pid, so that the next export (and the app) can remove it after a kill.
    remove_dead_temporaries(out_dir)
    tmp = out_dir.parent / export_tmp_name(out_dir.name)
    tmp.mkdir()
    try:
        try:
            save_file(tensors, str(tmp / WEIGHTS_FILE), metadata={"format": "pt"})
        except (SafetensorError, OSError) as e:
            raise BundleError(
                out_dir, f"could not be written ({e}); free some space there"
            ) from None
        tokenizer_files = tokenizer.files()
        for file_name, content in tokenizer_files.items():
            (tmp / file_name).write_bytes(content)
        config = _config_json(tmp, model, tokenizer, tokenizer_files, name, search, dtype)
        config.update(extra or {})
        (tmp / CONFIG_FILE).write_text(
            json.dumps(config, indent=2, ensure_ascii=False) + "\n", "utf-8"
        )
        (tmp / CARD_FILE).write_text(card if card.endswith("\n") else card + "\n", "utf-8")
        (tmp / METRICS_FILE).write_text(json.dumps(metrics, indent=2) + "\n", "utf-8")
        if terms:
            (tmp / TERMS_FILE).write_text(glossary_text(terms), "utf-8")
        apply_umask(tmp)
        _move_into_place(tmp, out_dir, overwrite)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out_dir


def _config_json(
    tmp: Path,
    model: EncoderDecoder,
    tokenizer: Tokenizer | PairTokenizer,
    tokenizer_files: dict[str, bytes],
    name: str,
    search: SearchDefaults | None,
    dtype: torch.dtype,
) -> dict[str, Any]:
    """config.json of a bundle whose weights and tokenizer files are already in ``tmp``
    (their sizes and checksums are recorded)."""
    if isinstance(tokenizer, PairTokenizer):
        tokenizer_info = {"type": PAIR_TYPE, "files": list(tokenizer_files)}
        version = PAIR_FORMAT_VERSION
    else:
        tokenizer_info = {"type": "sentencepiece", "file": SPM_FILE}
        version = FORMAT_VERSION
    return {
        "format": FORMAT_NAME,
        "format_version": version,
        "name": name,
        "source_language": "de",
        "target_language": "en",
        "model": model.config.to_dict(),
        "tokenizer": {
            **tokenizer_info,
            "vocab_size": tokenizer.vocab_size,
            "byte_fallback": tokenizer.has_byte_fallback(),
            "normalization": "nmt_nfkc",
            **tokenizer.special_ids(),
        },
        "search": asdict(search or SearchDefaults()),
        "weights": {"file": WEIGHTS_FILE, "dtype": str(dtype).removeprefix("torch.")},
        "files": {
            f: {"bytes": (tmp / f).stat().st_size, "sha256": sha256_file(tmp / f)}
            for f in (WEIGHTS_FILE, *tokenizer_files)
        },
    }


def _move_into_place(tmp: Path, out_dir: Path, overwrite: bool) -> None:
    """The written bundle ``tmp`` becomes ``out_dir``: an existing one is replaced only
    with ``overwrite`` (moved aside first, so a crash leaves one of the two whole)."""
    if overwrite and out_dir.exists():
        old = out_dir.with_name(f".{out_dir.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(out_dir, old)
        os.replace(tmp, out_dir)
        shutil.rmtree(old, ignore_errors=True)
    else:
        rename_no_replace(tmp, out_dir)


def resolve_device(device: str | torch.device = "auto") -> tuple[torch.device, list[str]]:
    """Device "auto" -> CUDA when available, else CPU. An unusable CUDA falls back to CPU with a
    warning (returned, and issued as :class:`DeviceFallbackWarning`)."""
    name = str(device)
    if name not in ("auto", "cpu") and not name.startswith("cuda"):
        raise ValueError(f"unknown device {name!r}; use auto, cpu or cuda")
    if name == "cpu" or (name == "auto" and not torch.cuda.is_available()):
        return torch.device("cpu"), []
    if not torch.cuda.is_available():
        return torch.device("cpu"), ["CUDA is not available on this machine; using the CPU"]
    return torch.device("cuda" if name == "auto" else name), []


class _SkipInit(TorchFunctionMode):
    """Initialisers do nothing: on the meta device their values are never used, and
    PyTorch runs them there as Python decompositions that import its compiler (about
    2 s of the app's start-up, issue 49)."""

    NAMES = frozenset(
        [
            "normal_",
            "uniform_",
            "zero_",
            "zeros_",
            "ones_",
            "fill_",
            "constant_",
            "trunc_normal_",
            "kaiming_uniform_",
            "kaiming_normal_",
            "xavier_uniform_",
            "xavier_normal_",
            "orthogonal_",
        ]
    )

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if getattr(func, "__name__", "") in self.NAMES:
            return args[0] if args else kwargs.get("tensor")
        return func(*args, **kwargs)


def _expected_shapes(config: ModelConfig, path: Path) -> dict[str, torch.Tensor]:
    """The tensors ``config`` needs, built on the meta device: shapes and dtypes only,
    nothing allocated, so a config asking for 64 layers of width 16,384 costs nothing."""
    try:
        with torch.device("meta"), _SkipInit():
            model = build_model(config)
    except (RuntimeError, ValueError, MemoryError) as e:
        raise BundleError(path, f"model config cannot be built ({first_line(e)})") from None
    aliases = tied_aliases(model)
    return {k: v for k, v in model.state_dict().items() if k not in aliases}


def _check_weights(path: Path, expected: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Header first (nothing allocated), then the values: finite and of sane size."""
    check_header(path, {k: (tuple(v.shape), v.is_floating_point()) for k, v in expected.items()})
    try:
        tensors = load_file(str(path))
    except (SafetensorError, OSError, ValueError, RuntimeError, MemoryError) as e:
        raise BundleError(path, f"weights cannot be read ({first_line(e)})") from None
    for k, got in tensors.items():
        if not got.is_floating_point() or not got.numel():
            continue
        if not bool(torch.isfinite(got).all()):
            raise BundleError(path, f"tensor {k} contains NaN or infinite values")
        # Finite but absurd values (1e30) break int8 quantisation at translate time.
        if float(got.abs().max()) > MAX_WEIGHT_ABS:
            raise BundleError(
                path, f"tensor {k} holds values beyond ±{MAX_WEIGHT_ABS:g}; the file is corrupt"
            )
    return tensors


def load_model(
    weights: Path, cfg_path: Path, config: ModelConfig, should_stop: Callable[[], bool] | None
) -> EncoderDecoder:
    """The model with the checked weights, in eval mode on the CPU."""
    tensors = _check_weights(weights, _expected_shapes(config, cfg_path))
    raise_if_cancelled(should_stop)
    try:
        with _SkipInit():  # every tensor is then loaded from the checked file
            model = build_model(config)
    except (RuntimeError, MemoryError) as e:  # the weights file was just as large
        raise BundleError(cfg_path, f"the model does not fit in memory ({first_line(e)})") from None
    model.load_state_dict(tensors, strict=False)  # tied aliases are filled by the tie
    model.eval()
    raise_if_cancelled(should_stop)
    return model


def place(
    model: EncoderDecoder, path: Path, device: str | torch.device
) -> tuple[EncoderDecoder, torch.device, list[str]]:
    """The model on ``device`` (CUDA falls back to the CPU, with a note and a warning)."""
    try:
        target, notes = resolve_device(device)
    except ValueError as e:
        raise BundleError(path, str(e)) from None
    if target.type == "cuda":
        try:
            model.to(target)
            torch.zeros(1, device=target).add_(1).item()
        except (RuntimeError, AssertionError) as e:  # driver, OOM or arch mismatch
            model.to("cpu")
            target = torch.device("cpu")
            notes.append(f"could not use CUDA ({str(e).splitlines()[0]}); using the CPU")
    for note in notes:
        warnings.warn(note, DeviceFallbackWarning, stacklevel=3)
    return model, target, notes

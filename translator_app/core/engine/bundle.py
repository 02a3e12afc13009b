"""Model bundles: a directory with fixed file names, safe to load from a stranger.

    config.json        format name and version, model config, tokenizer info, search
                       defaults, and the size and SHA-256 of the two binary files
    model.safetensors  weights (safetensors: plain tensors, no code, unlike pickle)
    spm.model          SentencePiece model (protobuf, no code); an imported Marian model
                       has source.spm, target.spm and vocab.json instead (format
                       version 2, see core/pair_tokenizer)
    MODEL_CARD.md      what the model is, its data, its measured scores
    metrics.json       the measured scores, machine-readable
    terms.tsv          optional: the terms a fine-tune taught (German<TAB>English, as a
                       glossary file), applied to every sentence like the user's glossary
    vmap.txt.xz        optional: CTranslate2's vocabulary shortlist (trainer/shortlist.py),
                       xz-compressed; decoding then scores only the English pieces the
                       sentence's German pieces may become (faster, same output)

:func:`load_bundle` checks everything and raises :class:`BundleError`, one exception type
whose message names the file and the problem (the safe reads and the header and value
checks are in bundle_files.py; the format's names in bundle_format.py; writing a bundle,
and the PyTorch loader, in bundle_torch.py).
"""

from __future__ import annotations

import hashlib
import json
import lzma
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from safetensors import SafetensorError, safe_open

from translator_app.core.data.corpus import DataError
from translator_app.core.engine.bundle_files import (
    BundleError,
    check_header,
    check_values_numpy,
    first_line,
    inside,
    read_bounded,
)
from translator_app.core.engine.bundle_format import (
    CARD_FILE,
    COMMON_FILES,
    CONFIG_FILE,
    FORMAT_NAME,
    METRICS_FILE,
    PAIR_TYPE,
    READABLE_VERSIONS,
    SHORTLIST_FILE,
    TERMS_FILE,
    WEIGHTS_FILE,
    SearchDefaults,
    raise_if_cancelled,
)
from translator_app.core.engine.lazy_model import Device, LazyModel
from translator_app.core.faithful.glossary import Glossary, parse_glossary
from translator_app.core.limits import (
    MAX_CARD_BYTES,
    MAX_CONFIG_BYTES,
    MAX_SHORTLIST_BYTES,
    MAX_SPM_BYTES,
    parse_json,
)
from translator_app.core.models.config import ConfigError, ModelConfig
from translator_app.core.models.shapes import transformer_shapes
from translator_app.core.platform.checksums import sha256_file
from translator_app.core.text.pair_tokenizer import (
    PAIR_FILES,
    VocabularyError,
    tokenizer_from_files,
)
from translator_app.core.text.tokenizer import SPM_FILE, Tokenizer


@dataclass(frozen=True)
class Bundle:
    path: Path
    name: str
    config: ModelConfig
    lazy_model: LazyModel  # the PyTorch model, built on first use (see :attr:`model`)
    tokenizer: Tokenizer
    device: Device
    search: SearchDefaults
    card: str
    metrics: dict[str, Any]
    warnings: tuple[str, ...] = ()
    terms: Glossary = Glossary()  # taught by a fine-tune (terms.tsv)
    shortlist: str = ""  # CTranslate2's vocabulary map (vmap.txt.xz), "" where none
    weights_key: str = ""  # checked weights, config and tokenizer as one hash; "" if unrecorded

    @property
    def model(self) -> Any:
        """The PyTorch ``EncoderDecoder`` (built and checked now where the bundle was
        loaded with ``lazy=True`` and nothing needed it yet)."""
        return self.lazy_model.get()


def _sha256(path: Path, should_stop: Callable[[], bool] | None = None) -> str:
    return sha256_file(path, lambda: raise_if_cancelled(should_stop))


def _read_json(path: Path) -> dict[str, Any]:
    raw = read_bounded(path, MAX_CONFIG_BYTES)
    try:
        data = parse_json(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise BundleError(path, f"is not UTF-8 text ({e.reason} at byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise BundleError(
            path, f"is not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})"
        ) from None
    except ValueError as e:  # nested too deeply
        raise BundleError(path, f"is not a usable JSON file ({e})") from None
    if not isinstance(data, dict):
        raise BundleError(path, "must hold a JSON object")
    return data


def _lazy_device(device: str, config: ModelConfig, weights: Path) -> Device | None:
    """The CPU where the bundle can be loaded without PyTorch: a Transformer that
    CTranslate2 decodes, asked for the CPU (or "auto" on a machine where CTranslate2 sees
    no CUDA device), with float16/float32 weights; else None (the PyTorch loader)."""
    from translator_app.core.engine import ct2

    if str(device) not in ("auto", "cpu") or not ct2.available() or not ct2.supports(config):
        return None
    if str(device) == "auto" and ct2.cuda_devices() > 0:
        return None
    try:
        with safe_open(str(weights), framework="numpy") as f:
            dtypes = {f.get_slice(k).get_dtype() for k in f.keys()}  # noqa: SIM118
    except (SafetensorError, OSError, ValueError, RuntimeError):
        return None  # the PyTorch loader names the problem
    return Device("cpu") if dtypes <= {"F16", "F32"} else None


def load_bundle(
    path: str | Path,
    device: str = "auto",
    should_stop: Callable[[], bool] | None = None,
    lazy: bool = False,
) -> Bundle:
    """Load and validate a bundle directory; see the module docstring for its layout.
    ``should_stop`` is polled between the steps (and while hashing): when it returns True
    the load is abandoned with :class:`LoadCancelled` (the app closing, a newer load).
    ``lazy``: where CTranslate2 will decode the bundle on the CPU, check the weights with
    NumPy and build the PyTorch model only when :attr:`Bundle.model` is first asked for
    (PyTorch is then not imported before the first translation; issue 49)."""
    path = Path(path)
    cfg_path, cfg, config, tokenizer_names = _read_config(path)
    checked = _check_sizes_and_checksums(path, cfg_path, cfg, tokenizer_names, should_stop)
    weights_sha256 = checked.get(WEIGHTS_FILE, "")
    raise_if_cancelled(should_stop)
    tokenizer = _load_tokenizer(path, tokenizer_names, config)
    raise_if_cancelled(should_stop)
    weights = path / WEIGHTS_FILE
    shortlist = _read_shortlist(path)
    target = _lazy_device(device, config, weights) if lazy else None
    # What the converted model is stamped with: the weights, the shape and the tokenizer,
    # whose pieces CTranslate2's converted vocabulary copies.
    key = _weights_key(weights_sha256, config, _tokenizer_sha256(path, tokenizer_names, checked))
    if target is not None and not _converted_at_hand(path, key, shortlist):
        target = None  # converting needs the PyTorch model: build it once, now
    notes: list[str] = []
    if target is not None:
        expected = {k: (shape, True) for k, shape in transformer_shapes(config).items()}
        check_header(weights, expected)
        check_values_numpy(weights)
        model = LazyModel(
            config, str(target), lambda: _torch_model(path, cfg_path, config, weights_sha256)
        )
    else:
        from translator_app.core.engine import bundle_torch

        built = bundle_torch.load_model(weights, cfg_path, config, should_stop)
        built, placed, notes = bundle_torch.place(built, path, device)
        target = Device.parse(str(placed))
        model = LazyModel.of(built, str(target))
    card_path = path / CARD_FILE
    try:
        card = read_bounded(card_path, MAX_CARD_BYTES).decode("utf-8")
    except UnicodeDecodeError:
        raise BundleError(card_path, "is not UTF-8 text") from None
    metrics = _read_json(path / METRICS_FILE)
    try:
        search = SearchDefaults.from_dict(cfg.get("search") or {})
    except (TypeError, ValueError) as e:
        raise BundleError(cfg_path, f"invalid search settings ({e})") from None
    terms = _read_terms(path)
    raise_if_cancelled(should_stop)  # a caller may quantise next, its slowest step
    return Bundle(
        path=path,
        name=str(cfg.get("name") or path.name),
        config=config,
        lazy_model=model,
        tokenizer=tokenizer,
        device=target,
        search=search,
        card=card,
        metrics=metrics,
        warnings=tuple(notes),
        terms=terms,
        shortlist=shortlist,
        weights_key=key,
    )


def _converted_at_hand(path: Path, weights_sha256: str, shortlist: str) -> bool:
    from translator_app.core.engine.ct2_models import has_converted

    return has_converted(path, weights_sha256, shortlist)


def _torch_model(path: Path, cfg_path: Path, config: ModelConfig, weights_sha256: str) -> Any:
    """The PyTorch model of a lazily loaded bundle, on the CPU. The file may have changed
    since the load (the translations come from the weights checked then): its checksum
    is checked again (~30 ms), and the PyTorch loader checks its tensors."""
    from translator_app.core.engine import bundle_torch

    weights = path / WEIGHTS_FILE
    if _sha256(weights) != weights_sha256:
        raise BundleError(
            weights,
            "changed since the model was loaded (its checksum no longer matches "
            "config.json); load the model again",
        )
    return bundle_torch.load_model(weights, cfg_path, config, None)


def _weights_key(weights_sha256: str, config: ModelConfig, tokenizer_sha256: str) -> str:
    """What identifies the model's weights, shape and tokenizer, from the checksums
    already checked (the converted-model cache's key; hashing the loaded tensors again
    cost ~0.1 s at start-up). "" where the bundle records no weights checksum."""
    if not weights_sha256:
        return ""
    shape = json.dumps(config.to_dict(), sort_keys=True)
    return hashlib.sha256(f"{weights_sha256}:{shape}:{tokenizer_sha256}".encode()).hexdigest()


def _tokenizer_sha256(path: Path, names: tuple[str, ...], checked: dict[str, str]) -> str:
    """The tokenizer's files as one checksum: as config.json records them (checked), or
    hashed now where it records none (the SentencePiece files are well under 1 MB)."""
    return ":".join(checked.get(name) or _sha256(path / name) for name in names)


def _read_config(path: Path) -> tuple[Path, dict[str, Any], ModelConfig, tuple[str, ...]]:
    """config.json of a bundle folder, checked: (its path, its content, the model
    config, the tokenizer's file names); every file the bundle needs is present."""
    if not path.exists():
        raise BundleError(path, "no such model directory")
    if not path.is_dir():
        raise BundleError(path, "is not a model directory (expected a folder holding config.json)")
    cfg_path = inside(path, CONFIG_FILE)
    cfg = _read_json(cfg_path)
    if cfg.get("format") != FORMAT_NAME:
        raise BundleError(cfg_path, f"is not a translator bundle (format {cfg.get('format')!r})")
    version = cfg.get("format_version")
    if version not in READABLE_VERSIONS:
        raise BundleError(
            cfg_path,
            f"has format version {version!r}; this program reads versions "
            f"{', '.join(map(str, READABLE_VERSIONS))}",
        )
    pair = (cfg.get("tokenizer") or {}).get("type") == PAIR_TYPE
    tokenizer_names = PAIR_FILES if pair else (SPM_FILE,)
    for name in (*COMMON_FILES, *tokenizer_names):
        inside(path, name)
    try:
        config = ModelConfig.from_dict(cfg.get("model"))
    except (ConfigError, TypeError) as e:
        raise BundleError(cfg_path, str(e)) from None
    return cfg_path, cfg, config, tuple(tokenizer_names)


def _check_sizes_and_checksums(
    path: Path,
    cfg_path: Path,
    cfg: dict[str, Any],
    tokenizer_names: tuple[str, ...],
    should_stop: Callable[[], bool] | None,
) -> dict[str, str]:
    """The weights' and tokenizer's sizes and SHA-256 as config.json records them;
    returns the SHA-256 of each file where it is recorded (and so checked), else ""."""
    files = cfg.get("files") or {}
    if not isinstance(files, dict):
        raise BundleError(cfg_path, '"files" must be a JSON object of file name → size and sha256')
    for name, meta in files.items():
        if name not in (WEIGHTS_FILE, *tokenizer_names):
            continue
        if not isinstance(meta, dict):
            raise BundleError(cfg_path, f'"files"."{name}" must be a JSON object')
        size = (path / name).stat().st_size
        if meta.get("bytes") is not None and size != meta["bytes"]:
            raise BundleError(
                path / name,
                f"is {size} bytes, config.json says {meta['bytes']} (truncated or replaced)",
            )
        if meta.get("sha256") and _sha256(path / name, should_stop) != meta["sha256"]:
            raise BundleError(
                path / name, "checksum does not match config.json (file is corrupt or was replaced)"
            )
    return {
        name: str(meta.get("sha256") or "")
        for name, meta in files.items()
        if name in (WEIGHTS_FILE, *tokenizer_names)
    }


def _load_tokenizer(path: Path, tokenizer_names: tuple[str, ...], config: ModelConfig):
    """The bundle's tokenizer, checked against the model config (size, special ids)."""
    pair = tokenizer_names == tuple(PAIR_FILES)
    spm_path = path / tokenizer_names[0]
    contents = {}
    for name in tokenizer_names:
        contents[name] = read_bounded(path / name, MAX_SPM_BYTES)
        if not contents[name]:
            raise BundleError(path / name, "is empty; not a tokenizer file")
    try:
        tokenizer = tokenizer_from_files(contents)
    except VocabularyError as e:
        raise BundleError(path / PAIR_FILES[-1], str(e)) from None
    except (RuntimeError, OSError) as e:
        raise BundleError(
            spm_path, f"is not a valid SentencePiece model ({first_line(e)})"
        ) from None
    if pair and tokenizer.vocab_size > config.vocab_size:
        raise BundleError(
            spm_path, f"has {tokenizer.vocab_size} pieces but the model only {config.vocab_size}"
        )
    if not pair and tokenizer.vocab_size != config.vocab_size:
        raise BundleError(
            spm_path, f"has {tokenizer.vocab_size} pieces but the model expects {config.vocab_size}"
        )
    for key, value in tokenizer.special_ids().items():
        if getattr(config, key) != value:
            raise BundleError(
                spm_path, f"{key} is {value} but the model was trained with {getattr(config, key)}"
            )
    return tokenizer


def _read_shortlist(path: Path) -> str:
    """The text of ``vmap.txt.xz``, or "" where the bundle has none. Bounded before and
    after decompression (a small file can unpack to gigabytes)."""
    file = path / SHORTLIST_FILE
    if not file.exists():
        return ""
    packed = read_bounded(inside(path, SHORTLIST_FILE), MAX_SHORTLIST_BYTES)
    unpacker = lzma.LZMADecompressor()
    try:
        raw = unpacker.decompress(packed, max_length=MAX_SHORTLIST_BYTES)
    except lzma.LZMAError as e:
        raise BundleError(file, f"is not an xz file ({e})") from None
    if not unpacker.eof:
        raise BundleError(
            file, f"unpacks to more than {MAX_SHORTLIST_BYTES // 2**20} MB, or is cut short"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BundleError(file, "is not UTF-8 text") from None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.count("\t") != 1:
            raise BundleError(
                file, f"line {number}: needs a German piece, a tab and English pieces"
            )
    return text


def write_shortlist(bundle_dir: str | Path, text: str) -> Path:
    """Add (or replace) a bundle's vocabulary shortlist, written atomically."""
    target = Path(bundle_dir) / SHORTLIST_FILE
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_bytes(lzma.compress(text.encode("utf-8"), preset=9))
    os.replace(tmp, target)
    return target


def _read_terms(path: Path) -> Glossary:
    """The taught terms of ``terms.tsv``, or none where the bundle has no such file."""
    if not (path / TERMS_FILE).exists():
        return Glossary()
    raw = read_bounded(inside(path, TERMS_FILE), MAX_CARD_BYTES)
    try:
        taught = parse_glossary(raw.decode("utf-8"), path / TERMS_FILE)
    except UnicodeDecodeError:
        raise BundleError(path / TERMS_FILE, "is not UTF-8 text") from None
    except DataError as e:
        raise BundleError(path / TERMS_FILE, f"line {e.line}: {e.problem}") from None
    return Glossary(tuple(replace(t, kind="taught") for t in taught.terms))

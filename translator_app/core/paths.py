"""Where the app's files live (the bundled model, next to the sources or inside a frozen
app; the per-user folders), and how they are written without ever leaving half a file."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path


def resources_dir() -> Path:
    """``resources/`` of the checkout, or of the PyInstaller bundle when frozen."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root) / "resources"
    return Path(__file__).resolve().parents[2] / "resources"


def bundled_model_dir() -> Path:
    """The default model; ``TRANSLATOR_MODEL`` overrides it (tests, packaging checks)."""
    override = os.environ.get("TRANSLATOR_MODEL")
    return Path(override) if override else resources_dir() / "model"


APP_NAME = "translator-app"


def _user_dir(env: str, kind: str) -> Path:
    """A per-user folder: ``env`` overrides it (tests, portable installs), else
    platformdirs' ``user_<kind>_dir`` (imported late: the trainer runs without it)."""
    override = os.environ.get(env)
    if override:
        return Path(override)
    import platformdirs

    return Path(getattr(platformdirs, f"user_{kind}_dir")(APP_NAME, appauthor=False))


def user_data_dir() -> Path:
    """History and fine-tuned models; ``TRANSLATOR_DATA_DIR`` overrides it."""
    return _user_dir("TRANSLATOR_DATA_DIR", "data")


def user_config_dir() -> Path:
    """Settings; ``TRANSLATOR_CONFIG_DIR`` overrides it."""
    return _user_dir("TRANSLATOR_CONFIG_DIR", "config")


def user_models_dir() -> Path:
    """Where fine-tuned bundles go and where the app looks for them."""
    return user_data_dir() / "models"


def safe_name(name: str, keep_spaces: bool = False) -> str:
    """A model name as a folder name: other characters become ``_``; never hidden or empty
    (the app does not list hidden folders)."""
    allowed = "-_. " if keep_spaces else "-_."
    return "".join(c if c.isalnum() or c in allowed else "_" for c in name).strip("._ ") or "model"


def user_cache_dir() -> Path:
    return _user_dir("TRANSLATOR_CACHE_DIR", "cache")


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to a temporary file beside ``path``, then rename it
    over ``path``: a crash mid-write leaves the previous file intact."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # A plain open (not mkstemp, which makes 0600 files) so the file gets the umask's mode.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def aside_path(path: Path) -> Path:
    """Where a damaged user file is kept: ``NAME.damaged-YYYYmmdd-HHMMSS`` beside it."""
    return path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")


def move_aside(path: Path) -> Path:
    """Move a damaged file out of the way (best effort) and return where it went."""
    aside = aside_path(path)
    with contextlib.suppress(OSError):
        os.replace(path, aside)
    return aside

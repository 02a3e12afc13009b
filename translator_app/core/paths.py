"""Where the bundled model lives: next to the sources, or inside a frozen app."""

from __future__ import annotations

import os
import sys
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


def safe_name(name: str) -> str:
    """A model name as a folder name: other characters become ``_``; never hidden or empty
    (the app does not list hidden folders)."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name).strip("._") or "model"


def user_cache_dir() -> Path:
    return _user_dir("TRANSLATOR_CACHE_DIR", "cache")

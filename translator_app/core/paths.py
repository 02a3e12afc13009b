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


def user_models_dir() -> Path:
    """Where fine-tuned bundles go and where the app looks for them (platformdirs).
    ``TRANSLATOR_DATA_DIR`` overrides the data folder (tests, portable installs)."""
    override = os.environ.get("TRANSLATOR_DATA_DIR")
    if override:
        return Path(override) / "models"
    import platformdirs  # the app's dependency; imported late so the trainer runs without it

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "models"


def user_cache_dir() -> Path:
    override = os.environ.get("TRANSLATOR_CACHE_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))

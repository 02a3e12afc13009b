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

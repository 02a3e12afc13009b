"""The bundled model, for the tests of this folder that translate with it (a test module
that defines its own ``translator`` fixture uses that one)."""

from __future__ import annotations

from pathlib import Path

import pytest

BUNDLE = Path(__file__).parents[2] / "resources" / "model"


@pytest.fixture(scope="module")
def translator():
    """The bundled model's Translator on the CPU, as the app loads it, once per module."""
    from translator_app.core import Translator

    return Translator.load(BUNDLE, device="cpu")

"""One default precision for every way in (issue 62 §4): Translator.load and from_bundle
used fp32 while the command line, the window and Compare used "auto"."""

from __future__ import annotations

from pathlib import Path

from translator_app.core import Translator

BUNDLE = Path(__file__).parents[2] / "resources" / "model"


def test_the_api_loads_as_the_app_does():
    from translator_app.cli import build_parser

    app = build_parser().parse_args(["translate", "x"]).precision
    api = Translator.load(BUNDLE, "cpu")
    assert app == "auto"
    assert api.engine_name == Translator.load(BUNDLE, "cpu", precision=app).engine_name
    assert api.precision == "int8"  # "auto" on the CPU

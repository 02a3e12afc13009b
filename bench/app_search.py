"""What bench_faithful.py and bench_glossary.py share: the model's options, the
translator as the app loads it, the app's default search beside greedy, and the header of
the JSON report (command, model, precision, machine)."""

from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager
from pathlib import Path

from translator_app.core import Translator, bundled_model_dir
from translator_app.core.engine.bundle import load_bundle
from translator_app.core.engine.search import SearchOptions
from translator_app.core.platform.hardware import describe_machine, facts
from translator_app.gui.shared.settings import Settings  # Qt-free: the app's default search


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--model", type=Path, default=None, help="bundle (default: the bundled)")
    ap.add_argument("--precision", default="auto", help="as the app: auto = int8 on the CPU")
    ap.add_argument("--show", type=int, default=0, help="print N misses per run")
    ap.add_argument("--json", type=Path, default=None, help="write the figures here")


def app_translator(
    args: argparse.Namespace, script: str, argv: list[str] | None
) -> tuple[Translator, dict[str, SearchOptions], dict]:
    """(translator, {"greedy", "app default"} search options, report header)."""
    model = args.model or bundled_model_dir()
    translator = Translator.from_bundle(load_bundle(model, "cpu"), precision=args.precision)
    app = Settings()
    searches = {
        "greedy": translator.search_options(beam=1, nbest=1),
        "app default": translator.search_options(beam=app.beam, nbest=app.nbest),
    }
    header = {
        "command": f"bench/{script} " + " ".join(argv if argv is not None else sys.argv[1:]),
        "model": str(model),
        "precision": translator.precision,
        "machine": facts(),
    }
    print(f"{model}, {translator.precision}, {describe_machine()}")
    return translator, searches, header


def translations_with(
    translator: Translator, german: list[str], beam: int, steps: str = "all", stand_ins=None
) -> list[str]:
    """The English of each sentence (the app's way, at ``beam``) with the post-editing
    ``steps`` (core/postedit/pipeline.py: "all,-closing-stop" leaves one out), and each
    (module, name) of ``stand_ins`` (a reading inside a step, not a step) replaced by
    its stand-in for the while: what one step or reading brings, with it and without."""
    with replaced(stand_ins or {}):
        return [t.text for t in translator.translate(german, beam=beam, steps=steps)]


@contextmanager
def replaced(stand_ins: dict):
    """Each (module, name) of ``stand_ins`` replaced by its stand-in for the while."""
    saved = {(module, name): getattr(module, name) for module, name in stand_ins}
    try:
        for (module, name), stand_in in stand_ins.items():
            setattr(module, name, stand_in)
        yield
    finally:
        for (module, name), value in saved.items():
            setattr(module, name, value)

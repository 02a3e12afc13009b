"""``translator-app models list | get NAME | remove NAME``: the published models of the
catalogue (resources/model_catalogue.json), fetched, checked and imported into the user's
models folder; the app then offers them in its Model menu. Nothing is contacted but by
``get``."""

from __future__ import annotations

import argparse
import sys


def add_models(sub) -> None:
    models = sub.add_parser(
        "models",
        help="list, download or remove published models (OPUS-MT)",
        description="The published German→English models the app offers: `list` shows "
        "each with its size, licence and published scores; `get NAME` downloads, checks "
        "and imports one (an interrupted download resumes); `remove NAME` deletes it.",
    )
    verbs = models.add_subparsers(dest="verb", metavar="VERB", required=True)
    verbs.add_parser("list", help="the catalogue, and which models are installed")
    get = verbs.add_parser("get", help="download, check and import a model")
    get.add_argument("name", metavar="NAME", help="the model's name in `models list`")
    remove = verbs.add_parser("remove", help="delete a downloaded model")
    remove.add_argument("name", metavar="NAME", help="the model's name in `models list`")


def run_models(args: argparse.Namespace) -> int:
    """Run the verb; a refused or failed one is one line on stderr and exit 1."""
    from translator_app.core.downloads.catalogue import CatalogueError
    from translator_app.core.downloads.transfer import DownloadError

    try:
        return _run(args)
    except (CatalogueError, DownloadError) as e:
        print(("\n" if sys.stderr.isatty() else "") + f"error: {e}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace) -> int:
    from translator_app.core.downloads.catalogue import find_entry, load_catalogue
    from translator_app.core.downloads.getting import (
        get_model,
        installed_models,
        remove_model,
        speed_text,
    )

    entries = load_catalogue()
    if args.verb == "list":
        have = installed_models()
        for e in entries:
            where = f"installed in {have[e.id]}" if e.id in have else "not installed"
            if e.id in have and (speed := speed_text(have[e.id])):
                where += f"; {speed}"
            print(f"{e.id}: {e.name}, {where}")
            print(f"  {e.download_mb:.0f} MB to download, {e.disk_mb:.0f} MB on disk; {e.licence}")
            print(f"  published: {e.score_text()}; {e.page}")
        return 0
    entry = find_entry(args.name, entries)
    if args.verb == "remove":
        for path in remove_model(entry):
            print(f"removed {path}")
        return 0
    out = get_model(entry, on_progress=_progress_printer())
    if sys.stderr.isatty():
        print(file=sys.stderr)  # end the redrawn progress line
    print(f"{entry.name} installed in {out}")
    return 0


def _progress_printer():
    """Progress on stderr: one line redrawn on a terminal, a line a stage elsewhere."""
    last = {"stage": ""}

    def show(p) -> None:
        if sys.stderr.isatty():
            print(f"\r{p.file}: {p.text()}".ljust(78), end="", file=sys.stderr, flush=True)
        elif p.stage != last["stage"]:
            print(p.text() if p.stage != "downloading" else "downloading…", file=sys.stderr)
        last["stage"] = p.stage

    return show

"""The command line's post-editing steps: ``translate --steps`` chooses them, and
``translator-app steps`` lists them in the order they run (core/postedit/pipeline.py)."""

from __future__ import annotations

import argparse

from translator_app.core.postedit.pipeline import STEPS


def add_steps_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--steps",
        default="all",
        metavar="STEPS",
        help="the post-editing steps after the model's search: all (default), none (the "
        "model's own English, as its reference implementation writes it), names "
        "(umlauts,first-capital) or all less some (all,-judge); `translator-app steps` "
        "lists them",
    )
    parser.add_argument(
        "--english",
        choices=("british", "american"),
        help="write British or American English: spellings, titles and dates ('colour', "
        "'Ms Kowalczyk', '14 June' or 'color', 'Ms. Kowalczyk', 'June 14'); default: as the "
        "model writes (the steps british and american)",
    )


def add_steps(sub) -> None:
    sub.add_parser(
        "steps",
        help="list the post-editing steps, in the order they run",
        description="The steps that act on the model's English, in order: each one's "
        "name (for translate --steps), its stage and what it does.",
    )


def run_steps(args: argparse.Namespace) -> int:
    """Print one line per step: name, stage, what it does."""
    width = max(len(s.name) for s in STEPS)
    for step in STEPS:
        print(f"{step.name:<{width}}  {step.stage:<7}  {step.does}")
    return 0

"""Does the fact check learn the kinds of fact, not its examples? (issue 61, section 1)

    .venv/bin/python bench/bench_fact_kinds.py [--half built|held-out|both] [--show 5]

bench/data/fact-kinds.tsv holds German sentences of four kinds (numbers in words beyond
single words, limits and comparisons, negation, counted nouns), each with a right English
and a wrong one, written after the issue and before the check's new parts. The check was
written looking at the odd data lines only ("built on"); the even lines ("held out") were
not scored until it was done. Per half and kind: recall (wrong English marked) and
precision (marks that fall on wrong English). Floor (issue 61): at least 95 % of the wrong
English marked, in each half.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_trust import Item, print_table, score  # noqa: E402
from halves import read_halves  # noqa: E402

SET = Path(__file__).with_name("data") / "fact-kinds.tsv"
FLOOR = 0.95


def read_items(path: Path = SET) -> dict[str, list[Item]]:
    """The items of the odd data lines ("built on") and the even ones ("held out"); a
    malformed line names the file and line."""
    return read_halves(
        path, 4, "kind, German, right and wrong English", lambda c, n: Item(c[0], n, *c[1:])
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--half", choices=("built", "held-out", "both"), default="both")
    ap.add_argument("--show", type=int, default=5)
    args = ap.parse_args(argv)
    halves = read_items()
    wanted = {"built": ["built on"], "held-out": ["held out"]}.get(args.half, list(halves))
    held = True
    for name in wanted:
        scores = score(halves[name])
        marked = sum(r["marked_wrong"] for r in scores.values())
        total = sum(r["items"] for r in scores.values())
        false = sum(r["marked_right"] for r in scores.values())
        print(f"\n{name}: {marked} of {total} wrong English marked, {false} right ones marked")
        print_table(scores, args.show)
        held &= marked / total >= FLOOR
    print(
        f"\nfloor: {FLOOR:.0%} of the wrong English marked in each half: {'held' if held else 'NOT held'}"
    )
    return 0 if held else 1


if __name__ == "__main__":
    sys.exit(main())

"""Which training data teaches the model to copy German words (issue 60 §1)?

    python scripts/german_left_in_corpora.py [--prepared data/prepared] [--sample 20000]

For each corpus under ``data/prepared/corpora`` (scripts/prepare_data.py), the German
words that its own English references keep (core/faithful/german_left.py, the check
``translator-train eval`` applies to a model's output): per 100 pairs, the share of pairs
with any, and the most frequent words. A corpus whose references copy German teaches
copying; a stage's ``[data] repeat`` multiplies its weight. At most ``--sample`` pairs a
corpus (spread over it) keep the run to a minute.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from trainer.evaluate import spread_subset  # noqa: E402
from translator_app.core.data.corpus import read_all  # noqa: E402
from translator_app.core.faithful.german_left import (  # noqa: E402
    GermanLeftCheck,
    german_left_report,
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--prepared", type=Path, default=ROOT / "data" / "prepared")
    ap.add_argument("--sample", type=int, default=20_000)
    args = ap.parse_args(argv)
    folder = args.prepared / "corpora"
    files = sorted(folder.glob("*.tsv.xz"))
    if not files:
        sys.exit(f"german_left_in_corpora: no corpora in {folder} (run scripts/prepare_data.py)")
    check = GermanLeftCheck.bundled()
    print(f"{'corpus':<18} {'pairs':>8} {'per 100':>8} {'pairs with':>10}  most frequent")
    for path in files:
        pairs = list(read_all([path]))
        idx = spread_subset(len(pairs), args.sample)
        sources = [pairs[i][0] for i in idx]
        report = german_left_report(check, sources, [pairs[i][1] for i in idx], examples=6)
        share = 100 * report["sentences"] / max(len(idx), 1)
        top = ", ".join(f"{w} {n}" for w, n in report["top"].items())
        name = path.name.split(".")[0]
        print(f"{name:<18} {len(idx):>8} {report['per_100']:>8.2f} {share:>9.1f}%  {top}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

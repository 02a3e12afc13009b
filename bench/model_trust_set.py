"""Candidates for bench/data/model-trust.tsv: the bundled model's own English for the German
of bench/data/trust-*.tsv (issue 48's floor asks for the check scored on what the model
writes, not only on English written for the bench).

    .venv/bin/python bench/model_trust_set.py OUT.tsv [--per-category 45]

For each German sentence it keeps up to three distinct English texts (the app's default
search, its n-best, greedy); per category every text the check marks (up to 25) and, filled
up to ``--per-category``, unmarked ones drawn with a fixed seed. The kept/broken column is
then written by a person who reads each line (the file's header says what counts as kept):
the check's own verdict must never be the label.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_trust import read_items  # noqa: E402

from translator_app.core import Translator, bundled_model_dir  # noqa: E402
from translator_app.core.engine.bundle import load_bundle  # noqa: E402
from translator_app.core.faithful.fact_check import missing_facts  # noqa: E402
from translator_app.gui.shared.settings import Settings  # noqa: E402


def model_texts(translator: Translator, germans: list[str]) -> list[tuple[str, list[str]]]:
    """(German, up to three distinct English texts of the model) per sentence."""
    app = Settings()
    greedy = translator.translate(germans, translator.search_options(beam=1, nbest=1))
    wide = translator.translate(germans, translator.search_options(beam=app.beam, nbest=4))
    out = []
    for de, g, w in zip(germans, greedy, wide, strict=True):
        texts = list(
            dict.fromkeys(t for t in [w.text, g.text, *(c.text for c in w.nbest[1:])] if t)
        )
        out.append((de, texts[:3]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--per-category", type=int, default=45)
    args = ap.parse_args()
    translator = Translator.from_bundle(load_bundle(bundled_model_dir(), "cpu"), "auto")
    by_category: dict[str, list[str]] = {}
    for it in read_items():
        by_category.setdefault(it.category, []).append(it.german)
    rng = random.Random(48)
    rows = []
    for category, germans in by_category.items():
        pairs = [
            (de, en)
            for de, ens in model_texts(translator, list(dict.fromkeys(germans)))
            for en in ens
        ]
        marked = [p for p in pairs if missing_facts(*p)][:25]
        unmarked = [p for p in pairs if not missing_facts(*p)]
        rng.shuffle(unmarked)
        chosen = marked + unmarked[: args.per_category - len(marked)]
        rows += [f"{category}\t{de}\t{en}\t" for de, en in chosen]
    args.out.write_text("\n".join(rows) + "\n", encoding="utf-8")
    print(f"{len(rows)} lines written to {args.out}; label each kept or broken")
    return 0


if __name__ == "__main__":
    sys.exit(main())

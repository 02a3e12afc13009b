"""A glossary term after a preposition fused with its article (issue 61 §3): „ins
Schwimmbad“ with Schwimmbad -> swimming pool gave "to swimming pool". The translator now
asks for "the swimming pool" there (core/faithful/glossary.py FUSED_ARTICLES) and the
tokenizer's decode writes a doubled "the" once.

    .venv/bin/python bench/bench_glossary_articles.py [--model DIR]

Translates bench/data/glossary-fused-articles.tsv (German, term, English; written for this
check: one term each, after „ins“, „im“, „zum“, „zur“, „vom“, „beim“, „am“ and, as
controls, after other words) with the app's default search, with the fused-article
request and without it, and prints each English that differs and how many sentences
write "the" before the term's English, and how many write "the the".
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from translator_app.core import Translator  # noqa: E402
from translator_app.core.faithful import glossary as glossary_module  # noqa: E402
from translator_app.core.faithful.glossary import Glossary, Term  # noqa: E402

SET = ROOT / "bench" / "data" / "glossary-fused-articles.tsv"


def translations(translator, rows, fused: frozenset[str]) -> list[str]:
    saved, glossary_module.FUSED_ARTICLES = glossary_module.FUSED_ARTICLES, fused
    try:
        return [
            translator.translate([de], glossary=Glossary((Term(term, en),)))[0].text
            for de, term, en in rows
        ]
    finally:
        glossary_module.FUSED_ARTICLES = saved


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=ROOT / "resources" / "model")
    args = ap.parse_args()
    rows = [line.split("\t") for line in SET.read_text(encoding="utf-8").splitlines() if line]
    translator = Translator.load(args.model)
    runs = {
        "without the request": translations(translator, rows, frozenset()),
        "with it (the app)": translations(translator, rows, glossary_module.FUSED_ARTICLES),
    }
    for i, (de, _, _) in enumerate(rows):
        before, after = (english[i] for english in runs.values())
        if before != after:
            print(f"{de}\n  without: {before}\n  with:    {after}")
    for name, english in runs.items():
        the = sum(
            bool(re.search(rf"\bthe {re.escape(en)}", out, re.IGNORECASE))
            for (_, _, en), out in zip(rows, english, strict=True)
        )
        doubled = sum("the the" in out.lower() for out in english)
        print(f"{name:<20} 'the' + term: {the}/{len(rows)}; 'the the': {doubled}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

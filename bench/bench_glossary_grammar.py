"""A glossary that keeps the grammar around its terms (issue 61 §3): each of the three
steps after the glossary's decode switched off in turn, and the sentences it changes.

- ``articles``: "a"/"an" before a term as its English sounds (core/postedit/term_articles.py);
- ``verbs``: a singular verb after a plural term in the plural (term_articles.py);
- ``repeated``: a term written more often than the German holds it costs the candidate
  (glossary.repeated_terms in core/postedit/judge.py).

    .venv/bin/python bench/bench_glossary_grammar.py [--model DIR]

Sentences: bench/glossary.jsonl (the glossary bench's, one term each) and
bench/data/glossary-grammar.tsv (German, term, English: issue 61's terms and a few more,
written for this check), the app's default search, with the dictionary's words (as
`translator-app translate` and the window's follow-up give them). Prints, per step, each
English it changes (without -> with) and how many.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from translator_app.core import Translator  # noqa: E402
from translator_app.core.faithful.glossary import Glossary, Term  # noqa: E402
from translator_app.core.postedit import judge as faithful_choice  # noqa: E402

GRAMMAR_SET = ROOT / "bench" / "data" / "glossary-grammar.tsv"
GLOSSARY_SET = ROOT / "bench" / "glossary.jsonl"
# what is left out: a post-editing step by name, or a judge's reading replaced by its
# stand-in (module, name, what stands in its place)
STEPS = {
    "articles": "term-articles",
    "verbs": "term-verbs",
    "repeated": (faithful_choice, "repeated_terms", lambda uses, english: 0),
}


def sentences() -> list[tuple[str, str, str]]:
    rows = [json.loads(line) for line in GLOSSARY_SET.read_text("utf-8").splitlines() if line]
    out = [(r["de"], r["term"], r["target"]) for r in rows]
    lines = GRAMMAR_SET.read_text("utf-8").splitlines()
    return out + [tuple(line.split("\t")) for line in lines if line]


def english(model: Translator, rows, steps: str = "all") -> list[str]:
    return [
        model.translate([de], glossary=Glossary((Term(term, target),)), steps=steps)[0].text
        for de, term, target in rows
    ]


def without(model: Translator, rows, left_out) -> list[str]:
    """The English of ``rows`` with the step ``left_out`` (a name, or a stand-in)."""
    if isinstance(left_out, str):
        return english(model, rows, f"all,-{left_out}")
    module, name, stand_in = left_out
    kept = getattr(module, name)
    setattr(module, name, stand_in)
    try:
        return english(model, rows)
    finally:
        setattr(module, name, kept)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=ROOT / "resources" / "model")
    args = ap.parse_args()
    rows = sentences()
    model = Translator.load(args.model)
    with_all = english(model, rows)
    for step, left_out in STEPS.items():
        without_step = without(model, rows, left_out)
        changed = [
            (r[0], a, b) for r, a, b in zip(rows, without_step, with_all, strict=True) if a != b
        ]
        print(f"{step}: {len(changed)} of {len(rows)} sentences changed")
        for de, before, after in changed:
            print(f"  {de}\n    without: {before}\n    with:    {after}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Does the model use the user's terms? The glossary bench of issue 30.

    .venv/bin/python bench/bench_glossary.py [--model DIR] [--precision auto] [--show 10]

Translates the sentences of bench/glossary.jsonl (bench/glossary_set.py: 35 terms no
training data holds in this form, three sentences each, inflected) with the glossary of
those terms and without it, with greedy search and with the app's default search, and
prints the share of sentences whose English uses the term. Issue 30's floor: >= 95 % with
the glossary. A model trained without term annotations cannot take a glossary (only the
"without" rows are measured). ``--json FILE`` writes the figures with the command and the
machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from app_search import add_arguments, app_translator  # noqa: E402
from glossary_set import OUT as SET  # noqa: E402
from glossary_set import glossary_tsv  # noqa: E402

from translator_app.core.faithful.glossary import check_uses, parse_glossary  # noqa: E402
from translator_app.core.platform.paths import write_atomic  # noqa: E402


def term_used(item: dict, english: str) -> bool:
    glossary = parse_glossary(f"{item['term']}\t{item['target']}\n")
    return all(u.kept for u in check_uses(glossary.find(item["de"]), english))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(ap)
    args = ap.parse_args(argv)

    items = [json.loads(line) for line in SET.read_text("utf-8").splitlines() if line]
    glossary = parse_glossary(glossary_tsv(), "bench/glossary_set.py")
    translator, searches, header = app_translator(args, "bench_glossary.py", argv)
    report = {
        **header,
        "sentences": len(items),
        "terms": len(glossary.terms),
        "follows_glossary": translator.follows_glossary,
        "runs": {},
    }
    print(f"{len(items)} sentences, {len(glossary.terms)} terms")
    sources = [item["de"] for item in items]
    runs = [("without glossary", None)]
    if translator.follows_glossary:
        runs.append(("with glossary", glossary))
    else:
        print("this model was not trained with term annotations: it cannot take a glossary")
    for label, g in runs:
        for name, options in searches.items():
            start = time.perf_counter()
            outputs = [t.text for t in translator.translate(sources, options, glossary=g)]
            seconds = time.perf_counter() - start
            used = [term_used(item, en) for item, en in zip(items, outputs, strict=True)]
            share = sum(used) / len(used)
            several = [ok for item, ok in zip(items, used, strict=True) if " " in item["target"]]
            key = f"{label}, {name}"
            report["runs"][key] = {
                "beam": options.beam,
                "terms_used": round(share, 4),
                # the terms whose English has several words (issue 48 §6)
                "multiword_terms_used": round(sum(several) / max(len(several), 1), 4),
                "seconds": round(seconds, 1),
                "misses": [
                    {"de": item["de"], "en": en, "term": item["target"]}
                    for item, en, ok in zip(items, outputs, used, strict=True)
                    if not ok
                ],
            }
            multi = report["runs"][key]["multiword_terms_used"]
            print(
                f"{key:<32} terms used {100 * share:5.1f} % (English of several words "
                f"{100 * multi:5.1f} %)  ({seconds:.0f} s)"
            )
            for miss in report["runs"][key]["misses"][: args.show]:
                print(f"    - {miss['de']}\n      {miss['en']}   (wanted: {miss['term']})")
    if args.json:
        write_atomic(args.json, json.dumps(report, indent=1, ensure_ascii=False) + "\n")
        print(f"written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

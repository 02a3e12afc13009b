"""Does a translation keep the facts? Names, numbers, prices, times, dates, places, codes.

    .venv/bin/python bench/bench_faithful.py [--model DIR] [--precision auto] [--show 10]

Translates the sentences of bench/faithful.jsonl (written by bench/faithful_set.py, kept
out of all training) with greedy search and with the app's default search (the beam and
n-best of the app's default settings; the translator puts first the best candidate that
keeps every number), and prints per category and in total the share of required items
kept and the share of sentences whole (every item kept). Issue 30's floors, for the app's
default search: >= 95 % of items, >= 85 % of sentences. ``--json FILE`` writes the
figures with the command and the machine.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from app_search import add_arguments, app_translator  # noqa: E402

from translator_app.core.cli_common import add_protect_arguments, apply_protect_arguments  # noqa: E402
from translator_app.core.platform.paths import write_atomic  # noqa: E402

SET = Path(__file__).with_name("faithful.jsonl")


@cache
def _pattern(alt: str) -> re.Pattern:
    """``alt`` as a whole token: "1,150" is not found in "11,150" or "1,150.5"."""
    left = r"(?<![\w])(?<!\d[.,])" if alt[0].isalnum() else ""
    right = r"(?![\w])(?![.,]\d)" if alt[-1].isalnum() else ""
    flags = re.IGNORECASE if alt.islower() else 0
    return re.compile(left + re.escape(alt) + right, flags)


def kept(alternatives: list[str], english: str) -> bool:
    return any(_pattern(alt).search(english) for alt in alternatives)


def load_set(path: Path) -> list[dict]:
    items = []
    for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            assert isinstance(item["de"], str) and item["require"]
        except (ValueError, KeyError, AssertionError):
            sys.exit(f"{path}:{number}: not a bench item (de, category, require)")
        items.append(item)
    return items


def score(items: list[dict], outputs: list[str]) -> dict:
    """Per category and in total: items, items kept, sentences, sentences whole."""
    table: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    failures = []
    for item, english in zip(items, outputs, strict=True):
        hits = [kept(alts, english) for alts in item["require"]]
        for key in (item["category"], "all"):
            row = table[key]
            row["items"] += len(hits)
            row["kept"] += sum(hits)
            row["sentences"] += 1
            row["whole"] += all(hits)
        if not all(hits):
            lost = [alts[0] for alts, hit in zip(item["require"], hits, strict=True) if not hit]
            failures.append({"de": item["de"], "en": english, "lost": lost})
    return {
        "by_category": {
            k: {
                **v,
                "items_kept": round(v["kept"] / v["items"], 4),
                "sentences_whole": round(v["whole"] / v["sentences"], 4),
            }
            for k, v in table.items()
        },
        "failures": failures,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", type=Path, default=SET)
    ap.add_argument(
        "--steps",
        default="all",
        help='the post-editing steps (core/postedit/pipeline.py): "all,-placeholders" '
        "measures what one step keeps",
    )
    add_protect_arguments(ap)
    add_arguments(ap)
    args = ap.parse_args(argv)

    items = load_set(args.set)
    translator, searches, header = app_translator(args, "bench_faithful.py", argv)
    apply_protect_arguments(translator, args)
    header["protect_facts"] = translator.protect_facts
    report = {**header, "sentences": len(items), "searches": {}}
    print(f"{len(items)} sentences")
    sources = [item["de"] for item in items]
    for name, options in searches.items():
        start = time.perf_counter()
        outputs = [t.text for t in translator.translate(sources, options, steps=args.steps)]
        seconds = time.perf_counter() - start
        result = score(items, outputs)
        report["searches"][name] = {
            "beam": options.beam,
            "nbest": options.nbest,
            "seconds": round(seconds, 1),
            **result,
        }
        total = result["by_category"]["all"]
        print(
            f"\n{name} (beam {options.beam}, n-best {options.nbest}, {seconds:.0f} s): "
            f"items kept {100 * total['items_kept']:.1f} %, "
            f"sentences whole {100 * total['sentences_whole']:.1f} %"
        )
        print(f"  {'category':<10} {'items kept':>11} {'whole':>8}")
        for cat, row in sorted(result["by_category"].items()):
            if cat != "all":
                print(
                    f"  {cat:<10} {100 * row['items_kept']:>10.1f}% "
                    f"{100 * row['sentences_whole']:>7.1f}%  ({row['sentences']} sentences)"
                )
        for f in result["failures"][: args.show]:
            print(f"    - {f['de']}\n      {f['en']}\n      lost: {', '.join(f['lost'])}")
    if args.json:
        write_atomic(args.json, (json.dumps(report, indent=1, ensure_ascii=False) + "\n").encode())
        print(f"\nwritten to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

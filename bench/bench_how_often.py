"""How often, how many times, which day, open or closed: five readers of the fact check
measured on sentences nobody here wrote (issue 88 §1) — adverbs of frequency
(„werktags“, „täglich“: calendar.tsv kind frequency), factors („verdreifacht“, „das
Doppelte“: language/multiples.py), days as ordinals in words („am dritten Mai“, „zum
Zwanzigsten“: language/amounts.py, given to the model as „am 3. Mai“, „zum 20.“), a
weekday with a time of day („dienstagvormittags“, „am Freitagabend“) and a place open or
closed („Die Apotheke hat heute zu.“: language/opening.py, the verb bracket).

    .venv/bin/python bench/bench_how_often.py [--json F] [--show N] [--dev]

Every pair of the held-out test sets (``--dev``: the dev sets) whose German holds one of
them. Per kind: how many the app's English keeps, how many of the rest it marks, how
many it loses without a mark (before these readers every loss was silent), and the
references the check marks for that kind (false alarms: a reference is right). The
held-out sets' false alarms were read once, after the readers were written, and eight
of ten mended (English ordinals in words, "by the hour", "on a weekday", a factor kept
by its number, „des Wochentags“ a noun); so the false alarms are counted again on three
corpora nobody here read for this (Europarl, the OPUS-100 sample, Tatoeba 2018: no
translation needed, counts only, no sentence printed). For the last two readers those
three corpora were read while they were written (their false alarms printed and mended:
„Hatten wir was auf Englisch auf?“, „ist parallel zu“); the held-out sets were not.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_fact_set import DATA, DEV_SETS  # noqa: E402
from english_said import HELD_OUT_SETS  # noqa: E402

from translator_app.core import Translator, bundled_model_dir  # noqa: E402
from translator_app.core.data.corpus import read_pairs  # noqa: E402
from translator_app.core.faithful.fact_check import all_facts, missing_facts  # noqa: E402
from translator_app.core.faithful.fact_words import FREQUENCY_KEYS  # noqa: E402
from translator_app.core.language.amounts import amounts_in  # noqa: E402
from translator_app.core.language.words import daytimes  # noqa: E402
from translator_app.core.platform.hardware import describe_machine  # noqa: E402

_DAY = re.compile(r"\d+\.")


# The times of day a weekday compounds with („Freitagabend“), from calendar.tsv.
_DAYTIMES = tuple(de.split()[-1].lower() for de, _ in daytimes())


def kind_of(fact, ordinal_days: list[tuple[int, int]]) -> str | None:
    """Which of the five readers found ``fact``, if one did."""
    if fact.kind == "state":
        return "open or closed"
    weekday = fact.kind == "date" and any(re.fullmatch(r"w\d", k) for k in fact.keys)
    if weekday and fact.text.lower().rstrip("s").endswith(_DAYTIMES):
        return "weekday and time of day"
    if any(k.startswith("times") for k in fact.keys):
        return "factor"
    if fact.keys & FREQUENCY_KEYS:
        return "frequency"
    if any(a <= fact.start < b for a, b in ordinal_days):
        return "ordinal day"
    return None


def facts_of(german: str) -> list[tuple[str, object]]:
    days = [(a, b) for a, b, figures in amounts_in(german) if _DAY.fullmatch(figures)]
    return [(k, f) for f in all_facts(german) if (k := kind_of(f, days))]


UNREAD_SETS = (
    "europarl-comtrans/deu-eng.tsv.xz",
    "opus100-sample-deen/opus100-sample.deu-eng.tsv.xz",
    "tatoeba-manythings-2018/deu-eng.no-tatoeba-test.tsv.xz",
)


def references_marked(name: str) -> dict[str, dict[str, int]]:
    """Per kind, the facts in the German of the set ``name`` and how many of them the
    fact check says its reference English loses (false alarms)."""
    table: dict[str, Counter] = {}
    for _, (de, ref) in read_pairs(DATA / name):
        found = facts_of(de)
        if not found:
            continue
        alarms = missing_facts(de, ref)
        for kind, fact in found:
            row = table.setdefault(kind, Counter())
            row["facts"] += 1
            row["references_marked"] += any(g.start == fact.start for g in alarms)
    return {k: dict(v) for k, v in sorted(table.items())}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--show", type=int, default=0, help="print N facts lost or marked")
    ap.add_argument("--dev", action="store_true", help="the dev sets instead")
    args = ap.parse_args(argv)
    sets = DEV_SETS if args.dev else HELD_OUT_SETS
    data = [
        (de, en, found)
        for name in sets
        for _, (de, en) in read_pairs(DATA / name)
        if (found := facts_of(de))
    ]
    unread = {name: references_marked(name) for name in UNREAD_SETS}
    translator = Translator.load(bundled_model_dir(), device="cpu")
    start = time.perf_counter()
    done = [translator.translate([de])[0] for de, _, _ in data]
    seconds = time.perf_counter() - start
    table: dict[str, Counter] = {}
    shown = []
    for (de, ref, found), t in zip(data, done, strict=True):
        lost, alarms = missing_facts(de, t.text), missing_facts(de, ref)
        for kind, fact in found:
            row = table.setdefault(kind, Counter())
            row["facts"] += 1
            if not any(g.start == fact.start for g in lost):
                row["kept"] += 1
            elif any(g.start < fact.end and fact.start < g.end for g in t.issues):
                row["marked"] += 1
                shown.append(("marked", de, t.text))
            else:
                row["silent"] += 1
                shown.append(("silent", de, t.text))
            row["references_marked"] += any(g.start == fact.start for g in alarms)
    report = {
        "command": "bench/bench_how_often.py " + " ".join(argv or sys.argv[1:]),
        "cpu": describe_machine(),
        "sets": list(sets),
        "sentences": len(data),
        "seconds": round(seconds, 1),
        "kinds": {k: dict(v) for k, v in sorted(table.items())},
        "unread_references": unread,
    }
    print(f"{report['cpu']}; {len(data)} sentences of {len(sets)} sets; {seconds:.1f} s")
    print(f"{'kind':<12} {'facts':>5} {'kept':>5} {'marked':>6} {'silent':>6} {'refs marked':>11}")
    for kind, row in sorted(table.items()):
        print(
            f"{kind:<12} {row['facts']:>5} {row['kept']:>5} {row['marked']:>6} "
            f"{row['silent']:>6} {row['references_marked']:>11}"
        )
    print("\nreferences marked on corpora not read for these readers (facts, marked):")
    for name, kinds in unread.items():
        said = ", ".join(f"{k} {v['facts']}, {v['references_marked']}" for k, v in kinds.items())
        print(f"  {name}: {said}")
    for what, de, en in shown[: args.show]:
        print(f"\n{what}: {de}\n  app: {en}")
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

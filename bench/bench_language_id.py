"""How well the step "other-languages" tells German from the languages it keeps as
written (core/language/identify.py), on sets it was not tuned on: the German and the
English of the held-out test sets (the threshold was chosen on newstest2013 and
everyday-dev).

    .venv/bin/python bench/bench_language_id.py [--per-set 1000] [--json F]

For each set: of its German sentences, how many are taken for another language (false
alarms: a German sentence left untranslated), as written and typed in haste (lower
case, no umlauts); of its English sentences, how many are told from German (kept as
written instead of reworded); and the time per sentence, besides the identifier's
load.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.english_said import HELD_OUT_SETS  # noqa: E402
from translator_app.core.data.corpus import read_pairs  # noqa: E402
from translator_app.core.faithful.umlauts import without_umlauts  # noqa: E402
from translator_app.core.language import identify  # noqa: E402
from translator_app.core.platform.hardware import describe_machine  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
OWN_SETS = (
    ROOT / "testsets" / "everyday" / "everyday-test.deu-eng.tsv",
    ROOT / "testsets" / "register" / "register-test.deu-eng.tsv",
)


def measure(per_set: int) -> dict:
    start = time.perf_counter()
    identify.preload()
    report = {"load_seconds": round(time.perf_counter() - start, 2), "sets": {}}
    for path in (*OWN_SETS, *(DATA / name for name in HELD_OUT_SETS)):
        pairs = [pair for _, pair in read_pairs(path)][:per_set]
        german = [de for de, _ in pairs]
        start = time.perf_counter()
        alarms = [de for de in german if identify.other_language(de)]
        ms = 1000 * (time.perf_counter() - start) / max(len(german), 1)
        hasty = [de for de in german if identify.other_language(without_umlauts(de).lower())]
        told = sum(identify.other_language(en) is not None for _, en in pairs)
        name = path.name.split(".")[0]
        report["sets"][path.parent.name if name in ("test", "dev") else name] = {
            "sentences": len(pairs),
            "german_taken_for_another": len(alarms),
            "german_in_haste_taken_for_another": len(hasty),
            "english_told": told,
            "ms_per_sentence": round(ms, 3),
            "alarms": alarms[:5],
        }
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-set", type=int, default=1000)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    report = {
        "command": "bench/bench_language_id.py " + " ".join(argv or sys.argv[1:]),
        "cpu": describe_machine(),
        "languages": list(identify.LANGUAGES),
        "sure": identify.SURE,
        **measure(args.per_set),
    }
    print(f"{report['cpu']}; identifier loaded in {report['load_seconds']} s")
    print(
        f"{'set':28} {'pairs':>6} {'German alarms':>14} {'in haste':>9} {'English told':>13} {'ms':>6}"
    )
    for name, r in report["sets"].items():
        print(
            f"{name:28} {r['sentences']:6} {r['german_taken_for_another']:14} "
            f"{r['german_in_haste_taken_for_another']:9} {r['english_told']:13} "
            f"{r['ms_per_sentence']:6.3f}"
        )
        for alarm in r["alarms"]:
            print(f"    taken for another language: {alarm}")
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

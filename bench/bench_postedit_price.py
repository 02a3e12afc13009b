"""What post-editing costs a user who waits: per-sentence latency of the app's default
search with every step, beside plain greedy CTranslate2 on the same weights, measured
side by side in one run (issue 87: p95 at most 2.5x greedy).

    .venv/bin/python bench/bench_postedit_price.py [--sentences 40] [--runs 3] [--json F]

One sentence per call, as the window asks, the configurations taken in turn for each
sentence (so that a slower minute of the machine costs them alike), each sentence's
fastest of ``--runs`` kept. Configurations: greedy with no steps (the model's own greedy
search), the default search with no steps, the default search with every step up to the
first English (what the window shows first), and with the steps of stage "words" too
(what the command line waits for). Sentences: newstest2019's first ``--sentences``
(news, held out). The engine decodes as many sentences at once as it has workers (two on
two cores: the annotated decode a retry may need runs beside the first,
postedit/facts.first_decode); the last two rows decode one at a time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NEWS = ROOT.parent / "shared" / "data" / "wmt-news-deen" / "newstest2019.deu-eng.tsv.xz"

from translator_app.core import Translator, bundled_model_dir  # noqa: E402
from translator_app.core.data.corpus import read_pairs  # noqa: E402
from translator_app.core.platform.hardware import describe_machine, facts  # noqa: E402

# name -> (search choices, steps, the steps of stage "words" too, decodes at once: the
# engine's workers, or one, as before a second decode could run beside the first)
CONFIGS = {
    "greedy, no steps": ({"beam": 1, "nbest": 1}, "none", True, None),
    "default search, no steps": ({}, "none", True, None),
    "default search, first English": ({}, "all", False, None),
    "default search, all steps": ({}, "all", True, None),
    "first English, one decode at a time": ({}, "all", False, 1),
    "all steps, one decode at a time": ({}, "all", True, 1),
}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=None, help="bundle (default: the bundled)")
    ap.add_argument("--sentences", type=int, default=40)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    german = [de for _, (de, _) in read_pairs(NEWS)][: args.sentences]
    translator = Translator.load(args.model or bundled_model_dir(), device="cpu")
    translator.translate(german[:3])  # warm up: the engine, the dictionary's index
    best = {name: [float("inf")] * len(german) for name in CONFIGS}
    engine = translator.engine
    workers = getattr(engine, "workers", 1)
    for _ in range(args.runs):
        for i, sentence in enumerate(german):
            for name, (choices, steps, words, at_once) in CONFIGS.items():
                if engine is not None:
                    engine.workers = at_once or workers
                start = time.perf_counter()
                translator.translate([sentence], steps=steps, dictionary_words=words, **choices)
                best[name][i] = min(best[name][i], time.perf_counter() - start)
    if engine is not None:
        engine.workers = workers
    base = percentile(best["greedy, no steps"], 0.95)
    report = {
        "command": "bench/bench_postedit_price.py " + " ".join(argv or sys.argv[1:]),
        "cpu": describe_machine(),
        "machine": facts(),
        "engine": translator.engine_name,
        "sentences": len(german),
        "workers": workers,  # decodes at once (CTranslate2's inter_threads)
        "configs": {},
    }
    print(f"{report['cpu']}; {translator.engine_name}; {len(german)} newstest2019 sentences")
    print(f"{'':32} {'median ms':>10} {'p95 ms':>8} {'p95 / greedy':>13}")
    for name, times in best.items():
        p95 = percentile(times, 0.95)
        row = {
            "median_ms": round(1000 * statistics.median(times), 1),
            "p95_ms": round(1000 * p95, 1),
            "p95_ratio_to_greedy": round(p95 / base, 2),
        }
        report["configs"][name] = row
        print(
            f"{name:32} {row['median_ms']:10.1f} {row['p95_ms']:8.1f} "
            f"{row['p95_ratio_to_greedy']:12.2f}x"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What a smaller beam would buy (issue 87: the default search with every step at most
2.5x greedy at p95, within 0.3 BLEU of today's on every test set): for each beam, the
English of every step on held-out sets, its BLEU and chrF (sacrebleu), and its p95
latency per sentence beside the model's own greedy search on the same weights, measured
side by side in one run (each sentence's configurations taken in turn).

    .venv/bin/python bench/bench_beam_price.py [--sentences 300] [--beams 5,4,3,2] [--json F]

Sets: the first ``--sentences`` of the test halves of the everyday and register sets,
newstest2014 and newstest2019 (held out: no step was written on them). One sentence per
call, as the window asks; the command line's English (every step, stage "words" too).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
SETS = {
    "everyday-test": ROOT / "testsets" / "everyday" / "everyday-test.deu-eng.tsv",
    "register-test": ROOT / "testsets" / "register" / "register-test.deu-eng.tsv",
    "newstest2014": DATA / "wmt-news-deen" / "newstest2014.deu-eng.tsv.xz",
    "newstest2019": DATA / "wmt-news-deen" / "newstest2019.deu-eng.tsv.xz",
}

import sacrebleu  # noqa: E402
from bench_postedit_price import percentile  # noqa: E402  (p95 read as that bench reads it)

from translator_app.core import Translator, bundled_model_dir  # noqa: E402
from translator_app.core.data.corpus import read_pairs  # noqa: E402
from translator_app.core.platform.hardware import describe_machine, facts  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=None, help="bundle (default: the bundled)")
    ap.add_argument("--sentences", type=int, default=300)
    ap.add_argument("--beams", default="5,4,3,2", help="beam sizes, the default's first")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    beams = [int(b) for b in args.beams.split(",")]
    translator = Translator.load(args.model or bundled_model_dir(), device="cpu")
    translator.translate(["Guten Morgen, wie geht es Ihnen?"])  # the engine, the dictionary
    report = {
        "command": "bench/bench_beam_price.py " + " ".join(argv or sys.argv[1:]),
        "cpu": describe_machine(),
        "machine": facts(),
        "engine": translator.engine_name,
        "default_beam": translator.search_options().beam,
        "sentences": args.sentences,
        "sets": {},
    }
    print(f"{report['cpu']}; {translator.engine_name}; default beam {report['default_beam']}")
    print(f"{'set':16} {'beam':>4} {'BLEU':>6} {'chrF':>6} {'p95 ms':>7} {'p95 / greedy':>13}")
    for name, path in SETS.items():
        pairs = [pair for _, pair in read_pairs(path)][: args.sentences]
        greedy, times = [], {b: [] for b in beams}
        english: dict[int, list[str]] = {b: [] for b in beams}
        for german, _ in pairs:
            start = time.perf_counter()
            translator.translate([german], steps="none", beam=1, nbest=1)
            greedy.append(time.perf_counter() - start)
            for b in beams:
                start = time.perf_counter()
                (t,) = translator.translate([german], beam=b, nbest=b)
                times[b].append(time.perf_counter() - start)
                english[b].append(t.text)
        refs = [[en for _, en in pairs]]
        base = percentile(greedy, 0.95)
        rows = {}
        for b in beams:
            p95 = percentile(times[b], 0.95)
            rows[str(b)] = {
                "bleu": round(sacrebleu.corpus_bleu(english[b], refs).score, 2),
                "chrf": round(sacrebleu.corpus_chrf(english[b], refs).score, 2),
                "p95_ms": round(1000 * p95, 1),
                "p95_ratio_to_greedy": round(p95 / base, 2),
            }
            r = rows[str(b)]
            print(
                f"{name:16} {b:4d} {r['bleu']:6.2f} {r['chrf']:6.2f} {r['p95_ms']:7.1f} "
                f"{r['p95_ratio_to_greedy']:12.2f}x"
            )
        report["sets"][name] = {"greedy_p95_ms": round(1000 * base, 1), "beams": rows}
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

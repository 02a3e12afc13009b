"""The bundle in both engines, PyTorch and CTranslate2, paired in one process (issue 31).

    .venv/bin/python bench/bench_engines.py [--model DIR] [--sentences 100] [--threads 2]
        [--test ../shared/data/tatoeba-test-deu-eng/tatoeba-test-v2021-08-07.deu-eng.tsv.xz]

Greedy: each of ``--sentences`` news sentences (newstest2019's first, an evaluation set)
goes through every engine in turn (PyTorch fp32 and int8, CTranslate2 fp32 and int8), so
a slow moment of the machine hits all alike; per engine the median ms per sentence, ms
per output token, sentences/s for the whole set as one batch call, and the share of
outputs identical to PyTorch fp32's. Then the app's default search end to end (beam and
n-best of the app's settings with the alignment; the panel's other layers are computed
only when the user picks one, timed apart) on the 20-word sentences of
bench/sentences_de.txt: median and p95, and its ratio to greedy CTranslate2 int8 on the
same sentences; and the load time of each engine to its first
translation. ``--test``: BLEU of each engine on the first ``--test-pairs`` pairs.

Issue 31's floors: greedy int8 ms/token of the app's engine <= CTranslate2 int8's; the
app's default search <= 2x greedy CTranslate2 int8 at p95 (20 words); load <= 1.5 s.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).parent))
from bench_translate import load_sentences, percentile  # noqa: E402

from translator_app.core import Translator, bundled_model_dir  # noqa: E402
from translator_app.core.data.corpus import read_all  # noqa: E402
from translator_app.core.engine.bundle import load_bundle  # noqa: E402
from translator_app.core.platform.hardware import describe_machine, facts  # noqa: E402
from translator_app.core.platform.paths import write_atomic  # noqa: E402
from translator_app.gui.shared.settings import Settings  # noqa: E402  (Qt-free)

NEWS = Path(__file__).parents[2] / "shared/data/wmt-news-deen/newstest2019.deu-eng.tsv.xz"
ENGINES = {
    "PyTorch fp32": ("torch", "fp32"),
    "PyTorch int8": ("torch", "int8"),
    "CTranslate2 fp32": ("ctranslate2", "fp32"),
    "CTranslate2 int8": ("ctranslate2", "int8"),
}


def load(model: Path, engine: str, precision: str) -> tuple[Translator, float]:
    """A translator as the app makes one, and the seconds to its first translation."""
    start = time.perf_counter()
    t = Translator.from_bundle(load_bundle(model, "cpu"), precision, engine)
    t.translate(["Guten Morgen."], beam=1)
    return t, time.perf_counter() - start


def greedy(translators: dict[str, Translator], sentences: list[str]) -> dict:
    times = {name: [] for name in translators}
    tokens = {name: 0 for name in translators}
    outputs = {name: [] for name in translators}
    for s in sentences:
        for name, t in translators.items():
            start = time.perf_counter()
            (out,) = t.translate([s], beam=1)
            times[name].append(time.perf_counter() - start)
            tokens[name] += len(out.target_pieces)
            outputs[name].append(out.best.target_ids)
    report = {}
    ref = outputs["PyTorch fp32"]
    for name, t in translators.items():
        start = time.perf_counter()
        t.translate(sentences, beam=1)
        batch = len(sentences) / (time.perf_counter() - start)
        same = sum(a == b for a, b in zip(outputs[name], ref, strict=True)) / len(ref)
        report[name] = {
            "median_ms": 1000 * statistics.median(times[name]),
            "ms_per_token": 1000 * sum(times[name]) / tokens[name],
            "batch_sentences_per_s": batch,
            "same_as_pytorch_fp32": same,
        }
    return report


def app_search(translators: dict[str, Translator], sentences: list[str], runs: int) -> dict:
    """The app's default search (its alignment; every layer's attention only when the user
    picks another layer or head in the panel: ``explain``, timed apart) against greedy
    CTranslate2 int8, per engine, on the same sentences, interleaved."""
    app = Settings()
    times = {name: [] for name in translators}
    base, explain = [], []
    ct2_int8 = translators["CTranslate2 int8"]
    options = {
        name: t.search_options(beam=app.beam, nbest=app.nbest) for name, t in translators.items()
    }
    for _ in range(runs):
        for s in sentences:
            start = time.perf_counter()
            ct2_int8.translate([s], beam=1)
            base.append(time.perf_counter() - start)
            for name, t in translators.items():
                start = time.perf_counter()
                (done,) = t.translate([s], options[name])
                times[name].append(time.perf_counter() - start)
                if t is ct2_int8:
                    start = time.perf_counter()
                    ct2_int8.explain(done)
                    explain.append(time.perf_counter() - start)
    base_p95 = percentile(base, 0.95)
    report = {
        "greedy CTranslate2 int8": {
            "median_ms": 1000 * statistics.median(base),
            "p95_ms": 1000 * base_p95,
        },
        "panel's other layers (CTranslate2 int8's translator, on request)": {
            "median_ms": 1000 * statistics.median(explain),
            "p95_ms": 1000 * percentile(explain, 0.95),
        },
    }
    for name, values in times.items():
        report[name] = {
            "median_ms": 1000 * statistics.median(values),
            "p95_ms": 1000 * percentile(values, 0.95),
            "p95_over_greedy_ct2_int8": percentile(values, 0.95) / base_p95,
        }
    return report


def bleu(translators: dict[str, Translator], test: Path, pairs: int) -> dict:
    import sacrebleu

    data = list(read_all([test]))[:pairs]
    refs = [[en for _, en in data]]
    out = {}
    for name, t in translators.items():
        hyps = [x.text for x in t.translate([de for de, _ in data], beam=1)]
        out[name] = sacrebleu.corpus_bleu(hyps, refs).score
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--model", type=Path, default=None, help="bundle (default: the bundled)")
    ap.add_argument("--news", type=Path, default=NEWS, help="German sentences (first column)")
    ap.add_argument("--sentences", type=int, default=100)
    ap.add_argument("--runs", type=int, default=2, help="passes over the 20-word sentences")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--test", type=Path, default=None, help="parallel test file for BLEU")
    ap.add_argument("--test-pairs", type=int, default=1000)
    ap.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    model = args.model or bundled_model_dir()
    print(f"{model}; {describe_machine()}; {args.threads} threads")

    translators, loads = {}, {}
    for name, (engine, precision) in ENGINES.items():
        gc.collect()
        translators[name], loads[name] = load(model, engine, precision)
        print(f"load to first translation, {name}: {loads[name]:.2f} s")
    news = [de for de, _ in read_all([args.news])][: args.sentences]
    report = {
        "command": "bench/bench_engines.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "model": str(model),
        "machine": facts(),
        "threads": args.threads,
        "load_s": loads,
        "greedy": greedy(translators, news),
        "app_default_20_words": app_search(translators, load_sentences()[20], args.runs),
    }
    print(f"\ngreedy, {len(news)} sentences of {args.news.name}, one at a time")
    print(
        f"{'engine':<18} {'median ms':>10} {'ms/token':>9} {'batch sent/s':>13} {'same as fp32':>13}"
    )
    for name, r in report["greedy"].items():
        print(
            f"{name:<18} {r['median_ms']:>10.1f} {r['ms_per_token']:>9.2f} "
            f"{r['batch_sentences_per_s']:>13.1f} {100 * r['same_as_pytorch_fp32']:>12.0f} %"
        )
    print(
        "\nthe app's default search (the alignment; the panel's other layers on request), 20-word sentences"
    )
    for name, r in report["app_default_20_words"].items():
        ratio = r.get("p95_over_greedy_ct2_int8")
        print(
            f"{name:<24} median {r['median_ms']:>7.1f} ms  p95 {r['p95_ms']:>7.1f} ms"
            + (f"  ({ratio:.2f}x greedy CTranslate2 int8)" if ratio else "")
        )
    if args.test:
        report["bleu"] = {"test": str(args.test), "pairs": args.test_pairs}
        report["bleu"].update(bleu(translators, args.test, args.test_pairs))
        print(f"\nBLEU, greedy, first {args.test_pairs} pairs of {args.test.name}")
        for name in translators:
            print(f"{name:<18} {report['bleu'][name]:.2f}")
    if args.json:
        write_atomic(args.json, json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Latency, throughput and memory of a model bundle.

    .venv/bin/python bench/bench_translate.py [--model DIR] [--precision fp32 int8 bf16]

Prints, per precision: load time; per-sentence latency (median and p95) to the first
English (what the window shows first) and with the dictionary's words for German words
the model copied (the window's follow-up; the command line waits for both) for 5-, 20- and
50-word German sentences with greedy search, beam 4, and the app's default search (beam
and n-best of the app's default settings with the alignment; the panel's other layers
are computed only when the user picks one); sentences/s for batch translation; peak memory. The product goal: p95 <= 50 ms
for a 20-word sentence, greedy, on 2 CPU cores. ``--json`` also records the command and
the machine (CPU, cores, threads, features, GPU) for the model card.

``--random KEY=VALUE ...`` benchmarks an untrained model of that configuration instead
(for comparing architectures before training). Untrained models rarely stop early, so
their outputs run to the length limit: read those figures per output token.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch

from translator_app.core import Translator, bundled_model_dir
from translator_app.core.engine.bundle import load_bundle
from translator_app.core.engine.bundle_torch import save_bundle
from translator_app.core.engine.search import SearchOptions
from translator_app.core.models.config import ModelConfig
from translator_app.core.models.model import build_model
from translator_app.core.platform.hardware import describe_machine, facts
from translator_app.core.platform.paths import write_atomic
from translator_app.core.text.tokenizer import Tokenizer, train_sentencepiece
from translator_app.gui.shared.settings import Settings  # Qt-free: the app's default search

HERE = Path(__file__).parent


def load_sentences() -> dict[int, list[str]]:
    groups: dict[int, list[str]] = {}
    for line in (HERE / "sentences_de.txt").read_text("utf-8").splitlines():
        if line and not line.startswith("#"):
            words, text = line.split("|", 1)
            groups.setdefault(int(words), []).append(text)
    return groups


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def random_bundle(settings: list[str], spm_path: Path | None, workdir: Path) -> Path:
    """An untrained bundle of the given configuration. Its tokenizer is ``spm_path``, or
    one trained on the benchmark sentences (a few hundred pieces: pass a real ``spm.model``
    to get the output layer's true cost, a large share of each decoding step)."""
    values = {}
    for item in settings:
        key, _, raw = item.partition("=")
        try:
            values[key] = json.loads(raw)
        except json.JSONDecodeError:
            values[key] = raw
    if spm_path:
        spm_bytes = spm_path.read_bytes()
    else:
        text = [s for group in load_sentences().values() for s in group]
        spm_bytes = train_sentencepiece(text * 20, vocab_size=600)
    values["vocab_size"] = Tokenizer(spm_bytes).vocab_size
    model = build_model(ModelConfig.from_dict(values))
    return save_bundle(
        workdir / "random", model, spm_bytes, name="untrained", card="untrained", metrics={}
    )


def searches(translator: Translator) -> dict[str, SearchOptions]:
    """Greedy, beam 4 and what the app asks for with its default settings (the alignment
    only: the panel's other layers are computed when the user picks one)."""
    app = Settings()
    return {
        "beam1": translator.search_options(beam=1),
        "beam4": translator.search_options(beam=4),
        "app": translator.search_options(beam=app.beam, nbest=app.nbest),
    }


def bench(translator: Translator, groups: dict[int, list[str]], runs: int) -> dict:
    """Per search and sentence length: the time to the first English (what the window
    shows; the command line also waits for the follow-up) and to the English with the
    dictionary's words (the follow-up decodes again only the sentences where the model
    copied a German word: ``final_*``)."""
    report = {}
    for name, options in searches(translator).items():
        for words, sentences in sorted(groups.items()):
            translator.translate(sentences[:1], options)  # warm-up
            first, final, out_tokens = [], [], []
            for _ in range(runs):
                for s in sentences:
                    start = time.perf_counter()
                    shown = translator.translate([s], options, dictionary_words=False)
                    first.append(time.perf_counter() - start)
                    (t,) = translator.add_dictionary_words([s], shown, options)
                    final.append(time.perf_counter() - start)
                    out_tokens.append(len(t.target_pieces))
            report[f"{name}_{words}w"] = {
                "words": statistics.mean(len(s.split()) for s in sentences),
                "median_ms": 1000 * statistics.median(first),
                "p95_ms": 1000 * percentile(first, 0.95),
                "final_median_ms": 1000 * statistics.median(final),
                "final_p95_ms": 1000 * percentile(final, 0.95),
                "ms_per_output_token": 1000 * sum(final) / sum(out_tokens),
                "output_tokens": statistics.mean(out_tokens),
            }
    batch = [s for group in groups.values() for s in group] * max(1, runs // 2)
    for beam in (1, 4):
        start = time.perf_counter()
        translator.translate(batch, beam=beam)
        report[f"batch_beam{beam}_sentences_per_s"] = len(batch) / (time.perf_counter() - start)
    return report


def quality(translator: Translator, test: Path) -> dict:
    """sacreBLEU BLEU and chrF of greedy translations of a parallel test file."""
    import sacrebleu

    from translator_app.core.data.corpus import read_all

    pairs = list(read_all([test]))
    hyps = [t.text for t in translator.translate([de for de, _ in pairs], beam=1)]
    refs = [[en for _, en in pairs]]
    return {
        "pairs": len(pairs),
        "bleu": sacrebleu.corpus_bleu(hyps, refs).score,
        "chrf": sacrebleu.corpus_chrf(hyps, refs).score,
    }


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--model", type=Path, default=None, help="bundle directory (default: bundled model)"
    )
    parser.add_argument(
        "--random", nargs="+", metavar="KEY=VALUE", help="benchmark an untrained model config"
    )
    parser.add_argument("--spm", type=Path, help="tokenizer for --random (default: a small one)")
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda", "auto"))
    parser.add_argument(
        "--precision", nargs="+", default=["fp32", "int8"], choices=("fp32", "bf16", "int8")
    )
    parser.add_argument("--runs", type=int, default=5, help="passes over the sentences per figure")
    parser.add_argument(
        "--threads", type=int, default=None, help="torch CPU threads (default: torch's)"
    )
    parser.add_argument(
        "--no-dictionary-words",
        action="store_true",
        help="without the second decode that says words the model copied with the "
        "dictionary's English (the bundle's setting: with it)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument(
        "--test", type=Path, help="parallel test file (TSV, x.de, TMX): BLEU/chrF per precision"
    )
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)

    with tempfile.TemporaryDirectory() as tmp:
        path = (
            random_bundle(args.random, args.spm, Path(tmp))
            if args.random
            else (args.model or bundled_model_dir())
        )
        start = time.perf_counter()
        bundle = load_bundle(path, args.device)
        load_s = time.perf_counter() - start
    groups = load_sentences()
    cfg = bundle.config
    size_mb = (
        sum(f.stat().st_size for f in Path(path).glob("*") if f.is_file()) / 1e6
        if not args.random
        else None
    )
    print(
        f"model: {bundle.name} ({cfg.arch}, {bundle.model.num_parameters / 1e6:.1f} M parameters)"
    )
    print(f"machine: {describe_machine()}; device: {bundle.device}")
    print(
        f"load time: {load_s * 1000:.0f} ms"
        + (f"; bundle size: {size_mb:.1f} MB" if size_mb else "")
    )
    results = {
        "model": bundle.name,
        "arch": cfg.arch,
        "command": " ".join(["bench/bench_translate.py", *sys.argv[1:]]),
        "hardware": facts(),
        "load_ms": load_s * 1000,
        "precisions": {},
    }
    for precision in args.precision:
        translator = Translator.from_bundle(bundle, precision=precision)
        if args.no_dictionary_words:
            translator.dictionary = None
        report = bench(translator, groups, args.runs)
        results["precisions"][precision] = report
        print_report(precision, report)
        if args.test:
            report["quality"] = q = quality(translator, args.test)
            print(
                f"  {args.test.name}: greedy BLEU {q['bleu']:.2f}, chrF {q['chrf']:.2f} ({q['pairs']} pairs)"
            )
    results["peak_rss_mb"] = peak_rss_mb()
    print(f"\npeak memory (RSS): {results['peak_rss_mb']:.0f} MB")
    if torch.cuda.is_available() and bundle.device.type == "cuda":
        results["peak_cuda_mb"] = torch.cuda.max_memory_allocated() / 2**20
        print(f"peak CUDA memory: {results['peak_cuda_mb']:.0f} MB")
    if args.json:
        write_atomic(args.json, json.dumps(results, indent=2) + "\n")
    return 0


def print_report(precision: str, report: dict) -> None:
    print(
        f"\n[{precision}]  latency per sentence (ms)      median      p95"
        "   with dictionary words: median      p95   ms/token  tokens"
    )
    for key, row in report.items():
        if isinstance(row, dict):
            print(
                f"  {key:<12} ({row['words']:4.1f} words)        {row['median_ms']:8.1f} {row['p95_ms']:8.1f}"
                f"                          {row['final_median_ms']:8.1f} {row['final_p95_ms']:8.1f}"
                f" {row['ms_per_output_token']:10.2f} {row['output_tokens']:7.1f}"
            )
    print(
        f"  batch translation: greedy {report['batch_beam1_sentences_per_s']:.1f} sentences/s, "
        f"beam 4 {report['batch_beam4_sentences_per_s']:.1f} sentences/s"
    )


if __name__ == "__main__":
    raise SystemExit(main())

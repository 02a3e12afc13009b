"""How much the English depends on the CPU: one test set translated under each int8 kind
this CPU can run (hardware.int8_kind: CTranslate2's GEMM backend and its instruction set),
each in a process of its own, then compared.

    .venv/bin/python bench/bench_int8_kinds.py [--model DIR] [--test TSV] [--limit N]

Prints, per kind: what a user of such a CPU gets by default or what the tests run, the
sentences whose English differs from the first kind's, BLEU and chrF (sacreBLEU), and
the seconds per sentence. On an Intel CPU the kinds are MKL (CTranslate2's default
there) and oneDNN with and without the tests' AVX2 cap; elsewhere oneDNN at each level
the CPU offers.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from translator_app.core.platform.hardware import cpu_name, cpu_vendor, int8_kind  # noqa: E402

DEFAULT_TEST = ROOT.parent / "shared/data/multi30k/test_2016_flickr.deu-eng.tsv.xz"
# Settings a user or the tests may run under; each kept where it is a kind of its own.
SETTINGS = (
    ("CTranslate2's default", {}),
    ("the tests' (tests/conftest.py)", {"CT2_USE_MKL": "0", "ONEDNN_MAX_CPU_ISA": "AVX2"}),
    ("oneDNN, uncapped", {"CT2_USE_MKL": "0"}),
    ("oneDNN at AVX-512 without VNNI", {"CT2_USE_MKL": "0", "ONEDNN_MAX_CPU_ISA": "AVX512_CORE"}),
    ("Intel MKL", {"CT2_USE_MKL": "1"}),
)
_ALL = ("CT2_USE_MKL", "ONEDNN_MAX_CPU_ISA", "MKL_ENABLE_INSTRUCTIONS", "CT2_FORCE_CPU_ISA")


def kinds() -> list[tuple[str, str, dict]]:
    """(label, kind, environment) for each distinct kind this CPU runs, the default first.
    MKL is tried only on an Intel CPU (it is CTranslate2's choice nowhere else)."""
    out, seen = [], set()
    for label, env in SETTINGS:
        if env.get("CT2_USE_MKL") == "1" and cpu_vendor() != "GenuineIntel":
            continue
        kind = int8_kind(env=env)
        if kind not in seen:
            seen.add(kind)
            out.append((label, kind, env))
    return out


def worker(model: str, test: str, limit: int, out: Path) -> None:
    """Translate the test set's German greedily (int8, the model alone) into ``out``."""
    from translator_app.core import Translator
    from translator_app.core.data.corpus import read_all
    from translator_app.core.engine.bundle import load_bundle

    pairs = [p for p in read_all([Path(test)]) if p[0].strip()][:limit]
    translator = Translator.from_bundle(load_bundle(model, "cpu", None, True), precision="int8")
    start = time.perf_counter()
    hyps = [
        t.text
        for t in translator.translate([de for de, _ in pairs], beam=1, dictionary_words=False)
    ]
    seconds = time.perf_counter() - start
    out.write_text(
        json.dumps({"hyps": hyps, "refs": [en for _, en in pairs], "seconds": seconds}), "utf-8"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default=str(ROOT / "resources" / "model"))
    parser.add_argument("--test", default=str(DEFAULT_TEST))
    parser.add_argument("--limit", type=int, default=1000)
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.model, args.test, args.limit, args.worker)
        return 0
    import sacrebleu

    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for label, kind, env in kinds():
            out = Path(tmp) / f"{len(results)}.json"
            clean = {k: v for k, v in os.environ.items() if k not in _ALL}
            cmd = [sys.executable, __file__, "--model", args.model, "--test", args.test]
            cmd += ["--limit", str(args.limit), "--worker", str(out)]
            subprocess.run(cmd, env=clean | env, check=True)
            results.append((label, kind, env, json.loads(out.read_text("utf-8"))))
    first = results[0][3]["hyps"]
    n = len(first)
    print(f"{Path(args.test).name}, {n} sentences, greedy int8, on {cpu_name()}")
    print(f"(`.venv/bin/python bench/bench_int8_kinds.py --limit {args.limit}`)\n")
    print("| kind | settings | English differs from the first | BLEU | chrF | ms/sentence |")
    print("|---|---|---|---|---|---|")
    for label, kind, env, r in results:
        differ = sum(a != b for a, b in zip(first, r["hyps"], strict=True))
        bleu = sacrebleu.corpus_bleu(r["hyps"], [r["refs"]]).score
        chrf = sacrebleu.corpus_chrf(r["hyps"], [r["refs"]]).score
        settings = " ".join(f"{k}={v}" for k, v in env.items()) or "none"
        print(
            f"| {kind} | {label}: {settings} | {differ} ({100 * differ / n:.1f} %) "
            f"| {bleu:.2f} | {chrf:.2f} | {1000 * r['seconds'] / n:.1f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

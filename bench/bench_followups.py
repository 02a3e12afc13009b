"""What follows a translation in the window, timed beside the translation itself (issue
61, section 4): the dictionary's English for words the model copied
(``Translator.add_dictionary_words``: CTranslate2 again, for those sentences only), every
layer's attention for the panel (``Translator.explain``) and the dropped-words check
(``Translator.check_dropped``), both PyTorch, after CTranslate2's first translation, in
one process as the window runs them.

    .venv/bin/python bench/bench_followups.py [--model DIR] [--sentences 30] [--json FILE]

Each run is a fresh process started as the app starts (``import translator_app`` first,
which sets the OpenMP wait policy); ``--compare ACTIVE`` adds a run with
``OMP_WAIT_POLICY=ACTIVE`` in its environment, the spinning that made the panel lag.
Sentences: the everyday dev set's first ``--sentences`` (two warm-up sentences first).
Floor (issue 61): the slowest follow-up's median within 4x the median translation.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEV = ROOT / "testsets" / "everyday" / "everyday-dev.deu-eng.tsv"
FLOOR = 4.0

CHILD = """
import json, statistics, sys, time
import translator_app  # the app's start: its OpenMP policy before either library loads
from translator_app.core import Translator
model, count = sys.argv[1], int(sys.argv[2])
lines = [l.split("\\t")[0] for l in open(sys.argv[3], encoding="utf-8") if l.strip()]
t = Translator.load(model, precision="auto")
t.prepare_model()  # the window builds PyTorch's model once, on a thread of its own
if t.dictionary is not None:
    t.dictionary.ready(wait=True)  # its index, built once on a first start
times = {"translate": [], "dictionary": [], "explain": [], "check_dropped": []}
for i, german in enumerate(lines[: count + 2]):
    a = time.perf_counter()
    shown = t.translate([german], dictionary_words=False)
    b = time.perf_counter()
    (out,) = t.add_dictionary_words([german], shown)
    c = time.perf_counter()
    t.explain(out)
    d = time.perf_counter()
    t.check_dropped([out])
    e = time.perf_counter()
    if i >= 2:
        for name, secs in zip(times, (b - a, c - b, d - c, e - d)):
            times[name].append(secs * 1000)
print(json.dumps({"engine": t.engine_name, "times": times}))
"""


def run_child(model: Path, count: int, policy: str | None) -> dict:
    env = dict(os.environ)
    env.pop("OMP_WAIT_POLICY", None)
    if policy:
        env["OMP_WAIT_POLICY"] = policy
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(model), str(count), str(DEV)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=1800,
    )
    if done.returncode != 0:
        raise SystemExit(f"the measuring process failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def summarise(label: str, result: dict) -> dict:
    import statistics

    medians = {k: statistics.median(v) for k, v in result["times"].items()}
    slowest = max(medians["dictionary"], medians["explain"], medians["check_dropped"])
    ratio = slowest / medians["translate"]
    print(
        f"{label:<34} {result['engine']:<18} "
        + "".join(f"{medians[k]:>11.1f}" for k in result["times"])
        + f"{ratio:>9.1f}x"
    )
    return {"label": label, "engine": result["engine"], "median_ms": medians, "ratio": ratio}


def main(argv: list[str] | None = None) -> int:
    from translator_app.core.platform.hardware import describe_machine

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=ROOT / "resources" / "model")
    ap.add_argument("--sentences", type=int, default=30)
    ap.add_argument("--compare", default="", help="also run with OMP_WAIT_POLICY set to this")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    print(describe_machine())
    columns = ("translate", "dictionary", "explain", "dropped")
    print(f"{'run':<34} {'engine':<18}" + "".join(f"{c:>11}" for c in columns) + "  (ms)")
    rows = [summarise("as the app starts", run_child(args.model, args.sentences, None))]
    if args.compare:
        label = f"OMP_WAIT_POLICY={args.compare}"
        rows.append(summarise(label, run_child(args.model, args.sentences, args.compare)))
    held = rows[0]["ratio"] <= FLOOR
    print(
        f"slowest follow-up {rows[0]['ratio']:.1f}x the median translation "
        f"(floor {FLOOR:.0f}x): {'held' if held else 'NOT held'}"
    )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0 if held else 1


if __name__ == "__main__":
    sys.exit(main())

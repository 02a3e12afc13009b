"""Teach, measured end to end (issue 33): fine-tune the base model on a small domain set
as the app's Teach does, then print what a user cares about, before and after.

    python bench/bench_teach.py [--effort quick] [--json FILE] [-- extra finetune args]

The domain set (bench/teach/: 64 kitchen-product pairs, 16 terms such as
„Zauberpfanne“ -> "MagicPan", 20 held-out sentences holding them) is written for this
bench and kept out of all training. Printed:

- term use: the share of the bench's terms (bench/teach/terms.tsv) that the model's
  English keeps on the held-out sentences holding them (greedy, as the app translates
  with the model's taught terms);
- BLEU on the held-out pairs;
- general BLEU: the first 1,000 pairs of the Tatoeba v2021 test set, greedy (forgetting;
  resources/teach/general.tsv, the set of the dialog's verdict);
- the minutes the whole fine-tune took (``translator-train finetune``, with start-up,
  term finding, scoring and export), and the CPU.

Floors (issue 33, on 2 CPU cores): quick <= 3 minutes, term use >= 80 %, general BLEU
down by <= 1.0.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from trainer.teach_recipe import score_model  # noqa: E402
from translator_app.core.api.translator import Translator  # noqa: E402
from translator_app.core.data.corpus import read_all  # noqa: E402
from translator_app.core.engine.bundle import load_bundle  # noqa: E402
from translator_app.core.faithful.glossary import read_glossary  # noqa: E402
from translator_app.core.platform.hardware import describe_machine  # noqa: E402

SET = ROOT / "bench" / "teach"


def measure(bundle_path: Path, heldout, general, terms) -> dict:
    translator = Translator.from_bundle(load_bundle(bundle_path, "cpu"))
    scores, done = score_model(translator, heldout, general, terms)
    return {
        "term_use": round(100 * scores["terms_kept"] / scores["terms"], 1),
        "terms_kept": scores["terms_kept"],
        "term_uses": scores["terms"],
        "heldout_bleu": round(scores["bleu"], 2),
        "general_bleu": round(scores["general_bleu"], 2),
        "samples": [t.text for t in done[:4]],
    }


def write_json(args, minutes: float, cpu: str, before: dict, after: dict, verdict: dict):
    """The figures as docs/figures/teach-EFFORT.json holds them (scripts/doc_tables.py)."""
    figures = {
        "effort": args.effort,
        "extra": args.extra,
        "minutes": round(minutes, 2),
        "cpu": cpu,
        "before": before,
        "after": after,
        "verdict": verdict.get("summary", ""),
        "sentences": verdict.get("sentences", {}),
    }
    args.json.write_text(json.dumps(figures, indent=2) + "\n", "utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=ROOT / "resources" / "model")
    ap.add_argument("--effort", default="quick")
    ap.add_argument("--general", type=Path, default=ROOT / "resources" / "teach" / "general.tsv")
    ap.add_argument("--general-pairs", type=int, default=1000)
    ap.add_argument("--json", type=Path, help="also write the figures here")
    ap.add_argument("extra", nargs="*", help="more translator-train finetune arguments")
    args = ap.parse_args()

    heldout = list(read_all([SET / "heldout.tsv"]))
    general = list(read_all([args.general]))[: args.general_pairs]
    terms = read_glossary(SET / "terms.tsv")
    before = measure(args.model, heldout, general, terms)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "taught"
        command = [
            sys.executable,
            "-m",
            "trainer",
            "finetune",
            "--model",
            str(args.model),
            "--data",
            str(SET / "train.tsv"),
            "--report",
            str(SET / "heldout.tsv"),
            "--effort",
            args.effort,
            "--out",
            str(out),
            "--work-dir",
            str(Path(tmp) / "work"),
            *args.extra,
        ]
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
        minutes = (time.perf_counter() - start) / 60
        if done.returncode:
            print(done.stdout[-3000:], done.stderr[-3000:], file=sys.stderr)
            return 1
        after = measure(out, heldout, general, terms)
        verdict = json.loads((out / "metrics.json").read_text("utf-8"))["heldout"]
    cpu = describe_machine()
    print(f"bench_teach: {args.effort}, {' '.join(args.extra) or 'defaults'}; {cpu}")
    print(f"  fine-tune took {minutes:.1f} min (floor for quick: 3)")
    print(f"  {'':24}{'before':>10}{'after':>10}")
    for key, label in [
        ("term_use", "term use % (floor 80)"),
        ("heldout_bleu", "held-out BLEU"),
        ("general_bleu", f"general BLEU ({len(general)})"),
    ]:
        print(f"  {label:24}{before[key]:>10}{after[key]:>10}")
    drop = before["general_bleu"] - after["general_bleu"]
    print(f"  general BLEU change {-drop:+.2f} (floor: down by at most 1.0)")
    print(f"  the dialog's verdict: {verdict.get('summary', '')}")
    if split := verdict.get("sentences"):
        print(
            "  held-out sentences: {better} better, {worse} worse, {same} the same, p {p}".format(
                **split
            )
        )
    for text in after["samples"]:
        print(f"    {text}")
    if args.json:
        write_json(args, minutes, cpu, before, after, verdict)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

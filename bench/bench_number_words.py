"""German numbers in words from thirteen up, on sentences nobody here wrote: the steps
"number-words" (given to the model in digits: core/language/numbers.py, text2num) and
"numbers-in-words" (written back in words: core/postedit/numbers_written.py) on and off.

    .venv/bin/python bench/bench_number_words.py [--per-set 150] [--json F] [--show N]

The sentences are every pair of the held-out test sets below whose German holds a
cardinal in words from thirteen up, found by the reader itself (``with_digits``); the
figures say how often the English keeps the number's value (in digits, or in English
words read by text2num's English reader; a clock time „siebzehn Uhr“ as "5 p.m." too),
and BLEU and chrF against the references (sacrebleu), with all steps, without the
writing back (digits kept), and without both. Each sentence is translated alone, as the
window asks.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import sacrebleu
from text_to_num import alpha2digit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent / "shared" / "data"

from translator_app.core import Translator, bundled_model_dir  # noqa: E402
from translator_app.core.data.corpus import read_pairs  # noqa: E402
from translator_app.core.language.numbers import to_digits  # noqa: E402
from translator_app.core.platform.hardware import describe_machine  # noqa: E402

# Test sets only (never trained on): news, talks, everyday sentences, image captions.
SETS = (
    "wmt-news-deen/newstest2014.deu-eng.tsv.xz",
    "wmt-news-deen/newstest2019.deu-eng.tsv.xz",
    "wmt-news-deen/generaltest2022.deu-eng.tsv.xz",
    "tatoeba-test-deu-eng/tatoeba-test-v2021-08-07.deu-eng.tsv.xz",
    "iwslt2017-deen/test.deu-eng.tsv.xz",
    "multi30k/test_2016_flickr.deu-eng.tsv.xz",
)
CONFIGS = {
    "all steps": "all",
    "digits kept": "all,-numbers-in-words",
    "without both": "all,-number-words,-numbers-in-words",
}
_NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")


def sentences(per_set: int) -> list[tuple[str, str, str]]:
    """(set, German, reference) of the first ``per_set`` pairs of each set whose German
    the step would give in digits."""
    found = []
    for name in SETS:
        pairs = [pair for _, pair in read_pairs(DATA / name)]
        some = [(name, de, en) for de, en in pairs if to_digits(de)]
        found += some[:per_set]
    return found


def values_said(english: str) -> set[float]:
    """The numbers an English text says, in digits or in words (text2num)."""
    read = alpha2digit(english, "en")
    return {float(m.group().replace(",", "")) for m in _NUMBER.finditer(read)}


def kept(german: str, english: str) -> tuple[int, int]:
    """(numbers in words from thirteen up in ``german``, those ``english`` keeps)."""
    said = values_said(english)
    asked = keeps = 0
    for _, end, value in to_digits(german):
        asked += 1
        clock = re.match(r"\s+Uhr\b", german[end:]) and 13 <= value <= 24
        keeps += value in said or bool(
            clock and re.search(rf"(?<!\d){value - 12}(?::\d\d)?\s?p\.?m\b", english, re.I)
        )
    return asked, keeps


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-set", type=int, default=150)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--show", type=int, default=0, help="print N sentences that differ")
    args = ap.parse_args(argv)
    data = sentences(args.per_set)
    translator = Translator.load(bundled_model_dir(), device="cpu")
    translator.translate(["Guten Morgen."])
    refs = [en for _, _, en in data]
    report = {
        "command": "bench/bench_number_words.py " + " ".join(argv or sys.argv[1:]),
        "cpu": describe_machine(),
        "sentences": len(data),
        "sets": {name: sum(s == name for s, _, _ in data) for name in SETS},
        "configs": {},
    }
    outputs = {}
    for label, steps in CONFIGS.items():
        start = time.perf_counter()
        english = [translator.translate([de], steps=steps)[0].text for _, de, _ in data]
        seconds = time.perf_counter() - start
        counts = [kept(de, en) for (_, de, _), en in zip(data, english, strict=True)]
        asked, keeps = sum(a for a, _ in counts), sum(k for _, k in counts)
        outputs[label] = english
        report["configs"][label] = {
            "numbers": asked,
            "kept": keeps,
            "kept_percent": round(100 * keeps / max(asked, 1), 1),
            "bleu": round(sacrebleu.corpus_bleu(english, [refs]).score, 2),
            "chrf": round(sacrebleu.corpus_chrf(english, [refs]).score, 2),
            "seconds": round(seconds, 1),
        }
    refs_kept = [kept(de, en) for _, de, en in data]
    report["references"] = {
        "numbers": sum(a for a, _ in refs_kept),
        "kept": sum(k for _, k in refs_kept),
    }
    print(f"{report['cpu']}; {len(data)} sentences: {report['sets']}")
    print(f"{'':22} {'kept':>12} {'BLEU':>6} {'chrF':>6} {'s':>6}")
    for label, row in report["configs"].items():
        print(
            f"{label:22} {row['kept']:>4}/{row['numbers']:<4} {row['kept_percent']:>5.1f}% "
            f"{row['bleu']:6.2f} {row['chrf']:6.2f} {row['seconds']:6.1f}"
        )
    r = report["references"]
    print(f"{'references':22} {r['kept']:>4}/{r['numbers']:<4} (what the checker reads in them)")
    a, b = outputs["all steps"], outputs["without both"]
    shown = 0
    for (_, de, en), x, y in zip(data, a, b, strict=True):
        if x != y and shown < args.show:
            print(f"\n{de}\n  all:     {x}\n  neither: {y}\n  ref:     {en}")
            shown += 1
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""German amounts the model garbled, on sentences nobody here wrote: the step "amounts"
(fractions, prices and clock times in words, quarter hours, ranges and dates without a
year given to the model in figures: core/language/amounts.py) on and off.

    .venv/bin/python bench/bench_amounts.py [--json F] [--show N]

The sentences are every pair of the held-out test sets below whose German holds such an
amount, found by the reader itself (``amounts_in``); the figures say how often the
English keeps the amount's value, judged here by a reader of its own (text2num's English
reader and one pattern per kind, not the fact check under test), BLEU and chrF against
the references (sacrebleu), and how many sentences the fact check marks. Each sentence
is translated alone, as the window asks.
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
from translator_app.core.faithful.fact_check import missing_facts  # noqa: E402
from translator_app.core.language.amounts import amounts_in  # noqa: E402
from translator_app.core.language.words import months, weekdays  # noqa: E402
from translator_app.core.platform.hardware import describe_machine  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from english_said import (  # noqa: E402
    HELD_OUT_SETS,
    number_word,
)

SETS = HELD_OUT_SETS  # test sets only: never trained on

CONFIGS = {"all steps": "all", "without amounts": "all,-amounts"}
_NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")
_MONTH = {de: en for de, en in months()}


def sentences() -> list[tuple[str, str, str]]:
    """(set, German, reference) of each pair of :data:`SETS` whose German holds an
    amount the step gives in figures."""
    found = []
    for name in SETS:
        found += [(name, de, en) for _, (de, en) in read_pairs(DATA / name) if amounts_in(de)]
    return found


def _said(english: str) -> set[float]:
    """The numbers an English text says, in digits or in words (text2num)."""
    read = alpha2digit(english, "en")
    return {float(m.group().replace(",", "")) for m in _NUMBER.finditer(read)}


def keeps(figures: str, english: str) -> bool:
    """Whether ``english`` says the amount the German gives the model as ``figures``
    (language/amounts.py writes them: "1,5", "20:30 Uhr", "19,99 Euro", "45 Minuten",
    "3 bis 5", "24. Dezember", "jeden Dienstagvormittag", "fast keiner")."""
    said, low = _said(english), english.lower()
    if figures.lower().startswith("fast "):  # „kaum einer“: hardly anyone
        return bool(re.search(r"\b(?:hardly|barely|scarcely|almost no|nearly no|few)", low))
    if m := re.fullmatch(r"jede[ns]? (\w+)", figures, re.IGNORECASE):  # every Tuesday morning
        day = next(en for de, en in weekdays() if m.group(1).startswith(de))
        return day.lower() in low
    if m := re.fullmatch(r"(\d+)\. (\w+)\.?", figures):  # a date
        return float(m.group(1)) in said and _MONTH[m.group(2)].lower() in low
    if m := re.fullmatch(r"(\d+) bis (\d+)", figures):  # a range
        return {float(m.group(1)), float(m.group(2))} <= said
    if m := re.fullmatch(r"(\d+):(\d\d) Uhr", figures):  # a clock time
        h, mi = int(m.group(1)), m.group(2)
        hours = "|".join(str(x) for x in {h, h % 12 or 12})
        return bool(re.search(rf"(?<!\d)(?:{hours})[:.]{mi}\b", english))
    if m := re.fullmatch(r"(\d+) (Minuten|Monaten?)", figures):  # a quarter hour or year
        quarters = {"45": "three quarters of an hour", "15": "quarter of an hour"}
        return float(m.group(1)) in said or quarters.get(m.group(1), "-") in low
    value = figures.split()[0].replace(",", ".")  # a decimal, a price
    whole, _, part = value.partition(".")
    if float(value) in said:
        return True
    if part == "5":  # "4.5", "four and a half", "an hour and a half"
        halves = re.findall(r"\b([\w-]+) (?:([a-z-]+) )?and a half\b", low.replace("-", " "))
        return any(
            int(whole) in (number_word(a), number_word(b)) or (a in ("a", "an") and whole == "1")
            for a, b in halves
        )
    return {float(whole), float(part)} <= said  # "19 euros 99"


def kept(german: str, english: str) -> tuple[int, int]:
    """(amounts in ``german``, those ``english`` keeps)."""
    found = amounts_in(german)
    return len(found), sum(keeps(figures, english) for _, _, figures in found)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--show", type=int, default=0, help="print N sentences that differ")
    args = ap.parse_args(argv)
    data = sentences()
    translator = Translator.load(bundled_model_dir(), device="cpu")
    translator.translate(["Guten Morgen."])
    refs = [en for _, _, en in data]
    report = {
        "command": "bench/bench_amounts.py " + " ".join(argv or sys.argv[1:]),
        "cpu": describe_machine(),
        "sentences": len(data),
        "sets": {name: sum(s == name for s, _, _ in data) for name in SETS},
        "configs": {},
    }
    outputs = {}
    for label, steps in CONFIGS.items():
        start = time.perf_counter()
        done = [translator.translate([de], steps=steps)[0] for _, de, _ in data]
        seconds = time.perf_counter() - start
        english = [t.text for t in done]
        counts = [kept(de, en) for (_, de, _), en in zip(data, english, strict=True)]
        asked, kept_n = sum(a for a, _ in counts), sum(k for _, k in counts)
        outputs[label] = english
        report["configs"][label] = {
            "numbers": asked,
            "kept": kept_n,
            "kept_percent": round(100 * kept_n / max(asked, 1), 1),
            "marked": sum(bool(t.issues) for t in done),
            "bleu": round(sacrebleu.corpus_bleu(english, [refs]).score, 2),
            "chrf": round(sacrebleu.corpus_chrf(english, [refs]).score, 2),
            "seconds": round(seconds, 1),
        }
    refs_kept = [kept(de, en) for _, de, en in data]
    report["references"] = {
        "numbers": sum(a for a, _ in refs_kept),
        "kept": sum(k for _, k in refs_kept),
        "marked": sum(bool(missing_facts(de, en)) for _, de, en in data),
    }
    print(f"{report['cpu']}; {len(data)} sentences: {report['sets']}")
    print(f"{'':18} {'kept':>14} {'marked':>7} {'BLEU':>6} {'chrF':>6} {'s':>6}")
    for label, row in report["configs"].items():
        print(
            f"{label:18} {row['kept']:>4}/{row['numbers']:<4} {row['kept_percent']:>5.1f}% "
            f"{row['marked']:>7} {row['bleu']:6.2f} {row['chrf']:6.2f} {row['seconds']:6.1f}"
        )
    r = report["references"]
    print(
        f"{'references':18} {r['kept']:>4}/{r['numbers']:<4} {'':6} {r['marked']:>7} (false alarms)"
    )
    shown = 0
    for (_, de, en), x, y in zip(data, *outputs.values(), strict=True):
        if x != y and shown < args.show:
            print(f"\n{de}\n  all:     {x}\n  without: {y}\n  ref:     {en}")
            shown += 1
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

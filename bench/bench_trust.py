"""Does the fact check see a broken fact, and leave a kept one alone? (issue 48, section 2)

    .venv/bin/python bench/bench_trust.py [--show 5] [--translate [--model DIR]] [--json FILE]

Each file bench/data/trust-CATEGORY.tsv holds German sentences written for this bench,
each with a right English and a wrong one in which the category's fact is broken (a
number word or unit changed, a clock time turned round, a phone number or IBAN cut, a
date, a negation or a limit lost). For each category it prints how many wrong English
sentences the check marks (recall) and how many of its marks fall on wrong ones
(precision: marks on wrong / marks on wrong and right), with the check of
core/faithful/fact_check.py that the app uses. Floors (issue 48): recall >= 90 % and
precision >= 80 % in every category.

``--translate`` also translates every German sentence with the app's default search and
prints the translations the check marks, for a person to read: how often the bundled
model itself breaks these facts, and whether the marks are right.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from app_search import add_arguments  # noqa: E402

from translator_app.core.faithful.fact_check import missing_facts  # noqa: E402
from translator_app.core.platform.hardware import facts  # noqa: E402

DATA = Path(__file__).with_name("data")
FLOORS = {"recall": 0.90, "precision": 0.80}


@dataclass(frozen=True)
class Item:
    category: str
    line: int
    german: str
    right: str
    wrong: str


def read_items(folder: Path = DATA) -> list[Item]:
    """Every item of bench/data/trust-*.tsv; a malformed line names its file and line."""
    items = []
    for path in sorted(folder.glob("trust-*.tsv")):
        category = path.stem.removeprefix("trust-")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) != 3 or not all(c.strip() for c in cols):
                raise ValueError(f"{path}:{n}: expected German, right and wrong English")
            items.append(Item(category, n, *(c.strip() for c in cols)))
    return items


MODEL_SET = DATA / "model-trust.tsv"


@dataclass(frozen=True)
class Labelled:
    category: str
    line: int
    german: str
    english: str
    broken: bool


def read_labelled(path: Path = MODEL_SET) -> list[Labelled]:
    """The model's own English, labelled by a person (bench/model_trust_set.py)."""
    items = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = [c.strip() for c in line.split("\t")]
        if len(cols) != 4 or cols[3] not in ("kept", "broken"):
            raise ValueError(f"{path}:{n}: expected category, German, English, kept|broken")
        items.append(Labelled(cols[0], n, cols[1], cols[2], cols[3] == "broken"))
    return items


def score_labelled(items: list[Labelled]) -> dict[str, dict]:
    """As :func:`score`, on the model's own labelled English: recall over the broken ones,
    precision over the marked ones."""
    out: dict[str, dict] = {}
    for it in items:
        row = out.setdefault(
            it.category,
            {
                "items": 0,
                "broken": 0,
                "marked_wrong": 0,
                "marked_right": 0,
                "missed": [],
                "false": [],
            },
        )
        row["items"] += 1
        row["broken"] += it.broken
        lost = [f.text for f in missing_facts(it.german, it.english)]
        if lost and it.broken:
            row["marked_wrong"] += 1
        elif lost:
            row["marked_right"] += 1
            row["false"].append((it, lost))
        elif it.broken:
            row["missed"].append(it)
    for row in out.values():
        marks = row["marked_wrong"] + row["marked_right"]
        row["recall"] = row["marked_wrong"] / row["broken"] if row["broken"] else 1.0
        row["precision"] = row["marked_wrong"] / marks if marks else 1.0
    return out


def score(items: list[Item]) -> dict[str, dict]:
    """Per category: items, marks on wrong (true), marks on right (false), recall,
    precision, and the misses and false marks for --show."""
    out: dict[str, dict] = {}
    for it in items:
        row = out.setdefault(
            it.category,
            {"items": 0, "marked_wrong": 0, "marked_right": 0, "missed": [], "false": []},
        )
        row["items"] += 1
        if missing_facts(it.german, it.wrong):
            row["marked_wrong"] += 1
        else:
            row["missed"].append(it)
        lost = missing_facts(it.german, it.right)
        if lost:
            row["marked_right"] += 1
            row["false"].append((it, [f.text for f in lost]))
    for row in out.values():
        marks = row["marked_wrong"] + row["marked_right"]
        row["recall"] = row["marked_wrong"] / row["items"]
        row["precision"] = row["marked_wrong"] / marks if marks else 0.0
    return out


def print_table(scores: dict[str, dict], show: int) -> bool:
    print(f"{'category':<14} {'items':>5} {'recall':>7} {'precision':>9}  floors met")
    ok_all = True
    for category, row in scores.items():
        ok = row["recall"] >= FLOORS["recall"] and row["precision"] >= FLOORS["precision"]
        ok_all &= ok
        print(
            f"{category:<14} {row['items']:>5} {row['recall']:>7.1%} {row['precision']:>9.1%}"
            f"  {'yes' if ok else 'NO'}"
        )
        for it in row["missed"][:show]:
            print(f"    not marked (line {it.line}): {it.german} -> {_english(it, False)}")
        for it, lost in row["false"][:show]:
            print(
                f"    marked though right (line {it.line}): {it.german} -> {_english(it, True)} {lost}"
            )
    return ok_all


def _english(it, right: bool) -> str:
    if isinstance(it, Labelled):
        return it.english
    return it.right if right else it.wrong


def model_marks(items: list[Item], args, argv) -> tuple[list[tuple[str, str, list[str]]], dict]:
    """The bundled model's translations (the app's default search) that the check
    marks: (German, English, lost), and the report header (command, model, machine)."""
    from app_search import app_translator

    translator, searches, header = app_translator(args, "bench_trust.py", argv)
    germans = list(dict.fromkeys(it.german for it in items))
    marked = []
    for t in translator.translate(germans, searches["app default"]):
        if t.issues:
            marked.append((t.source, t.text, [f.text for f in t.issues]))
    return marked, header


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(ap)  # --model, --precision, --show, --json as the other benches
    ap.add_argument(
        "--translate", action="store_true", help="also list the model's own marked translations"
    )
    args = ap.parse_args(argv)
    args.show = args.show or 3
    items = read_items()
    scores = score(items)
    print("English written for the bench (right and wrong per sentence):")
    ok = print_table(scores, args.show)
    labelled = score_labelled(read_labelled())
    print(f"\nthe model's own English, labelled ({MODEL_SET.name}):")
    ok &= print_table(labelled, args.show)
    report = {
        "command": " ".join(
            ["bench/bench_trust.py", *(argv if argv is not None else sys.argv[1:])]
        ),
        "machine": facts(),
        "floors": FLOORS,
        "categories": {
            c: {k: r[k] for k in ("items", "marked_wrong", "marked_right", "recall", "precision")}
            for c, r in scores.items()
        },
        "model_english": {
            c: {
                k: r[k]
                for k in ("items", "broken", "marked_wrong", "marked_right", "recall", "precision")
            }
            for c, r in labelled.items()
        },
    }
    if args.translate:
        marked, header = model_marks(items, args, argv)
        n = len({it.german for it in items})
        print(f"\nthe model's own translations marked: {len(marked)} of {n}")
        for de, en, lost in marked:
            print(f"    {de} -> {en}   lost: {', '.join(lost)}")
        report |= header | {"model_marked": len(marked), "model_sentences": n}
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

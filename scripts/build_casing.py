"""Build resources/lists/german-casing.tsv: how German words are written inside a sentence,
counted on the German side of the prepared training corpora (data/prepared/train.tsv.xz,
test sentences already removed), for reading a text written in capitals
(translator_app/core/faithful/casing.py).

    .venv/bin/python scripts/build_casing.py [--train data/prepared/train.tsv.xz] [--min-count 2]

A word is counted where it does not open a sentence (not first, not after . ! ? : or an
opening quotation mark), so that a noun's capital is told from a sentence's. Written: the
words seen at least --min-count times whose usual form inside a sentence is lower case
(verbs, adjectives, function words), all capitals (EU, ADAC) or either (rauchen, das
Rauchen), case-folded, with that form; a word not listed is read as a noun
(capitalised), as German writes the many compounds no corpus holds („Rutschgefahr“).
"""

from __future__ import annotations

import argparse
import lzma
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / "lists" / "german-casing.tsv"
TOKEN = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*|[.!?:„\"“»«]")
OPENERS = frozenset('.!?:„"“»«')


def count_forms(lines) -> dict[str, Counter]:
    """Case-folded word -> Counter of its written forms inside sentences."""
    forms: dict[str, Counter] = defaultdict(Counter)
    for line in lines:
        german = line.split("\t", 1)[0]
        opening = True
        for m in TOKEN.finditer(german):
            token = m.group()
            if token in OPENERS:
                opening = True
                continue
            if not opening:
                forms[token.casefold()][token] += 1
            opening = False
    return forms


def usual_form(written: Counter) -> str | None:
    """ "lower" or "upper" where most of the word's writings are so, "either" where a
    quarter to a half are lower case (a verb and its noun: rauchen, das Rauchen); None
    where the capitalised form leads further, the default."""
    total = sum(written.values())
    lower = sum(n for w, n in written.items() if w.islower())
    upper = sum(n for w, n in written.items() if w.isupper() and len(w) > 1)
    if lower * 2 > total:
        return "lower"
    if upper * 2 > total:
        return "upper"
    return "either" if lower * 4 >= total else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--train", type=Path, default=ROOT / "data" / "prepared" / "train.tsv.xz")
    ap.add_argument("--min-count", type=int, default=2)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    if not args.train.is_file():
        print(
            f"error: {args.train} not found (bash scripts/prepare_data.py first)", file=sys.stderr
        )
        return 1
    with lzma.open(args.train, "rt", encoding="utf-8") as f:
        forms = count_forms(f)
    rows = []
    for word, written in forms.items():
        if sum(written.values()) >= args.min_count and (form := usual_form(written)):
            rows.append((word, form))
    rows.sort()
    header = (
        "# How a German word is usually written inside a sentence: case-folded word, then\n"
        "# lower, upper or either. Counted by scripts/build_casing.py on the German side of the\n"
        f"# prepared training corpora (words seen at least {args.min_count} times); a word\n"
        "# not listed is read as a noun. See README.md.\n"
    )
    args.out.write_text(header + "".join(f"{w}\t{f}\n" for w, f in rows), encoding="utf-8")
    kinds = Counter(f for _, f in rows)
    print(
        f"{args.out}: {len(rows)} words ({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The German spelling check (core/language/spelling.py) on German it was not written on:
its false alarms on the held-out sets' German, and what it finds of slips made by rule.

    .venv/bin/python bench/bench_spelling.py [--per-set 500] [--json F]

The check is given the dictionary's German as the window gives it.

1. False alarms: the German of each set as written (edited text, few slips); each word
   the check marks is counted, per 1,000 words it judges, and the most frequent listed
   (some are the set's own slips).
2. Slips: in each sentence one word of four letters or more that the list holds gets one
   random edit (a letter left out, doubled, changed to a neighbour on a German keyboard,
   or two swapped; seeded) that makes no word the list holds. Counted: the slip marked,
   and the word meant among the suggestions (first, or any of three).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from translator_app.core.data.corpus import read_pairs  # noqa: E402
from translator_app.core.language import spelling  # noqa: E402
from translator_app.core.platform.hardware import describe_machine  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
SETS = (
    ROOT / "testsets" / "everyday" / "everyday-test.deu-eng.tsv",
    DATA / "wmt-news-deen" / "newstest2014.deu-eng.tsv.xz",
    DATA / "iwslt2017-deen" / "test.deu-eng.tsv.xz",
    DATA / "tatoeba-test-deu-eng" / "tatoeba-test-v2021-08-07.deu-eng.tsv.xz",
)
ROWS = ("qwertzuiopü", "asdfghjklöä", "yxcvbnm")


def _neighbours(ch: str) -> str:
    for row in ROWS:
        i = row.find(ch)
        if i >= 0:
            return row[max(0, i - 1) : i] + row[i + 1 : i + 2]
    return "e"


def slip(word: str, rng: random.Random) -> str:
    """``word`` with one edit a typist makes."""
    i = rng.randrange(len(word))
    kind = rng.choice(("drop", "double", "neighbour", "swap"))
    if kind == "drop":
        return word[:i] + word[i + 1 :]
    if kind == "double":
        return word[: i + 1] + word[i] + word[i + 1 :]
    if kind == "neighbour":
        near = _neighbours(word[i].lower())
        return word[:i] + rng.choice(near) + word[i + 1 :]
    j = min(i + 1, len(word) - 1)
    return word[:i] + word[j] + word[i] + word[j + 1 :] if j != i else word[:-1]


def measure(per_set: int, seed: int) -> dict:
    from translator_app.core.dictionary.lookup import Dictionary

    start = time.perf_counter()
    spelling.preload()
    report = {"load_seconds": round(time.perf_counter() - start, 2), "sets": {}}
    dictionary = Dictionary.shipped()
    dictionary.ready(wait=True)
    known = spelling.known_by(dictionary)  # as the window passes it
    rng = random.Random(seed)
    for path in SETS:
        german = [de for _, (de, _) in read_pairs(path)][:per_set]
        judged = sum(
            spelling.judged(m.group()) for de in german for m in spelling._WORD.finditer(de)
        )
        start = time.perf_counter()
        marked = [m for de in german for m in spelling.misspellings(de, known=known)]
        ms = 1000 * (time.perf_counter() - start) / max(1, len(german))
        found = first = three = made = 0
        for de in german:
            words = [
                m
                for m in spelling._WORD.finditer(de)
                if len(m.group()) >= 4
                and spelling.judged(m.group())
                and not spelling.suggestions_for(m.group())
            ]
            if not words:
                continue
            m = rng.choice(words)
            for _ in range(5):
                typo = slip(m.group(), rng)
                if spelling.judged(typo) and typo.lower() not in spelling._checker:
                    break
            else:
                continue
            made += 1
            text = de[: m.start()] + typo + de[m.end() :]
            hit = next(
                (x for x in spelling.misspellings(text, known=known) if x.start == m.start()), None
            )
            if hit is None:
                continue
            found += 1
            meant = [s.lower() for s in hit.suggestions]
            first += meant[0] == m.group().lower()
            three += m.group().lower() in meant
        name = path.name.split(".")[0]
        report["sets"][path.parent.name if name in ("test",) else name] = {
            "sentences": len(german),
            "words_judged": judged,
            "marked": len(marked),
            "marked_per_1000_words": round(1000 * len(marked) / max(1, judged), 2),
            "most_marked": Counter(f"{m.word} → {m.suggestions[0]}" for m in marked).most_common(
                12
            ),
            "slips_made": made,
            "slips_marked": found,
            "meant_word_first": first,
            "meant_word_in_three": three,
            "ms_per_sentence": round(ms, 3),
        }
    return report


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-set", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    report = {
        "command": f"python bench/bench_spelling.py --per-set {args.per_set} --seed {args.seed}",
        "cpu": describe_machine(),
        **measure(args.per_set, args.seed),
    }
    text = json.dumps(report, indent=1, ensure_ascii=False)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

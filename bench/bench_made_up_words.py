"""The word menu's alternatives with and without the check for made-up words
(core/api/followups._made_up_words): how many it drops, and how many of those are words
English writes after all.

    .venv/bin/python bench/bench_made_up_words.py [--sentences 40] [--json F]

The German of held-out sets is translated by the bundled model; at every piece of each
translation the model's alternatives are asked for twice, with the check and without it
(the dictionary set aside). A dropped alternative's new word is counted a false alarm
where English texts written by people use it: the English side of Europarl and Tatoeba
(a vocabulary the check never read; words seen twice or more).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from translator_app.core.api.followups import word_around  # noqa: E402
from translator_app.core.data.corpus import read_pairs  # noqa: E402
from translator_app.core.platform.hardware import describe_machine  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
SETS = (
    ROOT / "testsets" / "everyday" / "everyday-test.deu-eng.tsv",
    DATA / "wmt-news-deen" / "newstest2014.deu-eng.tsv.xz",
)
VOCABULARY = (
    DATA / "europarl-comtrans" / "deu-eng.tsv.xz",
    DATA / "tatoeba-manythings-2018" / "deu-eng.full.tsv.xz",
)
_WORD = re.compile(r"[A-Za-z]+")


def english_vocabulary() -> set[str]:
    counts = Counter()
    for path in VOCABULARY:
        for _, (_, en) in read_pairs(path):
            counts.update(w.casefold() for w in _WORD.findall(en))
    return {w for w, n in counts.items() if n >= 2}


def measure(sentences: int) -> dict:
    from translator_app.core import Translator

    translator = Translator.load(ROOT / "resources" / "model", device="cpu")
    dictionary = translator.dictionary
    dictionary.ready(wait=True)
    vocabulary = english_vocabulary()
    report = {}
    for path in SETS:
        german = [de for _, (de, _) in read_pairs(path)][:sentences]
        offered = dropped = calls = 0
        alarms, examples = Counter(), []
        seconds = {"with": 0.0, "without": 0.0}
        for t in translator.translate(german):
            for piece in range(len(t.best.target_ids) - 1):
                calls += 1
                start = time.perf_counter()
                kept = {c.text for c in translator.alternatives(t, piece)}
                seconds["with"] += time.perf_counter() - start
                translator.dictionary = None
                start = time.perf_counter()
                every = translator.alternatives(t, piece)
                seconds["without"] += time.perf_counter() - start
                translator.dictionary = dictionary
                offered += len(every)
                for c in every:
                    if c.text in kept:
                        continue
                    dropped += 1
                    word = word_around(c.text, c.target_spans[piece])
                    if word.casefold() in vocabulary:
                        alarms[word] += 1
                    elif len(examples) < 12:
                        examples.append(word)
        report[path.name.split(".")[0]] = {
            "sentences": len(german),
            "alternatives_offered_without_the_check": offered,
            "dropped": dropped,
            "dropped_words_english_writes": sum(alarms.values()),
            "those_words": alarms.most_common(15),
            "other_dropped_words": examples,
            "ms_per_call_with": round(1000 * seconds["with"] / max(1, calls), 2),
            "ms_per_call_without": round(1000 * seconds["without"] / max(1, calls), 2),
        }
    return report


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sentences", type=int, default=40)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    report = {
        "command": f"python bench/bench_made_up_words.py --sentences {args.sentences}",
        "cpu": describe_machine(),
        "sets": measure(args.sentences),
    }
    text = json.dumps(report, indent=1, ensure_ascii=False)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

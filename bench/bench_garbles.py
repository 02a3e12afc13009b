"""What the app's passes mend in the model's English, counted over whole dev sets (issues
60, 61): German words garbled into the English ("kingin", "batterys"), measures written
as German writes them ("200 gram sugar"), and a negation the German does not hold.

    .venv/bin/python bench/bench_garbles.py [--model resources/model] [--show 3] [DEV ...]

DEV: tab-separated German/English dev sets (default: the register and everyday dev
sets, and newstest2013 where scripts/prepare_data.py wrote it), never a test set.
Greedy, as the dev sets are scored. Per set, sentences whose English

- garbles a German word (core/faithful/garbled_words.py, by its letters), with the
  model alone and with the app's passes;
- holds a word of no language: no English word and nowhere in the German
  (garbled_words.odd_words: "splunching", "Craining waste"), whatever its German;
- writes a measure after a number as English does not (number_words.measure_mends);
- adds a negation (fact_check.added_negation), and how many reference English
  sentences the same check flags: the check's false alarms on human English.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEVS = [
    ROOT / "testsets" / "register" / "register-dev.deu-eng.tsv",
    ROOT / "testsets" / "everyday" / "everyday-dev.deu-eng.tsv",
    ROOT / "data" / "prepared" / "news-dev.tsv",
]

FAULTS = ("garbled", "no English", "measure", "negation")


def counts(dictionary, sources: list[str], english: list[str]) -> dict[str, list[int]]:
    """The indices of the sentences of ``english`` with each of :data:`FAULTS`."""
    from translator_app.core.faithful.fact_check import added_negation
    from translator_app.core.faithful.garbled_words import garbled_sources, odd_words
    from translator_app.core.faithful.number_words import measure_mends

    found: dict[str, list[int]] = {k: [] for k in FAULTS}
    for i, (de, en) in enumerate(zip(sources, english, strict=True)):
        if garbled_sources(dictionary, de, en):
            found["garbled"].append(i)
        if odd_words(dictionary, de, en):
            found["no English"].append(i)
        if measure_mends(en):
            found["measure"].append(i)
        if added_negation(de, en):
            found["negation"].append(i)
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=ROOT / "resources" / "model")
    ap.add_argument("--show", type=int, default=3, help="examples shown per count")
    ap.add_argument("devs", nargs="*", type=Path)
    args = ap.parse_args(argv)
    from translator_app.core import Translator
    from translator_app.core.data.corpus import read_all
    from translator_app.core.dictionary.lookup import Dictionary

    devs = args.devs or [p for p in DEVS if p.exists()]
    translator, dictionary = Translator.load(args.model), Dictionary.shipped()
    print(f"model: {args.model}; greedy; sentences with each fault (of the set's)")
    for dev in devs:
        try:
            pairs = [p for p in read_all([dev]) if p[0].strip()]
        except (OSError, ValueError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        sources, refs = [de for de, _ in pairs], [en for _, en in pairs]
        start = time.perf_counter()
        alone = [t.text for t in translator.translate(sources, beam=1, dictionary_words=False)]
        app = [t.text for t in translator.translate(sources, beam=1)]
        seconds = time.perf_counter() - start
        before, after = counts(dictionary, sources, alone), counts(dictionary, sources, app)
        human = counts(dictionary, sources, refs)
        print(f"\n{dev.name}: {len(pairs)} sentences ({seconds:.0f} s)")
        for fault in FAULTS:
            print(
                f"  {fault:<10} model alone {len(before[fault]):4d}   with the app's passes "
                f"{len(after[fault]):4d}   reference English {len(human[fault]):4d}"
            )
            for i in after[fault][: args.show]:
                print(f"    left: {sources[i]} -> {app[i]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

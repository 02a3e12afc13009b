"""Does the English say what a number counts? (issue 61 §1: „250 Gramm Mehl“ -> "250 grams")

    .venv/bin/python bench/bench_counted_nouns.py [--model resources/model] [--show 5]

bench/data/counted-nouns.tsv holds German sentences of recipes, shopping lists, parts
lists and messages in which a number counts a noun („200 Gramm Zucker“, „vier
Batterien“), each with the English words that say that noun. The translator is the
app's: the bundle's default search with the dictionary's words for German words the
model copied, left out or said in none of their senses. The dictionary pass's part for
counted nouns was written looking at the odd data lines only ("built on"); the even lines
("held out") were scored when it was done. Per half: the share of sentences whose English
says the counted noun, with the model alone (no dictionary words) and with the app's
passes.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from halves import read_halves  # noqa: E402

SET = Path(__file__).with_name("data") / "counted-nouns.tsv"


def read_sentences(path: Path = SET) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """(German, the English words that say its counted noun) of the odd data lines
    ("built on") and the even ones ("held out"); a malformed line names file and line."""
    return read_halves(
        path,
        2,
        "a German sentence and its noun's English",
        lambda c, n: (c[0], tuple(w.strip() for w in c[1].split("|") if w.strip())),
    )


def says_noun(english: str, words: tuple[str, ...]) -> bool:
    """Whether ``english`` says one of ``words`` as a whole word (any case)."""
    return any(re.search(rf"\b{re.escape(w)}\b", english, re.IGNORECASE) for w in words)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=ROOT / "resources" / "model")
    ap.add_argument("--show", type=int, default=5, help="misses shown per half")
    args = ap.parse_args(argv)
    try:
        halves = read_sentences()
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    from translator_app.core import Translator

    translator = Translator.load(args.model, device="cpu")
    if translator.dictionary is None or not translator.dictionary.ready(wait=True):
        print(f"error: the dictionary is not available ({translator.dictionary_problem})")
        return 2
    print(f"model: {args.model}; set: {SET.relative_to(ROOT)}")
    for half, items in halves.items():
        german = [g for g, _ in items]
        alone = translator.translate(german, dictionary_words=False)
        start = time.perf_counter()
        passes = translator.translate(german)
        seconds = time.perf_counter() - start
        said_alone = sum(says_noun(t.text, w) for t, (_, w) in zip(alone, items, strict=True))
        said = sum(says_noun(t.text, w) for t, (_, w) in zip(passes, items, strict=True))
        print(
            f"{half}: {len(items)} sentences; the counted noun said: model alone "
            f"{said_alone / len(items):.0%}, with the app's passes {said / len(items):.0%} "
            f"({seconds:.1f} s)"
        )
        misses = [
            (g, t.text) for t, (g, w) in zip(passes, items, strict=True) if not says_noun(t.text, w)
        ]
        for g, e in misses[: args.show]:
            print(f"  missed: {g} -> {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

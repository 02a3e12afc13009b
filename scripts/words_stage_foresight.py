"""Could the words stage's decode run beside the first one? (issue 87's price) Only where
the words it will ask for are known before the first decode ends: this measures how
often the German alone foretells them.

    .venv/bin/python scripts/words_stage_foresight.py [--learn 1500] [--test 300]

The step "dictionary-terms" asks for the words the first decode copied, garbled or said
in no sense of the dictionary; a decode with them could start beside the first only if
that set were foretold from the German. The foretelling tried here is the best a
source-side rule can know of this model: each candidate word (every word
copied_words.dictionary_terms would ask for were it copied) with how often the model
had needed it asked for, learnt from the pipeline's own runs on newstest2011 and 2012
(``--learn`` sentences of each); a word not seen there is foretold as copied or not (two
rows). On newstest2013's first ``--test`` sentences: how many sentences the words stage
decodes again, for how many the foretold set is exactly the one asked for (the decode
beside the first would be the one needed), and how many decodes beside the first would
be spent on a set not asked for.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NEWS = ROOT.parent / "shared" / "data" / "wmt-news-deen"

from translator_app.core import Translator, bundled_model_dir  # noqa: E402
from translator_app.core.data.corpus import read_pairs  # noqa: E402
from translator_app.core.faithful.copied_words import dictionary_terms  # noqa: E402
from translator_app.core.postedit import dictionary_words  # noqa: E402

THRESHOLDS = (0.3, 0.5, 0.7, 0.9)


def asked_and_candidates(translator, german: list[str]) -> list[tuple[set, set]]:
    """For each sentence: the words the step "dictionary-terms" asked for (its first
    decode with terms), and every word it could ask for (the German read as if the
    English copied every word)."""
    asked: dict[str, set] = {}
    given = dictionary_words.term_batches

    def watched(texts, wanted, glossary):
        for i, terms in wanted.items():
            asked.setdefault(texts[i], {t.source for t in terms})
        return given(texts, wanted, glossary)

    dictionary_words.term_batches = watched
    try:
        rows = []
        for text in german:
            translator.translate([text])
            could = {t.source for t in dictionary_terms(translator.dictionary, text, text)}
            rows.append((asked.get(text, set()), could))
        return rows
    finally:
        dictionary_words.term_batches = given


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--learn", type=int, default=1500, help="sentences of each learning set")
    ap.add_argument("--test", type=int, default=300)
    args = ap.parse_args(argv)
    translator = Translator.load(bundled_model_dir(), device="cpu")
    learn = [
        de
        for name in ("newstest2011", "newstest2012")
        for _, (de, _) in list(read_pairs(NEWS / f"{name}.deu-eng.tsv.xz"))[: args.learn]
    ]
    test = [de for _, (de, _) in read_pairs(NEWS / "newstest2013.deu-eng.tsv.xz")][: args.test]
    seen, needed = Counter(), Counter()
    for asked, could in asked_and_candidates(translator, learn):
        seen.update(w.casefold() for w in could)
        needed.update(w.casefold() for w in asked)
    rows = asked_and_candidates(translator, test)
    redecoded = sum(bool(asked) for asked, _ in rows)
    print(
        f"learnt on {len(learn)} sentences; newstest2013's first {len(test)}: the words "
        f"stage decodes {redecoded} again"
    )
    print(f"{'share':>6} {'unseen':>8} {'foretold':>9} {'beside':>7} {'spent':>6}")
    for share in THRESHOLDS:
        for unseen in (False, True):
            hit = beside = spent = 0
            for asked, could in rows:
                foretold = {
                    w
                    for w in could
                    if (
                        needed[w.casefold()] / seen[w.casefold()] >= share
                        if seen[w.casefold()]
                        else unseen
                    )
                }
                hit += bool(asked) and foretold == asked
                beside += bool(foretold)
                spent += bool(foretold) and foretold != asked
            print(
                f"{share:6.1f} {'copied' if unseen else 'not':>8} {hit:9d} {beside:7d} {spent:6d}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

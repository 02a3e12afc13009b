"""Texts of one German word (a heading, a sign, a form's field), said by the model alone or,
where its English is none of the word's senses, with the dictionary's English
(core/faithful/copied_words.heading_term).

    .venv/bin/python bench/bench_headings.py [--model DIR] [--beam N] [SET ...]

For each dev set (a TSV of German and English; default: the register dev and test sets,
newstest2013 as data/prepared/news-dev.tsv and the mixed dev set data/prepared/valid.tsv)
its lines of one word are translated as the app translates them, with the step and
without it, and scored by sacreBLEU's chrF (BLEU is no measure of one word); the lines
that differ are shown with their references.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import sacrebleu

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from app_search import translations_with  # noqa: E402

from translator_app.core import Translator  # noqa: E402
from translator_app.core.data.corpus import read_pairs  # noqa: E402
from translator_app.core.faithful.copied_words import ONE_WORD  # noqa: E402
from translator_app.core.postedit import dictionary_words  # noqa: E402

READING = (dictionary_words, "heading_term")  # the reading measured (in "dictionary-terms")
SETS = [
    ROOT / "testsets" / "register" / "register-dev.deu-eng.tsv",
    ROOT / "testsets" / "register" / "register-test.deu-eng.tsv",
    ROOT / "data" / "prepared" / "news-dev.tsv",
    ROOT / "data" / "prepared" / "valid.tsv",
]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sets", nargs="*", type=Path, default=SETS)
    ap.add_argument("--model", type=Path, default=ROOT / "resources" / "model")
    ap.add_argument("--beam", type=int, default=None, help="the bundle's search by default")
    args = ap.parse_args(argv)
    translator = Translator.load(args.model, device="cpu")
    beam = args.beam or translator.options.beam
    for path in args.sets:
        if not path.is_file():
            print(f"{path}: not there, skipped", file=sys.stderr)
            continue
        pairs = [pair for _, pair in read_pairs(path) if ONE_WORD.fullmatch(pair[0])]
        if not pairs:
            continue
        german, refs = [de for de, _ in pairs], [[en for _, en in pairs]]
        alone = translations_with(translator, german, beam, stand_ins={READING: lambda *_: None})
        said = translations_with(translator, german, beam)
        before = sacrebleu.corpus_chrf(alone, refs).score
        after = sacrebleu.corpus_chrf(said, refs).score
        print(
            f"\n{path.name}: {len(pairs)} lines of one word, beam {beam}: "
            f"chrF {before:.2f} without the step, {after:.2f} with it"
        )
        for de, a, b, ref in zip(german, alone, said, refs[0], strict=True):
            if a != b:
                print(f"    {de}: {a} -> {b} (reference: {ref})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""German words copied into the English where they open a sentence or a quotation, or
stand where a name may (issue 60): the dictionary pass without and with its two readings
of them (core/faithful/copied_words.py): an opening word German writes in lower case
asked in lower case (openers_lowered: „Aktuell ist …“, „Stets habe …“), and a
capitalised noun of the dictionary that the corpora do not keep in the English as they
keep names (resources/lists/german-names.tsv) asked with the English its pairs say most
(resources/lists/german-noun-english.tsv; „Forscher vermuten …“: researchers); and a
noun typed in lower case asked with a noun's English („die forelle“). With
``--pass first-capital`` it measures the same way the capital the translator gives an
English that the model began in lower case (core/postedit/first_capital.py); with
``--pass garbled`` the words the model garbled (core/faithful/garbled_words.py); with
``--pass garbled-attention`` those found by the attention, not by their letters; with
``--pass unsaid`` the long nouns said in none of the dictionary's senses and the guard
that keeps a new decode only where it says more words in one
(core/faithful/unsaid_nouns.py); with ``--pass plurals`` the English plurals in -ies that
the senses and terms are found by ("large cities" says "large city":
core/language/english.py); with ``--pass compound-heads`` a compound's last part
looked up as a noun only („Tagesticket“: ticket, not „sticken“: core/dictionary/lookup.py);
with ``--pass word-forms`` the words known by their lemma or last part („rostfreiem“,
„Spam-Ordner“; "blinks" English where it garbles nothing), compounds asked with the
English of their parts (core/faithful/compounds.py), a garbled opening word asked in
lower case („Bohren Sie“),
and the guards that a new decode garbles no more words than it stops copying and drops no
sentence; with ``--pass short-garbles`` garbles of German words of five letters („Salbe“:
"salbes") asked for too (core/faithful/garbled_words.py).

    .venv/bin/python bench/bench_copied_nouns.py [--pass readings|first-capital|garbled|
        garbled-attention|unsaid|
        plurals|compound-heads|word-forms|short-garbles] [--model DIR] [--beam N] [--show N]
        [SET ...]

For each dev set (a TSV of German and English; default: newstest2013 as
data/prepared/news-dev.tsv, the everyday and register dev sets, the mixed dev set
data/prepared/valid.tsv) the German is translated as the app translates it (greedy by
default, as translator-train eval scores the floors), without the two readings and with
them, and scored by sacreBLEU (BLEU, chrF) and the German-words-left check
(core/faithful/german_left.py: copies the reference does not keep, per 100 sentences).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import sacrebleu

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from app_search import replaced  # noqa: E402

from translator_app.core import Translator  # noqa: E402
from translator_app.core.data.corpus import read_pairs  # noqa: E402
from translator_app.core.dictionary import lookup  # noqa: E402
from translator_app.core.faithful import (  # noqa: E402
    copied_words,
    garbled_words,
    unsaid_nouns,
)
from translator_app.core.faithful.german_left import (  # noqa: E402
    GermanLeftCheck,
    german_left_report,
)
from translator_app.core.language import english  # noqa: E402
from translator_app.core.postedit import dictionary_words as dictionary_pass  # noqa: E402
from translator_app.core.postedit import judge  # noqa: E402


class _EveryWord:
    """Holds every word: each capitalised word may be a name, as before the corpora
    told names from nouns."""

    def __contains__(self, word: str) -> bool:
        return True


# The readings measured, and what stands in for each without them (with the step
# "openers", which lowers an opening word, left out).
READINGS = {
    (copied_words, "kept_names"): _EveryWord,  # no word told a noun by the corpora
    (copied_words, "noun_english"): dict,  # the dictionary's first English
    (copied_words, "openings"): lambda source: frozenset(),  # no opening word "lower"
    (copied_words, "written_as_noun"): lambda key: False,  # a lower-case word no noun
}
WITHOUT = {
    "readings": READINGS,
    "first-capital": "all,-first-capital",
    "garbled": {
        (copied_words, "garbled_sources"): lambda lexicon, source, output: (),
        (dictionary_pass, "garbled_by_attention"): lambda lexicon, t: (),
        (judge, "garbled_by_attention"): lambda lexicon, t: (),
    },
    # garbles found by their letters only, not by the attention
    "garbled-attention": {
        (module, "garbled_by_attention"): lambda lexicon, t: garbled_words.garbled_sources(
            lexicon, t.source, t.text
        )
        for module in (dictionary_pass, judge)
    },
    "unsaid": {  # long nouns said in no sense of the dictionary, and the senses guard
        (copied_words, "unsaid_nouns"): lambda dictionary, source, output: (),
        (judge, "says_more_senses"): lambda dictionary, source, new, old: True,
    },
    "plurals": {  # a sense or a term found in its -s and -es plurals only
        (english, "_with_plural"): lambda e, endings: (e.lower(), re.escape(e) + endings),
    },
    "compound-heads": {(lookup, "_not_a_head"): lambda word, form: False},
    "word-forms": {
        (lookup.Dictionary, "is_german_word"): lambda self, word: self._is_form(word),
        (lookup.Dictionary, "is_english_form"): lambda self, word: self._is_english((word,)),
        (copied_words, "compound_term"): lambda *args: None,
        (copied_words, "_polite_imperative"): lambda words, i: False,
        (judge.WordChecks, "garbled"): lambda self, t: (),  # only copies count
        (judge, "keeps_sentences"): lambda new, old: True,
        (garbled_words, "_is_german"): lambda lexicon, word: (
            lexicon.is_german_word(word) and not lexicon.is_english_word(word)
        ),
    },
    "short-garbles": {(garbled_words, "MIN_SOURCE"): 6},  # German words of 6 letters up
}
SETS = [
    ROOT / "data" / "prepared" / "news-dev.tsv",
    ROOT / "testsets" / "everyday" / "everyday-dev.deu-eng.tsv",
    ROOT / "testsets" / "register" / "register-dev.deu-eng.tsv",
    ROOT / "data" / "prepared" / "valid.tsv",
]


def scores(german, english, refs, check) -> str:
    left = german_left_report(check, german, english, refs)
    bleu = sacrebleu.corpus_bleu(english, [refs]).score
    chrf = sacrebleu.corpus_chrf(english, [refs]).score
    return f"BLEU {bleu:.2f}, chrF {chrf:.2f}, German left {left['per_100']:.2f} per 100"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sets", nargs="*", type=Path, default=SETS)
    ap.add_argument("--pass", dest="measured", choices=sorted(WITHOUT), default="readings")
    ap.add_argument("--model", type=Path, default=ROOT / "resources" / "model")
    ap.add_argument("--beam", type=int, default=1, help="1 (greedy) by default")
    ap.add_argument("--show", type=int, default=10, help="print N changed lines per set")
    args = ap.parse_args(argv)
    model = Translator.load(args.model, device="cpu")
    check = GermanLeftCheck.bundled()
    for path in args.sets:
        if not path.is_file():
            print(f"{path}: not there, skipped", file=sys.stderr)
            continue
        pairs = [pair for _, pair in read_pairs(path)]
        german, refs = [de for de, _ in pairs], [en for _, en in pairs]
        measured = WITHOUT[args.measured]
        steps = measured if isinstance(measured, str) else "all"
        if args.measured == "readings":
            steps = "all,-openers"
        with replaced({} if isinstance(measured, str) else measured):
            before = [t.text for t in model.translate(german, beam=args.beam, steps=steps)]
        unsaid_nouns.sense_pattern.cache_clear()  # patterns made without the step
        after = [t.text for t in model.translate(german, beam=args.beam)]
        print(f"\n{path.name}: {len(pairs)} sentences, beam {args.beam}, {args.measured}")
        print(f"  without: {scores(german, before, refs, check)}")
        print(f"  with:    {scores(german, after, refs, check)}")
        changed = [(d, a, b) for d, a, b in zip(german, before, after, strict=True) if a != b]
        print(f"  {len(changed)} sentences changed")
        for de, a, b in changed[: args.show]:
            print(f"    {de}\n      - {a}\n      + {b}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

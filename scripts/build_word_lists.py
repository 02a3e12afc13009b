"""Build three word lists of resources/lists from the prepared training corpora
(data/prepared/train.tsv.xz, test sentences already removed):
german-casing.tsv, how German words are written inside a sentence, for reading a text
written in capitals or without any (translator_app/core/faithful/casing.py); and
german-umlauts.tsv, the words written with ä, ö, ü or ß whose spelling without them
(ae, oe, ue, ss) the corpora hardly hold, for reading a text typed without them
(translator_app/core/faithful/umlauts.py); german-names.tsv, the capitalised words of the
dictionary (resources/dictionary) that the English of their pairs keeps: names, where
every other such word is a common noun wherever it stands; and german-noun-english.tsv,
the English of a noun that its pairs say most, where the dictionary gives another first
(translator_app/core/faithful/corpus_words.py).

    .venv/bin/python scripts/build_word_lists.py [--train data/prepared/train.tsv.xz] [--min-count 2]

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
sys.path.insert(0, str(ROOT))

from translator_app.core.dictionary.ding import WORD  # noqa: E402
from translator_app.core.dictionary.lookup import Dictionary  # noqa: E402
from translator_app.core.faithful.german_left import GermanLeftCheck  # noqa: E402
from translator_app.core.faithful.senses import fit_englishes  # noqa: E402
from translator_app.core.faithful.umlauts import without_umlauts  # noqa: E402
from translator_app.core.language.english import english_pattern  # noqa: E402

LISTS = ROOT / "resources" / "lists"
# A capitalised word of the dictionary is a name (or a word English writes alike) where
# the English of at least this share of its pairs keeps it (Merkel 43 of 45 pairs, Koch
# 15 of 85); else a common noun (Forscher none of 106, König 3 of 112), as is a word
# the corpora lack.
NAME_KEPT_SHARE = 0.05
# A spelling without umlauts that the corpora hold more than this share as often as the
# word with them is a word of its own („Masse“ beside „Maße“, „neue“): not listed.
UMLAUT_SHARE = 1 / 20
TOKEN = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*|[.!?:„\"“»«]")
OPENERS = frozenset('.!?:„"“»«')


def count_forms(lines) -> tuple[dict[str, Counter], Counter]:
    """Case-folded word -> Counter of its written forms inside sentences; and how often
    each word stands anywhere, in lower case."""
    forms: dict[str, Counter] = defaultdict(Counter)
    words: Counter = Counter()
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
            words[token.lower()] += 1
            opening = False
    return forms, words


def kept_in_english(lines) -> tuple[Counter, Counter]:
    """How many pairs hold each capitalised German word, and in how many of them the
    English holds it too, written alike."""
    pairs: Counter = Counter()
    kept: Counter = Counter()
    for line in lines:
        german, english = line.rstrip("\n").split("\t")[:2]
        english_words = set(WORD.findall(english))
        for word in {w for w in WORD.findall(german) if w[:1].isupper() and not w.isupper()}:
            pairs[word] += 1
            kept[word] += word in english_words
    return pairs, kept


def _copyable(word: str, lexicon) -> bool:
    """A word a copy could be: German of the dictionary, no English word."""
    return lexicon.is_german_word(word) and not lexicon.is_english_word(word)


def kept_names(pairs: Counter, kept: Counter, lexicon) -> list[str]:
    """The capitalised words of the dictionary that the English of their pairs keeps
    (:data:`NAME_KEPT_SHARE`): names, though the dictionary holds them too."""
    return sorted(
        word
        for word, n in pairs.items()
        if kept[word] and kept[word] >= NAME_KEPT_SHARE * n and _copyable(word, lexicon)
    )


def common_nouns(pairs: Counter, kept: Counter, lexicon) -> list[str]:
    """The capitalised words of the dictionary in the pairs that are no names."""
    names = set(kept_names(pairs, kept, lexicon))
    return sorted(w for w in pairs if w not in names and _copyable(w, lexicon))


def usual_englishes(lines, nouns: list[str], dictionary) -> dict[str, str]:
    """Noun -> the one of its dictionary English (copied_words.fit_englishes) that the
    English of its pairs says most often (a plural too), where that is not the first:
    „Föderation“ federation, not the dictionary's first, "federal state"."""
    choices = {}
    for word in nouns:
        englishes = list(
            dict.fromkeys(e for e, _ in fit_englishes(dictionary.lookup(word).senses, True))
        )
        if englishes:
            choices[word] = [(e, english_pattern(e)) for e in englishes]
    said: dict[str, Counter] = defaultdict(Counter)
    for line in lines:
        german, english = line.rstrip("\n").split("\t")[:2]
        for word in set(WORD.findall(german)) & choices.keys():
            for e, pattern in choices[word]:
                if pattern.search(english):
                    said[word][e] += 1
    usual = {}
    for word, counts in said.items():
        order = [e for e, _ in choices[word]]
        # the most said; of equals, the dictionary's first
        most = max(counts, key=lambda e: (counts[e], -order.index(e)))
        if most != order[0]:
            usual[word] = most
    return usual


def umlaut_words(words: Counter, min_count: int) -> dict[str, str]:
    """Spelling without umlauts -> the word with them, where the corpora hold the word
    at least ``min_count`` times and the plain spelling hardly (:data:`UMLAUT_SHARE`);
    of two words with one plain spelling, the commoner."""
    found: dict[str, str] = {}
    for word, n in words.items():
        plain = without_umlauts(word)
        if n < min_count or plain == word or words[plain] >= UMLAUT_SHARE * n:
            continue
        if plain not in found or words[found[plain]] < n:
            found[plain] = word
    return found


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
    ap.add_argument("--out", type=Path, default=LISTS, help="the folder the lists go to")
    args = ap.parse_args(argv)
    if not args.train.is_file():
        print(
            f"error: {args.train} not found (bash scripts/prepare_data.py first)", file=sys.stderr
        )
        return 1
    with lzma.open(args.train, "rt", encoding="utf-8") as f:
        lines = f.readlines()  # read once for the three counts (about 60 MB of text)
    forms, words = count_forms(lines)
    pairs, kept = kept_in_english(lines)
    casing = sorted(
        (word, form)
        for word, written in forms.items()
        if sum(written.values()) >= args.min_count and (form := usual_form(written))
    )
    seen = f"words seen at least {args.min_count} times"
    _write(
        args.out / "german-casing.tsv",
        "How a German word is usually written inside a sentence: case-folded word, then\n"
        f"lower, upper or either. Counted on the prepared training corpora ({seen});\n"
        "a word not listed is read as a noun. See README.md.",
        casing,
    )
    umlauts = sorted(umlaut_words(words, args.min_count).items())
    _write(
        args.out / "german-umlauts.tsv",
        "A German word typed without its umlauts or ß (ae, oe, ue, ss), then the word: the\n"
        f"plain spelling hardly stands in the prepared training corpora ({seen}).\n"
        "See README.md.",
        umlauts,
    )
    lexicon = GermanLeftCheck.bundled()
    names = kept_names(pairs, kept, lexicon)
    _write(
        args.out / "german-names.tsv",
        "Capitalised German words of the dictionary that are names (or written alike in\n"
        f"English): the English of at least {NAME_KEPT_SHARE:.0%} of their pairs in the "
        "prepared training corpora\nkeeps them. Word, pairs, pairs whose English keeps it. "
        "See README.md.",
        [(w, str(pairs[w]), str(kept[w])) for w in names],
    )
    usual = usual_englishes(lines, common_nouns(pairs, kept, lexicon), Dictionary.bundled())
    _write(
        args.out / "german-noun-english.tsv",
        "German nouns and the English of the dictionary that the English of their pairs in\n"
        "the prepared training corpora says most, where that is not the dictionary's first.\n"
        "See README.md.",
        sorted(usual.items()),
    )
    kinds = Counter(f for _, f in casing)
    print(
        f"german-casing.tsv: {len(casing)} words ({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))})"
    )
    print(f"german-umlauts.tsv: {len(umlauts)} words")
    print(f"german-names.tsv: {len(names)} words")
    print(f"german-noun-english.tsv: {len(usual)} words")
    return 0


def _write(path: Path, header: str, rows: list[tuple[str, ...]]) -> None:
    lines = [f"# {line}" for line in header.splitlines()] + ["\t".join(row) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())

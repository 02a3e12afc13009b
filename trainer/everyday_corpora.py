"""Training pairs for ordinary written German (issue 60): web text, manuals, Wikipedia,
and dictionary nouns in sentences.

- :func:`web_pairs` keeps the OPUS-100 sample's pairs that look like translations of each
  other (about one line in four of it is loose: subtitles paraphrased, shop listings with
  other numbers, an English line on the German side).
- :func:`sentence_pairs` splits paragraph pairs (Debian's manuals, XQuAD) into sentence
  pairs where both sides split into as many sentences, each pair of a plausible length.
- :func:`noun_frame_pairs` puts Ding's single-noun entries into the sentence frames of
  ``trainer/data/noun-frames.tsv``: the bundled model copies a common noun it has only
  seen as a bare dictionary word („Teig“, „Lampe“) into the English, as it must copy
  names; in a sentence it learns to translate it.

Training data only; scripts/prepare_data.py removes every pair that matches a sentence
of a dev or test set.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from trainer.ding_pairs import clean_side
from trainer.tables import DATA, read_table
from translator_app.core.text.segment import split_sentences

FRAMES_FILE = DATA / "noun-frames.tsv"
Pair = tuple[str, str]

_NUMBER = re.compile(r"\d+")
_WORDS = re.compile(r"[^\W\d_]+")
FUNCTION_WORDS_FILE = DATA / "function-words.tsv"


def _function_words() -> dict[str, frozenset[str]]:
    """language -> its function words (trainer/data/function-words.tsv)."""
    return {lang: frozenset(words.split()) for lang, words in read_table(FUNCTION_WORDS_FILE, 2)}


_MARKS = _function_words()
_GERMAN_MARKS, _ENGLISH_MARKS = _MARKS["de"], _MARKS["en"]


def _language_marks(text: str) -> tuple[int, int]:
    words = [w.casefold() for w in _WORDS.findall(text)]
    return sum(w in _GERMAN_MARKS for w in words), sum(w in _ENGLISH_MARKS for w in words)


def looks_translated(de: str, en: str, max_ratio: float = 2.0) -> str | None:
    """Why a web pair is not kept (None where it is): the same text on both sides, a
    length ratio above ``max_ratio`` (in characters, short lines allowed some slack),
    other numbers on the two sides, or a side in the other language."""
    if de.casefold() == en.casefold():
        return "same text on both sides"
    if max(len(de), len(en)) > max_ratio * min(len(de), len(en)) + 8:
        return f"length ratio above {max_ratio}"
    if sorted(_NUMBER.findall(de)) != sorted(_NUMBER.findall(en)):
        return "other numbers"
    if len(de.split()) >= 4:
        de_german, de_english = _language_marks(de)
        en_german, en_english = _language_marks(en)
        if de_english > de_german or en_german > en_english:
            return "a side in the other language"
    return None


def web_pairs(pairs: Iterable[Pair], counts: Counter | None = None) -> list[Pair]:
    """The pairs :func:`looks_translated` keeps; ``counts`` gets the reasons for the rest."""
    kept = []
    for de, en in pairs:
        why = looks_translated(de, en)
        if why is None:
            kept.append((de, en))
        elif counts is not None:
            counts[f"dropped: {why}"] += 1
    return kept


def sentence_pairs(pairs: Iterable[Pair], max_ratio: float = 2.0) -> Iterator[Pair]:
    """Each paragraph pair as sentence pairs, where both sides split into as many
    sentences and every sentence pair passes :func:`looks_translated`'s length test;
    paragraphs that split unevenly are left out, one-sentence pairs kept whole."""
    for de, en in pairs:
        de_sents = [s.text for s in split_sentences(de)]
        en_sents = [s.text for s in split_sentences(en)]
        if len(de_sents) != len(en_sents) or not de_sents:
            continue
        split = list(zip(de_sents, en_sents, strict=True))
        if all(looks_translated(d, e, max_ratio) is None for d, e in split):
            yield from split


# ------------------------------------------------------------------ nouns in frames
@dataclass(frozen=True)
class Noun:
    """A Ding noun: singular, gender (m/f/n), plural ("" where Ding gives none) and
    English singular and plural."""

    singular: str
    gender: str
    plural: str
    english: str
    english_plural: str


_GENDER = re.compile(r"\{([mfn])\}")
_NOUN_WORD = re.compile(r"[A-ZÄÖÜ][a-zäöüß]+")
_ENGLISH_NOUN = re.compile(r"[A-Za-z][A-Za-z' -]*")


def _first_variant(sub_entry: str) -> str:
    return sub_entry.split(";")[0]


def ding_nouns(lines: Iterable[str]) -> Iterator[Noun]:
    """The headword nouns of Ding's entries, first entry of each word only: the first
    German variant with its gender, the plural where the second sub-entry is one, and
    the first English synonym."""
    seen: set[str] = set()
    for line in lines:
        if line.startswith("#") or " :: " not in line:
            continue
        de_side, en_side = line.rstrip("\n").split(" :: ", 1)
        de_subs, en_subs = de_side.split(" | "), en_side.split(" | ")
        gender = _GENDER.search(_first_variant(de_subs[0]))
        german = clean_side(_first_variant(de_subs[0]))
        english = clean_side(_first_variant(en_subs[0]))
        if not gender or not _NOUN_WORD.fullmatch(german) or german in seen:
            continue
        if not _ENGLISH_NOUN.fullmatch(english) or len(english.split()) > 3:
            continue
        seen.add(german)
        plural = english_plural = ""
        if len(de_subs) == len(en_subs) > 1 and "{pl}" in _first_variant(de_subs[1]):
            plural = clean_side(_first_variant(de_subs[1]))
            english_plural = clean_side(_first_variant(en_subs[1]))
            if not _NOUN_WORD.fullmatch(plural) or not _ENGLISH_NOUN.fullmatch(english_plural):
                plural = english_plural = ""
        yield Noun(german, gender.group(1), plural, english, english_plural)


_ARTICLES = {  # gender: (nominative, accusative, dative, indefinite nom., indefinite acc.)
    "m": ("der", "den", "dem", "ein", "einen"),
    "f": ("die", "die", "der", "eine", "eine"),
    "n": ("das", "das", "dem", "ein", "ein"),
}
_WEAK_MASCULINE = re.compile(r"(?:e|ent|ant|ist|loge|graf|at)$")


def _oblique(noun: Noun) -> str:
    """The singular in the accusative and dative: weak masculine nouns take -(e)n
    (den Kunden, dem Studenten)."""
    word = noun.singular
    if noun.gender != "m" or not _WEAK_MASCULINE.search(word):
        return word
    return word + ("n" if word.endswith("e") else "en")


def _a(english: str) -> str:
    return ("an " if english[:1].lower() in "aeiou" else "a ") + english


def fill_frame(frame: tuple[str, str, str], noun: Noun) -> Pair | None:
    """A frame ``(number, German, English)`` with ``noun`` in it (None where the frame is
    plural and Ding gives the noun no plural)."""
    number, de, en = frame
    if number == "p":
        if not noun.plural:
            return None
        dative = noun.plural if noun.plural.endswith(("n", "s")) else noun.plural + "n"
        slots = {
            "NOM": f"die {noun.plural}",
            "AKK": f"die {noun.plural}",
            "DAT": f"den {dative}",
            "INDEF_NOM": noun.plural,
            "INDEF_AKK": noun.plural,
        }
        english = {"THE": f"the {noun.english_plural}", "A": noun.english_plural}
    else:
        nom, akk, dat, indef_nom, indef_akk = _ARTICLES[noun.gender]
        oblique = _oblique(noun)
        slots = {
            "NOM": f"{nom} {noun.singular}",
            "AKK": f"{akk} {oblique}",
            "DAT": f"{dat} {oblique}",
            "INDEF_NOM": f"{indef_nom} {noun.singular}",
            "INDEF_AKK": f"{indef_akk} {oblique}",
        }
        english = {"THE": f"the {noun.english}", "A": _a(noun.english)}
    de_text = re.sub(r"\{(\w+)\}", lambda m: slots[m.group(1)], de)
    en_text = re.sub(r"\{(\w+)\}", lambda m: english[m.group(1)], en)
    return _capitalised(de_text), _capitalised(en_text)


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def read_frames(path: Path = FRAMES_FILE) -> list[tuple[str, str, str]]:
    """The frames of ``path``: ``number<TAB>German<TAB>English`` a line, # comments."""
    frames = read_table(path, 3)
    wrong = [f for f in frames if f[0] not in ("s", "p")]
    if wrong:
        raise ValueError(f"{path}: {wrong[0][1]!r}: the number must be 's' or 'p'")
    return frames


def noun_frame_pairs(
    nouns: Iterable[Noun],
    german_counts: Counter,
    limit: int,
    per_noun: int = 2,
    min_count: int = 2,
    seed: int = 1,
) -> list[Pair]:
    """``per_noun`` framed sentences for each of the (at most ``limit``) nouns whose
    singular or plural stands at least ``min_count`` times in ``german_counts`` (word
    counts of the German training text: common nouns, not Ding's rarest), most frequent
    first."""
    rng = random.Random(seed)
    frames = read_frames()
    common = [n for n in nouns if german_counts[n.singular] + german_counts[n.plural] >= min_count]
    common.sort(key=lambda n: -(german_counts[n.singular] + german_counts[n.plural]))
    pairs = []
    for noun in common[:limit]:
        filled = (fill_frame(frame, noun) for frame in rng.sample(frames, len(frames)))
        pairs += [pair for pair in filled if pair is not None][:per_noun]
    return pairs


def word_counts(texts: Iterable[str]) -> Counter:
    """How often each word (letters only, as written) stands in ``texts``."""
    counts: Counter = Counter()
    for text in texts:
        counts.update(_WORDS.findall(text))
    return counts

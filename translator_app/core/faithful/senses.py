"""Which of the dictionary's senses to say for a German word (issue 60): the English
the dictionary pass asks for, a noun's or a modifier's, not a figurative, rare or
colloquial one, a place's where the word names one, and whether an English says one of
them. Read by copied_words.py (words the model copied), unsaid_nouns.py (long nouns it
said otherwise) and scripts/build_word_lists.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from translator_app.core.dictionary.ding import marks, plain, variants
from translator_app.core.faithful.corpus_words import noun_english
from translator_app.core.language.english import englishes_pattern
from translator_app.core.language.words import alternation, dictionary_marks, english_words

_PLACE_NOTE = re.compile(rf"\((?:a )?(?:{alternation(english_words('place-note'))})\b")
_NOUN_TAGS = frozenset({"m", "f", "n", "pl"})
_MODIFIER_TAGS = frozenset({"adj", "adv"})
# Senses not to offer as the plain English of a word (colloquial ones are: Ding marks
# whole entries so, „Thermoskanne“ among them).
_UNFIT = frozenset(dictionary_marks("rare") + dictionary_marks("unfit"))
MAX_ENGLISH_WORDS = 3


def usual_english(word: str, senses, noun: bool):
    """(English, sense) to ask for ``word``: for a noun, the English its pairs in the
    corpora say most (corpus_words.noun_english: „Föderation“ federation, „Vorsicht“
    caution), where it is one of ``senses``' :func:`fit_englishes`; else
    :func:`plain_english`'s."""
    usual = noun_english().get(word[:1].upper() + word[1:]) if noun else None
    if usual:
        for english, sense in fit_englishes(senses, True):
            if english == usual:
                return english, sense
    return plain_english(senses, noun)


def plain_english(senses, noun: bool):
    """(English, sense) to ask for: the first variant (of at most three words) of the
    first sense of the right word class (a noun's for a capitalised word, else an
    adjective's or an adverb's; a place's last) that is neither figurative nor rare,
    as the marks of the German variant that writes the word and of the English variant
    say (Ding marks the variant a mark follows: „Festung“ is "fortress", though its
    entry's „Bollwerk“ is figurative and its "fastness" poetic); None where no sense is."""
    return next(fit_englishes(senses, noun), None)


def fit_englishes(senses, noun: bool) -> Iterator[tuple[str, object]]:
    """Every (English, sense) :func:`plain_english` could ask for, in its order."""
    tags = _NOUN_TAGS if noun else _MODIFIER_TAGS
    # a common noun's senses before a place's („die Marken“: brands, not Marche)
    senses = sorted(senses, key=is_place)
    for sense in senses:
        if not tags & set(sense.tags) or _UNFIT & set(sense.form_register):
            continue
        for variant in variants(sense.english):
            english = plain(variant)
            if not english or _UNFIT & set(marks(variant)):
                continue
            words = english.split()
            if len(words) <= MAX_ENGLISH_WORDS and not _vague(words):
                yield english, sense


def says_a_fit_english(senses, english: str, noun: bool) -> bool:
    """Whether the text ``english`` says one of :func:`fit_englishes` (as a word, its
    plural too, case aside: glossary.englishes_pattern)."""
    fit = englishes_pattern(e for e, _ in fit_englishes(senses, noun))
    return fit.search(english) is not None


def every_english(senses) -> Iterator[str]:
    """The plain English of every variant of every one of ``senses``, in their order."""
    for sense in senses:
        for variant in variants(sense.english):
            yield plain(variant)


# The words of a verb's English that stand for its objects ("to deliver sth. to sb.",
# "sth.'s", "sb./sth.", "oneself"), by how they begin.
_OBJECTS = ("sth", "sb", "oneself")


def verb_phrase(english: str) -> tuple[str, bool] | None:
    """The words a text says for a verb's English ("to deliver sth." -> "deliver",
    "to look after sb." -> "look after"), and whether the first takes the verb's
    forms: not after "to be" ("to be missing" -> "missing", as in "was missing");
    None where ``english`` is no verb's (no "to" first) or says more than
    :data:`MAX_ENGLISH_WORDS` words so."""
    words = english.split()
    if len(words) < 2 or words[0] != "to":
        return None
    words = [w for w in words[1:] if not w.startswith(_OBJECTS)]
    inflected = not (len(words) > 1 and words[0] == "be")
    words = words if inflected else words[1:]
    if not words or len(words) > MAX_ENGLISH_WORDS:
        return None
    return " ".join(words), inflected


def says_a_sense(senses, english: str) -> bool:
    """Whether ``english`` (a translation of the word alone) is one of the English
    variants of any of ``senses``, case, articles and punctuation aside ("Date of birth"
    for „Geburtsdatum“, "Invoice" for „Rechnung“; not "Before name" for „Vorname“)."""
    said = _bare_english(english)
    return any(_bare_english(e) == said for e in every_english(senses))


def _bare_english(text: str) -> str:
    words = re.sub(r"[^\w\s'-]", " ", text.casefold()).split()
    return " ".join(words[1:] if words[:1] in (["the"], ["a"], ["an"], ["to"]) else words)


def _vague(words: list[str]) -> bool:
    """A variant that is no translation to insert: "sth.", "sb.", "to …", "…"."""
    return words[0] == "to" or any(w.startswith(("sth.", "sb.", "...", "…")) for w in words)


def is_place(sense) -> bool:
    """Whether a dictionary sense names a place: Ding's [geogr.], or an English that
    says so („Koblenz“: "Coblenz (town in Germany)", without the mark)."""
    return "geogr." in sense.register or bool(_PLACE_NOTE.search(sense.english))


def place_english(senses) -> str | None:
    """The English of a place the word names where Ding gives that sense first
    (its [geogr.]: „Sibirien“ -> "Siberia", „Teheran“ -> "Tehran"; not „Halle“, a hall
    first), or None. A plural region („Marken“, also the plural of „Marke“) is no place
    to insert."""
    first = senses[0] if senses else None
    if first is None or not is_place(first) or "pl" in first.tags:
        return None
    return plain(first.english).split(";")[0].strip() or None

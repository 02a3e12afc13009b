"""Long German nouns the English says in none of the dictionary's senses (issue 60).

The model translates a compound it has rarely seen by its parts, or by a guess: „Das
Fahrradschloss hat zwei Schlüssel.“ -> "The bike squad has two key.", „Die Tiefgarage
schließt …“ -> "The low-garage closes …", „Ohne gültige Aufenthaltserlaubnis …“ -> "…
without valid staying". Such a word is no copy and no garble, but the dictionary knows
it. A capitalised word of :data:`MIN_LETTERS` letters or more, not the sentence's first,
whose dictionary senses (as a noun) the English says none of, is asked for with the
dictionary's English as a copied word is (core/postedit/dictionary_words.py). Shorter nouns
are left to the model: they are the words it knows, and its English for them is more
often a right one the dictionary does not list (on the everyday dev set, asking every
noun of five letters or more changed 133 of 422 sentences and cost the register dev set
0.2 BLEU; ten letters or more raised every dev set: docs/benchmarks.md).

The decode with the dictionary's English is kept only where it says more of the
source's words in a sense of the dictionary than the model's own English did
(:func:`says_more_senses`): a term that pushes other words out („zwanzig Minuten Verspätung“:
"twenty minutes late" -> "twenty delay") gains nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache

from translator_app.core.faithful.dropped import is_content_word
from translator_app.core.faithful.number_words import german_counted_nouns
from translator_app.core.faithful.senses import (
    MAX_ENGLISH_WORDS,
    every_english,
    plain_english,
    says_a_fit_english,
    verb_phrase,
)
from translator_app.core.language.english import englishes_pattern

MIN_LETTERS = 10
_WORD = re.compile(r"[^\W\d_]+")


def unsaid_nouns(dictionary, source: str, output: str) -> tuple[str, ...]:
    """The capitalised words of ``source`` (not its first word) of :data:`MIN_LETTERS`
    letters or more, and the nouns a number counts of any length („Zucker“ of „200 Gramm
    Zucker“: number_words.german_counted_nouns), that ``dictionary`` knows as nouns and whose
    English ``output`` says in none of their senses, as the source writes them and in its
    order. A counted noun is a fact of the sentence: the model leaves it out after its
    measure ("Put 200 grams in a bowl.") more often than it guesses it."""
    counted = german_counted_nouns(source)
    found = []
    for word in dict.fromkeys(_WORD.findall(source)[1:]):
        if not word[:1].isupper() or (len(word) < MIN_LETTERS and word not in counted):
            continue
        senses = dictionary.lookup(word).senses
        if plain_english(senses, True) and not says_a_fit_english(senses, output, True):
            found.append(word)
    return tuple(found)


@lru_cache(maxsize=20_000)
def sense_pattern(dictionary, word: str) -> re.Pattern:
    """Where an English says one of every sense of ``word`` (of at most
    senses.MAX_ENGLISH_WORDS words), a verb's in its forms ("to deliver sth.":
    "delivered"; "to be missing": "missing"): a decode that says a noun's term in
    a verb's place („Wir konnten nicht liefern, weil die Lieferscheine fehlten.“: "We
    couldn't delivery notes because …") says no more of the German than before."""
    words, verbs = [], []
    for english in every_english(dictionary.lookup(word).senses):
        verb = verb_phrase(english)
        if verb is not None:
            (verbs if verb[1] else words).append(verb[0])
        elif english and len(english.split()) <= MAX_ENGLISH_WORDS:
            words.append(english)
    return englishes_pattern(words, verbs)


def senses_said(dictionary, source: str, output: str) -> int:
    """How many content words of ``source`` (core/faithful/dropped.py's) ``output``
    says in one of the dictionary's senses."""
    return sum(
        sense_pattern(dictionary, word).search(output) is not None
        for word in dict.fromkeys(_WORD.findall(source))
        if is_content_word(word)
    )


def says_more_senses(dictionary, source: str, new: str, old: str) -> bool:
    """Whether English ``new`` says more of ``source``'s words in a sense of the
    dictionary than ``old`` (:func:`senses_said`)."""
    return senses_said(dictionary, source, new) > senses_said(dictionary, source, old)

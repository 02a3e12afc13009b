"""German words the model copied into the English, and their English from the dictionary
(issue 60).

The model copies a German word it cannot translate („Teig“, „Liga“, „Apotheke“) as it has
learned to copy names. A word of the output is *copied* when it also stands in the
source (compared case-folded), is a German word of the dictionary and no English word,
and is not a name: a word after a title or a first name („Frau Schneider“) is a
surname. :func:`copied_words` says which; the metric (german_left.py) counts them.

:func:`dictionary_terms` gives such words their English, for the translator to decode
the sentence once more with them annotated as terms (core/postedit/facts.py), as
Luong et al. (2015, "Addressing the rare word problem") replaced an unknown word by a
dictionary translation of the source word it was aligned to. Only a word that reads as
a common word in the German is filled in: written in lower case (an adjective, an
adverb), or a noun after a determiner, a number, a measure or an attributive adjective
(„den Teig“, „250 Gramm Mehl“, „die grüne Lampe“). A capitalised word without one may
be a name („sagte Maas“, „Lahm soll …“, „Bayern gewinnt“), and a name is right to copy.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from typing import Protocol

from translator_app.core.dictionary.ding import WORD
from translator_app.core.faithful.casing import german_casing
from translator_app.core.faithful.compounds import compound_term
from translator_app.core.faithful.corpus_words import kept_names
from translator_app.core.faithful.entity_lists import (
    FIRST_NAMES,
    GERMAN_FIRST_NAMES,
    MORE_PLACES,
    OTHER_SURNAMES,
    PLACES,
    WORD_SURNAMES,
)
from translator_app.core.faithful.garbled_words import folded, garbled_sources
from translator_app.core.faithful.glossary import Term, determined_plural
from translator_app.core.faithful.number_words import german_counted_many, german_counted_nouns
from translator_app.core.faithful.senses import (
    fit_englishes,
    is_place,
    place_english,
    plain_english,
    says_a_sense,
    usual_english,
)
from translator_app.core.faithful.unsaid_nouns import unsaid_nouns
from translator_app.core.language.english import english_plural
from translator_app.core.language.words import (
    alternation,
    german_function_words,
    german_measures,
    german_number_words,
    german_words,
)

# Words after which a capitalised word is a surname.
_TITLES = frozenset(german_words("name-title"))
# A firm's legal form: the capitalised word before it names the firm („Kürschner GmbH“).
_LEGAL_FORMS = frozenset(german_words("legal-form"))
_FIRST_NAMES = frozenset(name.casefold() for name in FIRST_NAMES)
# Surnames that are German words too (Koch, Schneider, Müller): never filled in.
_SURNAMES = frozenset(name.casefold() for name in WORD_SURNAMES + OTHER_SURNAMES)
_CITIES = frozenset(german for german, _ in PLACES + MORE_PLACES)
_RIVER = re.compile(r"\(river\)")


# Before a common noun: articles, possessives, demonstratives, quantifiers and the
# prepositions fused with an article.
_DETERMINERS = german_function_words(
    "article", "fused", "possessive", "demonstrative", "quantifier"
)
# Measures before a mass noun („250 Gramm Mehl“, „eine Prise Salz“).
_MEASURES = frozenset(m.lower() for m in german_measures())
# Lower-case words ending like an inflected adjective that are not adjectives.
_NOT_ADJECTIVES = frozenset(german_words("not-adjective"))
_TOKEN = re.compile(r"\w[\w-]*")  # words and numbers („3. Liga“: the number before)
# Marks after which a word opens a sentence or a quotation; not the full stop, which
# inside one sentence ends an ordinal or an abbreviation („an 4. Stelle“, „der sog. …“).
_OPENERS = frozenset('!?:„"“»«(')
_AND = frozenset(german_words("and-or"))
_FINITE_HELPERS = german_function_words("auxiliary", "modal")
_PREPOSITIONS = german_function_words("preposition")
_BEFORE_NOUNS = _DETERMINERS | _PREPOSITIONS  # never part of a club's or firm's name
_ADJECTIVE = re.compile(r"[a-zäöüß]{3,}(?:e|en|er|es|em)")
# An adjective's strong ending, which no verb form has („ein mit Backpapier belegtes
# Blech“): the noun after it needs no determiner before it to read as one.
_STRONG_ADJECTIVE = re.compile(r"[a-zäöüß]{3,}(?:es|em)")
_NOT_STRONG = frozenset(german_words("not-strong-adjective"))
_NUMBER = re.compile(
    r"\d[\d.,]*\.?|"
    + alternation(w for w, v in german_number_words("alone").items() if 1 < v <= 12)
)


class Lexicon(Protocol):
    """What tells a copied German word: the dictionary's German and English words."""

    def is_german_word(self, word: str) -> bool: ...

    def is_english_word(self, word: str) -> bool: ...


def _names(source_words: Sequence[str]) -> set[str]:
    """The case-folded words of the source that follow a title or a first name."""
    names = set()
    for before, word in zip(source_words, source_words[1:], strict=False):
        b = before.casefold()
        if b in _TITLES or b in _FIRST_NAMES:
            names.add(word.casefold())
    return names


def copied_words(lexicon: Lexicon, source: str, output: str) -> tuple[str, ...]:
    """The words of ``output`` that are German left in the English, in order, as the
    output writes them (each occurrence)."""
    source_words = WORD.findall(source)
    in_source = {w.casefold() for w in source_words} - _names(source_words)
    return tuple(
        w
        for w in WORD.findall(output)
        if (f := w.casefold()) in in_source
        and lexicon.is_german_word(f)
        and not lexicon.is_english_word(f)
    )


def names_in(texts: Iterable[str]) -> frozenset[str]:
    """The case-folded words that follow a title or a listed first name anywhere in
    ``texts`` (a document, or the sentences translated together), and those before a
    listed city or a firm's legal form, the names of clubs and firms („Werder Bremen“,
    „Eintracht Frankfurt“, „Kürschner GmbH“):
    „Herr Götze“ or „Werder Bremen“ in one sentence makes „für Götze“ or „gegen Werder“
    in the next a name too. (Taking any capitalised word the dictionary does not know
    for a first name made 580 more words of newstest2013 names, „Politik“ and „Museum“
    among them, and left more German in the English.)"""
    names: set[str] = set()
    for text in texts:
        words = WORD.findall(text)
        names |= _names(words)
        for first, second in zip(words, words[1:], strict=False):
            f = first.casefold()
            if (second in _CITIES or second in _LEGAL_FORMS) and (
                first[:1].isupper() and f not in _BEFORE_NOUNS
            ):
                names.add(f)
    return frozenset(names)


def openings(source: str) -> frozenset[int]:
    """The indices of the :data:`_TOKEN` words of ``source`` that open a sentence or a
    quotation (first, or after ! ? : or an opening quotation mark or bracket), where
    German writes every word with a capital."""
    found = set()
    for i, m in enumerate(_TOKEN.finditer(source)):
        j = m.start() - 1
        while j >= 0 and source[j].isspace():  # the mark before the word, spaces aside
            j -= 1
        if j < 0 or source[j] in _OPENERS:
            found.add(i)
    return frozenset(found)


def reading(
    words: Sequence[str], i: int, names: Collection[str] = (), opens: Collection[int] = (0,)
) -> str:
    """How ``words[i]`` of a German sentence reads: "common" (a common word: lower case,
    or a noun after a determiner, a number or a measure, after an attributive adjective
    that itself follows one of those or a preposition („mit frischer Hefe“; not „sagte
    Maas“: „sagte“ ends like an adjective), or after „und“ or „oder“ that joins it to
    such a noun („Ihren Arzt oder Apotheker“)); "preposition" (a capitalised word
    right after a preposition: a place or a noun without an article, „in Sibirien“,
    „von Prostatakrebs“); "" where it may be a name (first word, after a verb, a listed
    surname, or one of ``names``, the case-folded names of the text around it); "lower"
    for a word that opens a sentence or a quotation (``opens``: indices) and that German
    writes in lower case inside one (casing.german_casing: „Noch ist …“, „Stets …“,
    „Wer schoss …“), whose capital is the sentence's."""
    word = words[i]
    if word.casefold() in _SURNAMES or word.casefold() in names:
        return ""
    if word[:1].islower():
        return "common"
    if (
        i in opens
        and german_casing().get(word.casefold()) == "lower"
        and not _first_name_as_subject(words, i)
    ):
        return "lower"
    if i == 0:
        return ""
    before = words[i - 1]
    b = before.casefold()
    if b in _AND:
        if i >= 2 and words[i - 2][:1].isupper():
            return reading(words, i - 2, names, opens)
        return ""
    if _introduces_noun(b):
        return "common"
    if b in _PREPOSITIONS:
        return "preposition"
    if _STRONG_ADJECTIVE.fullmatch(before) and b not in _NOT_ADJECTIVES | _NOT_STRONG:
        return "common"
    if before[:1].islower() and b not in _NOT_ADJECTIVES and _ADJECTIVE.fullmatch(b):
        first = words[i - 2].casefold() if i >= 2 else ""
        if i == 1 or _introduces_noun(first) or first in _PREPOSITIONS:
            return "common"
    return ""


def written_as_noun(key: str) -> bool:
    """Whether German writes the case-folded word ``key`` with a capital, as a noun: the
    casing table lists none such. A noun typed in lower case (a casual text: „die
    forelle“) is asked with a noun's English."""
    return key not in german_casing()


def _introduces_noun(word: str) -> bool:
    """A determiner, a measure or a number (case-folded ``word``)."""
    return word in _DETERMINERS or word in _MEASURES or bool(_NUMBER.fullmatch(word))


def copied_common_words(
    dictionary, source: str, output: str, names: Collection[str] = ()
) -> tuple[str, ...]:
    """The :func:`copied_words` of ``output`` that read as common words or places in
    ``source`` (:func:`dictionary_reading`, with ``names`` of the text around it): the
    copies that are errors, where a copied name is right."""
    copied = copied_words(dictionary, source, output)
    if not copied:
        return ()
    words = _TOKEN.findall(source)
    opens = openings(source)
    keys = {w.casefold() for w in copied}
    common = {
        w.casefold()
        for i, w in enumerate(words)
        if w.casefold() in keys and dictionary_reading(dictionary, words, i, names, opens)
    }
    return tuple(w for w in copied if w.casefold() in common)


def dictionary_reading(
    dictionary,
    words: Sequence[str],
    i: int,
    names: Collection[str] = (),
    opens: Collection[int] = (0,),
):
    """:func:`reading`, and where that leaves a capitalised word open, what the
    dictionary tells of it: "place" where its first sense names a country, a region or
    a town („Polen begann …“: Poland; not a river, whose names are surnames too: „sagte
    Maas“), "plural" where its first sense is a plural noun (a name is none: „Kondome
    können …“); "common" where it is a noun of the dictionary that the corpora do not
    keep in the English as they keep a name (corpus_words.kept_names: „Forscher
    vermuten …“, „der Russischen Föderation“, „Bezirk Pilsen“); "" where it may be a
    name."""
    how = reading(words, i, names, opens)
    word = words[i]
    key = word.casefold()
    if how or key in _SURNAMES or key in names or word in _CITIES:
        return how
    senses = dictionary.lookup(word).senses
    if not senses:
        return ""
    if place_english(senses) is not None and not _RIVER.search(senses[0].english):
        return "place"
    if set(senses[0].tags) == {"pl"}:
        return "plural"
    if word not in kept_names() and any(
        not is_place(sense) for _, sense in fit_englishes(senses, True)
    ):
        return "common"  # a noun of its own, no river's or town's name only
    return ""


# A text of one word: a heading, a sign, a form's field („Vorname“, „Abfahrt:“).
ONE_WORD = re.compile(r"\s*([^\W\d_]+(?:-[^\W\d_]+)*)\s*[.!?:]?\s*")


def heading_term(dictionary, source: str, english: str) -> Term | None:
    """For a text of one German word (a heading, a sign, a form's field: „Vorname“,
    „Abfahrt“, „Gleis“), a term with the dictionary's English where the model's
    ``english`` is none of the word's senses: the model, trained on sentences, guessed a
    lone word from its parts ("Before name", "Apart", "Leads"). None where it is one of
    them ("Invoice" for „Rechnung“), or the dictionary holds no fit sense of the word
    itself (a compound's last part is not the word)."""
    m = ONE_WORD.fullmatch(source)
    if m is None:
        return None
    word = m.group(1)
    found = dictionary.lookup(word)
    if not found.senses or found.compound is not None or says_a_sense(found.senses, english):
        return None
    # a sense of the word's own over one of a subject's („Ausfahrt“ [min.]: ramp)
    senses = sorted(found.senses, key=lambda sense: bool(sense.form_register))
    chosen = plain_english(senses, noun=word[:1].isupper())
    if chosen is None:
        return None
    asked = chosen[0][:1].upper() + chosen[0][1:]  # the English's first word
    return Term(word, asked, kind="dictionary")


def openers_lowered(
    dictionary, source: str, copied: Collection[str], names: Collection[str] = ()
) -> str | None:
    """``source`` with each of the ``copied`` words (as :func:`copied_common_words` gives
    them) written in lower case where it opens the sentence or a quotation and German
    writes it in lower case inside one (:func:`reading`'s "lower": „Aktuell ist …“ ->
    „aktuell ist …“, „Stets muss …“); None where none is. The model, which met such a word mostly inside
    sentences, copied its capitalised form as it copies names; written as it knows it,
    the word is translated ("currently", "always"). A verb's infinitive that the
    dictionary gives first as a noun keeps its capital: opening a sentence or a quotation
    it is mostly one („„Sterben in Würde““: dying), unless „Sie“ follows it („Bohren Sie
    …“: a request). Only the case of a letter changes, so
    every offset into ``source`` holds in the new text."""
    copied = {w.casefold() for w in copied}
    opens = openings(source)
    matches = list(_TOKEN.finditer(source))
    words = [m.group() for m in matches]
    text = source
    for i in sorted(opens):
        word = words[i]
        lowered = word[:1].lower() + word[1:]
        if (
            word.casefold() in copied
            and len(lowered) == len(word)
            and reading(words, i, names, opens) == "lower"
            and (_polite_imperative(words, i) or not _noun_infinitive(dictionary, word))
        ):
            start = matches[i].start()
            text = text[:start] + lowered[:1] + text[start + 1 :]
    return None if text == source else text


def _first_name_as_subject(words: Sequence[str], i: int) -> bool:
    """Whether ``words[i]``, a word German writes in lower case inside a sentence, is a
    first name (entity_lists.GERMAN_FIRST_NAMES) that opens the sentence as its subject:
    a finite auxiliary or modal verb follows it („Malte hat …“; the verb „malte“ would be
    followed by its subject), or „und“ and a capitalised word („Malte und Matthias …“)."""
    if words[i] not in GERMAN_FIRST_NAMES or i + 1 >= len(words):
        return False
    after = words[i + 1]
    if after in _FINITE_HELPERS:
        return True
    return after.casefold() in _AND and i + 2 < len(words) and words[i + 2][:1].isupper()


def _polite_imperative(words: Sequence[str], i: int) -> bool:
    """Whether ``words[i]`` is a verb said to „Sie“ („Bohren Sie zuerst zwei Löcher.“),
    which no noun is, whatever the dictionary lists first."""
    return i + 1 < len(words) and words[i + 1] == "Sie"


def _noun_infinitive(dictionary, word: str) -> bool:
    """Whether ``word`` is a verb's infinitive that ``dictionary`` gives first as a
    neuter noun (das Sterben, das Stampfen)."""
    if not word.endswith("en"):
        return False
    senses = dictionary.lookup(word).senses
    return bool(senses) and "n" in senses[0].tags


def _gender(sense, lemma: str) -> str:
    """The gender tag ("m", "f", "n") of the German variant of ``sense`` that writes
    ``lemma`` („Selbstbehalt {m}; Selbstbeteiligung {f}“: "f"), or "" where Ding's tags
    cannot be told apart by variant."""
    variants = sense.german.split("; ")
    if len(variants) != len(sense.tags):
        return ""
    written = lemma.casefold()
    return next(
        (t for v, t in zip(variants, sense.tags, strict=True) if v.casefold() == written), ""
    )


def _same_name(a: str, b: str) -> bool:
    """Whether two spellings name the same (Quebec, Québec)."""
    return folded(a) == folded(b)


def _words_to_ask(dictionary, source: str, output: str, garbled) -> tuple[set, set]:
    """The case-folded words of ``source`` :func:`dictionary_terms` asks for (copied,
    garbled by their letters or in ``garbled``, or long nouns said in no sense), and of
    them the unsaid nouns."""
    copied = {w.casefold() for w in copied_words(dictionary, source, output)}
    copied |= {w.casefold() for w in garbled_sources(dictionary, source, output)}
    copied |= {w.casefold() for w in garbled}
    unsaid = {w.casefold() for w in unsaid_nouns(dictionary, source, output)} - copied
    return copied | unsaid, unsaid


def dictionary_terms(
    dictionary,
    source: str,
    output: str,
    names: Collection[str] = (),
    garbled: Collection[str] = (),
) -> tuple[Term, ...]:
    """Terms (German as the source writes it, English from ``dictionary``, marked
    ``dictionary``) for the copied words of ``output`` that read as common words or
    places in ``source`` (:func:`dictionary_reading`, with the ``names`` of the text
    around it) and that the dictionary translates; a word the English garbled
    (garbled_words.py: "Husten juice" for „Hustensaft“) counts as copied, and so does a
    long noun it says in none of the dictionary's senses (unsaid_nouns.py), and each word
    of ``garbled`` (found garbled by the attention: garbled_words.garbled_by_attention). A
    capitalised word that names a place is a place unless an article or an adjective
    makes it a noun („in Halle“ is the city, „in der Halle“ the hall); a place whose
    English is its German („in Essen“) is left alone."""
    # each copy's reading is decided below, occurrence by occurrence, as
    # copied_common_words decides it: the dictionary is not asked twice
    copied, unsaid = _words_to_ask(dictionary, source, output, garbled)
    if not copied:
        return ()
    terms: dict[str, Term] = {}
    counted = german_counted_nouns(source)
    many = german_counted_many(source)
    words = _TOKEN.findall(source)
    opens = openings(source)
    for i, word in enumerate(words):
        key = word.casefold()
        if key not in copied or key in terms or word in _CITIES:
            continue  # a listed place: the translator protects it with its English
        how = dictionary_reading(dictionary, words, i, names, opens)
        if how in ("", "lower"):  # "lower": asked as German writes it (openers_lowered)
            continue
        found = dictionary.lookup(word)
        if not found.senses:
            continue
        if how == "place" or (how == "preposition" and any(is_place(s) for s in found.senses)):
            place = place_english(found.senses)  # „in Halle“, „in Essen“: no hall, no food
            if place is not None and not _same_name(place, word):
                terms[key] = Term(word, place, kind="dictionary")
            continue
        noun = word[:1].isupper() or written_as_noun(key)
        if found.compound is not None:  # „Tagesticket“: day ticket
            # not where the model said it its own way, no worse than by parts, nor where
            # it may be a town's name („in Wolfsburg“)
            if key in unsaid or how != "common":
                continue
            chosen = compound_term(dictionary, word, found, noun)
            if chosen is None:
                continue
            lemma, english, sense = chosen
        else:
            chosen = usual_english(word, found.senses, noun)
            if chosen is None and noun and word[:1].islower():
                # a lower-case word that reads as a noun too („spülmaschinenfest“, as
                # „Spülmaschinen-Fest“) but has no noun's sense: its adjective's
                noun, chosen = False, usual_english(word, found.senses, False)
            if chosen is None:
                continue
            (english, sense), lemma = chosen, found.lemma
        # A singular noun's English is asked in the German's number (glossary.is_plural,
        # from the lemma); a plural sense's English and a modifier's are used as they are.
        german = lemma if noun and "pl" not in sense.tags else word
        if (
            word in many
            or (word in counted and "pl" in found.senses[0].tags)
            or (noun and determined_plural(words[max(0, i - 3) : i], _gender(sense, lemma)))
        ):
            # a number counts it: „30 Tabletten“, „zehn Dübel“, „400 Gramm Tomaten“ are
            # pills, dowels, tomatoes (a counted word the dictionary lists first as a
            # plural, whichever sense is the usual English; „400 Gramm Hähnchen“, first
            # a singular, is chicken); or its determiner does: „Die Winterreifen sind …“ (winter tyres)
            english = english_plural(english)
        if i == 0:  # the sentence's first word: its English begins the English
            english = english[:1].upper() + english[1:]
        terms[key] = Term(german, english, kind="dictionary")
    return tuple(terms.values())

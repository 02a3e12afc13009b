"""Copied words the dictionary pass did not ask for (issue 60): a word that opens a
sentence or a quotation with a capital German writes only there („Aktuell ist …“,
„Stets habe …“), and a noun where a name may stand („Forscher vermuten …“), which the
corpora tell from a name by whether the English of their pairs keeps it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from conftest import tiny_ding
from scripted_decoder import Written, asked_for, scripted_translator
from translator_app.core.faithful.copied_words import (
    _TOKEN,
    dictionary_reading,
    dictionary_terms,
    names_in,
    openers_lowered,
    openings,
    reading,
)
from translator_app.core.faithful.corpus_words import kept_names, noun_english
from translator_app.core.faithful.german_left import GermanLeftCheck

sys.path.insert(0, str(Path(__file__).parents[2] / "scripts"))
import build_word_lists  # noqa: E402

DING = [
    "aktuell {adj} :: topical",
    "stets {adv} :: perpetually; always",
    "Sterben {n} :: dying",
    "sterben {vi} :: to die",
    "Forscher {m} :: researcher",
    "Föderation {f} :: federal state; federation",
    "Müller {m} :: miller",
    "Bahn {f} :: railway; track",
    "Kürschner {m} :: furrier",
]


@pytest.fixture(scope="module")
def ding(tmp_path_factory):
    return tiny_ding(tmp_path_factory.mktemp("ding"), DING)


def _opening_words(text: str) -> list[str]:
    words = _TOKEN.findall(text)
    return [words[i] for i in sorted(openings(text))]


def test_a_sentence_a_quotation_and_a_bracket_open_words_an_ordinal_does_not():
    text = 'Der Spruch "Wer schoss auf J.R.?", an 4. Stelle (etwa 5): Ende'
    assert _opening_words(text) == ["Der", "Wer", "etwa", "Ende"]


def test_an_opening_word_german_writes_in_lower_case_reads_as_lower():
    for text in ("Aktuell ist der Verkehr schlecht.", "Stets habe er Licht gehabt."):
        words = _TOKEN.findall(text)
        assert reading(words, 0) == "lower"
    text = 'Der Spruch "Wer schoss auf ihn?" ging um die Welt.'
    words = _TOKEN.findall(text)
    assert reading(words, words.index("Wer"), (), openings(text)) == "lower"
    # inside a sentence the capital is the word's own: no name is read in lower case
    assert reading(words, words.index("Spruch"), (), openings(text)) == "common"


def test_the_corpora_tell_names_from_common_nouns(ding):
    names = kept_names()
    # the English of many of their pairs keeps them: a club, a firm, a name
    assert {"Bayern", "Bahn"} <= names
    # the English of their pairs says them otherwise: nouns
    assert not {"Forscher", "Gouverneur", "König", "Föderation"} & names
    assert noun_english()["Föderation"] == "federation"  # Ding's first: "federal state"
    assert "Forscher" not in noun_english()  # Ding's first, "researcher", is the usual

    def read(text: str, word: str) -> str:
        words = _TOKEN.findall(text)
        names = names_in([text])  # as the dictionary pass reads a text
        return dictionary_reading(ding, words, words.index(word), names, openings(text))

    assert read("Forscher vermuten, dass er alt ist.", "Forscher") == "common"
    assert read("Held der Russischen Föderation.", "Föderation") == "common"
    assert read("Bahn kündigt Streik an.", "Bahn") == ""  # Deutsche Bahn, kept
    assert read("Müller kündigt Streik an.", "Müller") == ""  # a listed surname
    assert read("Schmidt vermutet es.", "Schmidt") == ""  # no word of the dictionary
    # a firm: after „Firma“, or before its legal form
    assert read("Die Kürschner GmbH hat bezahlt.", "Kürschner") == ""
    assert read("Die Firma Kürschner hat bezahlt.", "Kürschner") == ""
    assert read("Der Kürschner hat bezahlt.", "Kürschner") == "common"


def test_a_noun_where_a_name_may_stand_asks_the_english_its_pairs_say(ding):
    terms = dictionary_terms(ding, "Forscher vermuten es.", "Forscher suspect it.")
    assert [(t.source, t.target) for t in terms] == [("Forscher", "Researcher")]
    terms = dictionary_terms(ding, "Held der Russischen Föderation.", "Hero of Föderation.")
    assert [t.target for t in terms] == ["federation"]
    # an opening word German writes in lower case is asked in lower case, not as a term
    assert dictionary_terms(ding, "Aktuell ist es gut.", "Aktuell is it good.") == ()


def test_only_a_copied_opening_word_is_written_in_lower_case(ding):
    source = "Aktuell ist der Verkehr schlecht."
    assert openers_lowered(ding, source, ["Aktuell"]) == "aktuell ist der Verkehr schlecht."
    assert openers_lowered(ding, source, []) is None
    # an infinitive the dictionary gives first as a noun is one where it opens a quotation
    source = 'Ihr Ausschuss für "Sterben in Würde" tagte.'
    assert openers_lowered(ding, source, ["Sterben"]) is None
    # the offsets into the user's text hold
    text = 'Er sagte: "Stets habe ich recht."'
    lowered = openers_lowered(ding, text, ["Stets"])
    assert len(lowered) == len(text) and lowered.replace("stets", "Stets") == text


def test_the_list_is_counted_from_the_pairs(ding):
    lines = [
        "Die Föderation wächst.\tThe federation grows.\n",
        "Zwei Föderationen.\tTwo federations.\n",
        "Forscher fanden es.\tResearchers found it.\n",
        "Müller sagte es.\tMüller said it.\n",
        "Müller kam.\tMüller came.\n",
    ]
    pairs, kept = build_word_lists.kept_in_english(lines)
    assert (pairs["Müller"], kept["Müller"]) == (2, 2)
    assert (pairs["Forscher"], kept["Forscher"]) == (1, 0)
    lexicon = GermanLeftCheck.from_ding(DING)
    assert build_word_lists.kept_names(pairs, kept, lexicon) == ["Müller"]
    nouns = build_word_lists.common_nouns(pairs, kept, lexicon)
    assert nouns == ["Forscher", "Föderation"]
    usual = build_word_lists.usual_englishes(lines, nouns, ding)
    # the dictionary's first English is not listed: it is asked without the list
    assert usual == {"Föderation": "federation"}


# The bundled model's own copies at a sentence's opening are cases of the regression lane
# (tests/regression/cases.toml, "opener-*"); here a scripted decoder writes them.
@pytest.mark.parametrize(
    "german, copied, said",
    [
        # a noun: asked for with the dictionary's English
        (
            "Forscher haben ein neues Medikament entwickelt.",
            "Forscher have developed a new drug.",
            "{} have developed a new drug.",
        ),
        # a word German writes in lower case: the sentence is read with it so
        (
            "Stets habe er mit Licht schlafen müssen.",
            "Stets he had to sleep with light.",
            "He always had to sleep with light.",
        ),
    ],
)
def test_a_word_the_model_copied_at_a_sentences_opening_is_translated(german, copied, said):
    def script(source: str) -> list[Written]:
        if asked := asked_for(source):
            return [Written(said.format(asked[0]), -3.0)]
        return [Written(said if source[:1].islower() else copied, -3.0)]

    translator = scripted_translator(script)
    (alone,) = translator.translate([german], beam=1, dictionary_words=False)
    assert alone.text == copied
    (after,) = translator.translate([german], beam=1)
    first = german.split()[0]
    assert not re.search(rf"\b{first}\b", after.text), after.text
    assert after.text[:1].isupper()  # read in lower case, it begins with a capital
    assert after.source == german  # the user's text, the offsets into it
    assert after.attention.shape == (len(after.target_pieces), len(after.source_pieces))

"""Words the dictionary knows by a part of them (issue 60): a compound Ding does not list
whole asked for with the English of its parts (core/faithful/compounds.py), a word known
by its lemma or by its last part after a hyphen taken for German, an English verb or
plural ("blinks") taken for English where it garbles nothing, and a request to „Sie“
asked in lower case. With the bundled model, greedy: „Bitte überprüfen Sie auch Ihren
Spam-Ordner.“ was "Please check your Spam-Ordner.", „Reine Bio-Baumwolle“ "bio-Baumwolle",
„Ein Tagesticket kostet 8,50 Euro.“ "A dayicket costs €8.50."."""

from __future__ import annotations

import re

import numpy as np
import pytest

from conftest import tiny_ding
from scripted_decoder import Written, asked_for, scripted_translator
from translator_app.core import Candidate, Translation
from translator_app.core.faithful.compounds import compound_term
from translator_app.core.faithful.copied_words import (
    copied_common_words,
    dictionary_terms,
    openers_lowered,
)
from translator_app.core.faithful.garbled_words import garbled_sources

DING = [
    "Tag {m} | Tage {pl} :: day | days",
    "Ticket {n} | Tickets {pl} :: admission ticket; ticket | admission tickets; tickets",
    "Etikett {n} :: tag",
    "Ordner {m} :: folder",
    "Baumwolle {f} :: cotton",
    "rostfrei {adj} :: stainless",
    "Kasse {f} | Kassen {pl} :: till | tills",
    "Straße {f} :: street",
    "Bahnhof {m} :: station",
    "blinken {vi} | blinkend | geblinkt :: to blink | blinking | blinked",
    "Bohren {n} :: drilling",
    "bohren {vt} :: to drill",
    "spam :: spam",
]


@pytest.fixture(scope="module")
def ding(tmp_path_factory):
    return tiny_ding(tmp_path_factory.mktemp("ding"), DING)


@pytest.mark.parametrize(
    "word, german, english",
    [
        ("Tagesticket", "Tagesticket", "day ticket"),  # the sense's one-word English
        ("Tagestickets", "Tagestickets", "day tickets"),  # a plural form's English
        ("Spam-Ordner", "Spam-Ordner", "spam folder"),  # an English word before a hyphen
        ("Walmart-Kassen", "Walmart-Kassen", "Walmart tills"),  # a name before a hyphen
        ("Wunderbaumwolle", "Wunderbaumwolle", "cotton"),  # a first part of no English
    ],
)
def test_a_compound_is_asked_for_with_the_english_of_its_parts(ding, word, german, english):
    found = ding.lookup(word)
    assert found.compound is not None  # Ding does not list the whole word
    assert compound_term(ding, word, found, noun=True)[:2] == (german, english)


def test_a_streets_name_is_no_compound_to_translate(ding):
    found = ding.lookup("Bahnhofstraße")
    assert found.compound == ("Bahnhof", "Straße")
    assert compound_term(ding, "Bahnhofstraße", found, noun=True) is None


def test_a_word_known_by_its_lemma_or_its_last_part_is_german(ding):
    assert not ding._is_form("rostfreiem") and ding.is_german_word("rostfreiem")
    assert ding.is_german_word("Spam-Ordner") and ding.is_german_word("Bio-Baumwolle")
    assert not ding.is_german_word("Walmart") and not ding.is_german_word("Spam-")
    # so a copy of one is a copy, asked for with its parts' English
    source, english = "Bitte prüfen Sie Ihren Spam-Ordner.", "Please check your Spam-Ordner."
    assert copied_common_words(ding, source, english) == ("Spam-Ordner",)
    terms = dictionary_terms(ding, source, english)
    assert [(t.source, t.target) for t in terms] == [("Spam-Ordner", "spam folder")]


def test_a_garbled_compound_is_asked_by_its_parts_where_it_reads_as_a_common_word(ding):
    source, english = "Ein Tagesticket kostet 8 Euro.", "A dayicket costs 8 euros."
    assert garbled_sources(ding, source, english) == ("Tagesticket",)
    terms = dictionary_terms(ding, source, english)
    assert [(t.source, t.target) for t in terms] == [("Tagesticket", "day ticket")]
    # after a preposition it may be a town's name („in Tagesticket“): left alone
    assert dictionary_terms(ding, "Wir wohnen in Tagesticket.", "We live in Dayicket.") == ()


def test_an_english_inflection_garbles_nothing_but_a_copy_is_no_inflection(ding):
    assert ding.is_english_form("blinks") and not ding.is_english_word("blinks")
    source = "Die Lampe blinkt und blinkt."
    assert garbled_sources(ding, source, "The lamp blinks and blinks.") == ()
    # a copied German word is never read as an English one inflected („Tages“: tag + es)
    assert not ding.is_english_word("Tages") and ding.is_english_form("Tages")


def test_a_request_to_sie_opens_in_lower_case_though_the_dictionary_lists_a_noun(ding):
    source = "Bohren Sie zwei Löcher."
    assert openers_lowered(ding, source, ["Bohren"]) == "bohren Sie zwei Löcher."
    # the noun, opening a sentence without „Sie“, keeps its capital
    assert openers_lowered(ding, "Bohren ist laut.", ["Bohren"]) is None


# The bundled model's own copies of compounds are cases of the regression lane
# (tests/regression/cases.toml, "compound-*"); here a scripted decoder writes them.
@pytest.mark.parametrize(
    "german, copy, frame, said",
    [
        (
            "Bitte überprüfen Sie auch Ihren Spam-Ordner.",
            "Spam-Ordner",
            "Please also check your {}.",
            r"\bspam folder\b",
        ),
        ("Das ist reine Bio-Baumwolle.", "Bio-Baumwolle", "This is pure {}.", r"\bcotton\b"),
    ],
)
def test_a_compound_the_model_copied_is_said_by_its_parts(monkeypatch, german, copy, frame, said):
    from translator_app.core.faithful import copied_words

    def script(source: str) -> list[Written]:
        asked = asked_for(source)
        return [Written(frame.format(asked[0] if asked else copy), -3.0)]

    translator = scripted_translator(script)
    (t,) = translator.translate([german], beam=1)
    assert re.search(said, t.text, re.I) and copy not in t.text, t.text
    monkeypatch.setattr(copied_words, "compound_term", lambda *args: None)
    (t,) = translator.translate([german], beam=1)
    assert t.text == frame.format(copy)  # without the step the copy stays


def _said(source: str, text: str) -> Translation:
    candidate = Candidate(text, (), (), (), np.zeros((0, 0), np.float32), -1.0, -1.0)
    return Translation(source, (), (), (), (candidate,))


def test_a_new_decode_that_drops_a_sentence_or_garbles_instead_of_copying_is_not_kept(ding):
    from translator_app.core.postedit.judge import WordChecks, keeps_sentences, says_words_better

    two = "Baden verboten! Starke Strömung."
    first = _said(two, "Bads banned! Starke String.")
    assert not keeps_sentences(_said(two, "Baden forbiddens!"), first)
    assert keeps_sentences(_said(two, 'Swimming "banned!" Strong current.'), first)
    # an abbreviation's point ends no sentence
    one = "Er kaufte z. B. Brot."
    said = _said(one, "He bought bread, for example.")
    assert keeps_sentences(said, _said(one, "He bought e.g. bread."))
    # asked for „Baumwolle“, a decode that says it and garbles another word the first
    # said is no gain („Grundschule“ asked: "Her election station …" -> "Her
    # choicelokal …"); one that garbles nothing is, and so is one that garbles a word as
    # it stops copying another
    source = "Reine Baumwolle, rostfreiem Stahl."
    words = WordChecks(ding, frozenset())
    (term,) = dictionary_terms(ding, source, "Pure Baumwolle, stainless steel.")
    old = _said(source, "Pure fabric, stainless steel.")
    assert not says_words_better(_said(source, "Pure cotton, rostless steel."), old, (term,), words)
    assert says_words_better(_said(source, "Pure cotton, stainless steel."), old, (term,), words)
    copied = _said(source, "Pure Baumwolle, stainless steel.")
    assert says_words_better(_said(source, "Pure cotton, rostless steel."), copied, (term,), words)

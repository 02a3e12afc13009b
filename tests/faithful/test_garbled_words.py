"""German words the model garbled into the English (core/faithful/garbled_words.py): a
part copied and a part translated ("Husten juice" for „Hustensaft“), a German word spelt
the English way ("giraffs"), are asked for with the dictionary's English as a copied word
is. With the bundled model, greedy: „Die Brotdose …“ was "The breaddose …", „Ab 22 Uhr
ist Nachtruhe.“ "From 10 p.m. is nightruhe."."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import tiny_ding
from scripted_decoder import Written, scripted_translator
from translator_app.core.engine.translation import WordAlignment
from translator_app.core.faithful.copied_words import dictionary_terms
from translator_app.core.faithful.garbled_words import (
    folded,
    garbled_by_attention,
    garbled_sources,
    odd_words,
    shared_ends,
)

DING = [
    "Hustensaft {m} :: cough syrup",
    "Brotdose {f} :: lunch box",
    "Königin {f} :: queen",
    "Allergie {f}; Allergien {pl} :: allergy; allergies",
    "Giraffe {f}; Giraffen {pl} :: giraffe; giraffes",
    "Nachtruhe {f} :: night's rest",
    "Saft {m} :: juice",
    "Sport {m} :: sport",
    "Computer {m} :: computer",
    "Rötung {f} :: redness",
    "Batterie {f}; Batterien {pl} :: battery; batteries",
    "Batteriefach {n} :: battery compartment",
    "Balkon {m}; Balkone {pl} :: balcony; balconies",
    "blinken {vi} :: to blink",
    "Sperrmüll {m} :: bulky waste",
    "anmelden {vt} :: to register",
    "Fußmatte {f} :: doormat",
    "Schlüssel {m} :: key",
    "müssen {vi} :: must; to have to",
    "unterschreiben {vt} :: to sign",
    "spülmaschinenfest {adj} :: dishwasher-safe; dishwasher-proof",
    "Deckel {m} :: lid",
]


@pytest.fixture(scope="module")
def ding(tmp_path_factory):
    return tiny_ding(tmp_path_factory.mktemp("ding"), DING)


def test_words_share_their_beginning_or_their_end_spelt_without_marks():
    assert folded("Rötung") == "rotung" and folded("Straße") == "strasse"
    assert shared_ends("husten", "hustensaft") == 6
    assert shared_ends("breaddose", "brotdose") == 4
    assert shared_ends("nightruhe", "nachtruhe") == 6  # "htruhe"
    assert shared_ends("unrepresentatively", "aktive") == 0  # "tive" inside is no end


@pytest.mark.parametrize(
    "source, output, garbled",
    [
        ("Hustensaft vor Gebrauch schütteln.", "Husten juice is delicious.", ("Hustensaft",)),
        ("Die Brotdose ist leer.", "The breaddose is empty.", ("Brotdose",)),
        ("Ab 22 Uhr ist Nachtruhe.", "From 10 p.m. is nightruhe.", ("Nachtruhe",)),
        ("Die Giraffen fressen.", "The giraffs eat.", ("Giraffen",)),
        # neither end alike, but the word as like the German as difflib's 0.6 and begun alike
        ("Die Königin kam.", "The kingin came.", ("Königin",)),
        ("Bei Allergien hilft das.", "That helps with Allgis.", ("Allergien",)),
        ("Die Königin kam.", "The ringin came.", ()),  # another first letter
        # a consonant's y takes -ies: "batterys" is no English plural; it garbles the
        # likest word only (not „Batteriefach“, which begins with "batter" too)
        (
            "Legen Sie Batterien in das Batteriefach ein.",
            "Put batterys in the battery.",
            ("Batterien",),
        ),
        ("Wir sitzen auf dem Balkonen.", "We sit on the balconys.", ("Balkonen",)),
        ("Legen Sie Batterien in das Batteriefach ein.", "Put batteries in the battery.", ()),
        # an English word, however near the German, is the model's translation
        ("Hustensaft vor Gebrauch schütteln.", "Shake cough syrup before use.", ()),
        ("Die Giraffen fressen.", "The giraffes eat.", ()),
        # a copy of the whole word is copied_words.py's; a German word that is English too,
        # and a short one, share their ends with too many English words
        ("Die Brotdose ist leer.", "The Brotdose is empty.", ()),
        ("Der Computer rechnet.", "The computerr calculates.", ()),
        ("Sport ist gesund.", "Sporting is healthy.", ()),
    ],
)
def test_a_word_of_no_language_that_ends_as_a_german_word_garbles_it(ding, source, output, garbled):
    assert garbled_sources(ding, source, output) == garbled


def test_a_garbled_word_is_asked_for_with_the_dictionarys_english(ding):
    terms = dictionary_terms(ding, "Die Brotdose ist leer.", "The breaddose is empty.")
    assert [(t.source, t.target) for t in terms] == [("Brotdose", "lunch box")]


def test_an_english_inflection_is_spelt_as_english_spells_it(ding):
    """Ding writes "to blink" and "battery": "blinks", "blinked" and "batteries" are
    English; "batterys" and "blinkd" are not (the model's garbles), so they are no
    English words that would hide a garble."""
    assert ding.is_english_form("blinks") and ding.is_english_form("blinked")
    assert ding.is_english_form("batteries") and ding.is_english_form("Battery")
    assert not ding.is_english_form("batterys") and not ding.is_english_form("batteryed")
    assert not ding.is_english_form("blinkd")


class _Attended:
    """A translation as garbled_by_attention reads it: its source, its best English and
    the attention between their words (rows: English words, columns: German words)."""

    def __init__(self, source: str, text: str, english, german, rows):
        self.source, self.text = source, text
        self._words = WordAlignment(german, english, np.asarray(rows, np.float32), (), ())

    def words(self) -> WordAlignment:
        return self._words


_SOURCE = "Sperrmüll muss vorher angemeldet werden."
_GERMAN = ("Sperrmüll", "muss", "vorher", "angemeldet", "werden", ".")


@pytest.mark.parametrize(
    "row, garbled",
    [
        ([0.54, 0.1, 0.05, 0.1, 0.04, 0.07], ("Sperrmüll",)),  # v23: "Craining waste"
        ([0.36, 0.0, 0.0, 0.36, 0.0, 0.0], ()),  # two words alike: which is not told
        ([0.25, 0.1, 0.1, 0.1, 0.1, 0.1], ()),  # too little on any
        ([0.1, 0.0, 0.0, 0.0, 0.0, 0.7], ()),  # on the full stop
        ([0.1, 0.7, 0.0, 0.0, 0.0, 0.0], ()),  # on a word too short to ask for
    ],
)
def test_a_word_of_no_language_garbles_the_german_word_it_attends_to(ding, row, garbled):
    english = ("Craining", "waste", "must", "be", "signed", ".")
    rows = [row] + [[1 / 6] * 6] * 5
    t = _Attended(_SOURCE, "Craining waste must be signed.", english, _GERMAN, rows)
    assert odd_words(ding, _SOURCE, t.text) == ["Craining"]
    assert garbled_sources(ding, _SOURCE, t.text) == ()  # no letters alike
    assert garbled_by_attention(ding, t) == garbled


def test_an_english_word_is_no_garble_wherever_it_attends(ding):
    english = ("Bulky", "waste", "must", "be", "registered", ".")
    rows = [[0.9, 0.02, 0.02, 0.02, 0.02, 0.02]] * 6
    t = _Attended(_SOURCE, "Bulky waste must be registered.", english, _GERMAN, rows)
    assert odd_words(ding, _SOURCE, t.text) == []
    assert garbled_by_attention(ding, t) == ()


def test_a_word_the_attention_finds_garbled_is_asked_for(ding):
    terms = dictionary_terms(
        ding,
        "Der Schlüssel liegt unter der Fußmatte.",
        "The key is under the footmat.",
        garbled=("Fußmatte",),
    )
    assert [(t.source, t.target) for t in terms] == [("Fußmatte", "doormat")]


def test_a_lower_case_word_without_a_nouns_sense_is_asked_with_its_adjectives(ding):
    """„spülmaschinenfest“ is in no casing list, so it may be a noun typed in lower case
    (as „Spülmaschinen-Fest“); with no noun's sense it is asked as the adjective it is
    (v23: "The lid is splunching.")."""
    terms = dictionary_terms(
        ding,
        "Der Deckel ist spülmaschinenfest.",
        "The lid is splunching.",
        garbled=("spülmaschinenfest",),
    )
    assert [(t.source, t.target) for t in terms] == [("spülmaschinenfest", "dishwasher-safe")]


# The bundled model's own garbles are cases of the regression lane (tests/regression/
# cases.toml, "garble-*"); here a scripted decoder writes them, so every step after the
# decode is the app's on every CPU.
LID = "Der Deckel ist spülmaschinenfest."


def _lid(attends_to: str):
    def script(source: str) -> list[Written]:
        if "<means> dishwasher-safe" in source:  # asked with the dictionary's English
            return [Written("The lid is dishwasher-safe.", -2.0)]
        return [Written("The lid is splunching.", -2.5, {"splunching": attends_to})]

    return script


def test_the_app_says_the_word_whose_garble_its_attention_finds():
    translator = scripted_translator(_lid("spülmaschinenfest"))
    (t,) = translator.translate([LID], beam=1)
    assert t.text == "The lid is dishwasher-safe."
    assert any("<means> dishwasher-safe" in job for job in translator.backend.jobs)
    (use,) = [u for u in t.terms if u.dictionary]
    assert use.source == "spülmaschinenfest"


def test_a_garble_attending_to_no_word_is_left_as_the_model_wrote_it():
    """The letters of "splunching" are unlike the German's, and its attention is on the
    full stop: no word to ask for, one decode, the model's English."""
    translator = scripted_translator(_lid("."))
    (t,) = translator.translate([LID], beam=1)
    assert t.text == "The lid is splunching."
    assert not any("<term>" in job for job in translator.backend.jobs)


def test_without_the_dictionarys_words_the_garble_stays():
    translator = scripted_translator(_lid("spülmaschinenfest"))
    (t,) = translator.translate([LID], beam=1, dictionary_words=False)
    assert t.text == "The lid is splunching."

"""A text of one German word (a heading, a sign, a form's field) whose English is none of
the word's senses is said with the dictionary's English (copied_words.heading_term): the
model, trained on sentences, guessed „Vorname“ as "Before name", „Abfahrt“ as "Apart",
„Gebrauchsanweisung“ as "used to use"."""

from __future__ import annotations

import pytest

from conftest import tiny_ding
from translator_app.core.dictionary.lookup import Dictionary
from translator_app.core.faithful.copied_words import heading_term
from translator_app.core.faithful.senses import says_a_sense

DING = [
    "Vorname {m} :: first name; forename; given name",
    "Rechnung {f} [econ.] :: account; invoice",
    "Ausfahrt {f} [min.] :: ramp",
    "Ausfahrt {f} :: exit; way out",
    "Gefahr {f} :: danger",
]


@pytest.fixture(scope="module")
def ding(tmp_path_factory) -> Dictionary:
    return tiny_ding(tmp_path_factory.mktemp("ding"), DING)


def test_an_english_is_a_sense_whatever_its_case_article_or_stop(ding):
    senses = ding.lookup("Rechnung").senses
    assert says_a_sense(senses, "Invoice.") and says_a_sense(senses, "an account")
    assert not says_a_sense(senses, "Calculation")


@pytest.mark.parametrize(
    "german, english, asked",
    [
        ("Vorname", "Before name", "First name"),
        ("Vorname:", "Before name:", "First name"),
        ("Vorname", "Given name", None),  # one of its senses: the model's stays
        ("Ausfahrt", "Get off", "Exit"),  # the word's own sense before a subject's (mining)
        ("Rutschgefahr", "slippery", None),  # only its last part is in the dictionary
        ("Vorname und Nachname", "Before name and After name", None),  # no single word
    ],
)
def test_a_lone_word_asks_for_the_dictionarys_english_where_the_model_guessed(
    ding, german, english, asked
):
    term = heading_term(ding, german, english)
    assert (term.target if term else None) == asked


def test_the_bundled_model_says_a_form_field_and_a_sign_as_the_dictionary(translator):
    german = ["Vorname", "Abfahrt", "Gebrauchsanweisung", "Rechnung"]
    alone = translator.translate(german, dictionary_words=False)
    assert [t.text for t in alone][:3] == ["Before name", "Apart", "Use it"]
    said = translator.translate(german)
    # „Rechnung“: the model's "Invoice" is one of the senses and stays
    assert [t.text for t in said] == ["First name", "Departure", "Directions for use", "Invoice"]

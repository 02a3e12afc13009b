"""Which language a sentence is in (core/language/identify.py): another language only
where py3langid is sure, German never, whatever loanwords, names or haste it holds."""

from __future__ import annotations

import pytest

from translator_app.core.language.identify import language_name, other_language


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Could you please send me the file by Friday?", "en"),
        ("I will be late for the meeting tomorrow.", "en"),
        ("Bonjour, comment ça va?", "fr"),
        ("Je voudrais réserver une table pour deux personnes.", "fr"),
        ("Quisiera reservar una mesa para dos personas.", "es"),
        ("Vorrei prenotare un tavolo per due persone.", "it"),
    ],
)
def test_a_sentence_in_another_language_is_told(text, language):
    assert other_language(text) == language


@pytest.mark.parametrize(
    "text",
    [
        "Das Meeting ist gecancelt.",
        "Team-Meeting am Montag",
        "Der Workshop startet um 10 Uhr.",
        "Last Christmas läuft im Radio.",
        "Happy Birthday!",  # a greeting German writes in English too: not sure enough
        "Lindsay Lohan (32) hat selbst live gestreamt.",
        "konnen sie mir bitte helfen, die tur klemmt",  # typed in haste
        "BITTE RUFEN SIE MICH ZURÜCK.",
        "Computer",
        "Hallo",
        "12:30",
        "",
    ],
)
def test_german_is_never_another_language(text):
    assert other_language(text) is None


def test_a_language_has_its_english_name():
    assert language_name("fr") == "French"

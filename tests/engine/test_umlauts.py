"""German typed without umlauts („Schluessel fuer die Tuer“) is read by the model with them
(core/faithful/umlauts.py); the pieces' spans and the glossary's terms point at the
user's letters. With the bundled model „Ich habe den Schluessel fuer die Tuer
vergessen.“ read as it stands came out "I forgot the tie to the tuer."."""

from __future__ import annotations

from translator_app.core.faithful.glossary import Glossary, Term
from translator_app.core.faithful.umlauts import (
    restore_umlauts,
    spans_in,
    umlaut_words,
    without_umlauts,
)
from translator_app.core.postedit.pipeline import parse_steps

WORDS = {"schluessel": "schlüssel", "fuer": "für", "tuer": "tür", "strasse": "straße"}
GERMAN = "Ich habe den Schluessel fuer die Tuer vergessen."


def test_listed_words_get_their_umlauts_in_the_case_they_were_typed():
    read, origins = restore_umlauts("FUER die Tuer, Strasse", WORDS)
    assert read == "FÜR die Tür, Straße"
    assert len(origins) == len(read) + 1 and origins[-1] == len("FUER die Tuer, Strasse")
    # "Tür" is at 8..11 of the restored text and at 9..13 of the typed one
    assert spans_in(origins, [(8, 11)]) == ((9, 13),)
    assert spans_in(origins, [(0, 3), (4, 7)]) == ((0, 4), (5, 8))


def test_what_a_keyboard_without_umlauts_writes_is_restored():
    assert without_umlauts("Für die Tür, Straße") == "Fuer die Tuer, Strasse"
    assert without_umlauts("Ärger über Öl") == "Aerger ueber Oel"
    read, _ = restore_umlauts(without_umlauts("für die Tür, Straße"), WORDS)
    assert read == "für die Tür, Straße"


def test_a_text_with_an_umlaut_or_no_listed_word_stays_as_typed():
    assert restore_umlauts("Die Tuer für dich", WORDS) is None  # its writer has umlauts
    assert restore_umlauts("Die neue Masse", WORDS) is None
    assert restore_umlauts("", WORDS) is None


def test_the_shipped_list_leaves_words_of_their_own():
    words = umlaut_words()
    assert words["schluessel"] == "schlüssel" and words["fuer"] == "für"
    assert "neue" not in words and "masse" not in words


def test_a_text_without_umlauts_is_translated_as_with_them(translator):
    t = translator.translate([GERMAN])[0]
    assert t.text and t.text == translator.translate([GERMAN.replace("ue", "ü")])[0].text
    assert t.words().german == (*GERMAN.rstrip(".").split(), ".")
    assert t.best.attention.shape == (len(t.best.target_pieces), len(t.source_pieces))


def test_a_glossary_term_found_in_the_restored_text_points_at_the_typed_word(translator):
    glossary = Glossary((Term("Tür", "gate"),))
    t = translator.translate([GERMAN], glossary=glossary)[0]
    (use,) = t.terms
    assert GERMAN[use.start : use.end] == "Tuer" and use.kept and "gate" in t.text


def test_read_as_typed_the_model_copies(translator, monkeypatch):
    monkeypatch.setattr(translator, "steps", parse_steps("all,-umlauts"))  # read as typed
    assert "door" not in translator.translate([GERMAN])[0].text

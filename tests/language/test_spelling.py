"""German typed wrong (issue 89 §3: „Bis morgn …“ lost its misspelt word without a
sign): a slip is marked with the word meant, in the window too, and taking the
correction translates the sentence again. Figures on sets it was not written on:
bench/bench_spelling.py."""

from __future__ import annotations

import pytest

from translator_app.core.language import spelling


@pytest.fixture(scope="module", autouse=True)
def word_list():
    spelling.preload()


@pytest.mark.parametrize(
    "text, word, meant",
    [
        ("Bis morgn, ich freue mich.", "morgn", "morgen"),
        ("Die Apoteke hat geöffnet.", "Apoteke", "Apotheke"),
        ("Das Wetter ist schön, aber die Strase ist nass.", "Strase", "Straße"),
    ],
)
def test_a_slip_is_marked_with_the_word_meant(text, word, meant):
    (found,) = spelling.misspellings(text)
    assert text[found.start : found.end] == found.word == word
    assert meant in found.suggestions


@pytest.mark.parametrize(
    "text",
    [
        "Frühstücksbrötchen bei Frau Kowalczyk.",  # a compound, a name: nothing one edit away
        "Schicken Sie eine E-Mail an IKEA oder an die ABC.",  # hyphenated, capitals
        "Am Bahnübergangs Rand.",  # a known word inflected
        "Esa sagt: Esa kommt.",  # written twice: meant so
    ],
)
def test_words_that_are_no_slips_are_left(text):
    assert spelling.misspellings(text) == []


def test_another_vocabulary_and_the_length_limit():
    assert spelling.misspellings("Die Apoteke.", known=lambda w: w == "Apoteke") == []
    long = "Die Apoteke. " * (spelling.MAX_CHARS // 13 + 1)
    assert spelling.misspellings(long) == []
    found = spelling.misspelling_at("Bis morgn!", 6)
    assert found is not None and found.word == "morgn"
    assert spelling.misspelling_at("Bis morgn!", 1) is None

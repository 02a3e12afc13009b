"""Factors said in German („verdreifacht“, „das Doppelte“) and English ("tripled",
"ten times"), read to their number (core/language/multiples.py): the German and English
numbers written by num2words (an independent writer, test only), the endings from a
table here."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from num2words import num2words

from translator_app.core.language.multiples import english_factors, german_multiples

_GERMAN = {  # a factor's word around its number, and whether it is a verb's form
    "Der Preis hat sich ver{}facht.": True,
    "Die Kosten werden sich ver{}fachen.": True,
    "Wir brauchen die {}fache Menge.": False,
    "Das ist das {}fache.": False,
    "Der Stoff ist {}fach gefaltet.": False,
}


@settings(max_examples=800, deadline=None)
@given(st.integers(2, 999), st.sampled_from(sorted(_GERMAN)), st.booleans())
def test_a_german_factor_is_read_back(factor, carrier, in_digits):
    in_digits = in_digits and not _GERMAN[carrier]  # „3-fach“, never „ver3-facht“
    number = f"{factor}-" if in_digits else num2words(factor, lang="de")
    if carrier.startswith("Das ist das"):
        number = number.capitalize()  # „das Dreifache“: a noun
    text = carrier.format(number)
    ((start, end, read, verb),) = german_multiples(text)
    assert read == factor and verb == _GERMAN[carrier]
    assert text[start:end].lower().endswith(("fach", "fache", "facht", "fachen", "fach."))


@settings(max_examples=800, deadline=None)
@given(st.integers(2, 999), st.sampled_from(("{} times", "{}fold", "{}-fold")), st.booleans())
def test_an_english_factor_is_read_back(factor, form, in_digits):
    """In digits, or in words to ninety-nine (one word or two with a hyphen)."""
    number = str(factor) if in_digits or factor > 99 else num2words(factor)
    text = f"The costs rose {form.format(number)} in a year."
    assert english_factors(text)[factor] == 1


@pytest.mark.parametrize(
    "text, factor",
    [
        ("Die Miete ist um das Doppelte gestiegen.", 2),
        ("Sie verdoppeln den Einsatz.", 2),
        ("Das ist doppelt so groß.", 2),
        ("Die Verdoppelung der Kosten", 2),
        ("Das Hundertfache", 100),
    ],
)
def test_doubling_and_nouns_from_a_table(text, factor):
    assert [n for _, _, n, _ in german_multiples(text)] == [factor]


@pytest.mark.parametrize(
    "text",
    ["Das ist einfach.", "Das kommt vielfach vor.", "Ein Doppelzimmer bitte.", "mehrfach"],
)
def test_what_names_no_factor_is_left_alone(text):
    assert german_multiples(text) == ()


@pytest.mark.parametrize(
    "text, factors",
    [
        ("The price has tripled.", {3: 1}),
        ("It is twice as big.", {2: 1}),
        ("sometimes, at times, many times", {}),
        ("a dual-key system", {2: 1}),
    ],
)
def test_english_factors_from_a_table(text, factors):
    assert dict(english_factors(text)) == factors

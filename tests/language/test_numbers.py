"""German numbers in words (core/language/numbers.py), read by text2num: checked on values
written by an independent writer, num2words (test only), in carrier sentences."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from num2words import num2words

from translator_app.core.language.numbers import (
    FIRST_IN_DIGITS,
    ROUND_ALONE,
    cardinals_in,
    with_digits,
)

_CARRIERS = (
    "Wir haben {} Stühle bestellt.",
    "{} Menschen kamen zum Fest.",
    "Der Gottesdienst beginnt um {} Uhr.",
    "Es waren genau {}, nicht mehr.",
    "„{}“, sagte sie.",
)


@settings(max_examples=2000, deadline=None)
@given(st.integers(0, 999_999), st.sampled_from(_CARRIERS))
def test_a_number_written_by_num2words_is_read_back(value, carrier):
    # num2words 0.5 writes „einhunderteinstausend“ for 101000; German writes „eintausend“
    word = num2words(value, lang="de").replace("einstausend", "eintausend")
    if carrier.startswith("{}"):
        word = word[:1].upper() + word[1:]
    text = carrier.format(word)
    ((start, end, read),) = cardinals_in(text)
    assert (text[start:end], read) == (word, value)
    given_model, origins = with_digits(text)
    if value < FIRST_IN_DIGITS or word.lower() in ROUND_ALONE:
        assert (given_model, origins) == (text, None)
        return
    assert given_model == carrier.format(value)
    # every character of the digits stands inside the word, the rest where it was
    assert len(origins) == len(given_model) + 1 and origins[-1] == len(text)
    at = given_model.index(str(value))
    assert all(start <= origins[at + k] < end for k in range(len(str(value))))
    assert origins[at + len(str(value))] == end


def test_words_that_are_no_cardinal_are_left_alone():
    for text in (
        "Eine Million Menschen.",  # a noun
        "Am dritten Mai.",  # an ordinal
        "Tausend Dank!",  # a round amount alone
        "Ein achtzehn-jähriger Fahrer.",  # part of a compound
        "Das Elfmeterschießen.",
        "Er hat eine Katze.",
        "Die Bücher vertreibt Zweitausendeins.",  # a name: a capital inside a sentence
    ):
        assert with_digits(text) == (text, None), text


def test_a_capitalised_number_is_read_where_it_opens_a_sentence_or_a_quotation():
    for text in ("Zwanzig kamen.", "Er rief:            „Zwanzig!“", "Gut. Zwanzig kamen."):
        assert [v for _, _, v in cardinals_in(text)] == [20], text
    # spaces alone before it open nothing (a name, however far from the word before)
    assert cardinals_in("Die Bücher vertreibt          Zweitausendeins.") == []

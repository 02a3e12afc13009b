"""A number the German writes in words and the English in digits is written in words
again (core/postedit/numbers_written.py, the step "numbers-in-words"); the model is given
those numbers in digits (the step "number-words": core/language/numbers.py)."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import spelled_candidate
from translator_app.core.engine.candidates import text_of
from translator_app.core.postedit.numbers_written import in_words


@pytest.mark.parametrize(
    "german, english, expected",
    [
        ("Das Kleid kostet fünfzehn Euro.", "The dress costs 15 euros.", "fifteen euros"),
        ("Vierzig Prozent sind da.", "40 percent are there.", "forty percent"),
        ("Das Puzzle hat fünfhundert Teile.", "The puzzle has 500 parts.", "five hundred"),
        ("Wir brauchen vierundzwanzig Stunden.", "We need 24 hours.", "twenty-four hours"),
        # amounts the model was given in figures (language/amounts.py)
        (
            "Er wartet seit dreieinhalb Jahren.",
            "He has waited 3.5 years.",
            "three and a half years",
        ),
        ("Es dauert anderthalb Stunden.", "It takes 1.5 hours.", "one and a half hours"),
        ("Eine Viertelstunde vor Schluss.", "15 minutes before the end.", "a quarter of an hour"),
        ("Es dauert eine Dreiviertelstunde.", "It takes 45 minutes.", "three quarters of an"),
    ],
)
def test_a_number_in_words_is_written_in_words_again(translator, german, english, expected):
    tok = translator.tokenizer
    cand = spelled_candidate(tok, english)
    new = in_words(tok, german, cand)
    assert expected in new.text
    # the ids, pieces, spans and attention rows still describe the text the user sees
    assert text_of(tok, new.target_ids) == new.text
    assert len(new.target_pieces) == len(new.target_ids) == new.attention.shape[0]
    assert np.allclose(new.attention.sum(axis=1), 1.0, atol=1e-3)
    assert new.target_spans[-1] == (len(new.text), len(new.text))  # the end's span


@pytest.mark.parametrize(
    "german, english",
    [
        ("Wir haben vierhundertzwanzig Stühle.", "We have 420 chairs."),  # four words
        ("Er kommt um siebzehn Uhr.", "He comes at 5 p.m."),  # a clock time
        ("Er hat 15 Äpfel und fünfzehn Birnen.", "He has 15 apples and 15 pears."),
        ("Das kostet fünfzehn Euro.", "That costs €15."),  # after a currency sign
        ("Es sind fünfzehn Prozent.", "It is 15%."),
        ("Es sind zwölf Eier.", "There are 12 eggs."),  # the model's own choice below 13
        ("Es kostet 1,5 Millionen.", "It costs 1.5 million."),  # the German's own digits
        ("Es dauert zweieinhalb Stunden.", "It takes 3.5 hours."),  # another value
    ],
)
def test_digits_english_keeps_are_left(translator, german, english):
    cand = spelled_candidate(translator.tokenizer, english)
    assert in_words(translator.tokenizer, german, cand) is cand


def test_the_model_is_given_numbers_in_digits_and_the_user_sees_words(translator):
    (t,) = translator.translate(["Das Kleid kostet fünfzehn Euro."], beam=1)
    assert "▁15" in t.source_pieces  # the model read digits
    # nothing is left in digits that the step writes in words (what the bundled model
    # writes here is in the regression lane: number-words-fifteen)
    assert in_words(translator.tokenizer, t.source, t.best) is t.best
    # the German's spans are the user's: the number's pieces span its word (and the
    # space before it, as a piece that begins a word does)
    start = t.source.index("fünfzehn")
    over = [(a, b) for a, b in t.source_spans[:-1] if a < start + 8 and b > start]
    assert over and over[0][0] == start - 1 and over[-1][1] == start + 8
    (plain,) = translator.translate(["Das Kleid kostet fünfzehn Euro."], beam=1, steps="none")
    assert plain.source_pieces != t.source_pieces  # the model read words there

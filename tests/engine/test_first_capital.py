"""An English that the model began in lower case where the German began with a capital
gets its capital (core/postedit/first_capital.py). With the bundled model, greedy:
„Nachname“ was "family name", „E-Mail-Adresse bestätigen“ "confirm e-mail address",
„Telefonnummer“ "phone number" (v23)."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import spelled_candidate
from translator_app.core.engine.candidates import text_of
from translator_app.core.postedit.first_capital import begins_with_capital, capitalised


@pytest.mark.parametrize(
    "text, capital",
    [
        ("Nachname", True),
        ("„Lärm macht krank“, sagt sie.", True),
        ("- Eier verquirlen", True),
        ("bin gleich zu Hause", False),
        ("3 Eier verquirlen", False),
        ("", False),
    ],
)
def test_a_german_begins_with_a_capital_where_only_marks_stand_before_its_first_word(text, capital):
    assert begins_with_capital(text) is capital


@pytest.mark.parametrize(
    "german, lower",
    [
        ("Nachname", "family name"),
        ("E-Mail-Adresse bestätigen", "confirm e-mail address"),
        ("Telefonnummer", "phone number"),
    ],
)
def test_the_bundled_models_lower_case_start_gets_its_capital(translator, german, lower):
    (t,) = translator.translate([german], beam=1)
    assert t.text.startswith(lower[0].upper() + lower[1:])
    best = t.best
    # the ids, pieces, spans and attention rows still describe the text the user sees
    assert text_of(translator.tokenizer, best.target_ids) == t.text
    assert len(best.target_pieces) == len(best.target_ids) == best.attention.shape[0]
    assert np.allclose(best.attention.sum(axis=1), 1.0, atol=1e-3)
    for piece, (a, b) in zip(best.target_pieces[:-1], best.target_spans[:-1], strict=True):
        assert t.text[a:b].strip() == piece.replace("▁", " ").strip()
    # the follow-ups read the capitalised ids as they read any others
    assert translator.check_dropped([t])[0].not_carried is not None
    assert translator.explain(t).best.layers.shape[0] == len(best.target_ids)


def test_the_first_words_pieces_take_the_mean_of_the_rows_they_replace(translator):
    tok = translator.tokenizer
    cand = spelled_candidate(tok, "damages by false operating.")
    n_word = sum(1 for a, _ in cand.target_spans[:-1] if a < len("damages"))
    new = capitalised(tok, cand)
    assert new.text == "Damages by false operating."
    assert text_of(tok, new.target_ids) == new.text
    n_new = sum(1 for a, _ in new.target_spans[:-1] if a < len("Damages"))
    expected = np.asarray(cand.attention)[:n_word].mean(axis=0)
    for row in range(n_new):
        assert np.allclose(new.attention[row], expected)
    # the rows after the word are the model's, unchanged
    assert np.array_equal(new.attention[n_new:], np.asarray(cand.attention)[n_word:])
    assert (new.score, new.logprob) == (cand.score, cand.logprob)


@pytest.mark.parametrize("text", ["iPhone is new.", "3 eggs.", "Family name", "mRNA vaccines"])
def test_a_word_with_capitals_inside_a_digit_or_a_capital_already_is_left(translator, text):
    cand = spelled_candidate(translator.tokenizer, text)
    assert capitalised(translator.tokenizer, cand) is cand


def test_the_first_words_alternatives_are_offered_with_a_capital_and_not_twice(
    translator, monkeypatch
):
    # the model's own first piece ("▁family") is the best's, capitalised: not offered again
    # (the dictionary set aside: its check leaves out "Familie name", made up)
    monkeypatch.setattr(translator, "dictionary", None)
    (t,) = translator.translate(["Nachname"], beam=1)
    offered = translator.alternatives(t, 0)
    assert offered
    for cand in offered:
        assert cand.text[0].isupper() and cand.text != t.text
        assert text_of(translator.tokenizer, cand.target_ids) == cand.text

"""A term takes the article its sound asks for (issue 61 §3): "a quotation" where the
model, meaning "an offer", wrote "an quotation" (core/engine/term_articles.py)."""

from __future__ import annotations

import numpy as np
import pytest

from translator_app.core.engine import translator as translator_module
from translator_app.core.engine.term_articles import article_for
from translator_app.core.faithful.glossary import Glossary, Term


@pytest.mark.parametrize(
    ("english", "article"),
    [
        ("quotation", "a"),
        ("estimate", "an"),
        ("user guide", "a"),  # a vowel letter, a consonant's sound
        ("European plug", "a"),
        ("one-off fee", "a"),
        ("umbrella", "an"),
        ("hour", "an"),  # an "h" not spoken
        ("hotel", "a"),
        ("SMS", None),  # an acronym: its letters do not tell
        ("3D printer", None),
    ],
)
def test_the_article_is_chosen_by_the_sound_of_the_first_word(english, article):
    assert article_for(english) == article


def _translate(translator, sentence, glossary, monkeypatch=None):
    if monkeypatch is not None:  # the model's own articles
        monkeypatch.setattr(translator_module, "with_term_articles", lambda tok, out, *a: out)
    return translator.translate([sentence], glossary=glossary)[0]


def test_the_bundled_model_writes_a_before_a_term_it_wrote_an_before(translator, monkeypatch):
    sentence = "Bitte senden Sie uns ein Angebot für zehn Stühle."
    glossary = Glossary((Term("Angebot", "quotation"),))
    fitted = _translate(translator, sentence, glossary)
    assert "a quotation" in fitted.text, fitted.text
    best = fitted.best
    # the pieces spell the text, and each attention row still sums to one
    assert translator.tokenizer.decode(best.target_ids).text.startswith(fitted.text[:20])
    assert best.attention.shape == (len(best.target_pieces), len(fitted.source_pieces))
    assert np.allclose(best.attention.sum(axis=1), 1.0, atol=1e-3)
    with monkeypatch.context() as m:
        own = _translate(translator, sentence, glossary, m)
    # the model alone writes "an" for the "offer" it meant (if it learns better, choose
    # another sentence for this test)
    assert "an quotation" in own.text, own.text


def test_the_bundled_model_writes_an_before_a_term_that_begins_with_a_vowel(translator):
    glossary = Glossary((Term("Kostenvoranschlag", "estimate"),))
    out = _translate(translator, "Bitte senden Sie uns einen Kostenvoranschlag.", glossary)
    assert "an estimate" in out.text, out.text

"""A term takes the article its sound asks for (issue 61 §3): "a quotation" where the
model, meaning "an offer", wrote "an quotation"; and the verb after it the term's number:
"the delivery notes were" where the model wrote "was" (core/postedit/term_articles.py)."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import spelled_candidate
from scripted_decoder import Written, scripted_translator
from translator_app.core.engine.candidates import text_of
from translator_app.core.faithful.glossary import Glossary, Term
from translator_app.core.postedit import term_articles
from translator_app.core.postedit.term_articles import article_for, verbs_fitted
from translator_app.core.values import TermUse


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
    # with monkeypatch: the model's own articles and verbs
    steps = "all,-term-articles,-term-verbs" if monkeypatch is not None else None
    return translator.translate([sentence], glossary=glossary, steps=steps)[0]


# The bundled model's own "an quotation" and "the delivery notes was" are cases of the
# regression lane (tests/regression/cases.toml, "term-*"); here a scripted decoder
# writes them, so every step after the decode is the app's on every CPU.
def test_the_app_writes_a_before_a_term_the_model_wrote_an_before(monkeypatch):
    sentence = "Bitte senden Sie uns ein Angebot für zehn Stühle."
    glossary = Glossary((Term("Angebot", "quotation"),))
    translator = scripted_translator(
        lambda source: [Written("Please send us an quotation for ten chairs.", -3.0)]
    )
    fitted = _translate(translator, sentence, glossary)
    assert fitted.text == "Please send us a quotation for ten chairs."
    best = fitted.best
    # the pieces spell the text, and each attention row still sums to one
    assert translator.tokenizer.decode(best.target_ids).text == fitted.text
    assert best.attention.shape == (len(best.target_pieces), len(fitted.source_pieces))
    assert np.allclose(best.attention.sum(axis=1), 1.0, atol=1e-3)
    with monkeypatch.context() as m:
        own = _translate(translator, sentence, glossary, m)
    assert own.text == "Please send us an quotation for ten chairs."


def test_the_bundled_model_writes_an_before_a_term_that_begins_with_a_vowel(translator):
    glossary = Glossary((Term("Kostenvoranschlag", "estimate"),))
    out = _translate(translator, "Bitte senden Sie uns einen Kostenvoranschlag.", glossary)
    assert "an estimate" in out.text, out.text


def _plural_use(german: str, english: str) -> tuple[TermUse, ...]:
    return (TermUse(0, len(german), german, english, plural=True),)


@pytest.mark.parametrize(
    ("text", "fitted"),
    [
        ("The delivery notes was missing.", "The delivery notes were missing."),
        ("Why the delivery notes isn't here?", "Why the delivery notes aren't here?"),
        ("The delivery notes has gone.", "The delivery notes have gone."),
        # not the subject: "of" before the term
        ("One of the delivery notes is missing.", "One of the delivery notes is missing."),
        # already in the plural, or not a verb of the list
        ("The delivery notes were missing.", "The delivery notes were missing."),
        ("The delivery notes lacked.", "The delivery notes lacked."),
    ],
)
def test_a_singular_verb_after_a_plural_term_is_written_in_the_plural(translator, text, fitted):
    tok = translator.tokenizer
    cand = verbs_fitted(
        tok, spelled_candidate(tok, text), _plural_use("Lieferscheine", "delivery note")
    )
    assert cand.text == fitted
    assert text_of(tok, cand.target_ids) == cand.text
    assert np.allclose(cand.attention.sum(axis=1), 1.0, atol=1e-3)


def test_a_verb_after_a_singular_term_is_left(translator):
    tok = translator.tokenizer
    cand = spelled_candidate(tok, "The delivery note was missing.")
    uses = (TermUse(0, 12, "Lieferschein", "delivery note"),)
    assert verbs_fitted(tok, cand, uses) is cand


def test_the_app_writes_were_after_a_plural_term_the_model_wrote_was_after(monkeypatch):
    sentence = "Wir konnten nicht liefern, weil die Lieferscheine fehlten."
    glossary = Glossary((Term("Lieferschein", "delivery note"),))
    own = "We couldn't deliver because the delivery notes was missing."
    translator = scripted_translator(lambda source: [Written(own, -3.0)])
    fitted = _translate(translator, sentence, glossary)
    assert fitted.text == "We couldn't deliver because the delivery notes were missing."
    with monkeypatch.context() as m:
        m.setattr(term_articles, "verbs_fitted", lambda tok, cand, uses: cand)
        assert _translate(translator, sentence, glossary).text == own


@pytest.mark.parametrize(
    "text, fitted",
    [
        ("The dish Washer is broken.", "The dish washer is broken."),  # the model's capital
        ("dish washer broken.", "Dish washer broken."),  # a sentence opens with it
        ("It broke. DISH washer too.", "It broke. Dish washer too."),
        ("THE DISH WASHER IS BROKEN.", "THE DISH WASHER IS BROKEN."),  # a notice in capitals
        ("The dish washer is broken.", "The dish washer is broken."),
    ],
)
def test_a_term_is_written_with_the_glossarys_capitals(translator, text, fitted):
    tok = translator.tokenizer
    uses = (TermUse(4, 16, "Spülmaschine", "dish washer"),)
    cand = term_articles.terms_cased(tok, spelled_candidate(tok, text), uses)
    assert cand.text == fitted
    assert text_of(tok, cand.target_ids) == cand.text

"""A term written more often than the German holds it (issue 61 §3): "No bicycle helmet
is allowed to go to schoolyard without bicycle helmet." for „Ohne Fahrradhelm darf
niemand auf dem Schulhof fahren.“ costs the candidate what a number written twice does
(core/postedit/judge.py)."""

from __future__ import annotations

import pytest

from conftest import candidate
from translator_app.core.faithful.glossary import Glossary, Term, check_uses, repeated_terms
from translator_app.core.postedit import judge as faithful_choice
from translator_app.core.postedit.judge import prefer_faithful

HELMET = Glossary((Term("Fahrradhelm", "bicycle helmet"),))


def test_a_term_written_twice_for_one_german_counts_once_too_often():
    once = HELMET.find("Ohne Fahrradhelm darf niemand fahren.")
    assert repeated_terms(once, "Nobody may ride without a bicycle helmet.") == 0
    assert repeated_terms(once, "No bicycle helmet may ride without bicycle helmets.") == 1
    twice = HELMET.find("Ein Fahrradhelm ist kein Fahrradhelm.")
    assert repeated_terms(twice, "A bicycle helmet is no bicycle helmet.") == 0
    assert repeated_terms(once, "A bicycle helmeted rider.") == 0  # another word


def test_the_n_best_choice_takes_the_candidate_that_writes_the_term_once():
    # v22's n-best for the sentence with its scores: the likelier wrote the term twice
    source = "Ohne Fahrradhelm darf niemand auf dem Schulhof fahren."
    twice = candidate(
        "No bicycle helmet is allowed to go to schoolyard without bicycle helmet.", -3.1
    )
    once = candidate("Without bicycle helmet, nobody is allowed to go to the school yard.", -3.4)
    uses = tuple(check_uses(HELMET.find(source), twice.text))
    cands, _ = prefer_faithful(source, (twice, once), uses)
    assert cands[0] is once
    # the count alone decides it: without it the model's score does
    with pytest.MonkeyPatch.context() as m:
        m.setattr(faithful_choice, "repeated_terms", lambda uses, english: 0)
        assert prefer_faithful(source, (twice, once), uses)[0][0] is twice


@pytest.mark.parametrize(
    "sentence",
    [
        "Ohne Fahrradhelm darf niemand auf dem Schulhof fahren.",
        "Ohne Fahrradhelm darf niemand mitfahren.",
        "Mein Fahrradhelm ist kaputt, ich brauche einen neuen Fahrradhelm.",
    ],
)
def test_the_bundled_model_writes_the_term_as_often_as_the_german(translator, sentence):
    out = translator.translate([sentence], glossary=HELMET)[0]
    assert out.text.lower().count("bicycle helmet") == sentence.count("Fahrradhelm"), out.text

"""A term written more often than the German holds it (issue 61 §3): "No bicycle helmet
is allowed to go to schoolyard without bicycle helmet." for „Ohne Fahrradhelm darf
niemand auf dem Schulhof fahren.“ costs the candidate what a number written twice does
(core/engine/faithful_choice.py)."""

from __future__ import annotations

from translator_app.core.engine import faithful_choice
from translator_app.core.faithful.glossary import Glossary, Term, repeated_terms

HELMET = Glossary((Term("Fahrradhelm", "bicycle helmet"),))


def test_a_term_written_twice_for_one_german_counts_once_too_often():
    once = HELMET.find("Ohne Fahrradhelm darf niemand fahren.")
    assert repeated_terms(once, "Nobody may ride without a bicycle helmet.") == 0
    assert repeated_terms(once, "No bicycle helmet may ride without bicycle helmets.") == 1
    twice = HELMET.find("Ein Fahrradhelm ist kein Fahrradhelm.")
    assert repeated_terms(twice, "A bicycle helmet is no bicycle helmet.") == 0
    assert repeated_terms(once, "A bicycle helmeted rider.") == 0  # another word


def test_the_bundled_model_writes_the_term_once(translator, monkeypatch):
    sentence = "Ohne Fahrradhelm darf niemand auf dem Schulhof fahren."
    out = translator.translate([sentence], glossary=HELMET)[0]
    assert out.text.lower().count("bicycle helmet") == 1, out.text
    with monkeypatch.context() as m:
        m.setattr(faithful_choice, "repeated_terms", lambda uses, english: 0)
        own = translator.translate([sentence], glossary=HELMET)[0]
    # without the count the best-scored candidate writes it twice (if the model learns
    # better, choose another sentence for this test)
    assert own.text.lower().count("bicycle helmet") == 2, own.text

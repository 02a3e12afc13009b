"""A negation the German does not hold is a lost fact (core/faithful/fact_check.py): the
English says the opposite. With the bundled model (v23, the app's search): „Sehr zu
empfehlen!“ was "Don't recommend that.", „Sorry, ich habe deine Nachricht erst jetzt
gesehen.“ "Sorry, I didn't see your message now."."""

from __future__ import annotations

import pytest

from conftest import candidate
from scripted_decoder import Written, asked_for, scripted_translator
from translator_app.core.faithful.fact_check import added_negation, describe_fact, missing_facts
from translator_app.core.postedit.judge import prefer_faithful


@pytest.mark.parametrize(
    "german, english, added",
    [
        ("Sehr zu empfehlen!", "Don't recommend that.", "Don't"),
        ("Ich habe es erst jetzt gesehen.", "I didn't see it now.", "didn't"),
        ("Das Hotel war sauber.", "The hotel was never clean.", "never"),
        ("Wir haben noch Zimmer frei.", "We have no rooms.", "no"),
        # the German says "no" its own way
        ("Baden verboten!", "No swimming!", None),
        ("Kaffee ohne Zucker, bitte.", "Coffee with no sugar, please.", None),
        ("Nein, danke.", "No, thanks.", None),
        ("Das ist unmöglich.", "That is not possible.", None),
        ("Die Lieferung ist kostenlos.", "There is no charge for delivery.", None),
        ("Du kommst doch, oder?", "You're coming, aren't you?", None),
        ("Er kommt nicht.", "He isn't coming.", None),
        ("Das Zimmer liegt unter dem Dach.", "The room isn't under the roof.", "isn't"),
        # a number after "No." is a number's, not a negation
        ("Siehe Nr. 5.", "See No. 5.", None),
    ],
)
def test_a_negation_the_german_does_not_hold_is_added(german, english, added):
    found = added_negation(german, english)
    assert [f.text for f in found] == ([added] if added else [])
    if added:
        assert missing_facts(german, english) == found
        assert "a negation the German does not hold" in describe_fact(found[0])


def test_the_n_best_choice_takes_the_candidate_that_does_not_reverse_the_german():
    # v23's n-best for „Sehr zu empfehlen!“ with its scores
    source = "Sehr zu empfehlen!"
    cands = (candidate("Don't recommend that.", -4.13), candidate("I'll recommend it.", -4.41))
    chosen, missing = prefer_faithful(source, cands)
    assert chosen[0].text == "I'll recommend it." and missing == ()


# The bundled model's own reversals are cases of the regression lane (tests/regression/
# cases.toml, "negation-*"); here a scripted decoder writes them.
@pytest.mark.parametrize(
    "german, reversed_, kept",
    [
        ("Sehr zu empfehlen!", "Don't recommend that.", "I'll recommend it."),
        (
            "Sorry, ich habe deine Nachricht erst jetzt gesehen.",
            "Sorry, I didn't see your message now.",
            "Sorry, I only saw your message now.",
        ),
    ],
)
def test_the_apps_search_does_not_keep_a_likeliest_candidate_that_reverses_the_german(
    german, reversed_, kept
):
    translator = scripted_translator(
        lambda source: [Written(reversed_, -4.13), Written(kept, -4.41)]
    )
    assert translator.translate([german])[0].text == kept  # the app's n-best
    assert translator.translate([german], nbest=1)[0].text == reversed_  # nothing to choose


GESCHAEFTSFELD = (
    "Dieses Geschäftsfeld hat der Konzern längst aufgegeben, trotzdem konnte er die "
    "Registrierung abwenden."
)


@pytest.mark.parametrize("negates, kept", [(True, False), (False, True)])
def test_a_dictionary_decode_that_adds_a_negation_is_not_kept(negates, kept):
    """The model copies „Geschäftsfeld“; the decode asked for its English says it and,
    where it also writes "could not", reverses the clause: not kept (news dev, v23)."""
    could = "could not avert" if negates else "could avert"

    def script(source: str) -> list[Written]:
        if asked := asked_for(source):
            return [Written(f"This {asked[0]} has long been abandoned, yet it {could} it.", -9)]
        return [Written("This Geschäftsfeld has long been abandoned, yet it could avert it.", -9)]

    translator = scripted_translator(script)
    (t,) = translator.translate([GESCHAEFTSFELD], beam=1)
    assert any(asked_for(job) for job in translator.backend.jobs)  # asked for
    assert ("Geschäftsfeld" not in t.text) is kept, t.text
    assert not added_negation(GESCHAEFTSFELD, t.text)

"""Open or closed, read by the German verb bracket (issue 88: „Die Apotheke hat heute zu.“
-> "The pharmacy is to be today." was silent): core/language/opening.py."""

from __future__ import annotations

import pytest

from translator_app.core.faithful.fact_check import missing_facts
from translator_app.core.language.opening import english_states, german_states


@pytest.mark.parametrize(
    "german, state",
    [
        ("Die Apotheke hat heute zu.", "closed"),
        ("Die Apotheke hat am Sonntag zu.", "closed"),
        ("Der Laden hat sonntags auf.", "open"),
        ("Die Apotheke hat samstags nur bis mittags geöffnet.", "open"),
        ("Der Markt ist bis 14 Uhr geöffnet.", "open"),
        ("Die Praxis ist über die Feiertage geschlossen.", "closed"),
        ("Die Bibliothek bleibt heute zu.", "closed"),
        ("Das Fenster ist zu.", "closed"),
        ("Die Bank hat sonntags nicht geöffnet.", "closed"),  # negated: the other state
        ("Die Tür war nicht zu.", "open"),
    ],
)
def test_a_state_said_by_the_verb_bracket_is_read(german, state):
    assert [s for _, _, s in german_states(german)] == [state]


@pytest.mark.parametrize(
    "german",
    [
        "Er hat einen Hut auf.",  # wears: an object in the middle field
        "Alle hatten Kopfhörer auf.",
        "Er hat nichts zu verlieren.",  # „zu“ before an infinitive: no clause end
        "Das ist zu teuer.",
        "Er ist noch auf.",  # awake
        "Die Rechnung ist noch offen.",  # unpaid: „offen“ is not read
        "Der Vertrag wurde geschlossen.",  # werden: concluded
        "Was für einen Handel hast du geschlossen?",  # a person's deal
        "Hatten wir was auf Englisch auf?",  # homework
        "x ist parallel zu",  # an adjective's „zu“
        "Sie sind zu...",
    ],
)
def test_other_uses_of_the_same_words_are_no_state(german):
    assert german_states(german) == []


@pytest.mark.parametrize(
    "english, said",
    [
        ("The pharmacy is closed today.", {"closed": 1}),
        ("It is shut on Sundays.", {"closed": 1}),
        ("It is not open on Sundays.", {"closed": 1}),
        ("The door wasn't closed.", {"open": 1}),
        ("The shop opens at 9.", {"open": 1}),
        ("The pharmacy is to be today.", {}),
    ],
)
def test_the_english_state(english, said):
    assert dict(english_states(english)) == said


def test_an_english_that_loses_or_flips_the_state_is_marked():
    de = "Die Apotheke hat heute zu."
    assert [f.text for f in missing_facts(de, "The pharmacy is to be today.")] == ["zu"]
    assert [f.kind for f in missing_facts(de, "The pharmacy is open today.")] == ["state"]
    assert missing_facts(de, "The pharmacy is closed today.") == []
    assert (
        missing_facts("Die Bank hat sonntags nicht geöffnet.", "The bank isn't open on Sundays.")
        == []
    )

"""Other forms English writes a protected fact's value in (core/language/fact_forms.py),
and what stays no form of it."""

import pytest

from translator_app.core.faithful.protect import lost_protected
from translator_app.core.language.fact_forms import said_otherwise


@pytest.mark.parametrize(
    "target, english",
    [
        ("20 December 2012", "on December 20th, 2012"),
        ("20 December 2012", "on December 20 2012"),
        ("20 December 2012", "on the 20th of December 2012"),
        ("20 December 2012", "Thursday 20.12.2012 at nine"),
        ("21 November", "on November 21, weapons"),
        ("2 February", "on the 2nd of February"),
        ("9 p.m.", "from 9pm"),
        ("9 p.m.", "at 9 p.m"),
        ("9 p.m.", "at 9 PM"),
        ("9 p.m.", "at 21:00."),
        ("9:00 p.m.", "at 21:00"),
        ("6:30 a.m.", "at 6.30 a.m."),
        ("8,733", "8733 km"),
        ("3", "Meteor-3 was built"),
        ("5", "it sank to -5 °C"),
        ("72", "(NBC, 1971-72)"),
        ("€12.50", "12.50 euros"),
        ("€12.50", "EUR 12.50"),
        ("10 o'clock", "at 10 a.m."),
        ("12 o'clock", "at noon"),
    ],
)
def test_another_form_of_the_same_value_is_the_fact_written(target, english):
    assert said_otherwise(target, english)


@pytest.mark.parametrize(
    "target, english",
    [
        ("20 December 2012", "on December 20th"),  # the year lost
        ("20 December 2012", "on December 21st, 2012"),
        ("21 December", "on the 21th of December"),  # not English's ordinal
        ("21 December", "21.12.2012 and 12.21."),
        ("9 p.m.", "at 9 o'clock"),
        ("9 p.m.", "at 9 a.m."),
        ("9 p.m.", "at 19:00"),
        ("8,733", "8,7330 km"),
        ("3", "the 3rd version"),
        ("3", "in 3.5 seconds"),
        ("€12.50", "12.50"),
        ("Munich", "München"),
    ],
)
def test_another_value_or_no_form_is_not_the_fact_written(target, english):
    assert not said_otherwise(target, english)


def test_a_plain_decode_that_writes_the_facts_otherwise_loses_none():
    # newstest2013's plain decodes, which the step "facts" decoded again for these forms
    assert (
        lost_protected(
            "Die Temperaturen sanken auf -5 bis -10 °C.", "The temperatures sank to -5 to -10 °C."
        )
        == 0
    )
    assert (
        lost_protected("Donnerstag den 20.12.2012 um 21 Uhr", "Thursday, the 20.12.2012 at 9 p.m")
        == 0
    )
    assert lost_protected("Danach wurde Meteor-3 gebaut.", "After that, Meteor-3 was built.") == 0
    assert lost_protected("Am 14. September 2010 kam er.", "On September 14, 2010, he came.") == 0
    # a place left in German, and a date without its year, are still lost
    assert lost_protected("Sie fuhren nach Prag.", "They went to Prag.") == 1
    assert lost_protected("Am 14. September 2010 kam er.", "On September 14, he came.") == 1


def test_a_name_with_letters_beyond_german_is_protected_whole():
    from translator_app.core.faithful.protect import protected_uses

    assert [u.source for u in protected_uses("Die Familie González Sada ist dagegen.")] == [
        "González"
    ]

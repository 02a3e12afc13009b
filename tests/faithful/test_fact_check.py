"""The fact check's readers of German and English numbers (core/faithful/number_check.py,
fact_check.py): false alarms found on the references of the dev sets (newstest2013,
IWSLT validation, BConTrasT and MLQE-PE dev)."""

from __future__ import annotations

import pytest

from translator_app.core.faithful.fact_check import missing_facts


def test_thousands_grouped_by_a_space_are_one_number():
    """„200 000 Euro“ (DIN 5008 groups thousands with a space) was read as the numbers
    200 and 000, both \"lost\" in \"200,000 euros\"; a phone number's groups stay a code."""
    from translator_app.core.faithful.fact_check import all_facts, missing_facts

    german = "Wir haben rund 200 000 Euro geschickt."
    assert [sorted(f.keys) for f in all_facts(german)] == [["n200000"]]
    assert missing_facts(german, "We have sent around 200,000 euros.") == []
    assert missing_facts(german, "We have sent around 20,000 euros.") != []
    assert [sorted(f.keys) for f in all_facts("Ruf 0221 123 456 an.")] == [["p0221123456"]]
    # groups of another length are a phone number's, read as before
    assert missing_facts("Samantha, 512 378 2973, richtig?", "Samantha, 512 378 2973, right?") == []


def test_a_number_closing_the_english_is_no_date():
    """ "a star rating of 4.4." keeps „4,4 Sternen“: a number and a point that close the
    English read as a date only, and the number was marked lost."""
    from translator_app.core.faithful.fact_check import missing_facts

    german = "Sie haben beide eine Bewertung von 4,4 Sternen."
    assert missing_facts(german, "They both have a star rating of 4.4.") == []
    assert missing_facts(german, "They both have a star rating of 4.5.") != []
    assert missing_facts("Am 4.4. kommt er.", "He comes on 4.4.") == []


@pytest.mark.parametrize(
    ("german", "english"),
    [
        # a short unit glued to the number
        ("Die Flughöhe betrug 37 km.", "The maximum altitude was 37km."),
        ("Das Paket wiegt 5 kg.", "The parcel weighs 5kg."),
        # a range of two numbers, not a code, on both sides
        ("Eine Pistole kostet 100 bis 300 Dollar.", "A gun costs 100-300 dollars."),
        ("Sie programmieren nur die CVs von 1-255.", "They only program CVs from 1-255."),
        # a limit said as English says it
        ("Von 1994 bis 1996 wurde gebaut.", "It was built between 1994 and 1996."),
        ("Ab 22 Uhr ist Nachtruhe.", "Quiet hours start at 10 p.m."),
        # an hour before another shares its p.m.
        ("Die Bar ist von 19 bis 20 Uhr voll.", "The bar is busy from 7 to 8 pm."),
    ],
)
def test_what_a_reference_writes_keeps_its_numbers(german, english):
    """False alarms of the fact check on newstest2013 and BConTrasT (dev): "37km" and
    "100-300 dollars" said the references lost numbers they keep, "between … and" and
    "start at" limits they keep."""
    assert missing_facts(german, english) == []


def test_a_code_stays_one_code():
    german = "Bitte geben Sie die Bestellnummer 2019-123456 an."
    assert missing_facts(german, "Please state the order number 2019-123456.") == []
    assert [f.text for f in missing_facts(german, "Please state the order number 2019.")] == [
        "2019-123456"
    ]


def test_an_hour_range_in_english_keeps_only_its_own_hours():
    german = "Die Bar ist von 19 bis 20 Uhr voll."
    assert [f.text for f in missing_facts(german, "The bar is busy from 6 to 8 pm.")] == ["19"]


def test_every_issue_has_a_kind_the_values_name():
    """Each fact the check reads, and each issue it reports, is of a kind FACT_KINDS names
    (values.py), so that the window, the command line and the judge can tell them apart;
    the added ones say so (``Fact.added``)."""
    from pathlib import Path

    from translator_app.core.data.corpus import read_pairs
    from translator_app.core.faithful.fact_check import all_facts
    from translator_app.core.values import FACT_KINDS

    hand = Path(__file__).parents[2] / "testsets" / "facts" / "facts-test.deu-eng.tsv"
    pairs = [pair for _, pair in read_pairs(hand)] + [
        ("Ich liebe dich.", "I love you €2."),  # a number added
        ("Sehr zu empfehlen!", "Don't recommend that."),  # a negation added
        ("Die Apotheke hat heute zu.", "The pharmacy is open today."),  # a state
        ("Schreiben Sie an info@example.com.", "Write to us."),  # an address
    ]
    kinds = set()
    for german, english in pairs:
        kinds |= {f.kind for f in all_facts(german)}
        issues = missing_facts(german, english) + missing_facts(german, "")
        assert all(f.added == f.kind.startswith("added") for f in issues)
        kinds |= {f.kind for f in issues}
    assert kinds <= set(FACT_KINDS), kinds - set(FACT_KINDS)
    assert {"added", "added negation", "state", "address", "number", "unit"} <= kinds

"""The fact check's readers of German and English numbers (core/faithful/number_check.py,
fact_check.py): false alarms found on the references of the dev sets (newstest2013,
IWSLT validation, BConTrasT and MLQE-PE dev)."""

from __future__ import annotations


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

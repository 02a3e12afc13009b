"""German words left in the English (issue 60): the check that `translator-train eval`
and the model card report."""

from __future__ import annotations

from translator_app.core.faithful.german_left import GermanLeftCheck, german_left_report

DING = [
    "# a comment line",
    "Teig {m} [cook.] :: dough",
    "Lampe {f} | Lampen {pl} :: lamp | lamps",
    "Pyramide {f} | Pyramiden {pl} :: pyramid | pyramids",
    "Kindergarten {m} :: kindergarten; nursery school",
    "Schneider {m} :: tailor",
    "besonders {adv} :: especially; particularly",
]


def check() -> GermanLeftCheck:
    return GermanLeftCheck.from_ding(DING)


def test_a_copied_dictionary_word_counts_in_any_case_and_form():
    c = check()
    assert c.words("Den Teig gehen lassen.", "Let the Teig rise.") == ("Teig",)
    # lower-cased by the model, and a plural form Ding lists under its headword
    assert c.words("Die Lampe blinkt.", "The lampe flashes.") == ("lampe",)
    assert c.words("Die Pyramiden sind alt.", "The Pyramiden are old.") == ("Pyramiden",)
    assert c.words("Das ist besonders gut.", "That is besonders good.") == ("besonders",)


def test_translated_english_and_loanwords_do_not_count():
    c = check()
    assert c.words("Den Teig gehen lassen.", "Let the dough rise.") == ()
    # "Kindergarten" is an English word too (Ding's English side has it)
    assert c.words("Der Kindergarten ist zu.", "The Kindergarten is closed.") == ()
    # a German dictionary word that is not in the source was not copied
    assert c.words("Das Brot ist frisch.", "The Teig is fresh.") == ()


def test_a_surname_after_a_title_or_first_name_is_a_name_not_a_copy():
    c = check()
    assert c.words("Frau Schneider ruft an.", "Ms Schneider is calling.") == ()
    assert c.words("Anna Schneider ruft an.", "Anna Schneider is calling.") == ()
    assert c.words("Der Schneider näht.", "The Schneider sews.") == ("Schneider",)


def test_the_report_counts_per_100_sentences_and_names_the_words():
    sources = ["Den Teig kneten.", "Die Lampe an.", "Hallo.", "Die Lampe aus."]
    outputs = ["Knead the Teig.", "The lampe on.", "Hello.", "The lampe off."]
    report = german_left_report(check(), sources, outputs)
    assert report == {
        "count": 3,
        "per_100": 75.0,
        "sentences": 3,
        "top": {"lampe": 2, "Teig": 1},
    }


def test_the_bundled_dictionary_knows_the_words_the_issue_found_copied():
    """On the app's own Ding file: the words v19 copied (issue 60) count, their
    translations do not."""
    c = GermanLeftCheck.bundled()
    for german, english in [
        ("Galaxie", "galaxy"),
        ("Unwetter", "storm"),
        ("Königin", "queen"),
        ("Savanne", "savannah"),
        ("Provinz", "province"),
    ]:
        source = f"Die {german} ist groß."
        assert c.words(source, f"The {german} is big.") == (german,)
        assert c.words(source, f"The {english} is big.") == ()


def test_a_word_the_reference_keeps_too_is_no_error():
    """A club or a newspaper the human translation keeps („Bayern“, „Bild“) is counted
    only in ``count_any``."""
    c = GermanLeftCheck.from_ding(DING + ["Bild {n} :: picture"])
    sources = ["Das Bild berichtet über den Teig.", "Den Teig kneten."]
    outputs = ["Bild reports on the Teig.", "Knead the Teig."]
    references = ["Bild reports on the dough.", "Knead the dough."]
    report = german_left_report(c, sources, outputs, references)
    assert report["count"] == 2 and report["top"] == {"Teig": 2}
    assert report["count_any"] == 3 and report["per_100_any"] == 150.0

"""Facts beyond digits (issue 48, section 2): number words, units, clock times and days
in words, phone numbers and IBANs whole, negation and limits."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from translator_app.core.faithful.fact_check import all_facts, describe_fact, missing_facts

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
import bench_trust  # noqa: E402


@pytest.mark.parametrize(
    "de, right, wrong, lost",
    [
        (
            "Die Lieferung dauert zehn Werktage.",
            "Delivery takes ten working days.",
            "Delivery takes ten minutes.",
            ["Werktage"],
        ),
        ("Das dauert zehn Minuten.", "That takes 10 minutes.", "That takes two minutes.", ["zehn"]),
        (
            "Wir treffen uns um Viertel nach drei.",
            "We'll meet at quarter past three.",
            "We'll meet at quarter to three.",
            ["Viertel nach drei"],
        ),
        (  # a weekday compounded with a time of day (issue 88: "onday morning")
            "Das Museum ist dienstagvormittags geschlossen.",
            "The museum is closed on Tuesday mornings.",
            "The museum is closed onday morning.",
            ["dienstagvormittags"],
        ),
        (
            "Wir sehen uns am Freitagabend.",
            "See you on Friday evening.",
            "See you on the evening.",
            ["Freitagabend"],
        ),
        (  # the first time of a range shares the second's „Uhr“
            "Frühstück servieren wir von 6.30 bis 10 Uhr.",
            "We serve breakfast from 6.30 to 10 a.m.",
            "We serve breakfast until 10 a.m.",
            ["6.30"],
        ),
        (
            "Der Laden öffnet um acht Uhr.",
            "The shop opens at 8 a.m.",
            "The shop opens at nine o'clock.",
            ["acht Uhr"],
        ),
        (
            "Bitte zahlen Sie spätestens am Freitag.",
            "Please pay by Friday at the latest.",
            "Please pay late on Friday.",
            ["spätestens"],
        ),
        (
            "Bitte antworten Sie spätestens Freitag.",
            "Please reply by Friday at the latest.",
            "Please reply until the latest Friday.",
            ["spätestens"],
        ),
        (
            "Alle Preise zuzüglich Mehrwertsteuer.",
            "All prices plus VAT.",
            "All prices VAT.",
            ["zuzüglich"],
        ),
        ("Ich habe keine Zeit.", "I don't have time.", "I have time.", ["keine"]),
        (
            "Ab Montag gilt der neue Plan.",
            "The new plan applies from Monday.",
            "The new plan applies on Monday.",
            ["Ab"],
        ),
        (
            "Wir haben von 9 bis 17 Uhr geöffnet.",
            "We are open from 9 a.m. to 5 p.m.",
            "We are open at 9 a.m. and 5 p.m.",
            ["bis"],
        ),
        (
            "Sie erreichen uns unter +49 (0)221 98 76 54-0.",
            "You can reach us at +49 221 98 76 54-0.",
            "You can reach us at + 49 (0) 221 98 76 54.",
            ["+49 (0)221 98 76 54-0"],
        ),
        (
            "IBAN: DE89 3704 0044 0532 0130 00",
            "IBAN: DE89370400440532013000",
            "IBAN: DE89 3704 0044 0532 0130",
            ["DE89 3704 0044 0532 0130 00"],
        ),
        (
            "Die Wohnung ist ab 1.4.25 frei.",
            "The flat is available from 1 April 2025.",
            "The flat is available from 4 January 2025.",
            ["1.4."],
        ),
        ("Im März ziehen wir um.", "We are moving in March.", "We are moving in May.", ["März"]),
        ("Ich rufe dich morgen an.", "I'll call you tomorrow.", "I'll call you today.", ["morgen"]),
        # what the bundled model writes (bench/data/model-trust.tsv), kept and broken
        (
            "Die Kinder müssen um acht Uhr im Bett sein.",
            "The children must be in bed at eight.",
            "The children must be in bed at eight years.",
            ["acht Uhr"],
        ),
        (
            "Ich hole dich um Viertel vor sechs ab.",
            "I'll pick you up at quarter before six.",
            "I'll pick you up at six.",
            ["Viertel vor sechs"],
        ),
        (
            "Um neun Uhr beginnt die Arbeit.",
            "Work begins at nine a.m.",
            "Work begins.",
            ["neun Uhr"],
        ),
        (
            "Das Frühstück gibt es ab halb sieben.",
            "Breakfast is from half past six.",
            "Breakfast is at half past six.",
            ["ab"],
        ),
        (
            "Zum fünften Mal in Folge haben wir gewonnen.",
            "We won for the fifth time in a row.",
            "For five times, we won.",
            ["fünften"],
        ),
        (
            "Unsere Tochter wird nächste Woche sieben.",
            "Our daughter turns seven next week.",
            "Our daughter will be seventh next week.",
            ["sieben"],
        ),
        (
            "Das Spiel endete zwei zu eins.",
            "The game ended 2-1.",
            "The game ended at two.",
            ["zwei zu eins"],
        ),
        (
            "Die Rechnung vom 12.03.2024 ist noch offen.",
            "The invoice of 12.03.2024 is still open.",
            "The invoice of 12.04.2024 is still open.",
            ["12.03."],
        ),
        (
            "Die Messe findet vom 4. bis 7. April statt.",
            "The fair takes place from 4th to 7 April.",
            "The fair takes place on 4th and 7 April.",
            ["bis"],
        ),
        (
            "Ich bin mit der Lösung nicht einverstanden.",
            "I disagree with the solution.",
            "I agree with the solution.",
            ["nicht"],
        ),
        (
            "Das Zimmer kostet 80 Euro pro Nacht.",
            "The room costs 80 euros a night.",
            "The room costs 80 euros a week.",
            ["Nacht"],
        ),
        (  # how often (calendar.tsv kind frequency)
            "Der Laden öffnet werktags um acht.",
            "The shop opens at eight on weekdays.",
            "The shop opens at 8.",
            ["werktags"],
        ),
        (
            "Täglich kommen neue Gäste.",
            "New guests come every day.",
            "New guests come.",
            ["Täglich"],
        ),
        (  # a factor (language/multiples.py), kept by the factor or by its number
            "Der Preis hat sich verdreifacht.",
            "The price has tripled.",
            "The price has made up.",
            ["verdreifacht"],
        ),
        (
            "Wegfall der Testpflicht für dreifach Geimpfte",
            "The test requirement ends for people with three vaccinations",
            "The test requirement ends for the vaccinated",
            ["dreifach"],
        ),
        (  # a day as an ordinal in words, kept by an English ordinal in words too
            "Tom starb am zwanzigsten Oktober.",
            "Tom died on October twentieth.",
            "Tom died in October.",
            ["zwanzigsten Oktober"],
        ),
        # A unit in an English compound adjective ("a 40-litre tank"), a month after a
        # hyphen or as "Sept.", a decade, a 24-hour time with a point, a scale word
        # glued by a hyphen („13-tausend“): newstest2016's references (read for these),
        # measured on newstest2017/2018 and generaltest2022's.
        (
            "Er kaufte einen Tank mit 40 Litern.",
            "He bought a 40-litre tank.",
            "He bought a 40 tank.",
            ["Litern"],
        ),
        ("Das dauert fünf Tage.", "It is a five-day course.", "It is a five course.", ["Tage"]),
        ("Mitte Juni kam er.", "He came in mid-June.", "He came in mid-July.", ["Juni"]),
        ("Es war im September.", "It was in Sept.", "It was in Oct.", ["September"]),
        (
            "Das war in den 1990-er Jahren.",
            "That was in the 1990s.",
            "That was in the 1980s.",
            ["1990"],
        ),
        (
            "Die Wahl ist um 20.00 Uhr.",
            "The vote is at 20.00.",
            "The vote is at 21.00.",
            ["20.00 Uhr"],
        ),
        (
            "Sie leiten 13-tausend Ampere.",
            "They carry 13 thousand amps.",
            "They carry 13 amps.",
            ["13-tausend"],
        ),
    ],
)
def test_a_fact_kept_or_lost(de, right, wrong, lost):
    assert missing_facts(de, right) == []
    assert [f.text for f in missing_facts(de, wrong)] == lost


@pytest.mark.parametrize(
    "de",
    [
        "Bitte achten Sie auf die Stufe.",  # „achten“: pay attention, not the eighth
        "Guten Morgen, Frau Koch!",  # „Morgen“: morning, not tomorrow
        "Bis bald und viele Grüße!",  # „bis“ before no date, time or number
        "Ab und zu gehen wir essen.",
        "Innerhalb der Stadt ist es ruhig.",  # „halb“ inside a word
        "Das ist deshalb wichtig.",
        "Es liegt am Wochentag und des Wochentags wegen.",  # a noun
        "Das ist einfach und vielfach erprobt.",  # no factor
        "Per Elfmeter setzte Müller noch einen drauf.",  # a penalty kick, not 11 metres
        "Der Bericht nennt das Ergebnis für das Halbjahr.",  # a compound, no measure
    ],
)
def test_words_that_look_like_facts_are_not(de):
    assert all_facts(de) == []


def test_one_fact_where_words_overlap():
    assert [f.text for f in all_facts("Wir essen um halb acht.")] == ["halb acht"]
    assert [f.text for f in all_facts("Der Zug fährt um acht Uhr.")] == ["acht Uhr"]
    kinds = {f.text: f.kind for f in all_facts("Ich warte zehn Werktage.")}
    assert kinds == {"zehn": "number word", "Werktage": "unit"}


def test_an_age_may_be_said_by_its_number_alone():
    # „19 Jahre alt“: "19" or "19 years old"; the number is still checked
    assert missing_facts("Sie ist jetzt 19 Jahre alt.", "She is now 19.") == []
    assert [f.text for f in missing_facts("Sie ist jetzt 19 Jahre alt.", "She is now 91.")] == [
        "19"
    ]
    assert missing_facts("Das 76 Jahre alte Haus steht.", "The 76-year-old house stands.") == []


def test_english_readings():
    # "May" the month, not the verb; an order number is not a negation
    assert missing_facts("Wir kommen im Mai.", "We may come.") != []
    assert missing_facts("Das geht nicht.", "Order No. 5 is ready.") != []
    # one English negation keeps two German ones („weder … noch“)
    assert missing_facts("Weder er noch sie kam nicht.", "Neither he nor she came.") == []


def test_a_lost_fact_says_what_the_english_needs():
    (f,) = missing_facts("Es dauert drei Werktage.", "It takes three minutes.")
    assert describe_fact(f) == "Werktage (working days)"
    (f,) = missing_facts("Bitte spätestens morgen.", "Please tomorrow.")
    assert f.kind == "limit" and describe_fact(f) == "spätestens (at the latest)"


def test_the_check_meets_the_trust_floors_on_the_bench_set():
    """bench/bench_trust.py's figures, from the same sets: recall >= 90 % and precision
    >= 80 % per category, with at least 40 sentences in each."""
    scores = bench_trust.score(bench_trust.read_items())
    assert len(scores) == 8
    for category, row in scores.items():
        assert row["items"] >= 40, category
        assert row["recall"] >= 0.9 and row["precision"] >= 0.8, (category, row)


def test_a_malformed_bench_line_is_named(tmp_path):
    (tmp_path / "trust-x.tsv").write_text("# header\nGerman only\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"trust-x.tsv:2"):
        bench_trust.read_items(tmp_path)


def _words_translation(de: str, en: str, aligned: dict[int, int]):
    """A one-sentence translation split at spaces, each English word attending to the
    German word ``aligned`` names (else to the first)."""
    import numpy as np

    from translator_app.core.engine.translation import Candidate, Translation
    from translator_app.core.faithful.fact_check import missing_facts

    def spans(text):
        out, i = [], 0
        for w in text.split(" "):
            out.append((i, i + len(w)))
            i += len(w) + 1
        return tuple(out)

    src, out = spans(de), spans(en)
    att = np.zeros((len(out) + 1, len(src)), np.float32)  # + EOS
    for j in range(len(out) + 1):
        att[j, aligned.get(j, 0)] = 1.0
    cand = Candidate(en, tuple(range(len(out) + 1)), (), out + ((len(en), len(en)),), att, 0, 0)
    return Translation(de, (), (), src, (cand,), tuple(missing_facts(de, en)))


def test_a_lost_fact_is_marked_on_both_sides_with_what_it_is():
    from translator_app.core.engine.text_document import translate_document
    from translator_app.gui.views.linking import fact_marks

    de, en = "Ich habe keine Zeit.", "I have some time."
    # "some" (English word 2) was written for „keine“ (German word 2)
    doc = translate_document(de, lambda sents: [_words_translation(de, en, {2: 2})])
    (mark,) = fact_marks(doc)
    assert doc.source[slice(*mark.source)] == "keine"
    assert doc.output[slice(*mark.output)] == "some"
    assert mark.message == "May be lost in the English: keine (a negation: not, no, never)"


def test_the_english_side_of_a_fact_mark_is_a_word_never_punctuation():
    """„zuzüglich“ was marked on the comma after "Bauer," where the comma had the most of
    its attention: the mark goes on the strongest aligned word instead."""
    from translator_app.core.engine.text_document import translate_document
    from translator_app.gui.views.linking import fact_marks

    de, en = "Ich habe keine Zeit .", "I have , some time ."
    # the comma (English piece 2) got „keine“ (German word 2) fully, "some" (3) too
    translation = _words_translation(de, en, {2: 2, 3: 2})
    doc = translate_document(de, lambda sents: [translation])
    (mark,) = fact_marks(doc)
    assert doc.source[slice(*mark.source)] == "keine"
    assert doc.output[slice(*mark.output)] == "some"


def test_the_check_meets_its_floors_on_the_models_own_english():
    """bench_trust's second table: the check on English the bundled model wrote,
    labelled kept or broken by a person; a check that marks every "at eight" for
    „um acht Uhr“ (precision 20 % before this) fails here."""
    scores = bench_trust.score_labelled(bench_trust.read_labelled())
    assert len(scores) == 8
    for category, row in scores.items():
        assert row["items"] >= 40, category
        assert row["recall"] >= bench_trust.FLOORS["recall"], category
        assert row["precision"] >= bench_trust.FLOORS["precision"], category


def test_a_negation_the_german_does_not_hold_is_marked_where_the_english_writes_it():
    from translator_app.core.engine.text_document import translate_document
    from translator_app.gui.views.linking import fact_marks

    de, en = "Das Hotel war sauber.", "The hotel wasn't clean."
    doc = translate_document(de, lambda sents: [_words_translation(de, en, {2: 2})])
    (mark,) = fact_marks(doc)
    assert doc.source[slice(*mark.source)] == de  # the whole sentence says otherwise
    assert doc.output[slice(*mark.output)] == "wasn't"
    assert mark.message == 'Check the English: "wasn\'t" (a negation the German does not hold)'

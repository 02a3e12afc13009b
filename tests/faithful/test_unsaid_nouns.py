"""Long nouns the English says in none of the dictionary's senses are asked for with the
dictionary's English, and a decode with a term is kept only where it says more of the
source's words in a sense of the dictionary (core/faithful/unsaid_nouns.py). With the
bundled model, greedy: „Das Fahrradschloss hat zwei Schlüssel.“ was "The bike squad has
two key."; asked without the guard, „… zwanzig Minuten Verspätung.“ lost its minutes."""

from __future__ import annotations

import pytest

from conftest import tiny_ding
from translator_app.core.faithful import unsaid_nouns as unsaid_module
from translator_app.core.faithful.copied_words import dictionary_terms
from translator_app.core.faithful.senses import verb_phrase
from translator_app.core.faithful.unsaid_nouns import says_more_senses, senses_said, unsaid_nouns

DING = [
    "Fahrradschloss {n} :: bicycle lock",
    "Schloss {n} :: lock; castle",
    "Tiefgarage {f} :: underground car park",
    "Schlüssel {m} :: key",
    "Zug {m} :: train",
    "Minute {f}; Minuten {pl} :: minute; minutes",
    "Verspätung {f} :: delay; lateness",
    "Zucker {m} :: sugar",
    "Dübel {m} :: dowel",
    "Bausatz {m} :: kit",
    "Tomaten {pl} :: tomatoes",
    "Tomate {f} :: tomato",
    "Hähnchen {n} :: chicken",  # as Ding lists it: the singular first
    "Hähnchen {pl} :: chickens",
    "Winterreifen {m}; Winterreifen {pl} :: winter tyre; winter tyres",
    "Lieferschein {m} :: delivery note",
    "liefern {vt} :: to deliver sth. (to sb.); to supply sb. with sth.",
    "fehlen {vi} :: to be missing; to lack",
]


@pytest.fixture(scope="module")
def ding(tmp_path_factory):
    return tiny_ding(tmp_path_factory.mktemp("ding"), DING)


@pytest.mark.parametrize(
    "source, output, unsaid",
    [
        (
            "Das Fahrradschloss hat zwei Schlüssel.",
            "The bike squad has two key.",
            ("Fahrradschloss",),
        ),
        ("Das Fahrradschloss hat zwei Schlüssel.", "The bicycle lock has two keys.", ()),
        # a shorter noun is the model's to say, and so is the sentence's first word
        ("Das Schloss hat zwei Schlüssel.", "The squad has two keys.", ()),
        ("Tiefgarage schließt um acht.", "Low-garage closes at eight.", ()),
        ("Die Tiefgarage schließt um acht.", "The low-garage closes at eight.", ("Tiefgarage",)),
    ],
)
def test_a_long_noun_said_in_none_of_its_senses_is_unsaid(ding, source, output, unsaid):
    assert unsaid_nouns(ding, source, output) == unsaid


@pytest.mark.parametrize(
    "source, output, unsaid",
    [
        # a noun a number counts is a fact: asked for whatever its length
        ("Geben Sie 200 Gramm Zucker dazu.", "Add 200 grams.", ("Zucker",)),
        ("Geben Sie 200 Gramm Zucker dazu.", "Add 200 grams of sugar.", ()),
        ("Der Bausatz enthält zehn Dübel.", "The kit contains ten walls.", ("Dübel",)),
        # not counted: a short noun stays the model's
        ("Der Zucker ist alle.", "The sugar is all.", ()),
        ("Wo ist der Zucker?", "Where is the sweetener?", ()),
    ],
)
def test_a_counted_noun_said_in_none_of_its_senses_is_unsaid(ding, source, output, unsaid):
    assert unsaid_nouns(ding, source, output) == unsaid


def test_a_noun_a_number_counts_is_asked_for_in_the_plural(ding):
    terms = dictionary_terms(ding, "Der Bausatz enthält zehn Dübel.", "The kit has ten walls.")
    assert [(t.source, t.target) for t in terms] == [("Dübel", "dowels")]
    # after a measure the German's number decides: „Zucker“ is sugar
    terms = dictionary_terms(ding, "Geben Sie 200 Gramm Zucker dazu.", "Add 200 grams.")
    assert [(t.source, t.target) for t in terms] == [("Zucker", "sugar")]
    # a word the dictionary lists first as a plural is one, after „ein halbes Kilo“ too;
    # one it lists first as a singular stays one after a measure (chicken, as meat)
    terms = dictionary_terms(ding, "Ich hätte gern ein halbes Kilo Tomaten.", "Half a kilo.")
    assert [(t.source, t.target) for t in terms] == [("Tomaten", "tomatoes")]
    terms = dictionary_terms(ding, "Braten Sie 400 Gramm Hähnchen an.", "Fry 400 grams.")
    assert [(t.source, t.target) for t in terms] == [("Hähnchen", "chicken")]


@pytest.mark.parametrize(
    "source, english",
    [
        ("Die Winterreifen sind eingelagert.", "winter tyres"),
        ("Keine Winterreifen mehr im Lager.", "winter tyres"),
        ("Die neuen Winterreifen sind da.", "winter tyres"),  # an adjective between
        ("Der Winterreifen ist neu.", "winter tyre"),
        ("Den Winterreifen habe ich gekauft.", "winter tyre"),
    ],
)
def test_a_masculine_noun_after_die_is_asked_for_in_the_plural(ding, source, english):
    """„die“ and its kin stand before a masculine or neuter noun only in the plural:
    „Winterreifen“, the same word in both numbers, is asked for as its determiner says
    (v23: „Die Winterreifen sind eingelagert.“ -> "The snow tyre are …")."""
    terms = dictionary_terms(ding, source, "The Winterreifen are there.")
    assert [t.target for t in terms] == [english]


def test_an_unsaid_noun_is_asked_for_with_the_dictionarys_english(ding):
    terms = dictionary_terms(
        ding, "Das Fahrradschloss hat zwei Schlüssel.", "The bike squad has two key."
    )
    assert [(t.source, t.target) for t in terms] == [("Fahrradschloss", "bicycle lock")]


def test_a_term_that_pushes_other_words_out_says_no_more(ding):
    source = "Der Zug hat zwanzig Minuten Verspätung."
    assert senses_said(ding, source, "The train is twenty minutes late.") == 2  # Zug, Minuten
    assert senses_said(ding, source, "The train has twenty minutes delay.") == 3
    assert not says_more_senses(
        ding, source, "The train is twenty delay.", "The train is twenty minutes late."
    )
    assert says_more_senses(
        ding, source, "The train has twenty minutes delay.", "The train is twenty minutes late."
    )


@pytest.mark.parametrize(
    "english, said",
    [
        ("We couldn't deliver because the delivery note was missing.", 3),
        ("We delivered, the delivery notes lacked.", 3),
        ("They are delivering it; it supplies us with bread.", 1),  # one German word
        # a noun's term in the verb's place: liefern no longer said
        ("We couldn't delivery notes because the delivery notes was missing.", 2),
        ("We couldn't.", 0),
    ],
)
def test_a_verb_is_said_in_its_forms(ding, english, said):
    source = "Wir konnten nicht liefern, weil die Lieferscheine fehlten."
    assert senses_said(ding, source, english) == said


@pytest.mark.parametrize(
    "english, phrase",
    [
        ("to deliver sth.", ("deliver", True)),
        ("to supply sb. with sth.", ("supply with", True)),
        ("to be missing", ("missing", False)),
        ("delivery note", None),  # a noun's
        ("to", None),
    ],
)
def test_a_verbs_english_is_read_without_its_objects(english, phrase):
    assert verb_phrase(english) == phrase


def test_the_bundled_model_keeps_the_verb_a_noun_term_would_push_out(translator, monkeypatch):
    """„Lieferscheine“, said "delivery certificate" by v23, is asked with the dictionary's
    "delivery notes"; the decode that wrote them in „liefern“'s place is kept only where
    a verb's senses are not counted."""
    german = ["Wir konnten nicht liefern, weil die Lieferscheine fehlten."]
    (t,) = translator.translate(german)  # the app's search
    assert "couldn't deliver" in t.text, t.text
    monkeypatch.setattr(unsaid_module, "verb_phrase", lambda english: None)
    unsaid_module.sense_pattern.cache_clear()
    try:
        (pushed,) = translator.translate(german)
    finally:
        unsaid_module.sense_pattern.cache_clear()
    assert "couldn't delivery notes" in pushed.text, pushed.text  # or update this case


@pytest.mark.parametrize(
    "german, said, guess",
    [
        ("Das Fahrradschloss hat zwei Schlüssel.", "bicycle lock", "bicycle squad"),  # v22: bike
        ("Die Tiefgarage schließt um Mitternacht.", "underground car park", "low-garage"),
    ],
)
def test_the_bundled_model_says_the_long_noun_it_guessed(translator, german, said, guess):
    (alone,) = translator.translate([german], beam=1, dictionary_words=False)
    assert guess in alone.text  # the model's own English, or update this case
    (t,) = translator.translate([german], beam=1)
    assert said in t.text and guess not in t.text


@pytest.mark.parametrize(
    "german, said, greedy",
    [
        # with the term v23 wrote "Put 200 gram sugar" (beam 5): the measure is mended
        ("Geben Sie 200 Gramm Zucker in eine Schüssel.", "200 grams of sugar", "grams of sugar"),
        ("Der Bausatz enthält zehn Dübel.", "dowels", "ten dowels"),
        # v23 left the noun out after its measure, with the term annotated too: the
        # term is forced after "grams" („Geben Sie 50 Gramm Hefe …“ in the bench)
        (
            "Geben Sie 300 Gramm Erdbeeren in eine Schüssel.",
            "strawberries",
            "grams of strawberries",
        ),
        ("Geben Sie 150 Gramm Butter in die Pfanne.", "butter", "grams of butter"),
    ],
)
def test_the_bundled_model_says_the_noun_a_number_counts(translator, german, said, greedy):
    # bench/bench_counted_nouns.py measures this on sentences written for it
    (alone,) = translator.translate([german], dictionary_words=False)
    assert said not in alone.text  # the model's own English, or update this case
    (t,) = translator.translate([german])
    assert said in t.text, t.text
    # greedy, as the dev sets are scored: after its measure with "of"
    (searched,) = translator.translate([german], beam=1)
    assert greedy in searched.text, searched.text


@pytest.mark.parametrize(
    "german, said, wrong",
    [
        # v23 wrote the measure as German does (beam 5); under the dictionary's term too
        # („Geben Sie 200 Gramm Zucker …“: "Put 200 gram sugar")
        ("Kaufen Sie bitte zwei Kilo Äpfel.", "two kilos of apples", "two kilo apples"),
        ("Sie hat zwei Kilo Kartoffeln gekauft.", "two kilos of potatoes", "two kilo potatoes"),
    ],
)
def test_the_bundled_model_writes_a_measure_as_english_does(translator, german, said, wrong):
    (alone,) = translator.translate([german], dictionary_words=False)
    assert wrong in alone.text  # the model's own English, or update this case
    (t,) = translator.translate([german])
    assert said in t.text, t.text


def test_the_bundled_model_keeps_its_english_where_the_term_pushes_words_out(translator):
    (t,) = translator.translate(["Der Zug hat zwanzig Minuten Verspätung."], beam=1)
    assert "twenty minutes" in t.text


def test_a_word_of_the_users_glossary_is_left_to_it(translator, monkeypatch):
    from translator_app.core.engine import dictionary_pass
    from translator_app.core.faithful.glossary import Glossary, Term

    mine = Glossary((Term("Wanderschuh", "TrailRunner"),))
    german = ["Wir haben drei neue Wanderschuhe bestellt."]
    (t,) = translator.translate(german, beam=1, glossary=mine)
    assert "TrailRunner" in t.text
    # asked for with the dictionary's English, the user's term was lost
    monkeypatch.setattr(dictionary_pass, "_overlaps", lambda *args: False)
    (t,) = translator.translate(german, beam=1, glossary=mine)
    assert "TrailRunner" not in t.text

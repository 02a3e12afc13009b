"""Product descriptions, reviews, support replies and travel notices built from blocks
(issue 60)."""

from __future__ import annotations

import random

import pytest

from trainer.everyday_notices import (
    DATA,
    Noun,
    Quality,
    _time,
    contracted,
    notice_pairs,
    quality_slots,
    read_table,
)

CUP = Noun("Tasse", "f", "Tassen", "cup", "cups", "k")


def _forms(noun: Noun, seed_range=range(40)) -> set[tuple[str, ...]]:
    keys = ("NOM", "ACC", "DAT", "THE", "IST", "IS", "PRON", "PRON_E")
    return {tuple(noun.slots(random.Random(seed))[k] for k in keys) for seed in seed_range}


def test_a_noun_agrees_in_case_and_number_in_both_languages():
    assert _forms(CUP) == {
        ("die Tasse", "die Tasse", "der Tasse", "the cup", "ist", "is", "sie", "it"),
        ("die Tassen", "die Tassen", "den Tassen", "the cups", "sind", "are", "sie", "they"),
    }
    plate = Noun("Teller", "m", "Teller", "plate", "plates", "k")
    assert {f[:3] for f in _forms(plate)} == {
        ("der Teller", "den Teller", "dem Teller"),
        ("die Teller", "die Teller", "den Tellern"),  # the dative plural takes -n
    }
    sofa = Noun("Sofa", "n", "Sofas", "sofa", "sofas", "h")
    assert "den Sofas" in {f[2] for f in _forms(sofa)}  # … but not after -s


def test_a_german_plural_noun_is_plural_in_english_too():
    headphones = Noun("Kopfhörer", "p", "", "headphones", "", "e")
    assert _forms(headphones) == {
        ("die Kopfhörer", "die Kopfhörer", "den Kopfhörern", "the headphones", "sind", "are",
         "sie", "they"),
    }  # fmt: skip
    slots = headphones.slots(random.Random(0), "2")
    assert slots["WAR2"] == "waren" and slots["WAS2"] == "were" and "WAR" not in slots


def test_praise_and_complaint_suit_the_noun_and_keep_apart():
    qualities = [
        Quality("spülmaschinenfest", "dishwasher-safe", "k", True),
        Quality("leise", "quiet", "ek", True),
        Quality("hervorragend", "excellent", "*", True, graded=False),
        Quality("zu laut", "too loud", "ek", False),
        Quality("atmungsaktiv", "breathable", "c", True),
    ]
    for seed in range(30):
        slots = quality_slots(random.Random(seed), CUP, qualities)
        assert slots["N"] == "zu laut" and slots["N_E"] == "too loud"
        assert {slots["P"], slots["P2"]} <= {"spülmaschinenfest", "leise", "hervorragend"}
        assert slots["P"] != slots["P2"] and "atmungsaktiv" not in slots.values()
        assert slots["P1"] in {"spülmaschinenfest", "leise"}  # never „sehr hervorragend“
        assert "N1" not in slots  # „etwas zu laut“ is no word of one
        assert (slots["Q"] == "zu laut") == ("Q2" not in slots)  # one complaint, no second


def test_german_joins_preposition_and_article():
    assert contracted("Fotografieren ist in dem Museum nicht erlaubt.") == (
        "Fotografieren ist im Museum nicht erlaubt."
    )
    assert contracted("Von dem Toaster bin ich enttäuscht.") == "Vom Toaster bin ich enttäuscht."
    assert contracted("Der Eintritt in das Hallenbad ist frei.") == (
        "Der Eintritt ins Hallenbad ist frei."
    )
    kept = "Hunde sind in der Bibliothek nicht erlaubt, auch an deren Eingang."
    assert contracted(kept) == kept


def test_a_time_of_day_reads_as_english_writes_it():
    rng = random.Random(0)
    seen = {_time(rng) for _ in range(3000)}
    assert ("16", "4 p.m.") in seen and ("12:30", "12:30 p.m.") in seen
    assert ("9:35", "9:35 a.m.") in seen
    assert all(en.endswith(("a.m.", "p.m.", "noon")) for _, en in seen)


def test_the_corpus_is_seeded_distinct_and_fully_filled():
    pairs = notice_pairs(3000, seed=1)
    assert pairs == notice_pairs(3000, seed=1) and len(set(pairs)) == len(pairs) == 3000
    assert not any("{" in de + en or "}" in de + en for de, en in pairs)
    assert not any(en.endswith("..") or de.endswith("..") for de, en in pairs)
    assert ("Nie wieder!", "Never again!") in pairs  # the review lines, each once
    german = " ".join(de for de, _ in pairs)
    for kind in ("Verspätung", "Gleis", "geöffnet", "zufrieden", "Garantie", "Frühstück"):
        assert kind in german, kind
    assert not any(" in dem " in de or " von dem " in de for de, _ in pairs)


def test_every_table_reads_and_a_broken_row_names_its_file_and_line(tmp_path):
    for name, columns in [
        ("goods.tsv", 6),
        ("goods-qualities.tsv", 4),
        ("goods-frames.tsv", 3),
        ("materials.tsv", 3),
        ("stay.tsv", 6),
        ("stay-qualities.tsv", 4),
        ("stay-frames.tsv", 3),
        ("transport.tsv", 6),
        ("transport-frames.tsv", 3),
        ("reasons.tsv", 3),
        ("review-lines.tsv", 2),
    ]:
        assert read_table(DATA / name, columns), name
    bad = tmp_path / "goods.tsv"
    bad.write_text("# comment\nTasse\tf\tTassen\tcup\tcups\tk\nTopf\tm\n", "utf-8")
    with pytest.raises(ValueError, match=r"goods.tsv:3: 2 columns, expected 6"):
        read_table(bad, 6)

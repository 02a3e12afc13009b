"""Recipes and device instructions built from blocks (issue 60)."""

from __future__ import annotations

import random

import pytest

from trainer.everyday_blocks import (
    DATA,
    Verb,
    _after_comma,
    block_pairs,
    device_slots,
    fill,
    message_pairs,
    read_table,
    recipe_slots,
)


def test_separable_verbs_stand_where_german_puts_them():
    anbraten = Verb("braten", "an", "scharf")
    assert anbraten.infinitive() == "scharf anbraten"
    assert anbraten.imperative("das Fleisch") == "Braten Sie das Fleisch scharf an"
    assert anbraten.imperative("das Fleisch", "zehn Minuten") == (
        "Braten Sie das Fleisch zehn Minuten scharf an"
    )
    assert Verb("nehmen", "ab", "").imperative("den Deckel", "nicht") == (
        "Nehmen Sie den Deckel nicht ab"
    )


def test_a_recipe_step_and_its_second_step_refer_back_with_pronouns():
    onion = ("die Zwiebeln", "sie", "the onions", "them", "vpq")
    verbs = [
        ("schälen", "", "", "peel {X}", "p", ""),
        ("schneiden", "", "in Würfel", "cut {X} into cubes", "v", ""),
    ]
    slots = recipe_slots(random.Random(0), onion, verbs)
    frame = ("{INF} und {INF2}.", "{E} and {E2}.")
    pair = fill(frame[0], slots), fill(frame[1], slots)
    assert pair in {
        (
            "Die Zwiebeln schälen und in Würfel schneiden.",
            "Peel the onions and cut them into cubes.",
        ),
        (
            "Die Zwiebeln in Würfel schneiden und schälen.",
            "Cut the onions into cubes and peel them.",
        ),
    }
    assert "INF_D" not in slots  # no step of these takes a duration
    imperative = fill("{IMP} und {IMP2}.", slots)
    assert imperative.endswith(("schneiden Sie sie in Würfel.", "schälen Sie sie."))


def test_a_device_part_agrees_in_case_and_number():
    lid = ("Deckel", "m", "Deckel", "lid", "lids", "c")
    remove = ("nehmen", "ab", "", "abgenommen", "remove {X}", "removed", "cf")
    rng = random.Random(3)
    seen = set()
    for _ in range(20):
        s = device_slots(rng, lid, remove)
        seen.add((fill("{NOM} {MUSS} regelmäßig {PP} werden.", s), fill("{IMP}.", s)))
    assert seen == {
        ("Der Deckel muss regelmäßig abgenommen werden.", "Nehmen Sie den Deckel ab."),
        ("Die Deckel müssen regelmäßig abgenommen werden.", "Nehmen Sie die Deckel ab."),
    }


def test_the_corpus_is_seeded_distinct_and_fully_filled():
    pairs = block_pairs(3000, seed=1)
    assert pairs == block_pairs(3000, seed=1) and len(set(pairs)) == len(pairs) == 3000
    assert not any("{" in de + en or "}" in de + en for de, en in pairs)
    assert any(" Sie " in de for de, _ in pairs) and any(de.endswith("lassen.") for de, _ in pairs)


def test_every_table_reads_and_a_broken_row_names_its_file_and_line(tmp_path):
    for name, columns in [
        ("foods.tsv", 5),
        ("cooking.tsv", 6),
        ("recipe-frames.tsv", 2),
        ("parts.tsv", 6),
        ("device-verbs.tsv", 7),
        ("device-frames.tsv", 3),
        ("messages.tsv", 3),
        ("message-frames.tsv", 2),
    ]:
        assert read_table(DATA / name, columns), name
    bad = tmp_path / "parts.tsv"
    bad.write_text("# comment\nTaste\tf\tTasten\tbutton\tbuttons\tb\nKnopf\tm\n", "utf-8")
    with pytest.raises(ValueError, match=r"parts.tsv:3: 2 columns, expected 6"):
        read_table(bad, 6)


def test_a_message_after_a_comma_keeps_only_the_capitals_it_needs():
    assert _after_comma("Gute Besserung!", False) == "gute Besserung!"
    assert _after_comma("Oma lässt herzlich grüßen.", True) == "Oma lässt herzlich grüßen."
    assert _after_comma("I miss you.", False) == "I miss you."
    assert _after_comma("I'm on my way.", False) == "I'm on my way."
    pairs = list(message_pairs(300, random.Random(2)))
    assert ("Frohe Weihnachten!", "Merry Christmas!") in pairs
    named = [(de, en) for de, en in pairs if de.startswith("Hallo ")]
    assert named and all(en.startswith("Hi ") for _, en in named)

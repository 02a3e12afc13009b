"""Training pairs for ordinary written German (issue 60): web pairs filtered, paragraphs
split into sentence pairs, Ding nouns in sentence frames."""

from __future__ import annotations

from collections import Counter

import pytest

from trainer.everyday_corpora import (
    Noun,
    ding_nouns,
    fill_frame,
    looks_translated,
    noun_frame_pairs,
    read_frames,
    sentence_pairs,
    web_pairs,
    word_counts,
)


def test_loose_web_pairs_are_dropped_with_their_reason():
    assert looks_translated("Wo ist der Bahnhof?", "Where is the station?") is None
    assert looks_translated("Am Fluss", "am fluss") == "same text on both sides"
    assert looks_translated("Am Fluss (33)", "At the river (87)") == "other numbers"
    assert looks_translated("7 Nächte ab 2513 €", "7 nights from 300 €") == "other numbers"
    assert looks_translated("Ja.", "Yes. I think you know that as well as I do.").startswith(
        "length ratio"
    )
    assert (
        looks_translated("The house is on the hill.", "The house is on the hill!")
        == "a side in the other language"
    )
    counts: Counter = Counter()
    kept = web_pairs([("Ja", "Yes"), ("Ja", "ja")], counts)
    assert kept == [("Ja", "Yes")] and counts == {"dropped: same text on both sides": 1}


def test_paragraphs_become_sentence_pairs_only_where_both_sides_split_alike():
    two = ("Öffnen Sie die Datei. Speichern Sie sie.", "Open the file. Save it.")
    uneven = ("Öffnen Sie die Datei und speichern Sie sie.", "Open the file. Save it.")
    one = ("Drücken Sie OK.", "Press OK.")
    assert list(sentence_pairs([two, uneven, one])) == [
        ("Öffnen Sie die Datei.", "Open the file."),
        ("Speichern Sie sie.", "Save it."),
        one,
    ]


def test_ding_nouns_take_the_first_entry_gender_plural_and_english():
    lines = [
        "Lampe {f}; Lämpchen {n} [electr.] | Lampen {pl} | Backofenlampe {f} :: lamp; light | lamps | oven lamp",
        "Teig {m} [cook.] | Hefeteig {m} :: dough | yeast dough",
        "Teig {m}; Kuchenteig {m} [cook.] :: paste",
        "gehen {vi} :: to go",
    ]
    assert list(ding_nouns(lines)) == [
        Noun("Lampe", "f", "Lampen", "lamp", "lamps"),
        Noun("Teig", "m", "", "dough", ""),
    ]


def test_frames_agree_in_case_number_and_article():
    lamp = Noun("Lampe", "f", "Lampen", "lamp", "lamps")
    customer = Noun("Kunde", "m", "Kunden", "customer", "customers")
    egg = Noun("Ei", "n", "Eier", "egg", "eggs")
    assert fill_frame(("s", "Hast du {AKK} gesehen?", "Have you seen {THE}?"), customer) == (
        "Hast du den Kunden gesehen?",
        "Have you seen the customer?",
    )
    assert fill_frame(("s", "Das ist {INDEF_NOM}.", "That is {A}."), egg) == (
        "Das ist ein Ei.",
        "That is an egg.",
    )
    assert fill_frame(("p", "Mit {DAT} bin ich zufrieden.", "I like {THE}."), egg) == (
        "Mit den Eiern bin ich zufrieden.",
        "I like the eggs.",
    )
    assert fill_frame(("s", "{NOM} ist hier.", "{THE} is here."), lamp) == (
        "Die Lampe ist hier.",
        "The lamp is here.",
    )
    no_plural = Noun("Teig", "m", "", "dough", "")
    assert fill_frame(("p", "Wo sind {NOM}?", "Where are {THE}?"), no_plural) is None


def test_the_frames_file_reads_and_every_frame_fills():
    frames = read_frames()
    assert len(frames) >= 30 and {n for n, _, _ in frames} == {"s", "p"}
    lamp = Noun("Lampe", "f", "Lampen", "lamp", "lamps")
    for frame in frames:
        de, en = fill_frame(frame, lamp)
        assert "{" not in de + en and "Lampe" in de and "lamp" in en


def test_a_broken_frames_file_names_its_line(tmp_path):
    bad = tmp_path / "frames.tsv"
    bad.write_text("# comment\ns\tWo ist {NOM}?\tWhere is {THE}?\nx\tonly two\n", "utf-8")
    with pytest.raises(ValueError, match=r"frames.tsv:3: 2 columns, expected 3"):
        read_frames(bad)
    bad.write_text("x\tWo ist {NOM}?\tWhere is {THE}?\n", "utf-8")
    with pytest.raises(ValueError, match=r"frames.tsv: 'Wo ist \{NOM\}\?': the number must be"):
        read_frames(bad)


def test_only_common_nouns_are_framed_most_frequent_first():
    nouns = [Noun("Lampe", "f", "Lampen", "lamp", "lamps"), Noun("Galaxie", "f", "", "galaxy", "")]
    counts = word_counts(["Die Lampe ist an.", "Zwei Lampen.", "Eine Galaxie."])
    pairs = noun_frame_pairs(nouns, counts, limit=10, per_noun=2, min_count=2)
    assert len(pairs) == 2 and all("lamp" in en for _, en in pairs)


def test_the_everyday_sets_are_whole_and_kept_out_of_training():
    """issue 60 §1: at least 400 pairs a set, at least 40 of each kind, no sentence in
    both; scripts/prepare_data.py blocks the test set and holds the dev set out."""
    import importlib.util
    from pathlib import Path

    from trainer.evaluate import read_kinds
    from translator_app.core.data.corpus import normalise, read_all

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("prepare", root / "scripts/prepare_data.py")
    prepare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(prepare)
    german = {}
    for name, path in (("dev", prepare.EVERYDAY_DEV), ("test", prepare.EVERYDAY_TEST)):
        pairs = list(read_all([path]))
        kinds = Counter(read_kinds(path, len(pairs)))
        assert len(pairs) >= 400 and len(kinds) == 10 and min(kinds.values()) >= 40, name
        german[name] = {normalise(de) for de, _ in pairs}
        assert len(german[name]) == len(pairs), f"{name}: a German sentence twice"
    assert not german["dev"] & german["test"]
    source = (root / "scripts/prepare_data.py").read_text("utf-8")
    assert "tests.add(read_all([EVERYDAY_TEST]))" in source
    assert "held.add(read_all([EVERYDAY_DEV]))" in source

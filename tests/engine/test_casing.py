"""German written in capitals (a sign, a notice) or without any (a hasty message) is read
by the model as German writes it (core/faithful/casing.py). With the bundled model
„BITTE NICHT RAUCHEN“ read as it stands came out "BITT RAUCHEN", „ACHTUNG:
RUTSCHGEFAHR!“ "ACHTING: RUTTYYHR!", „sehr geehrter herr wagner, …“ "Dear herrrow, …"."""

from __future__ import annotations

import importlib.util
import lzma
from pathlib import Path

import pytest

from translator_app.core.faithful.casing import (
    as_german_writes,
    german_casing,
    in_capitals,
    written_case,
)
from translator_app.core.postedit.pipeline import parse_steps

ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize(
    "text, capitals",
    [
        ("BITTE NICHT RAUCHEN", True),
        ("ACHTUNG", True),
        ("DIE EU UND DIE USA", True),
        ("Die EU und die USA verhandeln.", False),
        ("ADAC hilft", False),
        ("EU", False),
        ("Guten Morgen!", False),
        ("1234", False),
    ],
)
def test_a_text_is_in_capitals_where_most_of_its_words_are(text, capitals):
    assert in_capitals(text) is capitals


@pytest.mark.parametrize(
    "text, case",
    [
        ("BITTE NICHT RAUCHEN", "upper"),
        ("bin gleich zu hause", "lower"),
        ("ok", None),  # no word of three letters
        ("Bin gleich zu Hause", None),
        ("ich wohne in Berlin", None),  # one capital: written as its writer meant
    ],
)
def test_the_case_a_text_is_written_in(text, case):
    assert written_case(text) == case


def test_in_capitals_sie_and_ihre_are_the_polite_form_in_lower_case_the_familiar():
    casing = {"vielen": "lower", "für": "lower", "ihre": "lower", "danke": "lower"}
    assert as_german_writes("VIELEN DANK FÜR IHRE ANTWORT", casing) == (
        "Vielen Dank für Ihre Antwort"
    )
    assert as_german_writes("danke für ihre antwort", casing, case="lower") == (
        "Danke für ihre Antwort"
    )


def test_a_text_in_lower_case_gets_its_nouns_capitals():
    casing = {"bin": "lower", "gleich": "lower", "zu": "lower", "eu": "upper"}
    assert as_german_writes("bin gleich zu hause", casing, case="lower") == "Bin gleich zu Hause"
    assert as_german_writes("die eu", casing, case="lower") == "Die EU"


def test_words_are_written_by_their_usual_form_and_unknown_ones_as_nouns():
    casing = {"bitte": "lower", "nicht": "lower", "rauchen": "either", "eu": "upper"}
    assert as_german_writes("BITTE NICHT RAUCHEN", casing) == "Bitte nicht rauchen"
    # a word written both ways takes a capital after an article
    assert as_german_writes("DAS RAUCHEN, NICHT RAUCHEN", casing) == "Das Rauchen, nicht rauchen"
    # an acronym stays; an unknown word is a noun; a sentence's first word takes a capital
    assert as_german_writes("EU: RUTSCHGEFAHR! BITTE", casing) == "EU: Rutschgefahr! Bitte"
    # the length never changes (a piece's span points at the user's letters)
    text = "STRASSE İSTANBUL"
    assert len(as_german_writes(text, casing)) == len(text)


def test_the_shipped_table_reads_a_notice():
    assert as_german_writes("HEUTE WEGEN KRANKHEIT GESCHLOSSEN") == (
        "Heute wegen Krankheit geschlossen"
    )
    assert german_casing()["usa"] == "upper"


# The bundled model's English for these is the regression lane's ("casing-*").
@pytest.mark.parametrize(
    "capitals, usual",
    [
        ("BITTE NICHT RAUCHEN", "Bitte nicht rauchen"),
        ("KEIN TRINKWASSER", "Kein Trinkwasser"),
        ("HEUTE GESCHLOSSEN", "Heute geschlossen"),
    ],
)
def test_a_notice_in_capitals_is_translated_as_if_written_as_usual(translator, capitals, usual):
    t = translator.translate([capitals])[0]
    assert t.text and t.text == translator.translate([usual])[0].text
    # the panel names the words as the user wrote them
    assert t.words().german == tuple(capitals.split())


def test_a_verb_the_model_drops_from_a_notice_in_capitals_is_marked_as_written(translator):
    # v23 reads „HEUTE WEGEN KRANKHEIT GESCHLOSSEN“ as the usual „Heute wegen Krankheit
    # geschlossen“ and, as for that, ends before the verb ("Today because of illness"; v22
    # wrote "It is closed today because of illness"). Where the English lacks "closed",
    # the dropped-words check must say so with the word the user wrote.
    capitals = "HEUTE WEGEN KRANKHEIT GESCHLOSSEN"
    t = translator.translate([capitals])[0]
    assert t.text == translator.translate(["Heute wegen Krankheit geschlossen"])[0].text
    if "closed" not in t.text:
        checked = translator.check_dropped([t])[0]
        assert "GESCHLOSSEN" in [word.text for word in checked.not_carried]


def test_a_hasty_message_in_lower_case_is_translated_as_if_written_as_usual(translator):
    german = "sehr geehrter herr wagner, anbei erhalten sie das gewünschte angebot."
    t = translator.translate([german])[0]
    # read as „Sehr geehrter Herr Wagner, anbei erhalten Sie das gewünschte Angebot.“
    as_usual = "Sehr geehrter Herr Wagner, anbei erhalten Sie das gewünschte Angebot."
    assert t.text == translator.translate([as_usual])[0].text
    assert t.text.startswith("Dear Mr Wagner, please find attached the ")
    assert t.words().german[:4] == ("sehr", "geehrter", "herr", "wagner")


def test_read_as_it_stands_the_model_spells_letters_and_loses_names(translator, monkeypatch):
    monkeypatch.setattr(translator, "steps", parse_steps("all,-umlauts"))  # read as typed
    t = translator.translate(["BITTE NICHT RAUCHEN"])[0]
    assert "smoke" not in t.text.lower()
    german = "sehr geehrter herr wagner, anbei erhalten sie das gewünschte angebot."
    assert "Wagner" not in translator.translate([german])[0].text


def test_the_word_lists_are_built_from_the_german_of_a_corpus(tmp_path):
    spec = importlib.util.spec_from_file_location("lists", ROOT / "scripts/build_word_lists.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    rows = [
        "Wir rauchen nicht. Das Rauchen ist verboten.\tx",
        "Die EU und die USA.\tx",
        "Die EU hilft. Sie rauchen hier nicht.\tx",
        "Das Haus. Im Haus ist es warm.\tx",
        "Kein Rauchen hier.\tx",
        "Tür und Tür. Maße, Masse, Maße, Masse.\tx",
    ]
    train = tmp_path / "train.tsv.xz"
    with lzma.open(train, "wt", encoding="utf-8") as f:
        f.write("\n".join(rows) + "\n")
    assert build.main(["--train", str(train), "--out", str(tmp_path), "--min-count", "2"]) == 0
    lines = (tmp_path / "german-casing.tsv").read_text("utf-8").splitlines()
    table = dict(line.split("\t") for line in lines if not line.startswith("#"))
    # a sentence's first word is not counted („Das“, „Sie“); „Haus“ is a noun (not listed);
    # „rauchen“ is written both ways; words seen once are left out
    assert table == {
        "rauchen": "either",
        "nicht": "lower",
        "ist": "lower",
        "hier": "lower",
        "und": "lower",
        "eu": "upper",
    }
    # "Tür" is typed "Tuer" nowhere: listed; "Masse" is a word of its own beside "Maße"
    lines = (tmp_path / "german-umlauts.tsv").read_text("utf-8").splitlines()
    assert [line for line in lines if not line.startswith("#")] == ["tuer\ttür"]

"""A sentence in another language than German is kept as written and says which
language (the step "other-languages", issue 89 §3), with the bundled model: English
came back reworded ("Can you please …"), French garbled („Bonjour, comment ça va?“ ->
"Bonjour, comment ça?")."""

from __future__ import annotations

ENGLISH = "Could you please send me the file by Friday?"
FRENCH = "Bonjour, comment ça va?"


def test_a_sentence_in_another_language_is_kept_as_written(translator):
    english, french, german = translator.translate([ENGLISH, FRENCH, "Guten Morgen, Frau Weber."])
    assert (english.text, english.language) == (ENGLISH, "en")
    assert (french.text, french.language) == (FRENCH, "fr")
    assert german.language == "" and german.text != german.source
    assert english.issues == () and english.terms == ()


def test_without_the_step_it_is_translated(translator):
    (t,) = translator.translate([ENGLISH], steps="all,-other-languages")
    assert t.language == "" and t.text != ENGLISH


def test_a_document_keeps_only_its_sentence_in_another_language(translator):
    doc = translator.translate_document(f"Guten Morgen, Frau Weber. {ENGLISH}")
    assert doc.output.endswith(ENGLISH) and not doc.output.startswith("Guten")
    ((source, output, language),) = doc.kept_languages()
    assert doc.source[source[0] : source[1]] == ENGLISH
    assert doc.output[output[0] : output[1]] == ENGLISH and language == "en"


def test_the_command_line_says_which_line_it_kept_as_written(tmp_path, capsys):
    from translator_app import cli

    source = tmp_path / "in.txt"
    source.write_text(f"Guten Morgen, Frau Weber.\n{ENGLISH}\n", "utf-8")
    assert cli.main(["translate", "--input", str(source), "--device", "cpu"]) == 0
    err = capsys.readouterr().err
    assert f"in.txt line 2: {ENGLISH!r} looks like English: kept as written" in err
    english = (tmp_path / "in.en.txt").read_text("utf-8").splitlines()
    assert english[1] == ENGLISH and english[0] != "Guten Morgen, Frau Weber."

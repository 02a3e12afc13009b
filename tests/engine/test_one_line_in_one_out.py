"""One line in, one line out, always (issue 86 §1): five characters
(„\u24d5\u04fb\u05a3\U0001f553\u0640“) ended the whole batch with an IndexError and lost
the good lines with it. The word reader now stops at the text's end, and a sentence that
still cannot be translated is given back as it came, with a warning naming its line,
while every other is translated."""

from __future__ import annotations

import pytest

from scripted_decoder import Written, scripted_translator
from translator_app.core.engine.text_document import each_or_as_it_came
from translator_app.core.text.piece_words import piece_words

FIVE = "\u24d5\u04fb\u05a3\U0001f553\u0640"


def test_a_closing_space_piece_past_the_texts_end_is_no_word():
    """The decode "frewnage ppli:" ends with a "▁" at 14-15 of its 14 characters."""
    pieces = ("▁f", "re", "▁", "pp", ":", "▁", "</s>")
    spans = ((0, 1), (1, 3), (3, 4), (4, 6), (6, 7), (7, 8), (7, 7))
    assert piece_words(pieces, spans, "fre pp:") == [
        ((0, 3), (0, 1)),
        ((4, 6), (2, 3)),
        ((6, 7), (4, 5)),
    ]


def test_the_five_characters_are_translated_with_the_lines_around_them(translator):
    doc = translator.translate_document(f"Guten Morgen!\n{FIVE}\nDanke.")
    lines = doc.output.split("\n")
    assert len(lines) == 3 and lines[1].strip()
    assert "morning" in lines[0].lower() and not any(t.failed for t in doc.translations)


def _breaks_on(word: str):
    def script(source: str) -> list[Written]:
        if word in source:
            raise IndexError("string index out of range")
        return [Written("Good morning!" if "Morgen" in source else "Thanks.", -1.0)]

    return script


def test_a_sentence_that_cannot_be_translated_comes_back_as_it_came():
    translator = scripted_translator(_breaks_on("kaputt"))
    doc = translator.translate_document("Guten Morgen!\nDas ist kaputt.\nDanke.")
    assert doc.output.split("\n") == ["Good morning!", "Das ist kaputt.", "Thanks."]
    failed = [t.failed for t in doc.translations]
    assert failed == ["", "IndexError: string index out of range", ""]


def test_a_request_the_translator_refuses_is_refused_not_given_back():
    def refused(sentences):
        raise ValueError("beam must be at most 64")

    with pytest.raises(ValueError, match="beam"):
        each_or_as_it_came(refused, ["Hallo.", "Tschüss."])


def test_the_command_line_writes_every_line_and_names_the_one_it_could_not_translate(
    monkeypatch, capsys
):
    from translator_app import cli

    def load(args):  # the bundled model's translator, its decoder scripted
        args.glossary_terms = None
        return scripted_translator(_breaks_on("kaputt"))

    monkeypatch.setattr(cli, "_load", load)
    code = cli.main(["translate", "Guten Morgen!\nDas ist kaputt.\nDanke."])
    out, err = capsys.readouterr()
    assert code == 0 and out.split("\n")[:3] == ["Good morning!", "Das ist kaputt.", "Thanks."]
    assert "line 2: 'Das ist kaputt.' could not be translated (IndexError" in err
    assert "Traceback" not in err


def test_a_long_document_says_how_far_it_is_and_comes_out_the_same():
    """A .docx of 90,000 paragraphs showed nothing for minutes: the sentences are
    translated a part at a time, each part reported, and the document is the same."""
    translator = scripted_translator(lambda source: [Written(f"Line {source[-3:]}", -1.0)])
    text = "\n".join(f"Das ist Satz {i:03d}" for i in range(150))
    said = []
    parted = translator.translate_document(text, lambda done, total: said.append((done, total)))
    assert said == [(64, 150), (128, 150), (150, 150)]
    assert parted.output == translator.translate_document(text).output
    assert len(parted.output.split("\n")) == 150 and all(t for t in parted.translations)

"""Documents (.docx, .odt, .txt) translated with structure and formatting kept.

A word-for-word stand-in translator (with one reordered sentence and exact one-hot
attention) makes the expected English and the alignment known, so the tests check what
the document code does with them: which English words are bold, which paragraph is a
heading, a list item or a table cell, what stays where it stood."""

from __future__ import annotations

import re
import zipfile
from dataclasses import replace

import numpy as np
import pytest
from docx import Document
from docx.enum.text import WD_BREAK

from translator_app.core.documents import DocumentError, open_document, translate_file
from translator_app.core.documents.styled import Stretch, stretches_text, styled_english
from translator_app.core.engine.text_document import translate_document
from translator_app.core.engine.translation import Candidate, Translation

WORDS = {
    "das": "this",
    "ist": "is",
    "sehr": "very",
    "wichtig": "important",
    "einleitung": "introduction",
    "ein": "an",
    "apfel": "apple",
    "rot": "red",
    "grün": "green",
    "ich": "I",
    "habe": "have",
    "ihn": "him",
    "gesehen": "seen",
    "seite": "page",
    "name": "name",
    "hier": "here",
    "klicken": "click",
}
TOKEN = re.compile(r"\w+|[^\w\s]")


def _fake_translation(sentence: str) -> Translation:
    """Word for word; "X ihn gesehen" becomes "X seen him" (the attention follows)."""
    src = [(m.group(), m.start(), m.end()) for m in TOKEN.finditer(sentence)]
    order = list(range(len(src)))
    words = [w.lower() for w, _, _ in src]
    if "ihn" in words and "gesehen" in words:
        i, j = words.index("ihn"), words.index("gesehen")
        order[i], order[j] = order[j], order[i]
    text, spans = "", []
    for k in order:
        w = src[k][0]
        out = WORDS.get(w.lower(), w)
        if w[0].isupper() and k == 0:
            out = out[0].upper() + out[1:]
        if text and out not in ".,!?:;":
            text += " "
        spans.append((len(text), len(text) + len(out)))
        text += out
    att = np.zeros((len(order) + 1, len(src) + 1), np.float32)
    for row, k in enumerate(order):
        att[row, k] = 1.0
    att[-1, -1] = 1.0
    n = len(order)
    cand = Candidate(
        text, tuple(range(n + 1)), ("x",) * n + ("</s>",), (*spans, (len(text), len(text))),
        att, 0.0, 0.0,
    )  # fmt: skip
    return Translation(
        sentence,
        tuple(range(len(src) + 1)),
        tuple(w for w, _, _ in src) + ("</s>",),
        tuple((a, b) for _, a, b in src) + ((len(sentence), len(sentence)),),
        (cand,),
    )


def fake_translate_text(text: str):
    return translate_document(text, lambda sentences: [_fake_translation(s) for s in sentences])


# ------------------------------------------------------------------ formatting transfer
def test_a_bold_word_stays_bold_and_follows_its_word_when_reordered():
    bold, plain = 1, 0
    stretches = [
        Stretch.of([("Das ist ", plain), ("sehr", bold), (" wichtig.", plain)]),
        Stretch.of([("Ich habe ", plain), ("ihn", bold), (" gesehen.", plain)]),
        Stretch.of([("  * * *  ", plain)]),  # no letter, no digit: kept as it is
    ]
    english = styled_english(stretches, fake_translate_text(stretches_text(stretches)))
    assert english[0] == [("This is ", plain), ("very", bold), (" important.", plain)]
    assert english[1] == [("I have seen ", plain), ("him", bold), (".", plain)]
    assert english[2] == [("  * * *  ", plain)]


def test_a_bold_word_reaches_the_english_that_attended_to_it_most():
    """The other direction of the alignment: „Kaffee“ is bold; "coffee" looked at
    „trinke“ 0.48 and „Kaffee“ 0.47 (the v16 bundle), and lost the bold by the row's
    argmax alone; it is the English that „Kaffee“ was looked at by most, so it is bold."""
    bold, plain = 1, 0
    t = _fake_translation("Ich trinke gern Kaffee")  # "I trinke gern Kaffee": word for word
    att = np.array(
        [  # Ich trinke gern Kaffee </s>
            [0.56, 0.04, 0.11, 0.02, 0.27],  # I
            [0.02, 0.05, 0.76, 0.01, 0.16],  # trinke (the model's "like")
            [0.01, 0.05, 0.01, 0.02, 0.91],  # gern
            [0.01, 0.48, 0.01, 0.47, 0.03],  # Kaffee (the model's "coffee")
            [0.01, 0.48, 0.07, 0.10, 0.34],  # </s>
        ],
        np.float32,
    )
    t = replace(t, nbest=(replace(t.best, attention=att),))
    doc = translate_document("Ich trinke gern Kaffee", lambda sentences: [t])
    stretches = [Stretch.of([("Ich trinke gern ", plain), ("Kaffee", bold)])]
    (english,) = styled_english(stretches, doc)
    assert english == [("I trinke gern ", plain), ("Kaffee", bold)]


def test_one_style_throughout_needs_no_alignment():
    stretches = [Stretch.of([("Das ist wichtig.", 7)])]
    english = styled_english(stretches, fake_translate_text(stretches_text(stretches)))
    assert english == [[("This is important.", 7)]]


def test_an_edited_line_keeps_its_paragraph_and_main_style():
    """The window lets the user edit the German: a changed line loses its inline
    formatting (there is no telling where it went) but keeps the paragraph's style."""
    bold, plain = 1, 0
    stretches = [Stretch.of([("Das ist ", plain), ("sehr", bold), (" wichtig, ja.", plain)])]
    english = styled_english(stretches, fake_translate_text("Das ist rot."))
    assert english == [[("This is red.", plain)]]
    # The user's corrected English, line for line: a changed line is the user's.
    two = stretches * 2
    doc = fake_translate_text(stretches_text(two))
    english = styled_english(two, doc, "This is very important, ja.\nThat matters.")
    assert english[0] == [("This is ", plain), ("very", bold), (" important, ja.", plain)]
    assert english[1] == [("That matters.", plain)]
    with pytest.raises(ValueError, match="1 lines of English for 2 stretches"):
        styled_english(two, doc, "One line")
    with pytest.raises(ValueError, match="2 lines of text for 1 stretches"):
        styled_english(stretches, fake_translate_text("Das ist rot.\nRot"))


# ------------------------------------------------------------------ .docx
def _docx(path):
    d = Document()
    d.add_heading("Einleitung", level=1)
    p = d.add_paragraph("Das ist ")
    p.add_run("sehr").bold = True
    p.add_run(" wichtig.")
    d.add_paragraph("Ein Apfel", style="List Bullet")
    p = d.add_paragraph()
    p.add_run("Ich habe ")
    p.add_run("ihn").italic = True
    p.add_run(" gesehen.")
    p.add_run().add_break(WD_BREAK.LINE)
    p.add_run("Das ist rot.")
    table = d.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "Rot"
    table.cell(0, 1).text = "Grün"
    d.add_paragraph("* * *")
    d.sections[0].header.paragraphs[0].text = "Seite"
    d.save(str(path))
    return path


def test_docx_round_trip_keeps_structure_and_formatting(tmp_path):
    source = _docx(tmp_path / "brief.docx")
    target = tmp_path / "letter.docx"
    translate_file(source, target, fake_translate_text)
    d = Document(str(target))
    paras = d.paragraphs
    assert paras[0].text == "Introduction" and paras[0].style.name == "Heading 1"
    assert paras[1].text == "This is very important."
    assert [(r.text, bool(r.bold)) for r in paras[1].runs] == [
        ("This is ", False),
        ("very", True),
        (" important.", False),
    ]
    assert paras[2].text == "An apple" and paras[2].style.name == "List Bullet"
    # The line break stays between the two sentences; the italic follows "ihn" -> "him".
    assert paras[3].text == "I have seen him.\nThis is red."
    assert [r.text for r in paras[3].runs if r.italic] == ["him"]
    assert [c.text for c in d.tables[0].rows[0].cells] == ["Red", "Green"]
    assert paras[4].text == "* * *"
    assert d.sections[0].header.paragraphs[0].text == "Page"


def test_docx_without_text_and_a_hyperlink(tmp_path):
    """A hyperlink's text is translated inside the link; its target stays."""
    d = Document()
    p = d.add_paragraph("Klicken ")
    part = d.part
    r_id = part.relate_to("https://example.org", "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink", is_external=True)  # fmt: skip
    link = p._p.makeelement("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}hyperlink", {"{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id": r_id})  # fmt: skip
    run = p.add_run("hier")._r
    link.append(run)
    p._p.append(link)
    d.save(str(tmp_path / "l.docx"))
    translate_file(tmp_path / "l.docx", tmp_path / "o.docx", fake_translate_text)
    out = Document(str(tmp_path / "o.docx")).paragraphs[0]
    links = out._p.findall(
        "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}hyperlink"
    )
    w_t = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}t"
    assert len(links) == 1 and [t.text for t in links[0].iter(w_t)] == ["here"]
    assert [t.text for t in out._p.iter(w_t)] == ["Click ", "here"]


# ------------------------------------------------------------------ .odt
def _odt(path):
    from odf.opendocument import OpenDocumentText
    from odf.style import Style, TextProperties
    from odf.table import Table, TableCell, TableColumn, TableRow
    from odf.text import H, List, ListItem, P, S, Span

    doc = OpenDocumentText()
    bold = Style(name="Bold", family="text")
    bold.addElement(TextProperties(fontweight="bold"))
    doc.automaticstyles.addElement(bold)
    doc.text.addElement(H(outlinelevel=1, text="Einleitung"))
    p = P(text="Das ist ")
    p.addElement(Span(stylename=bold, text="sehr"))
    p.addText(" wichtig.")
    doc.text.addElement(p)
    items = List()
    item = ListItem()
    item.addElement(P(text="Ein Apfel"))
    items.addElement(item)
    doc.text.addElement(items)
    table = Table(name="T")
    table.addElement(TableColumn(numbercolumnsrepeated=2))
    row = TableRow()
    for word in ("Rot", "Grün"):
        cell = TableCell()
        cell.addElement(P(text=word))
        row.addElement(cell)
    table.addElement(row)
    doc.text.addElement(table)
    p = P(text="Ich habe")
    p.addElement(S())
    p.addText("ihn gesehen.")
    doc.text.addElement(p)
    doc.save(str(path))
    return path


def test_odt_round_trip_keeps_structure_and_formatting(tmp_path):
    from odf import teletype
    from odf.namespaces import TEXTNS
    from odf.opendocument import load
    from odf.table import TableCell
    from odf.text import H, ListItem, P, Span

    translate_file(_odt(tmp_path / "brief.odt"), tmp_path / "letter.odt", fake_translate_text)
    doc = load(str(tmp_path / "letter.odt"))
    heading = doc.getElementsByType(H)[0]
    assert teletype.extractText(heading) == "Introduction"
    assert heading.getAttrNS(TEXTNS, "outline-level") == "1"
    body = [teletype.extractText(p) for p in doc.text.getElementsByType(P)]
    assert "This is very important." in body
    spans = doc.getElementsByType(Span)
    assert [(teletype.extractText(s), s.getAttrNS(TEXTNS, "style-name")) for s in spans] == [
        ("very", "Bold")
    ]
    item = doc.getElementsByType(ListItem)[0]
    assert teletype.extractText(item) == "An apple"
    cells = [teletype.extractText(c) for c in doc.getElementsByType(TableCell)]
    assert cells == ["Red", "Green"]
    assert "I have seen him." in body  # the two spaces (text:s) were read as text


# ------------------------------------------------------------------ bad files, plain text
def test_bad_documents_are_one_clear_error_naming_the_file(tmp_path):
    fake = tmp_path / "kaputt.docx"
    fake.write_text("not a zip")
    with pytest.raises(DocumentError, match=r"kaputt\.docx: not a \.docx document"):
        open_document(fake)
    empty_zip = tmp_path / "leer.odt"
    with zipfile.ZipFile(empty_zip, "w") as z:
        z.writestr("x.txt", "x")
    with pytest.raises(DocumentError, match=r"leer\.odt: not a readable \.odt document"):
        open_document(empty_zip)
    bomb = tmp_path / "bomb.docx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("word/document.xml", b"\0" * 210_000_000)
    with pytest.raises(DocumentError, match="unpacks to 210 MB.*refused"):
        open_document(bomb)
    with pytest.raises(DocumentError, match="saved as .docx"):
        translate_file(_docx(tmp_path / "a.docx"), tmp_path / "a.txt", fake_translate_text)
    assert not (tmp_path / "a.txt").exists()


def test_an_odt_without_its_content_is_refused_not_written_empty(tmp_path):
    """An .odt whose content.xml is gone was written as an empty document with exit 0
    ("wrote … (0 sentences)", issue 86 §2)."""
    whole = _odt(tmp_path / "whole.odt")
    gutted = tmp_path / "gutted.odt"
    with zipfile.ZipFile(whole) as src, zipfile.ZipFile(gutted, "w") as dst:
        for item in src.infolist():
            if item.filename != "content.xml":
                dst.writestr(item, src.read(item.filename))
    with pytest.raises(DocumentError, match=r"gutted\.odt: .*no content\.xml"):
        translate_file(gutted, tmp_path / "out.odt", fake_translate_text)
    assert not (tmp_path / "out.odt").exists()
    translate_file(whole, tmp_path / "whole.en.odt", fake_translate_text)  # the rest reads


def test_a_document_without_text_is_written_unchanged(tmp_path):
    d = Document()
    d.add_paragraph("* * *")
    d.save(str(tmp_path / "leer.docx"))
    translate_file(tmp_path / "leer.docx", tmp_path / "empty.docx", fake_translate_text)
    assert [p.text for p in Document(str(tmp_path / "empty.docx")).paragraphs] == ["* * *"]


def test_plain_text_file(tmp_path):
    (tmp_path / "in.txt").write_bytes("\ufeffDas ist sehr wichtig.\r\n\r\nEin Apfel\r\n".encode())
    translate_file(tmp_path / "in.txt", tmp_path / "out.txt", fake_translate_text)
    assert (tmp_path / "out.txt").read_text("utf-8") == ("This is very important.\n\nAn apple\n\n")
    (tmp_path / "bad.txt").write_bytes(b"Gr\xfcn")
    with pytest.raises(DocumentError, match=r"bad\.txt: not UTF-8 text \(byte 2\)"):
        translate_file(tmp_path / "bad.txt", tmp_path / "o.txt", fake_translate_text)


def test_the_closing_mark_keeps_the_germans_style():
    """„Das ist **sehr wichtig**.“: bold is the stretch's main style, and the English's
    full stop took it (issue 89 §5: a bold run and the mark after it); it is plain as
    in the German, and a mark the German closes with in bold stays bold."""
    bold, plain = 1, 0
    stretches = [
        Stretch.of([("Das ist ", plain), ("sehr wichtig", bold), (".", plain)]),
        Stretch.of([("Das ist ", plain), ("sehr wichtig!", bold)]),
    ]
    english = styled_english(stretches, fake_translate_text(stretches_text(stretches)))
    # (the space before a word in the stretch's main style takes that style)
    assert english[0] == [("This is", plain), (" very important", bold), (".", plain)]
    assert english[1] == [("This is", plain), (" very important!", bold)]

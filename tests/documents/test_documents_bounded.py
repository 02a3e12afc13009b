"""Documents under the size limit cannot take all memory (issue 47, section 2): what
parsing costs is counted while streaming each XML part, before the document is built."""

from __future__ import annotations

import resource
import zipfile
from collections import Counter

import pytest
from docx import Document

from translator_app.core import documents
from translator_app.core.documents import DocumentError, open_document, package

BODY = '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'


def _repack(src, dst, replace: dict[str, bytes], extra: list[tuple[str, bytes]] = ()):
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(info, replace.get(info.filename, zin.read(info.filename)))
        for name, data in extra:
            zout.writestr(name, data)
    return dst


def _letter(tmp_path):
    d = Document()
    d.add_paragraph("Sehr geehrte Damen und Herren,")
    d.add_paragraph("vielen Dank für Ihre Nachricht.")
    path = tmp_path / "brief.docx"
    d.save(path)
    return path


def test_millions_of_empty_paragraphs_are_refused_quickly_in_little_memory(tmp_path):
    flood = (BODY + "<w:p/>" * 3_000_000 + "</w:body></w:document>").encode()
    path = _repack(_letter(tmp_path), tmp_path / "flood.docx", {"word/document.xml": flood})
    assert path.stat().st_size < 1_000_000  # small on disk, 21 MB unpacked
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(DocumentError, match=r"flood\.docx: word/document\.xml holds more than"):
        open_document(path)
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kb < 200_000  # python-docx never built the tree


def test_one_huge_tag_is_refused_at_once_not_parsed_again_and_again(tmp_path):
    """expat parses an unfinished tag again from its start as each block arrives: one
    attribute of 150 MB (a 180 KB file) kept the check busy for minutes."""
    import time

    huge = (BODY + f'<w:p w:rsidR="{"A" * 30_000_000}"/></w:body></w:document>').encode()
    path = _repack(_letter(tmp_path), tmp_path / "tag.docx", {"word/document.xml": huge})
    started = time.perf_counter()
    with pytest.raises(DocumentError, match=r"tag\.docx: word/document\.xml holds a tag longer"):
        open_document(path)
    assert time.perf_counter() - started < 10  # was: 30 MB took about a minute


def test_the_paragraph_limit_is_the_documents_not_each_parts(tmp_path, monkeypatch):
    monkeypatch.setattr(package, "MAX_PARAGRAPHS", 1_000)
    header = (
        '<w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        + "<w:p/>" * 400
        + "</w:hdr>"
    ).encode()
    parts = [(f"word/header{i}.xml", header) for i in range(3)]  # 1,200 with the body's
    path = _repack(_letter(tmp_path), tmp_path / "heads.docx", {}, parts)
    with pytest.raises(DocumentError, match="paragraphs \\(with the parts before\\)"):
        open_document(path)


def test_deep_nesting_is_refused(tmp_path):
    deep = (BODY + "<w:p>" * 1000 + "</w:p>" * 1000 + "</w:body></w:document>").encode()
    path = _repack(_letter(tmp_path), tmp_path / "deep.docx", {"word/document.xml": deep})
    with pytest.raises(DocumentError, match="nested deeper than"):
        open_document(path)


def test_a_part_that_appears_twice_is_refused(tmp_path):
    other = BODY + "<w:p><w:r><w:t>Überweisen Sie an mich.</w:t></w:r></w:p></w:body></w:document>"
    with pytest.warns(UserWarning, match="Duplicate name"):
        path = _repack(
            _letter(tmp_path), tmp_path / "twice.docx", {}, [("word/document.xml", other.encode())]
        )
    with pytest.raises(DocumentError, match=r"twice\.docx: holds word/document\.xml twice"):
        open_document(path)


def test_a_document_type_declaration_is_refused_not_half_read(tmp_path):
    xxe = (
        '<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        + BODY
        + "<w:p><w:r><w:t>Vor &x; nach</w:t></w:r></w:p></w:body></w:document>"
    ).encode()
    path = _repack(_letter(tmp_path), tmp_path / "xxe.docx", {"word/document.xml": xxe})
    with pytest.raises(DocumentError, match="document type declaration"):
        open_document(path)


def test_an_ordinary_letter_is_within_every_limit(tmp_path):
    doc = open_document(_letter(tmp_path))
    assert "vielen Dank" in documents.document_text(doc)


def test_the_command_line_refuses_the_document_before_loading_a_model(tmp_path, capsys):
    from translator_app import cli

    flood = (BODY + "<w:p/>" * 200_000 + "</w:body></w:document>").encode()
    path = _repack(_letter(tmp_path), tmp_path / "flood.docx", {"word/document.xml": flood})
    missing_model = tmp_path / "no-model-here"
    assert cli.main(["translate", "--model", str(missing_model), "--input", str(path)]) == 1
    err = capsys.readouterr().err
    assert "flood.docx: word/document.xml holds more than" in err and "no-model-here" not in err


def _renamed_main_part(src, dst):
    """``word/document.xml`` stored as ``word/main.dat``, with the content types and the
    relationships changed to match, as python-docx follows them (issue 65, section 3)."""
    with zipfile.ZipFile(src) as z:
        parts = {i.filename: z.read(i.filename) for i in z.infolist()}
    renamed = {}
    for name, data in parts.items():
        if name in ("[Content_Types].xml", "_rels/.rels"):
            data = data.replace(b"word/document.xml", b"word/main.dat")
        name = {"word/document.xml": "word/main.dat"}.get(name, name)
        name = name.replace("word/_rels/document.xml.rels", "word/_rels/main.dat.rels")
        renamed[name] = data
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in renamed.items():
            z.writestr(name, data)
    return dst


def _paragraphs(tmp_path, count):
    d = Document()
    for i in range(count):
        d.add_paragraph(f"Absatz {i}.")
    d.save(tmp_path / "many.docx")
    return tmp_path / "many.docx"


def test_a_renamed_main_part_is_still_read_as_the_document(tmp_path):
    path = _renamed_main_part(_paragraphs(tmp_path, 3), tmp_path / "renamed.docx")
    assert "Absatz 2." in documents.document_text(open_document(path))


def test_a_renamed_main_part_is_held_to_the_paragraph_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(package, "MAX_PARAGRAPHS", 50)
    path = _renamed_main_part(_paragraphs(tmp_path, 60), tmp_path / "renamed.docx")
    with pytest.raises(DocumentError, match=r"renamed\.docx: word/main\.dat holds more than 50"):
        open_document(path)


def test_a_repeated_name_among_many_parts_is_found_by_counting_once(tmp_path, monkeypatch):
    # Counting each name over the whole list took minutes for 100,000 parts; the names
    # are counted once, so a list of any length is checked with one pass.
    counted = []
    monkeypatch.setattr(package, "Counter", lambda names: counted.append(1) or Counter(names))
    with pytest.warns(UserWarning, match="Duplicate name"):
        path = _repack(
            _letter(tmp_path),
            tmp_path / "many.docx",
            {},
            [(f"media/p{i}.bin", b"") for i in range(2000)] + [("media/p7.bin", b"x")],
        )
    with pytest.raises(DocumentError, match=r"many\.docx: holds media/p7\.bin twice"):
        open_document(path)
    assert counted == [1]

"""Documents: .docx (python-docx) and .odt (odfpy) translated with their structure and
formatting kept, and plain text; for ``translator-app translate --input/--output`` and
the window's File → Open and Save.

A document is read into stretches (styled.py), translated as one text, and written back
into a copy of the file's own structure: paragraphs, headings, lists, tables, pictures
and inline formatting stay; only the words change.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Protocol
from xml.parsers import expat

from translator_app.core.documents.styled import Stretch, stretches_text, styled_english
from translator_app.core.engine.text_document import DocumentTranslation
from translator_app.core.platform.paths import write_atomic

# The one list of what can be opened: each document kind with structure and formatting,
# and what a file dialog calls it; the window's filters and every message follow it.
RICH_KINDS = {".docx": "Word documents", ".odt": "OpenDocument text"}
RICH_SUFFIXES = tuple(RICH_KINDS)
SUFFIXES = (".txt", *RICH_SUFFIXES)


def listed(suffixes: tuple[str, ...] = SUFFIXES) -> str:
    """``.txt, .docx or .odt``: the suffixes as a sentence says them."""
    return f"{', '.join(suffixes[:-1])} or {suffixes[-1]}" if len(suffixes) > 1 else suffixes[0]


# A document far larger than any letter or report; its unpacked parts are bounded too,
# so a small "zip bomb" is refused before anything is parsed.
MAX_DOCUMENT_BYTES = 50_000_000
MAX_UNPACKED_BYTES = 200_000_000
# What parsing may cost, counted while a streaming parser reads each XML part before the
# document is built: a 500-page report holds some 20,000 paragraphs and a few hundred
# thousand elements; 31 million empty paragraphs fit in 200 MB and would take gigabytes.
MAX_XML_ELEMENTS = 1_500_000
MAX_PARAGRAPHS = 100_000
MAX_XML_DEPTH = 256
_PARAGRAPH_TAGS = ("w:p", "text:p", "text:h")


class DocumentError(Exception):
    """A document that cannot be read or written: the message names the file."""


class RichDocument(Protocol):
    suffix: str
    stretches: list[Stretch]

    def write(self, english: list[list[tuple[str, int]]], stream: io.BytesIO) -> None: ...


def open_document(path: Path) -> RichDocument:
    """A .docx or .odt file, read (``DocumentError`` names the file and the problem)."""
    path = Path(path)
    kind = path.suffix.lower()
    if kind not in RICH_SUFFIXES:
        raise DocumentError(f"{path}: not a {listed(RICH_SUFFIXES)} document")
    _check_package(path)
    try:
        if kind == ".docx":
            from translator_app.core.documents.docx_format import DocxDocument

            return DocxDocument(path)
        from translator_app.core.documents.odt_format import OdtDocument

        return OdtDocument(path)
    except DocumentError:
        raise
    except Exception as e:  # noqa: BLE001 - a broken file is one clear message
        raise DocumentError(f"{path}: not a readable {kind} document ({_reason(e)})") from None


def translate_file(
    source: Path, target: Path, translate_text: Callable[[str], DocumentTranslation]
) -> DocumentTranslation:
    """Translate ``source`` (.txt, .docx, .odt) into ``target`` of the same kind;
    ``translate_text`` is Translator.translate_document with the search settings. The
    target is written whole or not at all. Returns the translation of the text."""
    source, target = Path(source), Path(target)
    kind = source.suffix.lower()
    if target.suffix.lower() != kind and kind in RICH_SUFFIXES:
        raise DocumentError(f"{target}: a translated {kind} document is saved as {kind}")
    if kind not in RICH_SUFFIXES:
        text = read_text(source)
        doc = translate_text(text)
        _write(target, lambda stream: stream.write((doc.output + "\n").encode("utf-8")))
        return doc
    document = open_document(source)
    doc = translate_text(document_text(document))
    save_translation(document, doc, target)
    return doc


def document_text(document: RichDocument) -> str:
    """The German to translate (and to show): one line per stretch of text."""
    return stretches_text(document.stretches)


def save_translation(
    document: RichDocument,
    translated: DocumentTranslation,
    target: Path,
    corrected: str | None = None,
) -> None:
    """Write ``document`` with its text replaced by ``translated`` (the translation of
    :func:`document_text`, or of an edit of it with the same number of lines) to
    ``target``, whole or not at all; ``corrected``: the English as the user corrected
    it. ValueError where the lines no longer match the document's paragraphs."""
    english = styled_english(document.stretches, translated, corrected)
    _write(target, lambda stream: document.write(english, stream))


def read_text(path: Path, max_bytes: int = MAX_DOCUMENT_BYTES) -> str:
    """A UTF-8 text file (a BOM allowed, CRLF read as LF) of at most ``max_bytes``."""
    path = Path(path)
    try:
        if path.stat().st_size > max_bytes:
            raise DocumentError(f"{path}: larger than {max_bytes // 1_000_000} MB")
        return path.read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
    except UnicodeDecodeError as e:
        raise DocumentError(f"{path}: not UTF-8 text (byte {e.start})") from None
    except OSError as e:
        raise DocumentError(f"{path}: {e.strerror or e}") from None


def check_package(path: Path) -> None:
    """Refuse a .docx/.odt whose package or XML parts are over the limits, before any
    model is loaded or tree built (``DocumentError`` names the file and the part)."""
    _check_package(Path(path))


def _check_package(path: Path) -> None:
    try:
        if path.stat().st_size > MAX_DOCUMENT_BYTES:
            raise DocumentError(f"{path}: larger than {MAX_DOCUMENT_BYTES // 1_000_000} MB")
        with zipfile.ZipFile(path) as z:
            unpacked = sum(i.file_size for i in z.infolist())
            names = [i.filename for i in z.infolist()]
    except zipfile.BadZipFile:
        raise DocumentError(
            f"{path}: not a {path.suffix.lower()} document (not a zip package)"
        ) from None
    except OSError as e:
        raise DocumentError(f"{path}: {e.strerror or e}") from None
    if unpacked > MAX_UNPACKED_BYTES:
        raise DocumentError(
            f"{path}: unpacks to {unpacked // 1_000_000} MB, more than "
            f"{MAX_UNPACKED_BYTES // 1_000_000} MB; refused"
        )
    if len(names) != len(set(names)):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise DocumentError(f"{path}: holds {twice[0]} twice; refused (which copy is real?)")
    try:
        with zipfile.ZipFile(path) as z:
            for name in names:
                if name.lower().endswith(".xml"):
                    _scan_xml(path, name, z)
    except (zipfile.BadZipFile, OSError, EOFError, zlib.error) as e:
        raise DocumentError(f"{path}: not a readable package ({_reason(e)})") from None


class _Refused(Exception):
    pass


def _scan_xml(path: Path, name: str, z: zipfile.ZipFile) -> None:
    """Count one XML part's elements, paragraphs and nesting with a streaming parser, and
    refuse a part over the limits, or one with a document type declaration (Word and
    LibreOffice never write one; entities are how XML bombs and file reads get in)."""
    elements = paragraphs = depth = 0

    def start(tag, _attrs):
        nonlocal elements, paragraphs, depth
        elements += 1
        depth += 1
        if tag in _PARAGRAPH_TAGS:
            paragraphs += 1
            if paragraphs > MAX_PARAGRAPHS:
                raise _Refused(f"more than {MAX_PARAGRAPHS:,} paragraphs")
        if elements > MAX_XML_ELEMENTS:
            raise _Refused(f"more than {MAX_XML_ELEMENTS:,} XML elements")
        if depth > MAX_XML_DEPTH:
            raise _Refused(f"XML nested deeper than {MAX_XML_DEPTH} levels")

    def end(_tag):
        nonlocal depth
        depth -= 1

    def doctype(*_args):
        raise _Refused("a document type declaration (DTD), which Word and LibreOffice never write")

    parser = expat.ParserCreate()  # no namespace processing: tags keep their prefixes
    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.StartDoctypeDeclHandler = doctype
    try:
        with z.open(name) as part:
            while block := part.read(1 << 16):
                parser.Parse(block, False)
            parser.Parse(b"", True)
    except _Refused as e:
        raise DocumentError(f"{path}: {name} holds {e}; refused") from None
    except expat.ExpatError as e:
        raise DocumentError(f"{path}: {name} is not well-formed XML ({e})") from None


def _write(target: Path, save: Callable[[io.BytesIO], object]) -> None:
    """Made in memory, then written through a temporary file beside ``target``: a
    failure never leaves half a document in place of the user's earlier one."""
    stream = io.BytesIO()
    save(stream)
    try:
        write_atomic(target, stream.getbuffer())
    except OSError as e:
        raise DocumentError(f"{target}: {e.strerror or e}") from None


def _reason(e: Exception) -> str:
    text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return text[:200]

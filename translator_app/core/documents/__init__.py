"""Documents: .docx (python-docx) and .odt (odfpy) translated with their structure and
formatting kept, and plain text; for ``translator-app translate --input/--output`` and
the window's File → Open and Save.

A document is read into stretches (styled.py), translated as one text, and written back
into a copy of the file's own structure: paragraphs, headings, lists, tables, pictures
and inline formatting stay; only the words change.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from translator_app.core.documents.package import (
    MAX_DOCUMENT_BYTES,
    DocumentError,
    check_package,
    check_regular,
    reason,
)
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
    check_package(path)
    try:
        if kind == ".docx":
            from translator_app.core.documents.docx_format import DocxDocument

            return DocxDocument(path)
        from translator_app.core.documents.odt_format import OdtDocument

        return OdtDocument(path)
    except DocumentError:
        raise
    except Exception as e:  # noqa: BLE001 - a broken file is one clear message
        raise DocumentError(f"{path}: not a readable {kind} document ({reason(e)})") from None


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
    """A UTF-8 text file (a BOM allowed, CRLF read as LF) of at most ``max_bytes``: a
    regular file, read no further than its limit."""
    path = Path(path)
    check_regular(path)
    try:
        with open(path, "rb") as f:
            data = f.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise DocumentError(f"{path}: larger than {max_bytes // 1_000_000} MB")
        return data.decode("utf-8-sig").replace("\r\n", "\n")
    except UnicodeDecodeError as e:
        raise DocumentError(f"{path}: not UTF-8 text (byte {e.start})") from None
    except OSError as e:
        raise DocumentError(f"{path}: {e.strerror or e}") from None


def _write(target: Path, save: Callable[[io.BytesIO], object]) -> None:
    """Made in memory, then written through a temporary file beside ``target``: a
    failure never leaves half a document in place of the user's earlier one."""
    stream = io.BytesIO()
    save(stream)
    try:
        write_atomic(target, stream.getbuffer())
    except OSError as e:
        raise DocumentError(f"{target}: {e.strerror or e}") from None

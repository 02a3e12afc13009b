"""The limits a .docx or .odt package is checked against before anything parses it.

Which parts are checked follows what the readers parse, not the file names alone: every
part named ``.xml`` or ``.rels``, and every part that ``[Content_Types].xml`` declares as
XML (python-docx chooses how to read a part by its declared content type, so a main
document renamed ``word/main.dat`` is still parsed as XML and is checked as XML).
"""

from __future__ import annotations

import zipfile
import zlib
from collections import Counter
from pathlib import Path
from xml.parsers import expat

from translator_app.core.platform.paths import special_file

# A document far larger than any letter or report; its unpacked parts are bounded too,
# so a small "zip bomb" is refused before anything is parsed.
MAX_DOCUMENT_BYTES = 50_000_000
MAX_UNPACKED_BYTES = 200_000_000
# What parsing may cost, counted while a streaming parser reads each XML part before the
# document is built: a 500-page report holds some 20,000 paragraphs and a few hundred
# thousand elements; 31 million empty paragraphs fit in 200 MB and would take gigabytes.
MAX_XML_ELEMENTS = 1_500_000
MAX_PARAGRAPHS = 100_000  # in the whole document: its body, headers, footers, notes
MAX_XML_DEPTH = 256
# The longest stretch of XML with no tag, end tag or text in it: one tag with its
# attributes. Word writes tags of a few hundred bytes; expat (2.5) parses again from the
# start of an unfinished tag each time more arrives, so one tag of 150 MB took minutes.
MAX_TAG_BYTES = 4_000_000
_PARAGRAPH_TAGS = ("w:p", "text:p", "text:h")
_CONTENT_TYPES = "[Content_Types].xml"


class DocumentError(Exception):
    """A document that cannot be read or written: the message names the file."""


def check_regular(path: Path) -> None:
    """Refuse what is no regular file once its links are followed: a named pipe would
    hang the reader, a device (/dev/zero) never ends (``DocumentError`` names it)."""
    try:
        if special_file(path):
            raise DocumentError(f"{path}: not a regular file (a pipe, a device or a folder)")
    except OSError as e:
        raise DocumentError(f"{path}: {e.strerror or e}") from None


def check_package(path: Path) -> None:
    """Refuse a .docx/.odt whose package or XML parts are over the limits, before any
    model is loaded or tree built (``DocumentError`` names the file and the part)."""
    path = Path(path)
    check_regular(path)
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
    if path.suffix.lower() == ".odt" and "content.xml" not in names:
        # OpenDocument names its text part so; odfpy reads the package as an empty text
        raise DocumentError(f"{path}: not a readable .odt document (it holds no content.xml)")
    twice = sorted(name for name, count in Counter(names).items() if count > 1)
    if twice:
        raise DocumentError(f"{path}: holds {twice[0]} twice; refused (which copy is real?)")
    try:
        with zipfile.ZipFile(path) as z:
            counts = Counter()  # elements and paragraphs of every part so far
            for name in _xml_parts(path, names, z):
                _scan_xml(path, name, z, counts)
    except (zipfile.BadZipFile, OSError, EOFError, zlib.error) as e:
        raise DocumentError(f"{path}: not a readable package ({reason(e)})") from None


def reason(e: Exception) -> str:
    """The first line of an exception's message (its class name if it has none)."""
    text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return text[:200]


def _xml_parts(path: Path, names: list[str], z: zipfile.ZipFile) -> list[str]:
    """The parts a reader will parse as XML: by name, and by declared content type
    (``[Content_Types].xml`` is scanned first, so reading it is itself bounded)."""
    by_name = [n for n in names if n.lower().endswith((".xml", ".rels"))]
    if _CONTENT_TYPES not in names:
        return by_name
    _scan_xml(path, _CONTENT_TYPES, z, Counter())
    defaults, overrides = _content_types(z.read(_CONTENT_TYPES))
    declared = []
    for name in names:
        kind = overrides.get("/" + name.lower()) or defaults.get(Path(name).suffix[1:].lower())
        # Pictures (SVG is image/svg+xml) are kept as bytes, never parsed.
        if kind and kind.endswith("xml") and not kind.startswith("image/"):
            declared.append(name)
    return [_CONTENT_TYPES] + [n for n in dict.fromkeys(by_name + declared) if n != _CONTENT_TYPES]


def _content_types(xml: bytes) -> tuple[dict[str, str], dict[str, str]]:
    """``[Content_Types].xml`` read: content type by extension, and by part name."""
    defaults: dict[str, str] = {}
    overrides: dict[str, str] = {}

    def start(tag, attrs):
        local = tag.rsplit(":", 1)[-1]
        kind = attrs.get("ContentType", "").lower()
        if local == "Default" and "Extension" in attrs:
            defaults[attrs["Extension"].lower()] = kind
        elif local == "Override" and "PartName" in attrs:
            overrides[attrs["PartName"].lower()] = kind

    parser = expat.ParserCreate()
    parser.StartElementHandler = start
    parser.Parse(xml, True)  # well-formed and bounded: _scan_xml has read it first
    return defaults, overrides


class _Refused(Exception):
    pass


def _scan_xml(path: Path, name: str, z: zipfile.ZipFile, counts: Counter) -> None:
    """Count one XML part's elements, paragraphs and nesting with a streaming parser, on
    top of ``counts`` (the parts read before: the limits are the document's), and refuse
    a part that goes over them, holds a tag longer than :data:`MAX_TAG_BYTES`, or has a
    document type declaration (Word and LibreOffice never write one; entities are how
    XML bombs and file reads get in)."""
    depth = 0
    unread = 0  # bytes given to the parser since it last reported anything

    def start(tag, _attrs):
        nonlocal depth, unread
        unread = 0
        counts["elements"] += 1
        depth += 1
        if tag in _PARAGRAPH_TAGS:
            counts["paragraphs"] += 1
            if counts["paragraphs"] > MAX_PARAGRAPHS:
                raise _Refused(f"more than {MAX_PARAGRAPHS:,} paragraphs (with the parts before)")
        if counts["elements"] > MAX_XML_ELEMENTS:
            raise _Refused(f"more than {MAX_XML_ELEMENTS:,} XML elements (with the parts before)")
        if depth > MAX_XML_DEPTH:
            raise _Refused(f"XML nested deeper than {MAX_XML_DEPTH} levels")

    def end(_tag):
        nonlocal depth, unread
        depth -= 1
        unread = 0

    def text(_data):
        nonlocal unread
        unread = 0

    def doctype(*_args):
        raise _Refused("a document type declaration (DTD), which Word and LibreOffice never write")

    parser = expat.ParserCreate()  # no namespace processing: tags keep their prefixes
    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.CharacterDataHandler = text
    parser.StartDoctypeDeclHandler = doctype
    try:
        with z.open(name) as part:
            while block := part.read(1 << 16):
                unread += len(block)
                if unread > MAX_TAG_BYTES:
                    raise _Refused(f"a tag longer than {MAX_TAG_BYTES // 1_000_000} MB")
                parser.Parse(block, False)
            parser.Parse(b"", True)
    except _Refused as e:
        raise DocumentError(f"{path}: {name} holds {e}; refused") from None
    except expat.ExpatError as e:
        raise DocumentError(f"{path}: {name} is not well-formed XML ({e})") from None

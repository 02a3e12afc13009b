"""Word documents (.docx) through python-docx: every paragraph of the body, its tables
(nested too), text boxes, headers and footers is translated in place.

What a paragraph is made of decides what is kept:
- its properties (style: heading, list item with its numbering, alignment) are untouched,
  so headings stay headings and lists stay lists;
- text runs become stretches; each run's properties (bold, italic, font, colour, size)
  are its style, and the English runs copy the properties of the German run they align to;
- a tab, a line break, a picture, a field or anything else this module does not know is
  kept where it stands and ends the stretch before it (text on each side is translated
  separately); a hyperlink's text is translated inside the link;
- bookmarks, comment ranges and proofing marks do not split a sentence: they move to the
  start of their stretch. Tracked changes (insertions, deletions) are kept untranslated.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

from docx import Document
from docx.oxml.ns import qn

from translator_app.core.documents.reading import Items, StretchReader, TextItem

P, R, T, RPR, PPR = qn("w:p"), qn("w:r"), qn("w:t"), qn("w:rPr"), qn("w:pPr")
HYPERLINK = qn("w:hyperlink")
# Zero-width marks that may sit between two runs of one sentence.
MARKS = {
    qn(f"w:{n}")
    for n in (
        "bookmarkStart",
        "bookmarkEnd",
        "commentRangeStart",
        "commentRangeEnd",
        "permStart",
        "permEnd",
        "proofErr",
    )
}
# Run children that are layout hints only, rebuilt by Word on the next save.
DROPPED = {qn("w:lastRenderedPageBreak"), qn("w:softHyphen")}


@dataclass(frozen=True)
class _Piece:
    """A run's non-text child (tab, break, picture, field), kept in a run of its own
    with the run's properties. The element itself moves (not a copy): a text box inside
    a picture holds paragraphs of its own that are translated in place."""

    run: object
    part: object


class DocxDocument(StretchReader):
    """A .docx file's paragraphs as stretches, and the way back into the file."""

    suffix = ".docx"

    def __init__(self, path: Path) -> None:
        super().__init__()  # style number -> a w:rPr element
        self.doc = Document(str(path))
        for part in self._parts():
            for p in list(part.iter(P)):
                self._read(p)

    def _parts(self):
        """The body, then each distinct header and footer."""
        yield self.doc.element.body
        seen = set()
        for section in self.doc.sections:
            for hf in (
                section.header,
                section.footer,
                section.first_page_header,
                section.first_page_footer,
                section.even_page_header,
                section.even_page_footer,
            ):
                if not hf.is_linked_to_previous and id(hf.part) not in seen:
                    seen.add(id(hf.part))
                    yield hf._element

    def _read(self, container) -> None:
        items = Items()
        for child in container:
            if child.tag == PPR:
                continue
            if child.tag == R:
                style = self.style_number(child.find(RPR))
                for part in child:
                    if part.tag == RPR or part.tag in DROPPED:
                        continue
                    if part.tag == T:
                        items.text().parts.append((part.text or "", style))
                    elif part.tag == qn("w:noBreakHyphen"):
                        items.text().parts.append(("\u2011", style))
                    else:  # a tab, a break, a picture, a field: kept in a run of its own
                        items.keep(_Piece(child, part))
            elif child.tag in MARKS:
                items.text().marks.append(child)
            else:
                items.keep(child)
                if child.tag == HYPERLINK:
                    self._read(child)  # its own text, translated inside the link
        self.add(container, items)

    def write(self, english: list[list[tuple[str, int]]], stream) -> None:
        """Save with each stretch replaced by its English (text, style) parts."""
        for c in self.containers:
            for child in list(c.element):
                if child.tag != PPR:
                    c.element.remove(child)
            for item in c.items:
                if isinstance(item, _Piece):
                    run = self._run(None, item.run.find(RPR))
                    run.append(item.part)
                    c.element.append(run)
                    continue
                if not isinstance(item, TextItem):
                    c.element.append(item)
                    continue
                for mark in item.marks:
                    c.element.append(mark)
                for text, style in english[item.index]:
                    c.element.append(self._run(text, self.styles[style]))
        self.doc.save(stream)

    def _run(self, text: str | None, rpr):
        """A new run with a copy of ``rpr`` (None: plain) and ``text`` (None: empty)."""
        run = self.doc.element.makeelement(R, {})
        if rpr is not None:
            run.append(copy.deepcopy(rpr))
        if text is None:
            return run
        t = run.makeelement(T, {})
        t.text = text
        t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
        run.append(t)
        return run

"""OpenDocument text (.odt) through odfpy: every paragraph and heading (text:p, text:h)
of the document, in lists, tables, frames and notes too, is translated in place.

As for .docx (docx_format.py): a paragraph's own attributes (its style: heading level,
list membership) are untouched; text and spans (text:span, nested too: bold, italic, a
character style) become a stretch whose style is the chain of spans around each
character, and the English copies the spans of the German it aligns to; a tab, a line
break, a note, a frame or anything unknown is kept where it stands and ends the stretch
before it; a link's text (text:a) is translated inside the link; bookmarks and
reference marks move to the start of their stretch.
"""

from __future__ import annotations

from pathlib import Path

from odf import teletype
from odf.element import Element
from odf.namespaces import TEXTNS
from odf.opendocument import load

from translator_app.core.documents.reading import Items, StretchReader, TextItem

PARAGRAPHS = {(TEXTNS, "p"), (TEXTNS, "h")}
SPAN, SPACE, LINK = (TEXTNS, "span"), (TEXTNS, "s"), (TEXTNS, "a")
MARKS = {
    (TEXTNS, n)
    for n in (
        "bookmark",
        "bookmark-start",
        "bookmark-end",
        "reference-mark",
        "reference-mark-start",
        "reference-mark-end",
        "soft-page-break",
    )
}
TEXT_NODE = 3


class OdtDocument(StretchReader):
    """An .odt file's paragraphs as stretches, and the way back into the file."""

    suffix = ".odt"

    def __init__(self, path: Path) -> None:
        super().__init__()  # style number -> a chain of spans (outer first)
        self.doc = load(str(path))
        for p in list(_walk(self.doc.topnode)):
            self._read(p)

    def _read(self, container: Element) -> None:
        items = Items()

        def visit(node, chain: tuple[Element, ...]) -> None:
            if node.nodeType == TEXT_NODE:
                items.text().parts.append((node.data, self.style_number(chain or None)))
            elif node.qname == SPAN:
                for child in list(node.childNodes):
                    visit(child, (*chain, node))
            elif node.qname == SPACE:
                count = int(node.getAttrNS(TEXTNS, "c") or 1)
                items.text().parts.append(
                    (" " * min(count, 1000), self.style_number(chain or None))
                )
            elif node.qname in MARKS:
                items.text().marks.append(node)
            else:  # a tab, a line break, a note, a frame: kept, inside its spans
                items.keep((chain, node))
                if node.qname == LINK:
                    self._read(node)  # its own text, translated inside the link

        for child in list(container.childNodes):
            visit(child, ())
        self.add(container, items)

    def write(self, english: list[list[tuple[str, int]]], stream) -> None:
        """Save with each stretch replaced by its English (text, style) parts."""
        for c in self.containers:
            for child in list(c.element.childNodes):
                _detach(child)
            for item in c.items:
                if isinstance(item, TextItem):
                    for mark in item.marks:
                        c.element.appendChild(mark)
                    for text, style in english[item.index]:
                        into = _nested(c.element, self.styles[style] or ())
                        teletype.addTextToElement(into, text)
                else:
                    chain, node = item
                    _detach(node)
                    _nested(c.element, chain).appendChild(node)
        self.doc.save(stream)


def _walk(node):
    """Every paragraph and heading under ``node``, outer before inner (a note's
    paragraphs come after the paragraph that holds the note)."""
    for child in list(node.childNodes):
        if child.nodeType != 1:
            continue
        if child.qname in PARAGRAPHS:
            yield child
        yield from _walk(child)


def _detach(node) -> None:
    """Take ``node`` out of its parent. odfpy's own removeChild fails on text nodes
    (its cache bookkeeping asserts an element) and drops elements from the caches that
    nothing here reads; the tree is what is saved."""
    parent = node.parentNode
    if parent is None:
        return
    parent.childNodes.remove(node)
    if node.nextSibling is not None:
        node.nextSibling.previousSibling = node.previousSibling
    if node.previousSibling is not None:
        node.previousSibling.nextSibling = node.nextSibling
    node.nextSibling = node.previousSibling = node.parentNode = None


def _nested(parent: Element, chain: tuple[Element, ...]) -> Element:
    """New copies of the spans of ``chain`` (outer first) under ``parent``; the innermost
    (or ``parent`` itself) is where text goes."""
    for span in chain:
        copy = Element(qname=span.qname, qattributes=dict(span.attributes), check_grammar=False)
        parent.appendChild(copy)
        parent = copy
    return parent

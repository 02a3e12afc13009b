"""What the .docx and .odt readers share: a paragraph (or link) read into items, text
runs and kept elements in order, and the document's stretches and styles.

A format's reader walks a paragraph's children: text goes into the open
:class:`TextItem` (one stretch), anything it keeps where it stands (a tab, a picture,
a link) closes it. :meth:`StretchReader.add` turns the paragraph's text items into
stretches, or leaves the paragraph alone when none has a word or a number.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from translator_app.core.documents.styled import Stretch


@dataclass
class TextItem:
    """A stretch of text runs, with the zero-width marks (bookmarks) met on the way,
    which are written back at its start."""

    parts: list[tuple[str, int]] = field(default_factory=list)
    marks: list = field(default_factory=list)
    index: int = -1  # its number among the document's stretches


class Items(list):
    """A paragraph's items in order: TextItem and kept elements (the format's own)."""

    def __init__(self) -> None:
        super().__init__()
        self._open: TextItem | None = None

    def text(self) -> TextItem:
        """The text item being filled (a new one after a kept element)."""
        if self._open is None:
            self._open = TextItem()
            self.append(self._open)
        return self._open

    def keep(self, element) -> None:
        self._open = None
        self.append(element)


@dataclass
class Container:
    element: object  # a paragraph or a link, whose children are rewritten
    items: Items


class StretchReader:
    """A document read so far: its stretches, the paragraphs to rewrite, and what each
    style number stands for (the format's handle: run properties, a chain of spans)."""

    def __init__(self) -> None:
        self.styles: list = [None]  # style number -> handle (0: no formatting)
        self.stretches: list[Stretch] = []
        self.containers: list[Container] = []

    def style_number(self, handle) -> int:
        """A new style number for ``handle`` (None: 0, unformatted)."""
        if handle is None:
            return 0
        self.styles.append(handle)
        return len(self.styles) - 1

    def add(self, element, items: Items) -> None:
        """Keep ``element`` for rewriting with its items' stretches, unless none of them
        has anything to translate (then the paragraph stays exactly as it is)."""
        texts = [i for i in items if isinstance(i, TextItem)]
        stretches = [Stretch.of(t.parts) for t in texts]
        if not any(s.needs_translation for s in stretches):
            return
        for t, s in zip(texts, stretches, strict=True):
            t.index = len(self.stretches)
            self.stretches.append(s)
        self.containers.append(Container(element, items))

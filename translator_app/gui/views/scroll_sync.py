"""The German and the English box scroll together, paragraph to paragraph (issue 32).

The translation keeps the text's layout (one English line per German line, blank lines
kept), so the n-th block of one box is the n-th block of the other. Scrolling either box
brings the other's same paragraph to its top, at the same number of wrapped lines into
it as far as the other's paragraph has them, as DeepL's two panes do. A QPlainTextEdit
scrolls by lines: its scroll bar's value is the first visible line.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QObject, QPoint
from PySide6.QtWidgets import QPlainTextEdit


class ScrollSync(QObject):
    def __init__(self, first: QPlainTextEdit, second: QPlainTextEdit) -> None:
        super().__init__(first)
        self.first, self.second = first, second
        self._busy = False  # the other box's own scroll signal must not echo back
        first.verticalScrollBar().valueChanged.connect(lambda _: self._follow(first, second))
        second.verticalScrollBar().valueChanged.connect(lambda _: self._follow(second, first))

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Scrolls made by the program (a new translation, bringing a linked word into
        view) move one box only."""
        busy, self._busy = self._busy, True
        try:
            yield
        finally:
            self._busy = busy

    def follow_first(self) -> None:
        """Bring the second box to the first box's paragraph (after a new translation)."""
        self._follow(self.first, self.second)

    def _follow(self, leader: QPlainTextEdit, follower: QPlainTextEdit) -> None:
        if self._busy:
            return
        top = leader.cursorForPosition(QPoint(1, 1)).block()
        into = max(0, leader.verticalScrollBar().value() - top.firstLineNumber())
        doc = follower.document()
        block = doc.findBlockByNumber(top.blockNumber())
        if not block.isValid():
            block = doc.lastBlock()
        if block.firstLineNumber() < 0:  # not laid out yet (a text just set): do it now
            doc.documentLayout().blockBoundingRect(block)
        first = block.firstLineNumber() if block.firstLineNumber() >= 0 else block.blockNumber()
        line = first + min(into, max(0, block.lineCount() - 1))
        self._busy = True
        try:
            follower.verticalScrollBar().setValue(line)
        finally:
            self._busy = False


def top_block(edit: QPlainTextEdit) -> int:
    """The number of the paragraph at the top of ``edit``'s view."""
    return edit.cursorForPosition(QPoint(1, 1)).blockNumber()

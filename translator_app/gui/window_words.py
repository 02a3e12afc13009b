"""The main window's word menu: what an English word attended to, the alternatives for
it (named by the words they make) and undoing a chosen alternative."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtGui import (
    QTextCursor,
)
from PySide6.QtWidgets import (
    QMenu,
)

from translator_app.core.text.tokenizer import PIECE_MARK
from translator_app.gui.linking import (
    alignment_pairs,
    alternatives,
    link_from_output,
    link_from_source,
    word_at,
)
from translator_app.gui.positions import from_qt, to_qt


class WordMenuMixin:
    """Methods of :class:`~translator_app.gui.window.MainWindow` (a mixin: ``self`` is the
    window)."""

    def word_menu_at_cursor(self) -> QMenu | None:
        """Ctrl+D: the details of the English word highlighted now. From the German side
        that is the word the German under the cursor attended to most."""
        h = self.highlighter
        pos = self.output_edit.textCursor().position()
        if h.focus_side == "source" and h.shown is not None and not h.stale:
            link = link_from_source(h.shown, h.cursor_index("source"))
            if link is None or not link.ranges:
                self.show_message("No English word is linked to the German under the cursor")
                return None
            pos = to_qt(h.shown.output, max(link.ranges, key=lambda x: x[2])[0])
        menu = self.word_menu(pos)
        if menu is not None:
            cursor = QTextCursor(self.output_edit.document())
            cursor.setPosition(pos)
            rect = self.output_edit.cursorRect(cursor)
            menu.popup(self.output_edit.viewport().mapToGlobal(rect.bottomLeft()))
        return menu

    def word_menu(self, pos: int) -> QMenu | None:
        """The menu for the English piece at output position ``pos`` (None: no word)."""
        d = self.highlighter.shown
        if d is None or self.highlighter.stale:
            return None
        link = link_from_output(d, from_qt(d.output, pos))
        if link is None:
            return None
        t = d.translations[link.sentence]
        menu = QMenu(self)
        menu.setAccessibleName("Word details")
        piece = t.best.target_pieces[link.piece].replace(PIECE_MARK, "")
        word = word_at(t.best.text, *t.best.target_spans[link.piece]) or piece
        menu.addSection(f"“{word}” attended to")
        for label, weight in alignment_pairs(d, link.sentence, link.piece):
            menu.addAction(f"{label}   {weight:.2f}").setEnabled(False)
        alts = alternatives(t, link.piece, eos_id=self._eos_id())
        menu.addSection("Alternatives")
        sentence = d.segments[link.sentence].text
        if self.session.can_undo_choice(sentence):
            undo = menu.addAction("Undo my choice (back to the model's translation)")
            undo.triggered.connect(lambda _=False, s=sentence: self.session.undo_choice(s))
        if not alts and not self.session.can_undo_choice(sentence):
            # Qt hides an empty last section, so the hint is an item of its own
            menu.addAction("None here (raise n-best in Settings)").setEnabled(False)
        for alt in alts[:8]:
            a = menu.addAction(f"{alt.label}    — {alt.example}")
            a.triggered.connect(
                lambda _=False, s=link.sentence, p=alt.prefix: self.force_prefix(s, p)
            )
        return menu

    def _word_menu(self, point: QPoint) -> None:
        menu = self.word_menu(self.output_edit.textCursor().position())
        if menu is not None:
            # Below the clicked line, so the word stays readable beside its details.
            below = QPoint(point.x(), self.output_edit.cursorRect().bottom() + 4)
            menu.popup(self.output_edit.viewport().mapToGlobal(below))

    def _eos_id(self) -> int:
        return self.model_info.eos_id if self.model_info else 3

    def force_prefix(self, sentence: int, prefix: tuple[int, ...]) -> None:
        """Re-decode one sentence with the chosen beginning forced."""
        d = self.highlighter.shown
        if d is not None:
            self.session.force_prefix(d.segments[sentence].text, tuple(prefix))

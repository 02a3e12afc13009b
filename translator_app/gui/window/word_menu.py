"""The main window's word menu: what an English word attended to, the alternatives for
it (named by the words they make) and undoing a chosen alternative."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QTextCursor
from PySide6.QtWidgets import QMenu, QPlainTextEdit

from translator_app.core.text.tokenizer import PIECE_MARK
from translator_app.gui.views.linking import (
    alignment_pairs,
    alternatives,
    link_from_output,
    link_from_source,
    word_at,
)
from translator_app.gui.views.positions import from_qt, to_qt

if TYPE_CHECKING:
    from translator_app.gui.shared.notices import Messages
    from translator_app.gui.translating.session import TranslationSession
    from translator_app.gui.views.highlighter import LinkHighlighter

# Word menus whose model alternatives are kept (reopening one shows them at once).
ALTERNATIVES_KEPT = 32
MENU_ALTERNATIVES = 5  # "up to five" (issue 48): the likeliest, then the sentence they make
LOOKING = "Looking for alternatives…"
NONE_HERE = "None likely here"


class WordMenu:
    """The word menu of the English box, composed into the window and handed what it
    uses: the box, the highlighter (what is shown), the session (alternatives, forced
    beginnings), the messages and the loaded model's end-of-sentence id. The menu opens
    at once with what it knows (the n-best list's alternatives); the model's
    alternatives for exactly that word are asked from the worker and fill the menu when
    they come (CTranslate2: tens of milliseconds), and are kept for the next time it
    opens there."""

    def __init__(
        self,
        output_edit: QPlainTextEdit,
        highlighter: LinkHighlighter,
        session: TranslationSession,
        messages: Messages,
        eos_id: Callable[[], int],
    ) -> None:
        self.output_edit, self.highlighter, self.session = output_edit, highlighter, session
        self.messages, self._eos_id = messages, eos_id
        # (id of the translation, piece) -> (the translation, its alternatives); the
        # translation is held so that its id is not reused while the entry lives.
        self._alternatives: OrderedDict[tuple, tuple] = OrderedDict()
        self._menu_waiting = None  # (menu, translation, piece, sentence) still filling in
        # the translation's key -> (the translation, its fixes): see _on_fixes
        self._fixes: OrderedDict[tuple, tuple] = OrderedDict()
        self._fixes_waiting = None  # (menu, translation, sentence, the section after)
        session.alternatives_found.connect(self._on_alternatives)
        session.fixes_found.connect(self._on_fixes)

    def at_cursor(self) -> QMenu | None:
        """Ctrl+D: the details of the English word highlighted now. From the German side
        that is the word the German under the cursor attended to most."""
        h = self.highlighter
        pos = self.output_edit.textCursor().position()
        if h.focus_side == "source" and h.shown is not None and not h.stale:
            link = link_from_source(h.shown, h.cursor_index("source"))
            if link is None or not link.ranges:
                self.messages.show("No English word is linked to the German under the cursor")
                return None
            pos = to_qt(h.shown.output, max(link.ranges, key=lambda x: x[2])[0])
        menu = self.menu_at(pos)
        if menu is not None:
            cursor = QTextCursor(self.output_edit.document())
            cursor.setPosition(pos)
            rect = self.output_edit.cursorRect(cursor)
            menu.popup(self.output_edit.viewport().mapToGlobal(rect.bottomLeft()))
        return menu

    def menu_at(self, pos: int) -> QMenu | None:
        """The menu for the English piece at output position ``pos`` (None: no word)."""
        d = self.highlighter.shown
        if d is None or self.highlighter.stale:
            return None
        link = link_from_output(d, from_qt(d.output, pos))
        if link is None:
            return None
        t = d.translations[link.sentence]
        menu = QMenu(self.output_edit)
        menu.setAttribute(Qt.WA_DeleteOnClose)  # one per click: none piles up
        menu.setAccessibleName("Word details")
        piece = t.best.target_pieces[link.piece].replace(PIECE_MARK, "")
        word = word_at(t.best.text, *t.best.target_spans[link.piece]) or piece
        menu.addSection(f"“{word}” attended to")
        for label, weight in alignment_pairs(d, link.sentence, link.piece):
            menu.addAction(f"{label}   {weight:.2f}").setEnabled(False)
        sentence = d.segments[link.sentence].text
        chosen_over = _word_replaced(self.session.before_choice(sentence), t, link.piece)
        if chosen_over:
            note = menu.addAction(
                f"The same as the model's “{chosen_over}” had: it looks before it chooses"
            )
            note.setData("same-attention")
            note.setEnabled(False)
        fixes = self._fixes.get(_translation_key(t))
        lost = t.issues
        if lost:
            menu.addSection("Keep what the English lost")
        after = menu.addSection("Alternatives")
        if lost:
            if fixes is not None:
                self._add_fixes(menu, fixes[1], link.sentence, after)
            else:
                note = QAction(f"Keeping {_facts_named(lost)}: looking…", menu)
                note.setData("fix-note")
                note.setEnabled(False)
                menu.insertAction(after, note)
                self._fixes_waiting = (menu, t, link.sentence, after)
        if self.session.can_undo_choice(sentence):
            undo = menu.addAction("Undo my choice (back to the model's translation)")
            undo.triggered.connect(lambda _=False, s=sentence: self.session.undo_choice(s))
        key = _alternatives_key(t, link.piece)
        ask_fixes = bool(lost) and fixes is None
        if key in self._alternatives:
            self._add_alternatives(menu, self._alternatives[key][1], link.sentence)
            if ask_fixes:
                self.session.find_alternatives(t, link.piece, fixes=True)
        else:
            # the n-best list's alternatives now; the model's replace them when they come
            known = alternatives(t, link.piece, eos_id=self._eos_id())
            self._add_alternatives(menu, known, link.sentence, waiting=True)
            self._menu_waiting = (menu, t, link.piece, link.sentence)
            self.session.find_alternatives(t, link.piece, fixes=ask_fixes)
        return menu

    def _add_fixes(self, menu: QMenu, fixes, sentence: int, before: QAction) -> None:
        """An item for each fact the English lost: the sentence decoded with the fact's
        English forced in (taken with one click, undone as a chosen alternative), or a
        note that no decode keeps it."""
        for fact, fixed in fixes:
            if fixed is None:
                item = QAction(f"No translation the model writes keeps „{fact.text}“", menu)
                item.setEnabled(False)
                item.setData("fix-note")
            else:
                item = QAction(f"Keep „{fact.text}“    — {fixed.text}", menu)
                item.setData("fix")
                prefix = tuple(fixed.target_ids[:-1])  # all but the end: decoded as shown
                item.triggered.connect(
                    lambda _=False, s=sentence, p=prefix: self.force_prefix(s, p)
                )
            menu.insertAction(before, item)

    def _on_fixes(self, translation, fixes) -> None:
        """The fixes of a translation's lost facts: kept, and shown in its menu if that
        is still open."""
        key = _translation_key(translation)
        self._fixes[key] = (translation, tuple(fixes))
        while len(self._fixes) > ALTERNATIVES_KEPT:
            self._fixes.popitem(last=False)
        waiting = self._fixes_waiting
        if waiting is None or _translation_key(waiting[1]) != key:
            return
        menu, _, sentence, after = waiting
        self._fixes_waiting = None
        if not shiboken6.isValid(menu):  # closed and deleted meanwhile
            return
        for action in menu.actions():
            if action.data() == "fix-note":
                menu.removeAction(action)
        self._add_fixes(menu, fixes, sentence, after)
        if menu.isVisible():
            _keep_on_screen(menu)

    def popup_at(self, point: QPoint) -> None:
        """The menu of the word clicked at ``point`` (the box's viewport)."""
        menu = self.menu_at(self.output_edit.textCursor().position())
        if menu is not None:
            # Below the clicked line, so the word stays readable beside its details.
            below = QPoint(point.x(), self.output_edit.cursorRect().bottom() + 4)
            menu.popup(self.output_edit.viewport().mapToGlobal(below))

    def _add_alternatives(self, menu: QMenu, alts, sentence: int, waiting: bool = False) -> None:
        """The alternatives' items (the word, then the sentence it makes); with
        ``waiting``, an item saying more are being looked for."""
        for alt in alts[:MENU_ALTERNATIVES]:
            a = menu.addAction(f"{alt.label}    — {alt.example}")
            a.setData("alternative")
            a.triggered.connect(lambda _=False, s=sentence, p=alt.prefix: self.force_prefix(s, p))
        if waiting or not alts:
            # Qt hides an empty last section, so the note is an item of its own
            item = menu.addAction(LOOKING if waiting else NONE_HERE)
            item.setData("note")
            item.setEnabled(False)

    def _on_alternatives(self, translation, piece: int, candidates) -> None:
        """The model's alternatives for a word: kept, and shown in its menu if that is
        still open."""
        alts = alternatives(translation, piece, candidates, eos_id=self._eos_id())
        if not alts:  # what the n-best list offers, if anything
            alts = alternatives(translation, piece, eos_id=self._eos_id())
        key = _alternatives_key(translation, piece)
        self._alternatives[key] = (translation, tuple(alts))
        while len(self._alternatives) > ALTERNATIVES_KEPT:
            self._alternatives.popitem(last=False)
        waiting = self._menu_waiting
        if waiting is None or _alternatives_key(waiting[1], waiting[2]) != key:
            return
        menu, _, _, sentence = waiting
        self._menu_waiting = None
        if not shiboken6.isValid(menu):  # closed and deleted meanwhile
            return
        for action in menu.actions():
            if action.data() in ("alternative", "note"):
                menu.removeAction(action)
        self._add_alternatives(menu, alts, sentence)
        if menu.isVisible():
            _keep_on_screen(menu)

    def force_prefix(self, sentence: int, prefix: tuple[int, ...]) -> None:
        """Re-decode one sentence with the chosen beginning forced."""
        d = self.highlighter.shown
        if d is not None:
            self.session.force_prefix(d.segments[sentence].text, tuple(prefix))


def _keep_on_screen(menu: QMenu) -> None:
    """Grown by items that came after it opened, a menu is moved back into the screen
    (Qt places a popup only when it opens)."""
    menu.adjustSize()
    area = menu.screen().availableGeometry()
    frame = menu.geometry()
    x = max(area.left(), min(frame.left(), area.right() + 1 - frame.width()))
    y = max(area.top(), min(frame.top(), area.bottom() + 1 - frame.height()))
    if (x, y) != (frame.left(), frame.top()):
        menu.move(x, y)


def _word_replaced(before, now, piece: int) -> str:
    """The word of ``before`` (a sentence's translation before the user chose an
    alternative) that ``now``'s piece ``piece`` took the place of: the first piece where
    the two differ, whose attention row is the same in both (the step that wrote it
    attended before it was chosen). "" where ``piece`` is not that piece."""
    if before is None or before.best is None or now.best is None:
        return ""
    old, new = before.best.target_ids, now.best.target_ids
    if piece >= min(len(old), len(new)) or old[:piece] != new[:piece] or old[piece] == new[piece]:
        return ""
    return word_at(before.best.text, *before.best.target_spans[piece]) or ""


def _facts_named(facts) -> str:
    """„1.249,90“, „samstags“ and 1 more."""
    named = ", ".join(f"„{f.text}“" for f in facts[:2])
    return named + (f" and {len(facts) - 2} more" if len(facts) > 2 else "")


def _translation_key(translation) -> tuple:
    """What a translation's fixes depend on: its source and its best candidate's ids."""
    best = translation.best
    return (translation.source_ids, best.target_ids if best else ())


def _alternatives_key(translation, piece: int) -> tuple:
    """What a word's alternatives depend on: the source, the best candidate's ids and
    the position. Not the Translation object: the same translation comes back as a new
    object once checked for dropped content, and its menu must stay as it was."""
    return (*_translation_key(translation), piece)

"""The dictionary under every German word (issue 51 §4): right-click a German word (or
Ctrl+click it, or Ctrl+K at the cursor) and its Ding entries open in a small window, with
"Add to glossary" for the sense the user picks.

Look-ups run on one long-lived thread (the first builds the index, seconds, once per
install; the lemmatiser loads in under a second): the latest request wins and a result
for an older word is dropped by its request id, as the translation worker does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QTextCursor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
)

from translator_app.core.dictionary.ding import WORD, forms, plain
from translator_app.core.dictionary.index import DictionaryError
from translator_app.core.dictionary.lookup import ATTRIBUTION, Dictionary, LookupResult, Sense
from translator_app.core.language import spelling
from translator_app.gui.shared.screen import close_buttons
from translator_app.gui.views.positions import from_qt, to_qt


class DictionaryLookups(QObject):
    """Look-ups off the GUI thread; ``found(request id, result)`` or ``failed(request id,
    message)`` come back on the GUI thread (queued signals)."""

    found = Signal(int, object)
    failed = Signal(int, str)

    def __init__(self, make: Callable[[], Dictionary] = Dictionary.bundled, parent=None) -> None:
        super().__init__(parent)
        self._make = make
        self._dictionary: Dictionary | None = None
        self._wake = threading.Condition()
        self._request: tuple[int, str] | None = None
        self._last_id = 0
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="dictionary", daemon=True)
        self._thread.start()

    def lookup(self, word: str) -> int:
        """Ask for ``word``; returns the request's id (a newer request replaces it)."""
        with self._wake:
            self._last_id += 1
            self._request = (self._last_id, word)
            self._wake.notify()
            return self._last_id

    @property
    def latest(self) -> int:
        return self._last_id

    def stop(self) -> None:
        with self._wake:
            self._stop = True
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while self._request is None and not self._stop:
                    self._wake.wait()
                if self._stop:
                    return
                request_id, word = self._request
                self._request = None
            try:
                if self._dictionary is None:
                    self._dictionary = self._make()
                result = self._dictionary.lookup(word)
            except DictionaryError as e:
                self.failed.emit(request_id, f"The dictionary cannot be used: {e}")
                continue
            except Exception as e:  # noqa: BLE001 - a look-up must never end the thread
                self.failed.emit(request_id, f"The dictionary look-up failed: {e}")
                continue
            self.found.emit(request_id, result)


def glossary_pair(sense: Sense) -> tuple[str, str]:
    """The German and the first English of a sense, without marks; for an inflected
    form, its headword's (the glossary matches inflections itself: „Rechnungen“ gives
    „Rechnung“ -> "invoice", not "invoices")."""
    german = (sense.headword or sense.german).split(";")[0]
    single = forms(german)
    german = single[0] if single else plain(german)
    english = plain((sense.headword_english or sense.english).split(";")[0])
    return german, english


class DictionaryDialog(QDialog):
    """A word's senses; the one chosen can go into the glossary (``add_term``)."""

    def __init__(self, add_term: Callable[[str, str], None], parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Dictionary")
        self.setMinimumSize(420, 300)
        self.resize(620, 420)
        self._add_term = add_term
        self.result: LookupResult | None = None
        self.heading = QLabel("Looking up…")
        self.heading.setWordWrap(True)
        self.senses = QListWidget()
        self.senses.setAccessibleName("Dictionary entries")
        self.senses.setWordWrap(True)
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextSelectableByMouse)
        credit = QLabel(ATTRIBUTION)
        credit.setWordWrap(True)
        credit.setStyleSheet("color: palette(mid); font-size: small")
        buttons = close_buttons(self)
        self.add_button = QPushButton("Add to &glossary")
        self.add_button.setEnabled(False)
        buttons.addButton(self.add_button, QDialogButtonBox.ActionRole)
        self.add_button.clicked.connect(self.add_chosen)
        self.senses.currentRowChanged.connect(self._on_row)
        self.senses.itemDoubleClicked.connect(lambda _item: self.add_chosen())
        layout = QVBoxLayout(self)
        for w in (self.heading, self.senses, self.details, credit, buttons):
            layout.addWidget(w)
        layout.setStretch(1, 1)

    def looking_up(self, word: str) -> None:
        self.result = None
        self.heading.setText(f"Looking up „{word}“…")
        self.senses.clear()
        self.details.clear()
        self.add_button.setEnabled(False)

    def show_result(self, result: LookupResult) -> None:
        self.result = result
        self.senses.clear()
        head = f"<b>{result.word}</b>"
        if result.compound:
            head += f": a compound, {result.compound[0]} + <b>{result.compound[1]}</b>"
        elif result.lemma and result.lemma != result.word:
            head += f" (a form of <b>{result.lemma}</b>)"
        if not result.found:
            head += f" — {result.note or 'not in the dictionary'}"
        self.heading.setText(head)
        for sense in result.senses:
            item = QListWidgetItem(sense.line)
            if sense.examples:
                item.setToolTip("\n".join(f"{de} — {en}" for de, en in sense.examples))
            self.senses.addItem(item)
        if result.senses:
            self.senses.setCurrentRow(0)
        else:
            self.details.setText(_phrases(result))

    def failed(self, message: str) -> None:
        self.heading.setText(message)

    def _on_row(self, row: int) -> None:
        result = self.result
        if result is None or not 0 <= row < len(result.senses):
            self.add_button.setEnabled(False)
            return
        sense = result.senses[row]
        lines = []
        if sense.headword:
            lines.append(f"Form of: {sense.headword}")
        lines += [f"e.g. {de} — {en}" for de, en in sense.examples]
        if result.phrases:
            lines.append(_phrases(result))
        self.details.setText("\n".join(lines))
        german, english = glossary_pair(sense)
        self.add_button.setEnabled(bool(german and english))
        self.add_button.setToolTip(f"Always translate „{german}“ as “{english}”")

    def add_chosen(self) -> None:
        row = self.senses.currentRow()
        if self.result is None or not 0 <= row < len(self.result.senses):
            return
        self._add_term(*glossary_pair(self.result.senses[row]))


def _phrases(result: LookupResult) -> str:
    if not result.phrases:
        return ""
    return "In phrases: " + "; ".join(f"{de} — {en}" for de, en in result.phrases[:3])


def word_in(text: str, pos: int) -> str:
    """The word of ``text`` at character ``pos`` (or just before it), "" where none."""
    for m in WORD.finditer(text):
        if m.start() <= pos <= m.end():
            return m.group()
    return ""


class DictionaryController(QObject):
    """Opens the dictionary from the German box: its context menu ("Look up „word“"),
    Ctrl+click on a word, and :meth:`look_up_at_cursor` (Edit → Look up, Ctrl+K). One
    dialog, reused; ``add_term(german, english)`` puts a sense into the glossary. The
    same menu corrects a word that looks typed wrong (core/language/spelling.py), with
    the dictionary's words as the check's other vocabulary (:meth:`known_word`)."""

    def __init__(
        self,
        source_edit,
        add_term: Callable[[str, str], None],
        lookups: DictionaryLookups | None = None,
        parent=None,
    ) -> None:
        super().__init__(parent)
        self.edit = source_edit
        self.lookups = lookups or DictionaryLookups(parent=self)
        self.dialog = DictionaryDialog(add_term, parent)
        self.lookups.found.connect(self._on_found)
        self.lookups.failed.connect(self._on_failed)
        spelling.preload_in_background()  # the German word list, beside the model
        source_edit.setContextMenuPolicy(Qt.CustomContextMenu)
        source_edit.customContextMenuRequested.connect(self._context_menu)
        source_edit.viewport().installEventFilter(self)

    def look_up(self, word: str) -> DictionaryDialog:
        self.dialog.looking_up(word)
        self.lookups.lookup(word)
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    def look_up_at_cursor(self) -> DictionaryDialog | None:
        cursor = self.edit.textCursor()
        text = cursor.selectedText() or word_in(self.edit.toPlainText(), cursor.position())
        word = word_in(text, 0) if text else ""
        if not word:
            self.dialog.looking_up("")
            self.dialog.failed("Put the cursor on a German word to look it up")
            self.dialog.show()
            return None
        return self.look_up(word)

    def word_at_point(self, point) -> str:
        pos = self.edit.cursorForPosition(point).position()
        return word_in(self.edit.toPlainText(), pos)

    def context_menu_at(self, point):
        """The German box's usual menu with "Look up „word“" first, and before it the
        corrections of a word that looks typed wrong ("Correct to „morgen“")."""
        menu = self.edit.createStandardContextMenu(point)
        word = self.word_at_point(point)
        first = menu.actions()[0] if menu.actions() else None
        if word:
            action = menu.addAction(f"Look up „{word}“ in the dictionary")
            action.triggered.connect(lambda: self.look_up(word))
            menu.removeAction(action)
            menu.insertAction(first, action)
            menu.insertSeparator(first)
        text = self.edit.toPlainText()
        pos = from_qt(text, self.edit.cursorForPosition(point).position())
        slip = spelling.misspelling_at(text, pos, self.known_word)
        if slip is not None:
            top = menu.actions()[0]
            for meant in slip.suggestions:
                fix = QAction(f"Correct to „{meant}“", menu)
                fix.triggered.connect(lambda _=False, m=meant: self.correct(slip, m))
                menu.insertAction(top, fix)
            menu.insertSeparator(top)
        return menu

    def correct(self, slip: spelling.Misspelling, meant: str) -> None:
        """Write ``meant`` in place of ``slip`` in the German box (one undo step); the
        sentence is translated again as any edit is."""
        text = self.edit.toPlainText()
        if text[slip.start : slip.end] != slip.word:
            return  # the text changed under the menu
        cursor = QTextCursor(self.edit.document())
        cursor.setPosition(to_qt(text, slip.start))
        cursor.setPosition(to_qt(text, slip.end), QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(meant)

    def known_word(self, word: str) -> bool:
        """Whether the dictionary holds ``word``, German or English, once it answers
        without waiting (False while its index is built): the spelling check's other
        vocabulary."""
        dictionary = Dictionary.bundled()
        try:
            return dictionary.ready(wait=False) and spelling.known_by(dictionary)(word)
        except (DictionaryError, OSError):
            return False

    def _context_menu(self, point) -> None:
        menu = self.context_menu_at(point)
        menu.setAttribute(Qt.WA_DeleteOnClose)
        menu.popup(self.edit.viewport().mapToGlobal(point))

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        from PySide6.QtCore import QEvent

        if (
            event.type() == QEvent.MouseButtonRelease
            and event.button() == Qt.LeftButton
            and event.modifiers() & Qt.ControlModifier
        ):
            word = self.word_at_point(event.position().toPoint())
            if word:
                self.look_up(word)
                return True
        return False

    def _on_found(self, request_id: int, result: LookupResult) -> None:
        if request_id == self.lookups.latest:  # an older word's answer is dropped
            self.dialog.show_result(result)

    def _on_failed(self, request_id: int, message: str) -> None:
        if request_id == self.lookups.latest:
            self.dialog.failed(message)

    def close(self) -> None:
        self.lookups.stop()
        self.dialog.close()

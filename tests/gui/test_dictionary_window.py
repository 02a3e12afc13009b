"""The dictionary in the window (issue 51 §4), driven as a user would with the real
bundled model and the shipped Ding: right-click a German word, Ctrl+click one, add a
sense to the glossary; and (with a stand-in dictionary in addition) an older word's
answer never replaces a newer one."""

from __future__ import annotations

import threading

from PySide6.QtCore import QPoint, Qt

from conftest import translate_in
from translator_app.core.dictionary.lookup import LookupResult, Sense
from translator_app.gui.dialogs.glossary_dialog import glossary_path
from translator_app.gui.views.dictionary_view import DictionaryLookups, glossary_pair


def _point_of(edit, word: str) -> QPoint:
    """The middle of ``word``'s first occurrence in the German box."""
    cursor = edit.textCursor()
    cursor.setPosition(edit.toPlainText().index(word) + 2)
    return edit.cursorRect(cursor).center()


def test_right_click_ctrl_click_and_add_to_glossary_in_the_real_window(real_window, qtbot):
    w = real_window
    translate_in(qtbot, w, "Die Rechnungen liegen auf dem Tisch.", timeout=60_000)
    menu = w.dictionary.context_menu_at(_point_of(w.source_edit, "Rechnungen"))
    first = menu.actions()[0]
    assert first.text() == "Look up „Rechnungen“ in the dictionary"
    assert any("Copy" in a.text() for a in menu.actions())  # the usual menu stays
    first.trigger()
    dialog = w.dictionary.dialog
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)  # builds the index
    assert dialog.isVisible() and dialog.result.word == "Rechnungen"
    englishes = [s.english for s in dialog.result.senses]
    assert any("invoices" in e for e in englishes) and any("bills" in e for e in englishes)

    row = next(i for i, e in enumerate(englishes) if "invoices" in e)
    dialog.senses.setCurrentRow(row)
    assert dialog.add_button.isEnabled()
    with qtbot.waitSignal(w.translation_shown, timeout=60_000):
        qtbot.mouseClick(dialog.add_button, Qt.LeftButton)
    assert "Rechnung\tinvoice" in glossary_path().read_text(encoding="utf-8")
    assert any(t.source == "Rechnung" for t in w.session.glossary.terms)

    # Ctrl+click another word: the same dialog shows it
    point = _point_of(w.source_edit, "Tisch")
    qtbot.mouseClick(w.source_edit.viewport(), Qt.LeftButton, Qt.ControlModifier, point)
    qtbot.waitUntil(lambda: dialog.result is not None and dialog.result.word == "Tisch")
    assert any("table" in s.english for s in dialog.result.senses)


def test_right_click_on_a_german_column_of_the_heatmap(real_window, qtbot):
    from types import SimpleNamespace

    w = real_window
    translate_in(qtbot, w, "Wir haben die Rechnungen bezahlt.", timeout=60_000)
    panel = w.alignment
    panel.flush()
    panel._draw()
    panel.canvas.draw()
    col = panel.view.cols.index("Rechnungen")
    ax = panel.figure.axes[0]
    x, y = ax.transData.transform((col, 0))  # on the map, in the word's column
    _, top = ax.transAxes.transform((0, 1))
    assert panel.column_at(x, y) == col
    assert panel.column_at(x, top + 10) == col  # on its label above the map
    with qtbot.waitSignal(panel.word_lookup) as asked:
        panel._on_press(SimpleNamespace(button=3, x=x, y=y))
    assert asked.args == ["Rechnungen"]
    dialog = w.dictionary.dialog
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)
    assert dialog.result.word == "Rechnungen" and dialog.isVisible()


def test_the_menu_without_a_word_and_the_cursor_look_up(real_window, qtbot):
    w = real_window
    w.source_edit.setPlainText("  123  ")
    menu = w.dictionary.context_menu_at(_point_of(w.source_edit, "12"))
    assert not any("Look up" in a.text() for a in menu.actions())
    assert w.dictionary.look_up_at_cursor() is None
    assert "cursor on a German word" in w.dictionary.dialog.heading.text()


def test_an_older_words_answer_is_dropped(qtbot):
    release = threading.Event()

    class Slow:
        def lookup(self, word):
            if word == "alt":
                release.wait(5)
            sense = Sense(word, f"{word}-en", (), (), "", ())
            return LookupResult(word, word, (sense,))

    from PySide6.QtWidgets import QPlainTextEdit

    from translator_app.gui.views.dictionary_view import DictionaryController

    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    lookups = DictionaryLookups(make=Slow)
    controller = DictionaryController(edit, lambda g, e: None, lookups)
    shown = []
    lookups.found.connect(lambda rid, r: shown.append(r.word))
    controller.look_up("alt")
    controller.look_up("neu")  # asked while "alt" is still looked up
    release.set()
    qtbot.waitUntil(lambda: controller.dialog.result is not None, timeout=5000)
    qtbot.wait(100)
    assert controller.dialog.result.word == "neu"
    controller.close()


def test_a_form_goes_into_the_glossary_as_its_headword():
    sense = Sense(
        "Rechnungen; Fakturen", "invoices", ("pl",), (), "Rechnung; Faktura", (), "invoice"
    )
    assert glossary_pair(sense) == ("Rechnung", "invoice")
    head = Sense("Rechnung; Faktura", "invoice (for an amount); bill", ("f",), (), "", ())
    assert glossary_pair(head) == ("Rechnung", "invoice")


def test_a_word_typed_wrong_is_marked_and_corrected_from_its_menu(real_window, qtbot):
    """„Bis morgn …“ lost its misspelt word without a sign (issue 89 §3): the word gets
    a red wavy line whose tooltip names the word meant; the menu corrects it, and the
    corrected sentence is translated."""
    from translator_app.core.language import spelling

    w = real_window
    qtbot.waitUntil(spelling.loaded, timeout=20_000)
    german = "Bis morgn, ich komme um acht."
    translate_in(qtbot, w, german, timeout=60_000)
    at = german.index("morgn") + 2
    qtbot.waitUntil(lambda: w.highlighter.fact_tip("source", at).startswith("Typed wrong"))
    assert "„morgen“" in w.highlighter.fact_tip("source", at)
    menu = w.dictionary.context_menu_at(_point_of(w.source_edit, "morgn"))
    first = menu.actions()[0]
    assert first.text() == "Correct to „morgen“"
    assert any(a.text() == "Look up „morgn“ in the dictionary" for a in menu.actions())
    with qtbot.waitSignal(w.translation_shown, timeout=60_000) as shown:
        first.trigger()
    assert w.source_edit.toPlainText() == "Bis morgen, ich komme um acht."
    assert "tomorrow" in shown.args[0].lower()
    at = german.index("morgn") + 2
    assert not w.highlighter.fact_tip("source", at).startswith("Typed wrong")
    w.source_edit.undo()  # one step back: the word as it was typed
    assert w.source_edit.toPlainText() == german

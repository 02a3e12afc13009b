"""Every control a screen reader reaches has a name (issue 62 §5: the old test looked at the
main window's visible widgets of three types). The name is read as assistive technology
reads it (QAccessible: an accessible name, a button's text, or the label whose buddy the
control is), for every control of the main window, shown or not, and of each dialog."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6 import QtWidgets as qw  # noqa: E402
from PySide6.QtGui import QAccessible  # noqa: E402

# Every kind of widget a user operates or reads with a screen reader.
CONTROLS = tuple(
    getattr(qw, f"Q{kind}")
    for kind in (
        "AbstractButton", "AbstractItemView", "AbstractSlider", "AbstractSpinBox",
        "ComboBox", "LineEdit", "PlainTextEdit", "TextEdit",
    )
)  # fmt: skip
# Parts that a composite control draws for itself and names through it.
COMPOSITES = (qw.QAbstractSpinBox, qw.QComboBox, qw.QTabBar, qw.QScrollBar, qw.QAbstractItemView)


def _part_of_a_composite(widget: qw.QWidget) -> bool:
    if widget.objectName().startswith("qt_"):  # Qt's own parts: a menu bar's » button
        return True
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, COMPOSITES):
            return True
        parent = parent.parentWidget()
    return isinstance(widget, qw.QScrollBar)


def unnamed_controls(top: qw.QWidget) -> list[str]:
    found = []
    for kind in CONTROLS:
        for widget in top.findChildren(kind):
            if _part_of_a_composite(widget):
                continue
            face = QAccessible.queryAccessibleInterface(widget)
            if face is None or not face.text(QAccessible.Text.Name).strip():
                found.append(
                    f"{type(widget).__name__} {widget.objectName()!r} in {top.windowTitle()!r}"
                )
    return sorted(set(found))


def test_every_control_of_the_main_window_has_a_name(qtbot, open_window):
    w = open_window()
    assert unnamed_controls(w) == []


def test_every_control_of_each_dialog_has_a_name(qtbot, open_window):
    from conftest import secondary_dialogs
    from translator_app.gui.dialogs.compare_dialog import CompareDialog
    from translator_app.gui.shared.model_list import ModelEntry
    from translator_app.gui.views.dictionary_view import DictionaryDialog

    w = open_window()
    # The window's tiny model in both panes: the dialog's controls are the same with any
    # model, and the bundled RNN's first translation would build the dictionary's index.
    tiny = ModelEntry("Tiny", w.model_info.path, "opened")
    compare = CompareDialog("Guten Morgen.", [tiny, tiny], "cpu", w)
    dialogs = [
        *secondary_dialogs(qtbot, w),
        DictionaryDialog(lambda _de, _en: None, w),
        compare,
        w.dialogs.teach_dialog(),
    ]
    try:
        unnamed = [name for d in dialogs for name in unnamed_controls(d)]
    finally:
        compare.stop()
        for d in dialogs:
            d.close()
    assert unnamed == []

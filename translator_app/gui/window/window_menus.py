"""The main window's menus: one place that lists every action with its access key and
shortcut (File, Edit, View, Model with its Device menu, Help).

:class:`WindowMenus` is built once the window's parts exist and connects each entry to
the part that does the work (the files, the word menu, the dictionary, the correction,
the dialogs, the model chooser); it keeps the actions it made, for the F1 list, and the
two whose state the window sets (the alignment panel, the coverage hint)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from translator_app.gui.window.recent_files import RecentFiles

if TYPE_CHECKING:
    from translator_app.gui.window.window import MainWindow


class WindowMenus:
    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.all_actions: list[QAction] = []
        bar = window.menuBar()
        self._file_menu(bar.addMenu("&File"))
        self._edit_menu(bar.addMenu("&Edit"))
        self._view_menu(bar.addMenu("&View"))
        self._model_menu(bar.addMenu("&Model"))
        m = bar.addMenu("&Help")
        self.action(m, "&Keyboard shortcuts", window.dialogs.shortcuts_dialog, "F1")
        self.action(m, "&About", window.dialogs.about_dialog)

    def action(self, menu: QMenu, text: str, slot, shortcut=None, checkable=False) -> QAction:
        """A menu entry; every entry is made here, so that F1 lists every shortcut."""
        action = QAction(text, self.window)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.setCheckable(checkable)
        action.triggered.connect(slot)
        menu.addAction(action)
        self.all_actions.append(action)
        return action

    def _file_menu(self, m: QMenu) -> None:
        w = self.window
        self.action(m, "&Open text or document…", w.files.open_dialog, QKeySequence.Open)
        self.recent = RecentFiles(
            w.settings,
            m.addMenu("Open &Recent"),
            w.files.open,
            say=w.messages.show,
            changed=w.save_settings,
        )
        self.action(m, "&Save translation…", w.files.save_dialog, QKeySequence.Save)
        m.addSeparator()
        self.action(m, "&Quit", w.close, QKeySequence.Quit)

    def _edit_menu(self, m: QMenu) -> None:
        w = self.window
        # The usual editing commands act on the box that has the focus (the German box,
        # or the English while correcting it); Copy copies a selection from either box.
        for text, method, key in (
            ("&Undo", "undo", QKeySequence.Undo),
            ("&Redo", "redo", QKeySequence.Redo),
            ("Cu&t", "cut", QKeySequence.Cut),
            ("&Copy", "copy", QKeySequence.Copy),
            ("&Paste", "paste", QKeySequence.Paste),
            ("Select &all", "selectAll", QKeySequence.SelectAll),
        ):
            # In a box, the box's own key handling comes first (Qt's shortcut override).
            self.action(m, text, partial(w.edit_command, method), key)
        m.addSeparator()
        self.action(m, "Translate &now", w.translate_now, "Ctrl+Return")
        self.action(m, "Copy the &whole translation", w.copy_translation, "Ctrl+Shift+C")
        self.action(m, "C&lear", w.clear, "Ctrl+L")
        self.action(m, "Word &details and alternatives", w.words.at_cursor, "Ctrl+D")
        self.action(m, "Loo&k up the German word", w.dictionary.look_up_at_cursor, "Ctrl+K")
        m.addSeparator()
        self.action(m, "Corr&ect the translation", w.begin_correction, "F2")
        w.correction.use_actions(
            [
                self.action(m, "&Save the correction", w.correction.save, "Ctrl+Shift+S"),
                self.action(m, "D&iscard the correction", w.correction.discard, "Esc"),
            ]
        )
        self.action(m, "C&orrections…", w.dialogs.corrections_dialog, "Ctrl+Shift+K")
        m.addSeparator()
        self.action(m, "Settin&gs…", w.dialogs.settings_dialog, "Ctrl+,")

    def _view_menu(self, m: QMenu) -> None:
        w = self.window
        self.alignment_action = w.alignment_dock.toggleViewAction()
        self.alignment_action.setText("&Alignment panel")
        self.alignment_action.setShortcut(QKeySequence("F9"))
        m.addAction(self.alignment_action)
        self.all_actions.append(self.alignment_action)
        room = w.panel_room
        self.fits_action = self.action(
            m, "Alignment panel &fits the sentence", room.set_fits, checkable=True
        )
        self.fits_action.setChecked(room.fits)
        self.fits_action.setToolTip(
            "The panel grows to show every English word of the sentence; dragging the "
            "line above it sizes it yourself"
        )
        room.fits_changed.connect(self.fits_action.setChecked)
        room.fits_changed.connect(lambda _: w.save_settings())
        self.coverage_action = self.action(
            m, "&Coverage hint", w.toggle_coverage, "Ctrl+Shift+U", checkable=True
        )
        self.action(m, "Switch &layout", w.toggle_layout, "Ctrl+Shift+L")
        self.action(m, "&History…", w.dialogs.history_dialog, "Ctrl+H")
        self.action(m, "&Export heatmap…", w.alignment.export_dialog, "Ctrl+E")

    def _model_menu(self, m: QMenu) -> None:
        """The model list (rebuilt as models come and go), then fixed actions."""
        w = self.window
        w.models.add_to_menu(m, self.action)
        self.action(m, "Model &card…", w.dialogs.model_card_dialog, "Ctrl+I")
        self.action(m, "Co&mpare models…", w.dialogs.compare_dialog, "Ctrl+Shift+M")
        self.action(m, "&Teach the model…", w.dialogs.teach_dialog, "Ctrl+T")
        self.action(m, "&Glossary…", w.dialogs.glossary_dialog, "Ctrl+G")
        m.addSeparator()
        w.models.add_device_menu(m.addMenu("&Device"), self.action)

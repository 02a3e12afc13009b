"""The main window's menus: one place that lists every action with its access key and
shortcut (File, Edit, Model, Device, View, Help), and the Model menu's list of models."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QMenu,
)

from translator_app.gui.model_list import discover
from translator_app.gui.recent_files import RecentFiles


class MenusMixin:
    """Methods of :class:`~translator_app.gui.window.MainWindow` (a mixin: ``self`` is the
    window)."""

    def _action(self, menu: QMenu, text: str, slot, shortcut=None, checkable=False) -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.setCheckable(checkable)
        action.triggered.connect(slot)
        menu.addAction(action)
        self.all_actions.append(action)
        return action

    def _build_menus(self) -> None:
        self.all_actions: list[QAction] = []
        bar = self.menuBar()
        self._file_menu(bar.addMenu("&File"))
        self._edit_menu(bar.addMenu("&Edit"))
        self._view_menu(bar.addMenu("&View"))
        self._model_menu(bar.addMenu("&Model"))
        m = bar.addMenu("&Help")
        self._action(m, "&Keyboard shortcuts", self.shortcuts_dialog, "F1")
        self._action(m, "&About", self.about_dialog)
        self.rebuild_model_menu()
        for action in self.correction.actions:
            action.setEnabled(False)

    def _file_menu(self, m) -> None:
        self._action(m, "&Open text or document…", self.open_file_dialog, QKeySequence.Open)
        self.recent = RecentFiles(
            self.settings,
            m.addMenu("Open &Recent"),
            self.open_file,
            say=self.show_message,
            changed=self.save_settings,
        )
        self._action(m, "&Save translation…", self.save_file_dialog, QKeySequence.Save)
        m.addSeparator()
        self._action(m, "&Quit", self.close, QKeySequence.Quit)

    def _edit_menu(self, m) -> None:
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
            self._action(m, text, partial(self.edit_command, method), key)
        m.addSeparator()
        self._action(m, "Translate &now", self.translate_now, "Ctrl+Return")
        self._action(m, "Copy the &whole translation", self.copy_translation, "Ctrl+Shift+C")
        self._action(m, "C&lear", self.clear, "Ctrl+L")
        self._action(m, "Word &details and alternatives", self.words.at_cursor, "Ctrl+D")
        self._action(
            m, "Loo&k up the German word", lambda: self.dictionary.look_up_at_cursor(), "Ctrl+K"
        )
        m.addSeparator()
        self._action(m, "Corr&ect the translation", self.begin_correction, "F2")
        self.correction.actions = [
            self._action(m, "&Save the correction", self.save_correction, "Ctrl+Shift+S"),
            self._action(m, "D&iscard the correction", self.discard_correction, "Esc"),
        ]
        self._action(m, "C&orrections…", self.corrections_dialog, "Ctrl+Shift+K")
        m.addSeparator()
        self._action(m, "Settin&gs…", self.settings_dialog, "Ctrl+,")

    def _view_menu(self, m) -> None:
        self.alignment_action = self.alignment_dock.toggleViewAction()
        self.alignment_action.setText("&Alignment panel")
        self.alignment_action.setShortcut(QKeySequence("F9"))
        m.addAction(self.alignment_action)
        self.all_actions.append(self.alignment_action)
        self.coverage_action = self._action(
            m, "&Coverage hint", self._toggle_coverage, "Ctrl+Shift+U", checkable=True
        )
        self._action(m, "Switch &layout", self._toggle_layout, "Ctrl+Shift+L")
        self._action(m, "&History…", self.history_dialog, "Ctrl+H")
        self._action(m, "&Export heatmap…", self.alignment.export_dialog, "Ctrl+E")

    def _model_menu(self, m) -> None:
        """The model list (rebuilt as models come and go), then fixed actions."""
        self.model_menu = m
        self.model_group = QActionGroup(self)
        self.model_actions: list[QAction] = []
        self.models_end = m.addSeparator()
        self._action(m, "Open model &folder…", self.open_model_dialog, "Ctrl+Shift+O")
        self._action(m, "&Import OPUS-MT model…", self.import_model_dialog)
        self._action(m, "Model &card…", self.model_card_dialog, "Ctrl+I")
        self._action(m, "&Teach the model…", self.teach_dialog, "Ctrl+T")
        self._action(m, "&Glossary…", self.glossary_dialog, "Ctrl+G")
        m.addSeparator()
        device_menu = m.addMenu("&Device")
        self.device_group = QActionGroup(self)
        self.device_actions: dict[str, QAction] = {}
        for name, label in (
            ("auto", "&Auto (CUDA when available)"),
            ("cpu", "C&PU"),
            ("cuda", "C&UDA"),
        ):
            a = self._action(
                device_menu, label, lambda _=False, n=name: self.choose_device(n), checkable=True
            )
            self.device_group.addAction(a)
            self.device_actions[name] = a

    def rebuild_model_menu(self) -> None:
        for a in self.model_actions:
            self.model_group.removeAction(a)
            self.model_menu.removeAction(a)
        self.model_actions = []
        current = self.session.model_path or ""
        for entry in discover(self.settings.extra_models):
            a = QAction(entry.label, self, checkable=True)
            a.setData(entry.path)
            a.setToolTip(entry.path)  # the folder, for the curious: names are for people
            a.setStatusTip(entry.path)
            a.setChecked(same_folder(entry.path, current))
            a.triggered.connect(lambda _=False, e=entry: self.choose_model(e))
            self.model_group.addAction(a)
            self.model_menu.insertAction(self.models_end, a)
            self.model_actions.append(a)
        self.device_actions[self.settings.device].setChecked(True)


def same_folder(a: str, b: str) -> bool:
    try:
        return bool(a and b) and Path(a).resolve() == Path(b).resolve()
    except OSError:
        return a == b

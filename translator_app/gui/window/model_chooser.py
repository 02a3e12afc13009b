"""Which model translates, on which device: the Model menu's list of models and its
Device menu, getting a published model (Get models…), opening a model folder, importing
an OPUS-MT model, Teach's "Use this model", and the status bar's model label while a
model loads.

Handed what it uses (the session that loads, the settings that remember the choice, the
messages, the model label) by the window, which keeps what a loaded model changes in its
panes (:meth:`MainWindow._on_model_loaded`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QFileDialog, QLabel, QMenu, QMessageBox, QWidget

from translator_app.core import bundled_model_dir
from translator_app.core.platform.hardware import DEVICES
from translator_app.gui.shared.model_list import ModelEntry, discover, is_bundle
from translator_app.gui.shared.places import documents_dir
from translator_app.gui.window.importer import FILE_FILTER, ModelImporter

if TYPE_CHECKING:
    from translator_app.gui.dialogs.get_models_dialog import GetModelsDialog
    from translator_app.gui.shared.notices import Messages
    from translator_app.gui.shared.settings import Settings
    from translator_app.gui.translating.session import TranslationSession
    from translator_app.gui.translating.worker_messages import Failure, ModelInfo

# make_action(menu, text, slot, shortcut=None, checkable=False) -> QAction: the window's
# one way to add a menu entry (window_menus.py), so that F1 lists every shortcut.
ActionMaker = Callable[..., QAction]

READY_TEXT = "The English translation appears here as you type."
LOADING_TEXT = "Loading the model… What you type is translated as soon as it is ready."
# The menu label of each of core DEVICES (the settings file and --device hold the names).
DEVICE_LABELS = {"auto": "&Auto (CUDA when available)", "cpu": "C&PU", "cuda": "C&UDA"}


class ModelChooser(QObject):
    def __init__(
        self,
        parent: QWidget,
        settings: Settings,
        session: TranslationSession,
        messages: Messages,
        label: QLabel,
        placeholder: Callable[[str], None],
        save_settings: Callable[[], None],
    ) -> None:
        super().__init__(parent)
        self.parent_widget, self.settings, self.session = parent, settings, session
        self.messages, self.label = messages, label
        self.placeholder, self.save_settings = placeholder, save_settings
        self.importer = ModelImporter(self)
        self.importer.finished.connect(self._imported)
        self.importer.failed.connect(messages.error)
        self.get_models: GetModelsDialog | None = None  # made on first use, then kept
        self.actions: list[QAction] = []  # one per model in the menu, the current ticked
        self.device_actions: dict[str, QAction] = {}

    # ------------------------------------------------------------------- menu
    def add_to_menu(self, menu: QMenu, make_action: ActionMaker) -> None:
        """The list of models (filled by :meth:`rebuild_menu`), then opening and importing."""
        self.menu = menu
        self.group = QActionGroup(self)
        self.models_end = menu.addSeparator()
        make_action(menu, "G&et models…", self.get_models_dialog)
        make_action(menu, "Open model &folder…", self.open_folder_dialog, "Ctrl+Shift+O")
        make_action(menu, "&Import OPUS-MT model…", self.import_dialog)

    def add_device_menu(self, menu: QMenu, make_action: ActionMaker) -> None:
        self.device_group = QActionGroup(self)
        for name in DEVICES:
            text = DEVICE_LABELS[name]
            a = make_action(
                menu, text, lambda _=False, n=name: self.choose_device(n), checkable=True
            )
            self.device_group.addAction(a)
            self.device_actions[name] = a

    def rebuild_menu(self) -> None:
        """The models found now (bundled, the user's, opened folders), the current ticked."""
        for a in self.actions:
            self.group.removeAction(a)
            self.menu.removeAction(a)
        self.actions = []
        current = self.session.model_path or ""
        for entry in discover(self.settings.extra_models):
            a = QAction(entry.label, self, checkable=True)
            a.setData(entry.path)
            a.setToolTip(entry.path)  # the folder, for the curious: names are for people
            a.setStatusTip(entry.path)
            a.setChecked(same_folder(entry.path, current))
            a.triggered.connect(lambda _=False, e=entry: self.choose(e))
            self.group.addAction(a)
            self.menu.insertAction(self.models_end, a)
            self.actions.append(a)
        self.device_actions[self.settings.device].setChecked(True)

    # ---------------------------------------------------------------- loading
    def load(self, path: str) -> None:
        if not is_bundle(Path(path)):
            self.label.setText("No model")
            self.messages.error(
                f"No model at {path}. Use Model → Open model folder… to choose one."
            )
            return
        self.label.setText(f"Loading {Path(path).name}…")
        # What is typed meanwhile is kept and translated as soon as the model is ready.
        self.placeholder(LOADING_TEXT)
        self.session.load(path, self.settings.device)

    def loaded(self, info: ModelInfo) -> None:
        self.placeholder(READY_TEXT)
        self.label.setText(f"Model: {info.name}")
        if self.settings.device == "cuda" and not info.device.startswith("cuda"):
            # CUDA was asked for and is not usable here: tick (and save) what is really in
            # use. "auto" takes CUDA by itself once the machine has it.
            self.settings.device = "auto"
        self.rebuild_menu()

    def load_failed(self, failure: Failure) -> None:
        info = self.session.model_info
        self.placeholder(
            READY_TEXT if info else "No model is loaded: choose one in the Model menu."
        )
        self.label.setText(f"Model: {info.name}" if info else "No model")
        self.messages.error(f"Could not load the model: {failure.message}")
        self.rebuild_menu()

    def choose(self, entry: ModelEntry) -> None:
        self.settings.model = "" if entry.origin == "bundled" else entry.path
        self.load(entry.path)

    def choose_device(self, device: str) -> None:
        self.settings.device = device
        if self.session.model_path:
            self.load(self.session.model_path)

    def use(self, path: str) -> None:
        """Switch to a model (Teach's "Use this model", an import) and keep the choice for
        the next start; the text is retranslated once it has loaded."""
        self.settings.model = path
        self.save_settings()
        self.load(path)

    def removed(self, path: str) -> None:
        """Teach deleted a model: the bundled one takes over if it was in use."""
        info = self.session.model_info
        if info is not None and same_folder(info.path, path):
            self.load(str(bundled_model_dir()))
        self.rebuild_menu()

    # ---------------------------------------------------------- other folders
    def open_folder_dialog(self) -> None:
        path = QFileDialog.getExistingDirectory(
            self.parent_widget, "Open a model folder", documents_dir()
        )
        if path:
            self.open_folder(path)

    def open_folder(self, path: str) -> None:
        if not is_bundle(Path(path)):
            self.messages.error(f"{path} is not a model folder (no config.json and weights)")
            return
        if path not in self.settings.extra_models:
            self.settings.extra_models.append(path)
        self.settings.model = path
        self.load(path)
        self.rebuild_menu()

    def import_dialog(self) -> None:
        if self.importer.busy:
            self.messages.show("An import is already running.")
            return
        path, _ = QFileDialog.getOpenFileName(
            self.parent_widget, "Import a downloaded OPUS-MT model", documents_dir(), FILE_FILTER
        )
        if path:
            name = self.importer.start(path)
            self.messages.show(f"Importing {name}… (this takes a few seconds)", 0)

    def get_models_dialog(self) -> GetModelsDialog | None:
        """Model → Get models…: the catalogue, downloads and their progress (one dialog,
        shown again while a download runs)."""
        from translator_app.core.downloads.catalogue import CatalogueError, load_catalogue
        from translator_app.gui.dialogs.get_models_dialog import GetModelsDialog, ModelDownloader

        if self.get_models is None:
            try:
                entries = load_catalogue()
            except CatalogueError as e:
                self.messages.error(f"The list of models could not be read: {e}")
                return None
            self.get_models = GetModelsDialog(
                entries,
                ModelDownloader(self),
                self._downloaded,
                self.removed,
                self.parent_widget,
            )
        self.get_models.refresh()
        self.get_models.show()
        self.get_models.raise_()
        return self.get_models

    def _downloaded(self, path: str) -> None:
        """A fetched model is installed: list it, and offer to translate with it (the
        choice is kept for the next start)."""
        self.rebuild_menu()
        name = Path(path).name
        answer = QMessageBox.question(
            self.get_models or self.parent_widget,
            "Use the new model?",
            f"{name} is installed. Translate with it now? The bundled model stays in the "
            "Model menu.",
        )
        if answer == QMessageBox.Yes:
            self.use(path)
            self.messages.show(f"Translating with {name} (Model menu).", 10000)
        else:
            self.messages.show(f"{name} is in the Model menu.", 10000)

    def _imported(self, path: str) -> None:
        self.rebuild_menu()
        self.use(path)
        self.messages.show(f"Imported {Path(path).name}; it is now in use (Model menu).", 10000)


def same_folder(a: str, b: str) -> bool:
    try:
        return bool(a and b) and Path(a).resolve() == Path(b).resolve()
    except OSError:
        return a == b

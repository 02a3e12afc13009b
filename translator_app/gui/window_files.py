"""The main window's files: opening and saving text, dropping a file on the window,
opening and importing model folders."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import (
    QFileDialog,
)

from translator_app.core.platform.paths import (
    write_atomic,
)
from translator_app.gui.dialogs import (
    documents_dir,
)
from translator_app.gui.importer import FILE_FILTER
from translator_app.gui.models import is_bundle

MAX_OPEN_BYTES = 5_000_000


class FilesMixin:
    """Methods of :class:`~translator_app.gui.window.MainWindow` (a mixin: ``self`` is the
    window)."""

    def open_file(self, path: str) -> bool:
        try:
            p = Path(path)
            if p.stat().st_size > MAX_OPEN_BYTES:
                raise ValueError(f"larger than {MAX_OPEN_BYTES // 1_000_000} MB")
            text = p.read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError as e:
            self.show_notice(f"Could not open {path}: not UTF-8 text (byte {e.start})")
            return False
        except (OSError, ValueError) as e:
            self.show_notice(f"Could not open {path}: {e}")
            return False
        self.source_edit.setPlainText(text.replace("\r\n", "\n"))
        self.show_message(f"Opened {path}")
        self.translate_now()
        return True

    def save_file(self, path: str) -> bool:
        try:
            # Atomic: a failed save never leaves the user's earlier file half-written.
            write_atomic(Path(path), self.output_edit.toPlainText() + "\n")
        except OSError as e:
            self.show_notice(f"Could not save {path}: {e}")
            return False
        self.show_message(f"Saved the translation to {path}")
        return True

    def open_file_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Open German text", documents_dir(), "Text files (*.txt);;All files (*)"
        )
        if path:
            self.open_file(path)

    def save_file_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self,
            "Save translation",
            str(Path(documents_dir()) / "translation.txt"),
            "Text files (*.txt)",
        )
        if path:
            self.save_file(path)

    def _file_drop(self, event) -> bool:
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        files = [u.toLocalFile() for u in urls if u.isLocalFile()]
        if not files:
            return False  # plain text drops: the editor handles them
        event.acceptProposedAction()
        if event.type() == QEvent.Drop:
            self.open_file(files[0])
        return True

    def dragEnterEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802 - Qt's name
        files = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if files:
            self.open_file(files[0])

    def open_model_dialog(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Open a model folder", documents_dir())
        if path:
            self.open_model_folder(path)

    def import_model_dialog(self) -> None:
        if self.importer.busy:
            self.show_message("An import is already running.")
            return
        path, _ = QFileDialog.getOpenFileName(
            self, "Import a downloaded OPUS-MT model", documents_dir(), FILE_FILTER
        )
        if path:
            name = self.importer.start(path)
            self.show_message(f"Importing {name}… (this takes a few seconds)", 0)

    def _on_imported(self, path: str) -> None:
        self.rebuild_model_menu()
        self.use_model(path)
        self.show_message(f"Imported {Path(path).name}; it is now in use (Model menu).", 10000)

    def open_model_folder(self, path: str) -> None:
        if not is_bundle(Path(path)):
            self.show_error(f"{path} is not a model folder (no config.json and weights)")
            return
        if path not in self.settings.extra_models:
            self.settings.extra_models.append(path)
        self.settings.model = path
        self.load_model(path)
        self.rebuild_model_menu()

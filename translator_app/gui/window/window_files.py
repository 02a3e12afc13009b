"""The main window's files: opening and saving text and documents (.docx, .odt), and
dropping a file on the window.

An opened document shows its text as the German, one line per paragraph (or table
cell, or stretch between a picture and a tab); saving the translation as the same kind
writes the document again with its structure and formatting and the English in place
(core/documents). Lines may be edited, but not added or removed, for that to work."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QFileDialog, QPlainTextEdit, QWidget

from translator_app.core.documents import (
    RICH_KINDS,
    SUFFIXES,
    DocumentError,
    RichDocument,
    document_text,
    open_document,
    read_text,
    save_translation,
)
from translator_app.core.platform.paths import (
    write_atomic,
)
from translator_app.gui.shared.places import documents_dir

if TYPE_CHECKING:
    from translator_app.gui.shared.notices import Messages
    from translator_app.gui.translating.session import TranslationSession

MAX_OPEN_BYTES = 5_000_000
DOCUMENT_KINDS = {suffix: f"{name} (*{suffix})" for suffix, name in RICH_KINDS.items()}
OPEN_FILTER = ";;".join(
    [f"German text and documents ({' '.join('*' + s for s in SUFFIXES)})", "Text files (*.txt)"]
    + list(DOCUMENT_KINDS.values())
    + ["All files (*)"]
)


class DocumentFiles:
    """Opening the user's text and documents into the German box and saving the
    translation: handed the two boxes, the session (its document is the current
    translation), the messages, and what to do once a file is open (the window adds it
    to the recent files and translates)."""

    def __init__(
        self,
        parent: QWidget,
        source_edit: QPlainTextEdit,
        output_edit: QPlainTextEdit,
        session: TranslationSession,
        messages: Messages,
        opened: Callable[[str], None],
    ) -> None:
        self.parent, self.source_edit, self.output_edit = parent, source_edit, output_edit
        self.session, self.messages, self.opened = session, messages, opened
        self.document: tuple[Path, RichDocument] | None = None  # the opened .docx or .odt

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.parent, "Open German text or a document", documents_dir(), OPEN_FILTER
        )
        if path:
            self.open(path)

    def save_dialog(self) -> None:
        filters, name = self.save_name()
        path, _ = QFileDialog.getSaveFileName(
            self.parent, "Save translation", str(name), ";;".join(filters)
        )
        if path:
            self.save(path)

    def drop(self, event) -> bool:
        """A drag or drop of files (on the window or the German box): the first file is
        opened; False for other drops (plain text: the editor takes it)."""
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        files = [u.toLocalFile() for u in urls if u.isLocalFile()]
        if not files:
            return False
        event.acceptProposedAction()
        if event.type() == QEvent.Drop:
            self.open(files[0])
        return True

    def open(self, path: str) -> bool:
        p = Path(path)
        if p.suffix.lower() in DOCUMENT_KINDS:
            return self._open_document(p)
        try:
            text = read_text(p, MAX_OPEN_BYTES)
        except DocumentError as e:
            self.messages.lasting(f"Could not open {e}")
            return False
        self.document = None
        self.source_edit.setPlainText(text)
        self.messages.show(f"Opened {path}")
        self.opened(path)
        return True

    def _open_document(self, path: Path) -> bool:
        try:
            document = open_document(path)
        except DocumentError as e:
            self.messages.lasting(f"Could not open {e}")
            return False
        self.document = (path, document)
        self.source_edit.setPlainText(document_text(document))
        self.messages.show(
            f"Opened {path}: one line per paragraph; File → Save translation… writes a "
            f"{path.suffix.lower()} with the same layout"
        )
        self.opened(str(path))
        return True

    def save(self, path: str) -> bool:
        if Path(path).suffix.lower() in DOCUMENT_KINDS:
            return self._save_document(Path(path))
        try:
            # Atomic: a failed save never leaves the user's earlier file half-written.
            write_atomic(Path(path), self.output_edit.toPlainText() + "\n")
        except OSError as e:
            self.messages.lasting(f"Could not save {path}: {e}")
            return False
        self.messages.show(f"Saved the translation to {path}")
        return True

    def _save_document(self, path: Path) -> bool:
        kind = path.suffix.lower()
        if self.document is None or self.document[0].suffix.lower() != kind:
            self.messages.lasting(
                f"Could not save {path}: a {kind} translation is made from a {kind} "
                "document opened with File → Open; save the text as .txt instead"
            )
            return False
        # The session's document is the one source of the current translation.
        current = self.session.document.view()
        german = self.source_edit.toPlainText()
        if not current.complete or current.source != german:
            self.messages.show("The translation is not finished yet: save again in a moment.")
            return False
        english = self.output_edit.toPlainText()
        try:
            save_translation(
                self.document[1], current, path, None if english == current.output else english
            )
        except ValueError:
            lines = len(german.split("\n"))
            paragraphs = len(self.document[1].stretches)
            self.messages.lasting(
                f"Could not save {path}: the document has {paragraphs} paragraphs and the "
                f"text now has {lines} lines; undo the added or removed lines, or save as .txt"
            )
            return False
        except DocumentError as e:
            self.messages.lasting(f"Could not save {e}")
            return False
        self.messages.show(f"Saved the translated document to {path}")
        return True

    def save_name(self) -> tuple[list[str], Path]:
        """The save dialog's filters and name: the opened document's kind first (same
        folder, NAME.en.EXT), else a .txt in the documents folder."""
        filters, name = ["Text files (*.txt)"], Path(documents_dir()) / "translation.txt"
        if self.document is not None:
            source = self.document[0]
            kind = source.suffix.lower()
            filters.insert(0, DOCUMENT_KINDS[kind])
            name = source.with_name(f"{source.stem}.en{kind}")
        return filters, name

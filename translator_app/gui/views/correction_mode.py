"""Correction mode: the user edits the English output, and saving keeps the (German,
corrected English) pairs of the edited sentences for the next fine-tune."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QPlainTextEdit

from translator_app.core.data.corrections import CorrectionsStore, describe_pairs, pairs_from_edit


def correction_banner() -> QLabel:
    """The line that says correction mode is on, shown above the English box it applies
    to, in full (a status-bar line was cut short and easily missed)."""
    label = QLabel(
        "Correcting the translation: Ctrl+Shift+S keeps it for the next fine-tune, Esc discards it"
    )
    label.setAccessibleName("Correction mode")
    label.setWordWrap(True)
    label.setStyleSheet(
        "QLabel { background: palette(highlight); color: palette(highlighted-text);"
        " padding: 4px; border-radius: 3px; }"
    )
    label.hide()
    return label


class CorrectionController(QObject):
    """Switches the output box between read-only and editable and keeps the edits."""

    message = Signal(str)  # for the status bar
    error = Signal(str)
    ended = Signal(bool)  # True: the correction was kept; False: discarded

    def __init__(
        self,
        output: QPlainTextEdit,
        label: QLabel,
        store: CorrectionsStore,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.output, self.label, self.store = output, label, store
        self.active = False
        self.source = self.original = ""  # the German and the English being corrected
        self.actions: list[QAction] = []  # enabled only while correcting (save, discard)
        output.textChanged.connect(self._on_edited)

    def use_actions(self, actions: list[QAction]) -> None:
        """The menu's Save and Discard entries: enabled only while correcting."""
        self.actions = list(actions)
        for action in self.actions:
            action.setEnabled(self.active)

    def begin(self, source: str, output: str) -> bool:
        """Let the user edit ``output``, the translation of ``source``."""
        if self.active:
            return False
        if not output.strip():
            self.message.emit("There is no translation to correct yet")
            return False
        self.source, self.original = source, output
        self._set_active(True)
        self._on_edited()
        self.output.setFocus()
        return True

    def edited_pairs(self) -> list[tuple[str, str]]:
        return pairs_from_edit(self.source, self.original, self.output.toPlainText())

    def _on_edited(self) -> None:
        """While correcting, the status bar says which pairs a save would keep."""
        if self.active:
            pairs = self.edited_pairs()
            self.label.setText(
                f"Correcting: Ctrl+Shift+S {describe_pairs(pairs)}; Esc discards"
                if pairs
                else "Correcting the translation: edit the English, then Ctrl+Shift+S keeps "
                "it for the next fine-tune; Esc discards"
            )

    def save(self) -> int:
        """Store the pairs whose English the user edited; returns how many were new."""
        if not self.active:
            return 0
        pairs = self.edited_pairs()
        if not pairs:
            self.discard()
            self.message.emit("Nothing was edited, so nothing was kept")
            return 0
        try:
            added = self.store.add(pairs)
        except OSError as e:
            self.error.emit(f"Could not save the correction: {e}")
            return 0
        self._set_active(False)
        self.ended.emit(True)
        self.message.emit(
            f"Kept {len(pairs)} corrected pair(s) for the next fine-tune "
            f"({len(self.store.pairs)} in all; Edit → Corrections…)"
        )
        return added

    def discard(self) -> None:
        if self.active:
            self._set_active(False)
            self.ended.emit(False)

    def _set_active(self, on: bool) -> None:
        self.active = on
        self.output.setReadOnly(not on)
        self.output.setTextInteractionFlags(
            Qt.TextEditorInteraction
            if on
            else Qt.TextSelectableByMouse | Qt.TextSelectableByKeyboard
        )
        self.label.setVisible(on)
        for action in self.actions:
            action.setEnabled(on)

"""The corrections dialog: the user's saved (German, corrected English) pairs, to review,
delete or export (the store itself is core/data/corrections.py)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidgetItem,
    QVBoxLayout,
)

from translator_app.core.data.corrections import CorrectionsStore, Pair, write_tsv
from translator_app.gui.shared.places import documents_dir
from translator_app.gui.shared.screen import fit_resize, pair_table, save_cancel_buttons


class CorrectionsDialog(QDialog):
    """View, edit, delete and export the collected corrections."""

    def __init__(self, store: CorrectionsStore, parent=None) -> None:
        super().__init__(parent)
        self.store = store
        self.setWindowTitle("Corrections")
        self.setAccessibleName("Corrections")
        fit_resize(self, 820, 460)
        self.info = QLabel()
        self.table = pair_table("Corrected pairs", ("German", "Corrected English"), 380)
        delete = QPushButton("&Delete selected")
        delete.clicked.connect(self.delete_selected)
        export = QPushButton("&Export TSV…")
        export.clicked.connect(self.export_dialog)
        buttons = save_cancel_buttons(self, self.save_and_close)
        row = QHBoxLayout()
        row.addWidget(delete)
        row.addWidget(export)
        row.addStretch(1)
        row.addWidget(buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(self.info)
        layout.addWidget(self.table)
        layout.addLayout(row)
        self.fill(store.pairs)

    def fill(self, pairs: list[Pair]) -> None:
        self.shown = list(pairs)  # what the user edits: the save applies only the edit
        self.table.setRowCount(len(pairs))
        for r, (de, en) in enumerate(pairs):
            for c, text in enumerate((de, en)):
                item = QTableWidgetItem(text)
                item.setFlags(item.flags() | Qt.ItemIsEditable)
                self.table.setItem(r, c, item)
        self.info.setWordWrap(True)
        if not pairs:
            self.info.setText(
                "No corrections yet. To add one, press F2 (Edit → Correct the translation) "
                "in the main window, fix the English, and press Ctrl+Shift+S to keep it. "
                "Kept corrections are listed here and used by Model → Teach the model."
            )
            return
        self.info.setText(
            f"{len(pairs)} pair(s), used by Model → Teach the model. Double-click a cell to edit."
        )

    def table_pairs(self) -> list[Pair]:
        return [
            (self.table.item(r, 0).text(), self.table.item(r, 1).text())
            for r in range(self.table.rowCount())
        ]

    def delete_selected(self) -> None:
        for r in sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True):
            self.table.removeRow(r)
        self.info.setText(f"{self.table.rowCount()} pair(s) (not saved yet)")

    def save_and_close(self) -> None:
        try:
            self.store.replace(self.table_pairs(), self.shown)
        except OSError as e:
            self.info.setText(f"Could not save: {e}")
            return
        self.accept()

    def export_to(self, path: str) -> str:
        """Export what the table shows; returns a message for the user."""
        pairs = self.table_pairs()
        try:
            write_tsv(Path(path), pairs)
        except OSError as e:
            return f"Could not export: {e}"
        return f"Exported {len(pairs)} pair(s) to {path}"

    def export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self,
            "Export corrections",
            str(Path(documents_dir()) / "corrections.tsv"),
            "TSV (*.tsv)",
        )
        if path:
            self.info.setText(self.export_to(path))

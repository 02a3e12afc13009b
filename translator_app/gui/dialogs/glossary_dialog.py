"""Model → Glossary…: the user's German terms and the English each must become.

A table to add, edit and remove terms, with TSV import and export. The glossary is kept
in the user's data folder (glossary.tsv) and applies to every translation of a model
trained with term annotations; for other models the dialog says so.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableWidgetItem,
    QVBoxLayout,
)

from translator_app.core.data.corpus import DataError
from translator_app.core.faithful.glossary import (
    Glossary,
    parse_glossary,
    read_glossary,
    write_glossary,
)
from translator_app.core.platform.paths import user_data_dir
from translator_app.gui.shared.screen import fit_resize, pair_table, save_cancel_buttons

GLOSSARY_FILE = "glossary.tsv"


def glossary_path() -> Path:
    return user_data_dir() / GLOSSARY_FILE


def load_user_glossary() -> tuple[Glossary, str | None]:
    """The saved glossary, and a message when the file cannot be used (it is kept)."""
    path = glossary_path()
    if not path.exists():
        return Glossary(), None
    try:
        return read_glossary(path), None
    except DataError as e:
        return Glossary(), f"The glossary was not loaded: {e}"


class RowError(ValueError):
    """A row of the table that is not a term; the message names the row."""


class GlossaryDialog(QDialog):
    """Edit the glossary; ``glossary`` holds the result after Save."""

    def __init__(self, glossary: Glossary, follows: bool, parent=None) -> None:
        super().__init__(parent)
        self.glossary = glossary
        self.setWindowTitle("Glossary")
        self.setAccessibleName("Glossary")
        fit_resize(self, 640, 420)
        self.info = QLabel(
            "Each German term (its inflected forms too) is translated as the English you "
            "give. Used terms are underlined in the translation."
            if follows
            else "The current model was not trained to follow a glossary: the terms are "
            "kept and used with a model that was."
        )
        self.info.setWordWrap(True)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.table = pair_table("Glossary terms", ("German", "English"), 280)
        add = QPushButton("&Add term")
        add.setToolTip("A new row: type the German term, then its English")
        add.clicked.connect(self.add_row)
        remove = QPushButton("&Remove selected")
        remove.clicked.connect(self.remove_selected)
        load = QPushButton("&Import TSV…")
        load.setToolTip("Add the terms of a file of German<TAB>English lines")
        load.clicked.connect(self.import_dialog)
        export = QPushButton("&Export TSV…")
        export.clicked.connect(self.export_dialog)
        buttons = save_cancel_buttons(self, self.save_and_close)
        row = QHBoxLayout()
        for b in (add, remove, load, export):
            row.addWidget(b)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.info)
        layout.addWidget(self.table)
        layout.addWidget(self.error)
        layout.addLayout(row)
        layout.addWidget(buttons)
        self.fill(glossary)

    def fill(self, glossary: Glossary) -> None:
        terms = sorted(glossary.terms, key=lambda t: t.source.casefold())
        self.table.setRowCount(len(terms))
        for r, term in enumerate(terms):
            for c, text in enumerate((term.source, term.target)):
                item = QTableWidgetItem(text)
                item.setFlags(item.flags() | Qt.ItemIsEditable)
                self.table.setItem(r, c, item)

    def add_row(self) -> None:
        r = self.table.rowCount()
        self.table.insertRow(r)
        for c in range(2):
            self.table.setItem(r, c, QTableWidgetItem(""))
        self.table.setCurrentCell(r, 0)
        self.table.scrollToItem(self.table.item(r, 0))
        # The table takes the focus from the button first: under a user's window manager
        # typing went to the button, not to the new row (not seen without one).
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)
        self.table.editItem(self.table.item(r, 0))

    def remove_selected(self) -> None:
        for r in sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True):
            self.table.removeRow(r)

    def current(self) -> Glossary:
        """The table as a glossary (empty rows skipped); a bad row raises RowError."""
        lines = []
        for r in range(self.table.rowCount()):
            cells = [self.table.item(r, c) for c in range(2)]
            de, en = (c.text().strip().replace("\t", " ") if c else "" for c in cells)
            if de or en:
                lines.append(f"{de}\t{en}")
        try:
            return parse_glossary("\n".join(lines) + "\n", "table")
        except DataError as e:  # a line of the text is a row of the table here
            raise RowError(f"Row {e.line}: {e.problem}") from None

    def import_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Import glossary", "", "Glossary (*.tsv *.txt);;All files (*)"
        )
        if not path:
            return
        self.import_file(path)

    def import_file(self, path: str | Path) -> None:
        """Add a file's terms to the table; where a German term is in both with another
        English, the user chooses which to keep (:meth:`choose_for_conflicts`)."""
        try:
            extra = read_glossary(path)
            mine = {t.source.casefold(): t for t in self.current().terms}
        except (DataError, RowError) as e:
            self.say(str(e), ok=False)
            return
        conflicts = [
            (mine[k], t)
            for t in extra.terms
            if (k := t.source.casefold()) in mine and mine[k].target != t.target
        ]
        take_file = self.choose_for_conflicts(conflicts, Path(path).name) if conflicts else True
        if take_file is None:
            self.say("Import cancelled; the glossary is unchanged.", ok=True)
            return
        merged = dict(mine)
        for t in extra.terms:
            k = t.source.casefold()
            if k not in mine or take_file:
                merged[k] = t
        self.fill(Glossary(tuple(merged.values())))
        new = sum(t.source.casefold() not in mine for t in extra.terms)
        said = f"Imported {Path(path).name}: {_terms(new)} new"
        if conflicts:
            which = "taken from the file" if take_file else "kept as they were"
            said += f"; {_terms(len(conflicts))} with other English {which}"
        self.say(said + ".", ok=True)

    def choose_for_conflicts(self, conflicts, name: str) -> bool | None:
        """Ask whether the file's English replaces the glossary's for terms in both:
        True (the file's), False (keep mine) or None (cancel the import)."""
        box = QMessageBox(self)
        box.setWindowTitle("Terms in both")
        box.setIcon(QMessageBox.Question)
        shown = "\n".join(f"{a.source}: {a.target} / {b.target}" for a, b in conflicts[:10])
        more = f"\n… and {len(conflicts) - 10} more" if len(conflicts) > 10 else ""
        box.setText(
            f"{len(conflicts)} German terms of {name} are in your glossary with another "
            f"English (yours / the file's):\n\n{shown}{more}"
        )
        file_button = box.addButton("Use the file's", QMessageBox.AcceptRole)
        mine_button = box.addButton("Keep mine", QMessageBox.RejectRole)
        box.addButton(QMessageBox.Cancel)
        box.exec()
        if box.clickedButton() is file_button:
            return True
        if box.clickedButton() is mine_button:
            return False
        return None

    def say(self, text: str, ok: bool) -> None:
        """A message under the table: a success in the normal colour, a problem in red."""
        self.error.setStyleSheet("" if ok else "color: #c00000")
        self.error.setText(text)

    def export_dialog(self) -> None:
        try:
            glossary = self.current()
        except RowError as e:
            self.say(str(e), ok=False)
            return
        path, _ = QFileDialog.getSaveFileName(
            self, "Export glossary", "glossary.tsv", "Glossary (*.tsv)"
        )
        if path:
            try:
                write_glossary(path, glossary)
            except OSError as e:
                self.say(f"Could not write {path}: {e.strerror or e}", ok=False)

    def save_and_close(self) -> None:
        try:
            glossary = self.current()
            write_glossary(glossary_path(), glossary)
        except RowError as e:
            self.say(str(e), ok=False)
            return
        except OSError as e:
            self.say(f"Could not save the glossary: {e.strerror or e}", ok=False)
            return
        self.glossary = glossary
        self.accept()


def _terms(n: int) -> str:
    return f"{n} term" if n == 1 else f"{n} terms"

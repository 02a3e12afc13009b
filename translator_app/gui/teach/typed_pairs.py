"""Pairs typed into the Teach dialog or pasted from a spreadsheet: a two-column table,
German and English, with an empty row at the end to type the next pair into.

A paste of several lines lays them out as a spreadsheet copies them (rows by line,
columns by tab) from the current cell on; one line without a tab fills the current
cell only. ``changed`` is emitted once typing rests (``REST_MS``), not at each key.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtWidgets import QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from translator_app.core.data.corpus import Pair

REST_MS = 400
GERMAN, ENGLISH = 0, 1


def parse_pasted(text: str) -> list[list[str]]:
    """Clipboard text as rows of cells: lines split by tab, a spreadsheet's trailing
    line end dropped. parse_pasted("Brot\\tbread\\nKuchen\\tcake\\n") → [["Brot",
    "bread"], ["Kuchen", "cake"]]."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.split("\t") for line in lines]


class TypedPairs(QWidget):
    """The table and its heading; :meth:`pairs` are the complete rows, :meth:`problems`
    say which rows lack a side (left out)."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = QTableWidget(1, 2)
        self.table.setHorizontalHeaderLabels(["German", "English"])
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setColumnWidth(GERMAN, 320)
        self.table.setAccessibleName("Pairs typed or pasted")
        self.table.setToolTip(
            "Type a German sentence and its English, or paste two columns from a spreadsheet"
        )
        self.table.installEventFilter(self)
        self.table.itemChanged.connect(self._edited)
        self._rest = QTimer(self)
        self._rest.setSingleShot(True)
        self._rest.setInterval(REST_MS)
        self._rest.timeout.connect(self.changed)
        label = QLabel("Or type or &paste pairs (two columns from a spreadsheet):")
        label.setBuddy(self.table)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(label)
        layout.addWidget(self.table)

    def rows(self) -> list[tuple[str, str]]:
        """Every row's (German, English), stripped; the empty ones too."""
        return [
            tuple(self._text(r, c) for c in (GERMAN, ENGLISH)) for r in range(self.table.rowCount())
        ]

    def pairs(self) -> list[Pair]:
        return [(de, en) for de, en in self.rows() if de and en]

    def problems(self) -> list[str]:
        """'row 3: no English (left out)' for each row with one side only."""
        out = []
        for i, (de, en) in enumerate(self.rows(), 1):
            if bool(de) != bool(en):
                out.append(f"row {i}: no {'English' if de else 'German'} (left out)")
        return out

    def paste(self, text: str) -> None:
        """Lay ``text`` out from the current cell (see the module)."""
        cells = parse_pasted(text)
        if not cells:
            return
        row0, col0 = max(0, self.table.currentRow()), max(0, self.table.currentColumn())
        self.table.blockSignals(True)
        for r, line in enumerate(cells):
            if row0 + r >= self.table.rowCount():
                self.table.insertRow(self.table.rowCount())
            for c, value in enumerate(line[: 2 - col0]):
                self.table.setItem(row0 + r, col0 + c, QTableWidgetItem(value.strip()))
        self.table.blockSignals(False)
        self._edited()

    def _text(self, row: int, col: int) -> str:
        item = self.table.item(row, col)
        return item.text().strip() if item is not None else ""

    def _edited(self, _item=None) -> None:
        """Keep one empty row at the end to type into; say so once typing rests."""
        last = self.table.rowCount() - 1
        if last < 0 or any(self._text(last, c) for c in (GERMAN, ENGLISH)):
            self.table.insertRow(self.table.rowCount())
        self._rest.start()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if (
            obj is self.table
            and event.type() == QEvent.Type.ShortcutOverride
            and event.matches(QKeySequence.StandardKey.Paste)
        ):
            event.accept()  # the table's paste, not an Edit menu's shortcut
            return True
        if obj is self.table and event.type() == QEvent.Type.KeyPress:
            if event.matches(QKeySequence.StandardKey.Paste):
                self.paste(QGuiApplication.clipboard().text())
                return True
            editing = self.table.state() == QTableWidget.State.EditingState
            if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and not editing:
                for item in self.table.selectedItems():
                    item.setText("")
                return True
        return super().eventFilter(obj, event)

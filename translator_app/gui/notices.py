"""The info bar above the text: problems with the user's files stay in view until
dismissed (a status-bar message would be replaced by the next "Loaded …" at once)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QWidget


class NoticeBar(QFrame):
    """Shows each distinct notice once, all of them until Dismiss."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Notice")
        self.setFrameShape(QFrame.StyledPanel)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.AlternateBase)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 8, 4)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.label.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        dismiss = QPushButton("Dismiss")
        dismiss.setAccessibleName("Dismiss the notice")
        dismiss.clicked.connect(self.dismiss)
        row.addWidget(self.label, 1)
        row.addWidget(dismiss, 0, Qt.AlignTop)
        self.notices: list[str] = []
        self.hide()

    def add(self, text: str) -> bool:
        """Show ``text`` (False: it is shown already)."""
        if text in self.notices:
            return False
        self.notices.append(text)
        self.label.setText("\n".join(self.notices))
        self.show()
        return True

    def dismiss(self) -> None:
        self.notices.clear()
        self.hide()

"""The window's messages: the info bar above the text, where problems with the user's
files stay in view until dismissed (a status-bar message would be replaced by the next
"Loaded …" at once), and :class:`Messages`, which decides where each message goes."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QStatusBar,
    QWidget,
)


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


class ElidingStatusBar(QStatusBar):
    """A status bar whose passing message ends in "…" where it would run under the
    widgets on its right (at scale 2 "… may not keep verdreifacht (triple" ran into
    "Model: de-en-base"); the whole message is its tooltip."""

    def __init__(self) -> None:
        super().__init__()
        self.messageChanged.connect(self.setToolTip)

    def message_room(self) -> int:
        """The width left of the leftmost visible permanent widget, margins taken off."""
        right = self.width() - 12  # the size grip
        for widget in self.findChildren(QWidget):
            if widget.isVisible() and widget.parent() is self and widget.x() > 0:
                right = min(right, widget.x())
        return max(0, right - 12)

    def shown_message(self) -> str:
        """The passing message as it is drawn: whole, or cut to its room with "…"."""
        return self.fontMetrics().elidedText(
            self.currentMessage(), Qt.TextElideMode.ElideRight, self.message_room()
        )

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's)
        if not self.currentMessage():
            super().paintEvent(event)
            return
        painter = QPainter(self)
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        painter.drawText(
            QRect(6, 0, self.message_room(), self.height()),
            int(Qt.AlignmentFlag.AlignLeading | Qt.AlignmentFlag.AlignVCenter),
            self.shown_message(),
        )


class Messages:
    """The window's messages, composed into it with the two places they go: a passing
    status-bar message, a problem shown once (in the status bar), and a notice that stays
    in the info bar. ``last_error`` is the latest problem shown, for the window's tests
    and its About box's report."""

    def __init__(self, status_bar: QStatusBar, notice: NoticeBar) -> None:
        self.status_bar, self.notice = status_bar, notice
        self.shown_errors: set[str] = set()
        self.last_error = ""
        self._about_text = ""  # the passing message about the text in the box, if shown

    def show(self, text: str, ms: int = 5000) -> None:
        self.status_bar.showMessage(text, ms)

    def about_text(self, text: str, ms: int = 15000) -> None:
        """A passing message about the text in the box ("the English may not keep …"):
        taken back by :meth:`text_changed` while it still shows."""
        self.status_bar.showMessage(text, ms)
        self._about_text = text

    def text_changed(self) -> None:
        """The text in the box changed (typed, pasted, cleared, undone): a message about
        the old text no longer holds and goes, where it still shows."""
        if self._about_text and self.status_bar.currentMessage() == self._about_text:
            self.status_bar.clearMessage()
        self._about_text = ""

    def error(self, text: str) -> None:
        """Each distinct problem is shown once, in the status bar (never a dialog storm)."""
        if text in self.shown_errors:
            return
        self.shown_errors.add(text)
        self.status_bar.showMessage(text, 15000)
        self.last_error = text

    def lasting(self, text: str) -> None:
        """A problem the user must see (a damaged or unusable file of theirs): it stays in
        the info bar above the text until dismissed."""
        if self.notice.add(text):
            self.last_error = text

    def dismiss(self) -> None:
        self.notice.dismiss()

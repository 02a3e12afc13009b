"""Windows that fit the screen they open on (issue 32: a fixed 1100x700 window left
Copy, Export and the status bar off a 1024x640 screen; issue 48 §7: the Teach dialog
asked for 1528x952 at scale 2)."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QPlainTextEdit,
    QScrollArea,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

# The share of the available screen a window may take at most when it opens.
MAX_SHARE = 0.92


def available_size(widget: QWidget) -> tuple[int, int] | None:
    """The available geometry of the screen ``widget`` opens on, in logical pixels (a
    scale factor accounted for), or None where there is no screen."""
    screen = widget.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        return None
    available = screen.availableGeometry()
    return available.width(), available.height()


def fit_resize(widget: QWidget, width: int, height: int) -> None:
    """Resize ``widget`` to ``width`` x ``height``, or less where the available screen
    geometry (logical pixels, so a scale factor is accounted for) is smaller."""
    available = available_size(widget)
    if available is not None:
        width = min(width, int(available[0] * MAX_SHARE))
        height = min(height, int(available[1] * MAX_SHARE))
    widget.resize(width, height)


def scrolling(body: QLayout) -> QScrollArea:
    """``body`` in a frameless scroll area that gives it the whole width."""
    inner = QWidget()
    inner.setLayout(body)
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.NoFrame)
    scroll.setWidget(inner)
    return scroll


def scrolling_page(page: QWidget, body: QLayout, buttons: QLayout) -> QWidget:
    """Lay ``page`` out as ``body`` in a scroll area above ``buttons``: on a small or
    scaled screen (QT_SCALE_FACTOR=2 on 1400x900 leaves 700x450) the body scrolls and
    the buttons (Start, Close) stay in sight, where a fixed layout asked for more than
    the screen (issue 48 §7)."""
    scroll = scrolling(body)
    outer = QVBoxLayout(page)
    outer.setContentsMargins(0, 0, 0, 0)
    outer.addWidget(scroll, 1)
    outer.addLayout(buttons)
    return page


def close_buttons(dialog: QDialog) -> QDialogButtonBox:
    """A Close button that closes ``dialog`` (more buttons may be added to the box)."""
    box = QDialogButtonBox(QDialogButtonBox.Close)
    box.rejected.connect(dialog.reject)
    return box


def save_cancel_buttons(dialog: QDialog, save) -> QDialogButtonBox:
    """Save (calls ``save``) and Cancel (closes ``dialog`` without saving)."""
    box = QDialogButtonBox(QDialogButtonBox.Save | QDialogButtonBox.Cancel)
    box.accepted.connect(save)
    box.rejected.connect(dialog.reject)
    return box


def pair_table(name: str, headers: tuple[str, str], first_width: int) -> QTableWidget:
    """A German | English table of whole rows (the glossary's terms, the corrections)."""
    table = QTableWidget(0, 2)
    table.setAccessibleName(name)
    table.setHorizontalHeaderLabels(list(headers))
    table.horizontalHeader().setStretchLastSection(True)
    table.setColumnWidth(0, first_width)
    table.setSelectionBehavior(QAbstractItemView.SelectRows)
    return table


def labelled_box(
    title: str, edit: QPlainTextEdit, *buttons: QWidget, banner: QWidget | None = None
) -> QWidget:
    """``edit`` under a header naming its language (with ``buttons`` on the right) and
    an optional ``banner`` between the two."""
    box = QWidget()
    column = QVBoxLayout(box)
    column.setContentsMargins(4, 4, 4, 0)
    column.setSpacing(2)
    header = QHBoxLayout()
    label = QLabel(f"<b>{title}</b>")
    label.setBuddy(edit)
    header.addWidget(label)
    header.addStretch(1)
    for button in buttons:
        header.addWidget(button)
    column.addLayout(header)
    if banner is not None:
        column.addWidget(banner)
    column.addWidget(edit, 1)
    return box

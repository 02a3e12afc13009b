"""Windows that fit the screen they open on (issue 32: a fixed 1100x700 window left
Copy, Export and the status bar off a 1024x640 screen)."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

# The share of the available screen a window may take at most when it opens.
MAX_SHARE = 0.92


def fit_resize(widget: QWidget, width: int, height: int) -> None:
    """Resize ``widget`` to ``width`` x ``height``, or less where the available screen
    geometry (logical pixels, so a scale factor is accounted for) is smaller."""
    screen = widget.screen() or QGuiApplication.primaryScreen()
    if screen is not None:
        available = screen.availableGeometry()
        width = min(width, int(available.width() * MAX_SHARE))
        height = min(height, int(available.height() * MAX_SHARE))
    widget.resize(width, height)

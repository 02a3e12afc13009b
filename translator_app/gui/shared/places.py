"""Where the window's file dialogs start (a module of its own: five parts of the window
needed only this from the dialogs module, issue 62 §2)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QStandardPaths


def documents_dir() -> str:
    """Where file dialogs start: the user's documents folder (home if there is none)."""
    found = QStandardPaths.writableLocation(QStandardPaths.DocumentsLocation)
    return found if found and Path(found).is_dir() else str(Path.home())

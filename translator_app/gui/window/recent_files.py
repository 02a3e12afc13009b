"""File → Open Recent: the texts and documents the user opened last, newest first, kept
in the settings (issue 48 §7). A composed helper: it is handed the settings, its menu
and what opens a file, and shares no state with the window."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QMenu

from translator_app.gui.shared.settings import Settings

MAX_RECENT = 10


def remembered(paths: list[str], path: str, limit: int = MAX_RECENT) -> list[str]:
    """``paths`` with ``path`` first (once, as an absolute path), at most ``limit``."""
    path = str(Path(path).absolute())
    return [path, *(p for p in paths if p != path)][:limit]


class RecentFiles:
    """Keeps ``settings.recent_files`` and fills ``menu`` from it each time it opens."""

    def __init__(
        self,
        settings: Settings,
        menu: QMenu,
        open_file: Callable[[str], bool],
        say: Callable[[str], object] = lambda _text: None,  # a status-bar message
        changed: Callable[[], object] = lambda: None,  # saves the settings
    ) -> None:
        self.settings = settings
        self.menu = menu
        self.open_file = open_file
        self.say = say
        self.changed = changed
        menu.aboutToShow.connect(self.fill)
        self.fill()

    def add(self, path: str) -> None:
        """A file was opened: it becomes the first entry."""
        self.settings.recent_files = remembered(self.settings.recent_files, path)
        self.changed()
        self.fill()

    def fill(self) -> None:
        self.menu.clear()
        paths = self.settings.recent_files
        if not paths:
            self.menu.addAction("No recent files").setEnabled(False)
            return
        for i, path in enumerate(paths, start=1):
            p = Path(path)
            label = f"&{i % 10} {p.name}    {p.parent}"
            action = self.menu.addAction(label)
            action.setData(path)
            action.setToolTip(path)
            action.triggered.connect(lambda _=False, path=path: self.open_recent(path))
        self.menu.addSeparator()
        self.menu.addAction("&Clear the list", self.clear)

    def open_recent(self, path: str) -> None:
        """Open an entry; one that is gone is said so and leaves the list."""
        if not Path(path).is_file():
            self.settings.recent_files = [p for p in self.settings.recent_files if p != path]
            self.say(f"{path} is no longer there; it was removed from the recent files")
            self.changed()
            self.fill()
            return
        self.open_file(path)

    def clear(self) -> None:
        self.settings.recent_files = []
        self.changed()
        self.fill()

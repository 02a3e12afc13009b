"""Model → Import model…: turn a downloaded OPUS-MT (Marian) model into a bundle in the
user's models folder, off the GUI thread (reading a 300 MB model takes seconds).

The user picks one file: ``config.json`` of a Hugging Face folder, the ``.npz`` of an
OPUS-MT release folder, or a release ``.zip``. Only strings cross threads.
"""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from translator_app.core.platform.paths import free_model_folder

FILE_FILTER = "Marian / OPUS-MT models (config.json *.npz *.zip);;All files (*)"


def import_source(picked: str) -> Path:
    """The folder (or zip) to import, from the file the user picked."""
    path = Path(picked)
    return path if path.suffix.lower() == ".zip" else path.parent


class ModelImporter(QObject):
    """Runs one import at a time in a thread; reports with ``finished(path)`` or
    ``failed(message)``, each naming what happened in plain words."""

    finished = Signal(str)
    failed = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.busy = False

    def start(self, picked: str) -> str:
        """Start importing; returns the model's name for the status bar."""
        src = import_source(picked)
        name = src.stem if src.suffix.lower() == ".zip" else src.name
        out = free_model_folder(name)
        self.busy = True
        threading.Thread(target=self._run, args=(src, out, name), daemon=True).start()
        return name

    def _run(self, src: Path, out: Path, name: str) -> None:
        from translator_app.core.engine.bundle import BundleError
        from translator_app.core.importers.marian import MarianImportError, import_marian

        problem = None
        try:
            import_marian(src, out, name=name)
        except (MarianImportError, BundleError) as e:  # they name the file themselves
            problem = f"Could not import the model: {e}"
        except (OSError, ValueError, RuntimeError, MemoryError) as e:
            problem = f"Could not import the model from {src}: {e}"
        self.busy = False  # before the signal: its handler may start the next import
        if problem:
            self.failed.emit(problem)
        else:
            self.finished.emit(str(out))

"""Model → Import model…: turn a downloaded OPUS-MT (Marian) model into a bundle in the
user's models folder, off the GUI thread (reading a 300 MB model takes seconds).

The user picks one file: ``config.json`` of a Hugging Face folder, the ``.npz`` of an
OPUS-MT release folder, or a release ``.zip``. Only strings cross threads.
"""

from __future__ import annotations

from pathlib import Path

from translator_app.core.platform.paths import free_model_folder
from translator_app.gui.shared.background_job import BackgroundJob

FILE_FILTER = "Marian / OPUS-MT models (config.json *.npz *.zip);;All files (*)"


def import_source(picked: str) -> Path:
    """The folder (or zip) to import, from the file the user picked."""
    path = Path(picked)
    return path if path.suffix.lower() == ".zip" else path.parent


class ModelImporter(BackgroundJob):
    """Runs one import at a time in a thread; reports with ``finished(path)`` or
    ``failed(message)``, each naming what happened in plain words."""

    def start(self, picked: str) -> str:
        """Start importing; returns the model's name for the status bar."""
        from translator_app.core.engine.bundle import BundleError
        from translator_app.core.importers.marian import MarianImportError, import_marian

        src = import_source(picked)
        name = src.stem if src.suffix.lower() == ".zip" else src.name
        out = free_model_folder(name)

        def explain(e: BaseException) -> str:
            if isinstance(e, MarianImportError | BundleError):  # they name the file themselves
                return f"Could not import the model: {e}"
            return f"Could not import the model from {src}: {e}"

        self.run(
            lambda: import_marian(src, out, name=name),
            explain,
            (MarianImportError, BundleError, OSError, ValueError, RuntimeError, MemoryError),
        )
        return name

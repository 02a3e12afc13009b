"""One job at a time in a thread, its outcome told by Qt signals: ``finished(result)``
with what the work returned (as text), or ``failed(message)``, one sentence made from
an expected exception. Only strings cross threads. Model imports and downloads use it.

    job.run(lambda: str(import_marian(src, out)), lambda e: f"Could not import: {e}",
            (MarianImportError, OSError))
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal


class BackgroundJob(QObject):
    finished = Signal(str)
    failed = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.busy = False

    def run(
        self,
        work: Callable[[], object],
        explain: Callable[[BaseException], str],
        expected: tuple[type[BaseException], ...],
    ) -> None:
        """Start ``work`` in a thread; an ``expected`` exception becomes ``explain(e)``."""
        self.busy = True
        threading.Thread(target=self._run, args=(work, explain, expected), daemon=True).start()

    def _run(self, work, explain, expected) -> None:
        result, problem = None, None
        try:
            result = work()
        except expected as e:
            problem = explain(e)
        self.busy = False  # before the signal: its handler may start the next job
        if problem:
            self.failed.emit(problem)
        else:
            self.finished.emit(str(result))

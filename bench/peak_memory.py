"""A child process's exact peak resident memory, for the benches that run one.

:class:`PeakPopen` is a ``subprocess.Popen`` that reaps its child with ``os.wait4``, which
returns the child's resource usage; ``peak_mb(proc)`` then reads its ``ru_maxrss``: the
kernel's high-water mark of the child (or of the largest of its own reaped children), not
a sample that can fall between two peaks.
"""

from __future__ import annotations

import os
import subprocess


class PeakPopen(subprocess.Popen):
    """Popen that reaps with wait4, so that the child's peak memory is known."""

    def _try_wait(self, wait_flags):
        try:
            pid, status, usage = os.wait4(self.pid, wait_flags)
        except ChildProcessError:
            return (self.pid, 0)
        if pid:
            self._bench_rusage = usage
        return (pid, status)


def peak_mb(proc: subprocess.Popen) -> float:
    """The reaped child's peak resident memory in MB: NaN before ``wait``/``communicate``
    has reaped it (``poll`` reaps without wait4), or for a Popen that is not a
    :class:`PeakPopen`."""
    usage = getattr(proc, "_bench_rusage", None)
    return usage.ru_maxrss / 1024 if usage else float("nan")

"""Sets split into the half a check was built on and the half held out (issue 61 §1):
the odd data lines of a TSV are "built on", the even ones "held out"."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

Row = TypeVar("Row")


def read_halves(
    path: Path, columns: int, what: str, make: Callable[[list[str], int], Row]
) -> dict[str, list[Row]]:
    """``make(columns, line number)`` of each data line of ``path`` (tab-separated, ``#``
    comments and blank lines skipped), the odd data lines under "built on", the even under
    "held out"; a line without ``columns`` non-empty columns raises ValueError naming the
    file, the line and ``what`` it should hold."""
    halves: dict[str, list[Row]] = {"built on": [], "held out": []}
    rows = 0
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = [c.strip() for c in line.split("\t")]
        if len(cols) != columns or not all(cols):
            raise ValueError(f"{path}:{n}: expected {what}")
        rows += 1
        halves["built on" if rows % 2 else "held out"].append(make(cols, n))
    return halves

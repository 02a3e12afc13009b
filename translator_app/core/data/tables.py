"""Tables: tab-separated data files (one row a line; ``#`` lines are comments that say
what the columns hold), read by one reader for the app's word lists (resources/lists) and
the trainer's tables (trainer/data). Word lists are data, not Python (issue 62 §1)."""

from __future__ import annotations

from pathlib import Path


def read_table(path: Path, columns: int | None = None) -> list[tuple[str, ...]]:
    """The rows of a table; with ``columns``, a row of another width is an error naming
    the file and line."""
    rows = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = tuple(c.strip() for c in line.split("\t"))
        if columns is not None and len(cells) != columns:
            raise ValueError(f"{path}:{number}: {len(cells)} columns, expected {columns}")
        rows.append(cells)
    return rows

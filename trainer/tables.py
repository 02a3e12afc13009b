"""The trainer's tables: tab-separated data files under ``trainer/data`` (one row a line,
``#`` lines are comments that name the columns; trainer/data/README.md lists them), read
by one reader. Corpora and word lists are data, not Python (issue 62 §1)."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


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


def rows(folder: str, name: str) -> list[tuple[str, ...]]:
    """``trainer/data/FOLDER/NAME.tsv``, every row as wide as its first."""
    path = DATA / folder / f"{name}.tsv"
    table = read_table(path)
    return read_table(path, len(table[0])) if table else table


def words(folder: str, name: str) -> list[str]:
    """A one-column table as a list of words."""
    return [row[0] for row in read_table(DATA / folder / f"{name}.tsv", 1)]

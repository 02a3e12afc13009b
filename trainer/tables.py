"""The trainer's tables: tab-separated data files under ``trainer/data`` (one row a line,
``#`` lines are comments that name the columns; trainer/data/README.md lists them), read
by the one reader of core/data/tables.py, which the app's own lists share. Corpora and
word lists are data, not Python (issue 62 §1)."""

from __future__ import annotations

from pathlib import Path

from translator_app.core.data.tables import read_table

__all__ = ["DATA", "read_table", "rows", "words"]

DATA = Path(__file__).resolve().parent / "data"


def rows(folder: str, name: str) -> list[tuple[str, ...]]:
    """``trainer/data/FOLDER/NAME.tsv``, every row as wide as its first."""
    path = DATA / folder / f"{name}.tsv"
    table = read_table(path)
    return read_table(path, len(table[0])) if table else table


def words(folder: str, name: str) -> list[str]:
    """A one-column table as a list of words."""
    return [row[0] for row in read_table(DATA / folder / f"{name}.tsv", 1)]

"""Translation history in a local SQLite database (user's data folder).

Translating as one types finishes a translation on nearly every pause; storing each would
fill the history with prefixes of one sentence. So an entry is *updated* while the user
keeps editing the same text (within ``merge_seconds``) and a new one is started otherwise.

A damaged database never stops the app: it is moved aside, a fresh one is created, and
:attr:`History.problem` says so once. A database that cannot be opened (locked by another
process, a read-only or full folder) is not damaged: it is left alone and the session
runs without history (:attr:`History.available` is False).
"""

from __future__ import annotations

import sqlite3
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from translator_app.core.platform.paths import move_aside

SCHEMA = """
CREATE TABLE IF NOT EXISTS history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created REAL NOT NULL,
    source TEXT NOT NULL,
    output TEXT NOT NULL,
    model TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS history_created ON history(created);
CREATE INDEX IF NOT EXISTS history_entry ON history(source, output, model);
"""


@dataclass(frozen=True)
class Entry:
    id: int
    created: float
    source: str
    output: str
    model: str


class OtherSchema(sqlite3.DatabaseError):
    """The file is a database whose history table has other columns."""


class History:
    def __init__(self, path: Path, merge_seconds: float = 10.0, busy_timeout: float = 2.0) -> None:
        self.path = path
        self.merge_seconds = merge_seconds
        self.busy_timeout = busy_timeout
        self.problem = ""
        self._last_id: int | None = None
        self._last_time = 0.0
        self._last_source = ""
        self._last_model = ""
        self.db: sqlite3.Connection | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.db = self._open()
        except OtherSchema as e:
            self.db = self._recover(e)
        except sqlite3.OperationalError as e:
            # Locked by another process, a read-only or full folder: the file is not
            # damaged, so it is left alone and this session runs without history.
            self.problem = _unavailable(path, e)
        except sqlite3.DatabaseError as e:
            self.db = self._recover(e)
        except OSError as e:
            self.problem = _unavailable(path, e)

    @property
    def available(self) -> bool:
        return self.db is not None

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=self.busy_timeout)
        # SQLite's LIKE folds ASCII only („äpfel“ would miss „Äpfel“): search and compare
        # with Python's Unicode folding instead.
        db.create_function("fold", 1, _fold, deterministic=True)
        db.create_function("squash", 1, _squash, deterministic=True)
        db.create_function("near", 1, _near, deterministic=True)
        try:
            try:
                db.executescript(SCHEMA)
                db.execute(
                    "SELECT id, created, source, output, model FROM history LIMIT 1"
                ).fetchall()
            except sqlite3.OperationalError as e:
                # A database of another program or version: not locked, not ours. It
                # is moved aside like a damaged one, so history works again.
                if "no such column" in str(e) or "has no column" in str(e):
                    raise OtherSchema(f"it holds a history table of another kind: {e}") from None
                raise
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("integrity check failed")
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _recover(self, error: Exception) -> sqlite3.Connection | None:
        aside = move_aside(self.path)
        if aside is None:
            self.problem = (
                f"The history database {self.path} is damaged ({error}) and could not be "
                "moved aside; it was left as it is, and this session runs without history."
            )
            return None
        try:
            db = self._open()
        except (sqlite3.DatabaseError, OSError) as e:
            db = None
            started = f"a new one could not be started ({e}), so this session runs without history"
        else:
            started = "a new one was started"
        self.problem = (
            f"The history database {self.path} was damaged ({error}); {started}, "
            f"and the old file was kept as {aside.name}."
        )
        return db

    # ---------------------------------------------------------------- writing
    def record(self, source: str, output: str, model: str, now: float | None = None) -> int:
        """Store a finished translation; returns the entry id."""
        now = time.time() if now is None else now
        source, output = source.strip(), output.strip()
        if self.db is None or not source or not output:
            return self._last_id or 0
        # The same text being edited, or the same text again with another English by the
        # same model (a word alternative chosen, then undone), or the last text carried on
        # or cut short after a pause: one entry, the final one.
        last = self._last_source
        continuing = self._last_id is not None and (
            (now - self._last_time < self.merge_seconds and _related(last, source))
            or (
                model == self._last_model
                and (_near(last) == _near(source) or _extends(last, source))
            )
        )
        with self.db:
            # One entry per (source, output, model): a model reload or a forced
            # re-decode that gives the same result moves the entry up, not a copy.
            # Texts that differ only in spacing, case or a closing stop are the same entry.
            same = self.db.execute(
                "SELECT id, source, output FROM history WHERE near(source)=? AND near(output)=? "
                "AND model=? AND id!=?",
                (_near(source), _near(output), model, self._last_id if continuing else -1),
            ).fetchone()
            if continuing and same is not None:
                self.db.execute("DELETE FROM history WHERE id=?", (same[0],))
            if continuing:
                self.db.execute(
                    "UPDATE history SET created=?, source=?, output=?, model=? WHERE id=?",
                    (now, source, output, model, self._last_id),
                )
            elif same is not None:  # moved up, in its newest writing but for spacing
                if _squash(same[1]) == _squash(source) and _squash(same[2]) == _squash(output):
                    source, output = same[1], same[2]
                self.db.execute(
                    "UPDATE history SET created=?, source=?, output=? WHERE id=?",
                    (now, source, output, same[0]),
                )
                self._last_id = same[0]
            else:
                cur = self.db.execute(
                    "INSERT INTO history (created, source, output, model) VALUES (?,?,?,?)",
                    (now, source, output, model),
                )
                self._last_id = cur.lastrowid
        self._last_time, self._last_source, self._last_model = now, source, model
        return self._last_id

    def delete(self, entry_id: int) -> None:
        if self.db is None:
            return
        with self.db:
            self.db.execute("DELETE FROM history WHERE id=?", (entry_id,))
        if entry_id == self._last_id:
            self._last_id = None

    def clear(self) -> None:
        if self.db is None:
            return
        with self.db:
            self.db.execute("DELETE FROM history")
        self._last_id = None

    # ---------------------------------------------------------------- reading
    def search(self, text: str = "", limit: int = 500) -> list[Entry]:
        """Newest first; ``text`` matches source or output, case-insensitively in any
        script („äpfel“ finds „Äpfel“)."""
        if self.db is None:
            return []
        wanted = _fold(text)
        rows = self.db.execute(
            "SELECT id, created, source, output, model FROM history "
            "WHERE instr(fold(source), ?) > 0 OR instr(fold(output), ?) > 0 "
            "ORDER BY created DESC, id DESC LIMIT ?",
            (wanted, wanted, limit),
        ).fetchall()
        return [Entry(*row) for row in rows]

    def __len__(self) -> int:
        if self.db is None:
            return 0
        return self.db.execute("SELECT COUNT(*) FROM history").fetchone()[0]

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None


def _unavailable(path: Path, error: Exception) -> str:
    locked = "locked" in str(error) or "busy" in str(error)
    why = "it is in use by another program" if locked else str(error)
    return (
        f"The history is off for this session: {path} cannot be opened ({why}). "
        "The file was left untouched."
    )


def _related(previous: str, current: str) -> bool:
    """The same text being edited: one is a prefix of the other, or they share most of
    their beginning."""
    if previous.startswith(current) or current.startswith(previous):
        return True
    n = min(len(previous), len(current))
    same = next((i for i in range(n) if previous[i] != current[i]), n)
    return same >= 0.5 * max(len(previous), len(current))


def _text(value) -> str:
    """A cell as text: a row written by another program may hold NULL or bytes."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)


def _fold(value) -> str:
    return unicodedata.normalize("NFKC", _text(value)).casefold()


def _squash(value) -> str:
    return " ".join(_text(value).split())


def _near(value) -> str:
    """A text as an entry is told apart: its spacing, case and closing stops aside
    („Guten Morgen!“ and „guten morgen“ are one entry)."""
    return _fold(_squash(value)).rstrip(" .!?…")


def _extends(previous: str, current: str) -> bool:
    """``current`` carries ``previous`` on, or cuts it short, by whole words: the same
    text after a pause („Guten Morgen“ → „Guten Morgen, wie geht's?“)."""
    a, b = _squash(previous), _squash(current)
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return bool(short) and long.startswith(short) and long[len(short) : len(short) + 1] in " ,.!?;:"

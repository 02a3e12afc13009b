"""Ding in an SQLite index (standard library): built once from the shipped ``.txt.xz``
into the user's cache, then each look-up is a few indexed queries (milliseconds) and
nothing of the dictionary stays in memory.

Tables: ``lines`` (line number -> Ding's line), ``forms`` (casefolded word -> line,
sub-entry, kind: 0 a headword, 1 another single-word sub-entry such as an inflected form
or a compound, 2 a word of a phrase) and ``english`` (each casefolded word of an English
side: what tells a German word left in the English from an English word). ``meta``
records the source's size and SHA-256 and the schema: a changed source or schema
rebuilds the index.
"""

from __future__ import annotations

import lzma
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from translator_app.core.dictionary.ding import WORD, german_words_of, parse_line, plain
from translator_app.core.platform.checksums import sha256_file
from translator_app.core.platform.paths import remove_dead_temporaries, temporary_name

SCHEMA = "4"  # bump when ding.py reads entries differently
HEADWORD, FORM, PHRASE = 0, 1, 2


class DictionaryError(Exception):
    """The dictionary file is missing or unreadable; the message names the file."""


def source_stamp(source: Path) -> str:
    """What identifies the dictionary file: its size and SHA-256, with the schema."""
    try:
        digest = sha256_file(source)
    except OSError as e:
        raise DictionaryError(f"{source}: cannot be read ({e.strerror or e})") from None
    return f"{SCHEMA}:{source.stat().st_size}:{digest}"


def _rows(source: Path, english: set[str]) -> Iterator[tuple[int, str, list[tuple[str, int, int]]]]:
    """(line number, line, [(form, sub-entry, kind)]) for each entry of the source; the
    casefolded words of its English sides are added to ``english``."""
    try:
        with lzma.open(source, "rt", encoding="utf-8") as f:
            for n, line in enumerate(f, start=1):
                subs = parse_line(line)
                keys: dict[tuple[str, int], int] = {}
                for s, sub in enumerate(subs):
                    english.update(w.casefold() for w in WORD.findall(plain(sub.english)))
                    single, phrase = german_words_of(sub.german)
                    for form in single:
                        kind = HEADWORD if s == 0 else FORM
                        key = (form.casefold(), s)
                        keys[key] = min(keys.get(key, kind), kind)
                    for word in phrase:
                        keys.setdefault((word.casefold(), s), PHRASE)
                if keys:
                    yield n, line.rstrip("\n"), [(f, s, k) for (f, s), k in keys.items()]
    except (OSError, lzma.LZMAError, EOFError, UnicodeDecodeError) as e:
        raise DictionaryError(f"{source}: not a readable xz text file ({e})") from None


def build_index(source: Path, target: Path, stamp: str) -> None:
    """Write the index of ``source`` to ``target`` (through a temporary file, so that a
    reader never sees half an index and two builders do not collide)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_dead_temporaries(target)  # 9-21 MB each, left by builds that were killed
    tmp = target.with_name(temporary_name(target.name, "tmp", hidden=False))
    tmp.unlink(missing_ok=True)
    db = sqlite3.connect(tmp)
    try:
        db.execute("PRAGMA journal_mode = OFF")
        db.execute("PRAGMA synchronous = OFF")
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        db.execute("CREATE TABLE lines (id INTEGER PRIMARY KEY, text TEXT)")
        db.execute("CREATE TABLE forms (form TEXT, line INTEGER, sub INTEGER, kind INTEGER)")
        db.execute("CREATE TABLE english (word TEXT PRIMARY KEY) WITHOUT ROWID")
        english: set[str] = set()
        for n, line, keys in _rows(source, english):
            db.execute("INSERT INTO lines VALUES (?, ?)", (n, line))
            db.executemany(
                "INSERT INTO forms VALUES (?, ?, ?, ?)", [(f, n, s, k) for f, s, k in keys]
            )
        db.executemany("INSERT INTO english VALUES (?)", ((w,) for w in sorted(english)))
        db.execute("CREATE INDEX forms_form ON forms (form, kind)")
        db.execute("INSERT INTO meta VALUES ('stamp', ?)", (stamp,))
        db.commit()
    except BaseException:
        db.close()
        tmp.unlink(missing_ok=True)
        raise
    db.close()
    os.replace(tmp, target)


def read_only(target: Path) -> sqlite3.Connection:
    """A read-only connection to the index at ``target``, whatever characters its path
    holds (a cache folder named "c#1" or "50%" broke the plain "file:" URI)."""
    return sqlite3.connect(f"{target.absolute().as_uri()}?mode=ro", uri=True)


_NAMES = ("meta", "lines", "forms", "forms_form", "english")
_TABLES = f"SELECT count(*) FROM sqlite_master WHERE name IN {_NAMES}"


def index_stamp(target: Path) -> str:
    """The stamp an existing index was built with; "" where it is missing, damaged or of
    another schema (its tables are not all there)."""
    if not target.is_file():
        return ""
    try:
        db = read_only(target)
        try:
            if db.execute(_TABLES).fetchone()[0] != len(_NAMES):
                return ""
            row = db.execute("SELECT value FROM meta WHERE key = 'stamp'").fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return ""
    return row[0] if row else ""

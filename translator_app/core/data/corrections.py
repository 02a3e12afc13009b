"""The user's corrections: (German, corrected English) pairs collected in the app, kept as
training data for the next fine-tune ("Teach the model"). Qt-free: the dialog that shows
them is gui/dialogs/corrections_dialog.py.

They live in one UTF-8 TSV file in the user's data folder, ``german<TAB>english`` per
line: the format ``translator-train`` reads, so the file is usable as it is. A line that
cannot be read is never dropped silently: the file is copied aside before it is rewritten
and :attr:`CorrectionsStore.problem` says so once.

Several windows may hold a store of the same file: each change is made to the file as it
is then (read again under a lock, the change applied, written back), never by writing
one window's older copy over another's pairs.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from translator_app.core.data.corpus import Pair
from translator_app.core.platform.paths import aside_path, file_lock, write_atomic


def _clean(text: str) -> str:
    """One line of TSV: tabs and line breaks become spaces."""
    return " ".join(text.replace("\t", " ").split())


def pairs_from_edit(source: str, original: str, corrected: str) -> list[Pair]:
    """The pairs to store when the user edited ``original`` (the translation of
    ``source``) into ``corrected``: only what the user changed.

    The output keeps the input's line structure (one output line per input line), so when
    all three have the same number of non-blank lines, line *i* of each is one pair, kept
    only if its English was edited: an unedited line is the model's own output, and a
    fine-tune would learn its errors. When the user changed the line structure, the whole
    text is one pair."""
    src_lines = [line for line in source.splitlines() if line.strip()]
    old_lines = [_clean(line) for line in original.splitlines() if line.strip()]
    new_lines = [_clean(line) for line in corrected.splitlines() if line.strip()]
    if src_lines and len(src_lines) == len(new_lines) == len(old_lines):
        pairs = [
            (_clean(de), en)
            for de, old, en in zip(src_lines, old_lines, new_lines, strict=True)
            if en != old
        ]
    elif _clean(corrected) != _clean(original):
        pairs = [(_clean(source), _clean(corrected))]
    else:
        pairs = []
    return [(de, en) for de, en in pairs if de and en]


def describe_pairs(pairs: list[Pair], limit: int = 3) -> str:
    """A short preview of the pairs a save would keep, for the correction-mode label."""
    if not pairs:
        return "nothing edited yet"
    shown = "; ".join(f"“{de}” → “{en}”" for de, en in pairs[:limit])
    more = f" and {len(pairs) - limit} more" if len(pairs) > limit else ""
    return f"keeps {len(pairs)} edited pair{'s' if len(pairs) != 1 else ''}: {shown}{more}"


class CorrectionsStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.problem = ""
        self._unreadable = False
        self._pairs: list[Pair] = []
        self._read_stamp: tuple | None = None
        self._refresh()

    @property
    def pairs(self) -> list[Pair]:
        """The pairs as the file holds them now (another window may have added some)."""
        self._refresh()
        return self._pairs

    def add(self, pairs: list[Pair]) -> int:
        """Append new pairs (an identical pair is stored once); returns how many were new."""
        with file_lock(self.path):
            self._refresh()
            seen = set(self._pairs)
            new = []
            for pair in ((_clean(de), _clean(en)) for de, en in pairs):
                if pair[0] and pair[1] and pair not in seen:
                    seen.add(pair)
                    new.append(pair)
            self._write(self._pairs + new)
        return len(new)

    def replace(self, pairs: list[Pair], shown: list[Pair] | None = None) -> None:
        """The user's edit of the list: ``pairs`` where they were shown ``shown``. Where
        the file changed since (another window kept a pair), only the edit is applied to
        it: the pairs removed or changed go, the new ones are appended."""
        wanted = [(_clean(de), _clean(en)) for de, en in pairs if de.strip() and en.strip()]
        with file_lock(self.path):
            self._refresh()
            if shown is not None and self._pairs != list(shown):
                removed = set(shown) - set(wanted)
                kept = [p for p in self._pairs if p not in removed]
                have = set(kept)
                wanted = kept + [p for p in dict.fromkeys(wanted) if p not in have]
            self._write(wanted)

    def export(self, path: Path) -> None:
        write_tsv(Path(path), self.pairs)

    def _write(self, pairs: list[Pair]) -> None:
        """Atomically rewrite the file; a file with unreadable lines is first kept aside."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self._unreadable and self.path.exists():
            shutil.copy2(self.path, aside_path(self.path))
            self._unreadable = False
        write_tsv(self.path, pairs)
        self._pairs = list(pairs)
        self._read_stamp = _stamp(self.path)

    def _refresh(self) -> None:
        stamp = _stamp(self.path)
        if stamp != self._read_stamp:
            self._pairs = self._load()
            self._read_stamp = stamp

    def _load(self) -> list[Pair]:
        if not self.path.exists():
            return []
        try:
            text = self.path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError) as e:
            self._unreadable = True
            self.problem = f"The corrections file {self.path} could not be read ({e})."
            return []
        pairs, bad = [], []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            de, sep, en = line.partition("\t")
            if sep and de.strip() and en.strip() and "\t" not in en:
                pairs.append((de.strip(), en.strip()))
            else:
                bad.append(number)
        if bad:
            self._unreadable = True
            lines = ", ".join(map(str, bad[:5])) + (" …" if len(bad) > 5 else "")
            self.problem = (
                f"{self.path}: line(s) {lines} are not 'German<TAB>English' and were skipped."
            )
        return pairs


def _stamp(path: Path) -> tuple | None:
    """What tells a changed file: its identity, size and modification time."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def write_tsv(path: Path, pairs: list[Pair]) -> None:
    """Write ``german<TAB>english`` lines atomically (a temporary file, then renamed)."""
    write_atomic(path, "".join(f"{_clean(de)}\t{_clean(en)}\n" for de, en in pairs))

"""German words left in the English (issue 60): the model copies a German word it cannot
translate („Teig“, „Lampe“, „Galaxie“) into the output, as it has learned to copy names.

A word of the output counts as German left in the English when it

- also stands in the German source (compared case-folded: "lampe" copies „Lampe“),
- is a German word of the Ding dictionary (any single-word form of any entry: „Pyramiden“
  is listed as the plural of „Pyramide“), and
- is no English word: no word of any English side of Ding ("Kindergarten", "Computer"
  and "Bus" are, so they do not count);

and it is not a name: a word that stands after a title or a first name in the source
(„Frau Schneider“, „Anna Koch“) is a surname, whatever it means as a noun. This check
holds the dictionary's words in memory, for counting over whole test sets; the
translator asks the dictionary's index (core/dictionary/index.py) the same questions.

    check = GermanLeftCheck.bundled()
    check.words("Den Teig gehen lassen.", "Let the Teig rise.")   # ("Teig",)
"""

from __future__ import annotations

import lzma
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from translator_app.core.dictionary.ding import WORD, forms, parse_line, plain
from translator_app.core.faithful.copied_words import copied_words


@dataclass(frozen=True)
class GermanLeftCheck:
    """``german``: case-folded single-word forms of Ding's German entries; ``english``:
    case-folded words of its English sides."""

    german: frozenset[str]
    english: frozenset[str]

    @classmethod
    def from_ding(cls, lines: Iterable[str]) -> GermanLeftCheck:
        german: set[str] = set()
        english: set[str] = set()
        for line in lines:
            for sub in parse_line(line):
                german.update(f.casefold() for f in forms(sub.german))
                english.update(w.casefold() for w in WORD.findall(plain(sub.english)))
        return cls(frozenset(german), frozenset(english))

    @classmethod
    def from_file(cls, path: Path) -> GermanLeftCheck:
        opener = lzma.open if str(path).endswith(".xz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            return cls.from_ding(f)

    @classmethod
    def bundled(cls) -> GermanLeftCheck:
        """The check over the app's own Ding file, read once per process (about 3 s)."""
        with _lock:
            global _bundled
            if _bundled is None:
                from translator_app.core.dictionary.lookup import SOURCE_NAME
                from translator_app.core.platform.paths import resources_dir

                _bundled = cls.from_file(resources_dir() / "dictionary" / SOURCE_NAME)
            return _bundled

    def is_german_word(self, word: str) -> bool:
        return word.casefold() in self.german

    def is_english_word(self, word: str) -> bool:
        return word.casefold() in self.english

    def words(self, source: str, output: str) -> tuple[str, ...]:
        """The words of ``output`` that are German left in the English, in order, as the
        output writes them (each occurrence; core/faithful/copied_words.py)."""
        return copied_words(self, source, output)


_lock = threading.Lock()
_bundled: GermanLeftCheck | None = None


def german_left_report(
    check: GermanLeftCheck,
    sources: Sequence[str],
    outputs: Sequence[str],
    references: Sequence[str] | None = None,
    examples: int = 10,
) -> dict:
    """How many German words stand in the English: ``count``, ``per_100`` sentences,
    ``sentences`` with any, and the most frequent words (word: count). With
    ``references``, a word the human translation keeps too (a club, a newspaper, a
    surname without a title: "Bayern", "Bild", "Hahn") is no error and is not counted;
    ``count_any`` and ``per_100_any`` then count every such word all the same."""
    counts: dict[str, int] = {}
    sentences = every = 0
    for i, (source, output) in enumerate(zip(sources, outputs, strict=True)):
        left = check.words(source, output)
        every += len(left)
        if references is not None:
            kept = {w.casefold() for w in WORD.findall(references[i])}
            left = tuple(w for w in left if w.casefold() not in kept)
        sentences += bool(left)
        for w in left:
            counts[w] = counts.get(w, 0) + 1
    total = sum(counts.values())
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:examples]
    report = {
        "count": total,
        "per_100": round(100 * total / max(len(sources), 1), 2),
        "sentences": sentences,
        "top": dict(top),
    }
    if references is not None:
        report |= {"count_any": every, "per_100_any": round(100 * every / max(len(sources), 1), 2)}
    return report

"""German words typed wrong, and the words they were meant to be (issue 89 §3: „Bis
morgn …“ lost its misspelt word without a sign).

A word is taken for a slip where pyspellchecker's German word list (MIT; 339,000 words
with their frequencies, from OpenSubtitles) does not hold it and holds a word one edit
away (a letter left out, added, changed or two swapped): „morgn“ → „morgen“, „Apoteke“
→ „Apotheke“. A word with nothing one edit away is left alone: a compound („Frühstücks-
brötchen“) or a name („Kowalczyk“) is no slip. So are words of under three letters,
abbreviations in capitals, words with capitals inside or digits, and the parts of a
hyphenated word, a word written twice in the text (a name, a term), a known word
inflected („Bahnübergangs“), and a word the caller's other vocabulary knows (the app
passes the dictionary's German: „Bauarbeiten“, „Minze“).

The list loads in about half a second: :func:`preload_in_background` loads it beside
the model, and until then :func:`misspellings` finds none rather than wait.

>>> [(m.word, m.suggestions[0]) for m in misspellings("Bis morgn!", wait=True)]
[('morgn', 'morgen')]
"""

from __future__ import annotations

import functools
import re
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from translator_app.core.language.words import german_words

MAX_CHARS = 20_000  # longer texts are not checked (a document's worth at once)
SUGGESTIONS = 3
MIN_LETTERS = 3

_WORD = re.compile(r"(?<![\w-])[^\W\d_]+(?![\w-])")
_lock = threading.Lock()
_checker = None


@dataclass(frozen=True)
class Misspelling:
    """``text[start:end]`` is ``word``, likely a slip for one of ``suggestions`` (the
    likeliest first, in the word's case)."""

    start: int
    end: int
    word: str
    suggestions: tuple[str, ...]


def preload() -> None:
    """Load the word list now (about half a second), once whichever thread asks first."""
    global _checker
    with _lock:
        if _checker is None:
            from spellchecker import SpellChecker

            _checker = SpellChecker(language="de", distance=1)


def preload_in_background() -> None:
    threading.Thread(target=preload, name="spelling", daemon=True).start()


def loaded() -> bool:
    return _checker is not None


def _cased(word: str, like: str) -> str:
    return word[:1].upper() + word[1:] if like[:1].isupper() else word


def judged(word: str) -> bool:
    """Whether ``word`` is one the check judges at all (see the module)."""
    if len(word) < MIN_LETTERS or not word.isalpha():
        return False
    return not (word.isupper() or any(c.isupper() for c in word[1:]))  # ABC, iPhone


@functools.cache
def _endings() -> tuple[str, ...]:
    return german_words("ending")


def _inflected(word: str, other: str) -> bool:
    """Whether ``word`` and ``other`` (lower case) differ by an ending of German
    inflection, one having it and the other not: „bahnübergangs“, „bahnübergang“."""
    short, long = sorted((word, other), key=len)
    return long.startswith(short) and long[len(short) :] in _endings()


def suggestions_for(word: str, known: Callable[[str], bool] | None = None) -> tuple[str, ...]:
    """The words one edit from ``word`` that the list holds, likeliest first, in its
    case; () where it holds ``word`` itself, where ``known`` does (another vocabulary:
    the dictionary's German), where ``word`` is one of them inflected, where none is,
    or while the list loads."""
    checker = _checker
    if checker is None or not judged(word):
        return ()
    lower = word.lower()
    if lower in checker:
        return ()
    found = checker.candidates(lower) or ()
    found = sorted(
        (w for w in found if w != lower and w in checker),
        key=lambda w: (-checker.word_usage_frequency(w), w),
    )
    if not found or any(_inflected(lower, w) for w in found):
        return ()
    if known is not None and known(word):
        return ()
    return tuple(_cased(w, word) for w in found[:SUGGESTIONS])


def misspellings(
    text: str, wait: bool = False, known: Callable[[str], bool] | None = None
) -> list[Misspelling]:
    """The slips in ``text`` (see the module), in text order; none where ``text`` is
    longer than ``MAX_CHARS``, or while the list loads (unless ``wait``: it loads now).
    A word written twice or more in ``text`` is meant so (a name, a term). ``known``:
    words another vocabulary holds (see :func:`suggestions_for`)."""
    if wait:
        preload()
    if _checker is None or len(text) > MAX_CHARS:
        return []
    words = list(_WORD.finditer(text))
    repeated = Counter(m.group() for m in words)
    out = []
    for m in words:
        if repeated[m.group()] > 1:
            continue
        found = suggestions_for(m.group(), known)
        if found:
            out.append(Misspelling(m.start(), m.end(), m.group(), found))
    return out


def known_by(dictionary) -> Callable[[str], bool]:
    """The words a bilingual dictionary holds, on either side: its German („Minze“,
    „Bauarbeiten“ inflected) and its English (a German text quotes „World“, „Spirit“)."""

    def known(word: str) -> bool:
        return dictionary.is_german_word(word) or dictionary.is_english_form(word)

    return known


def misspelling_at(
    text: str, pos: int, known: Callable[[str], bool] | None = None
) -> Misspelling | None:
    """The slip that covers ``text``'s character ``pos`` (or ends just before it)."""
    return next((m for m in misspellings(text, known=known) if m.start <= pos <= m.end), None)

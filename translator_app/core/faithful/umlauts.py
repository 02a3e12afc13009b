"""German typed without umlauts: „Ich habe den Schluessel fuer die Tuer vergessen.“, as a
keyboard without ä, ö, ü and ß writes it. The model learnt from German with them and
read such words as unknown ("I forgot the tie to the tuer."); it is given the words as
German writes them („Schlüssel“, „für“, „Tür“).

Which words: resources/lists/german-umlauts.tsv (scripts/build_word_lists.py), the words
of the training corpora written with ä, ö, ü or ß whose plain spelling (ae, oe, ue, ss)
the corpora hardly hold; „neue“, „Masse“ or „Busse“ are words of their own and stay. A
text that holds an umlaut or ß anywhere is left as it is: its writer has them.

The restored text is shorter than the user's; :func:`restore_umlauts` says where each of
its characters stands in the user's text, so that the pieces' spans can point there.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache

from translator_app.core.data.tables import read_table
from translator_app.core.faithful.casing import as_german_writes, written_case
from translator_app.core.platform.paths import resources_dir
from translator_app.core.text.clean import replaced, through, without_invisible
from translator_app.core.values import TermUse

UMLAUTS = resources_dir() / "lists" / "german-umlauts.tsv"
_WORD = re.compile(r"[^\W\d_]+")
_HAS_UMLAUT = re.compile(r"[äöüÄÖÜß]")
# How a keyboard without them writes each: the lower-case letter, its two letters.
PAIRS = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}
_WITHOUT = str.maketrans(PAIRS | {k.upper(): v.capitalize() for k, v in PAIRS.items() if k != "ß"})


@cache
def umlaut_words() -> Mapping[str, str]:
    """Plain spelling (lower case) -> the word with umlauts (read once, when needed)."""
    return {plain: word for plain, word in read_table(UMLAUTS, 2)}


def _as_typed(word: str, typed: str) -> str | None:
    """``word`` (lower case, with umlauts) in the case ``typed`` was written in; None
    where that case would change its length (ß in capitals is SS)."""
    if typed.isupper():
        written = word.upper()
    elif typed[:1].isupper():
        written = word[:1].upper() + word[1:]
    else:
        written = word
    return written if len(written) == len(word) else None


def _origins(typed: str, written: str, at: int) -> list[int] | None:
    """Where each character of ``written`` stands in ``typed`` (which starts at ``at`` in
    the user's text): a restored umlaut where its two letters begin. None where the two
    do not line up."""
    origins, i = [], 0
    for ch in written:
        pair = PAIRS.get(ch.lower())
        origins.append(at + i)
        i += 2 if pair is not None and typed[i : i + 2].lower() == pair else 1
    return origins if i == len(typed) else None


def restore_umlauts(
    text: str, words: Mapping[str, str] | None = None
) -> tuple[str, tuple[int, ...]] | None:
    """``text`` with each listed word written with its umlauts, and for each of its
    characters (and its end) where it stands in ``text``; None where there is nothing to
    restore or ``text`` holds an umlaut or ß already."""
    if _HAS_UMLAUT.search(text):
        return None
    words = umlaut_words() if words is None else words
    edits = []
    for m in _WORD.finditer(text):
        word = words.get(m.group().lower())
        written = word and _as_typed(word, m.group())
        found = written and _origins(m.group(), written, m.start())
        if found:
            edits.append((m.start(), m.end(), written, found))
    return replaced(text, edits)


def without_umlauts(text: str) -> str:
    """``text`` as a keyboard without umlauts writes it („Tür“ -> „Tuer“, „Ärger“ ->
    „Aerger“, „Straße“ -> „Strasse“; a capital umlaut as a capital and a small letter,
    as a word's first letter is typed): what :func:`restore_umlauts` undoes."""
    return text.translate(_WITHOUT)


def spans_in(origins: Sequence[int], spans: Sequence[tuple[int, int]]) -> tuple:
    """``spans`` in the restored text as spans in the user's (``origins`` from
    :func:`restore_umlauts`): an end after a restored umlaut falls after its two letters."""
    return tuple((origins[a], origins[b]) for a, b in spans)


def spelled_as_german(text: str) -> tuple[str, tuple[int, ...] | None]:
    """``text`` as the model reads it: without invisible format characters
    (text/clean.without_invisible), its umlauts restored (:func:`restore_umlauts`), and
    where it is written in capitals or without any, recased (casing.py); with where each
    of its characters (and its end) stands in ``text``, or None where each stands where
    it is (the same length)."""
    shown = without_invisible(text)
    visible, origins = shown if shown is not None else (text, None)
    restored = restore_umlauts(visible)
    if restored is not None:
        read, within = restored
        origins = through(origins, within)
    else:
        read = visible
    case = written_case(read)
    if case is not None:
        read = as_german_writes(read, case=case)
    return read, origins


def uses_in(origins: Sequence[int], uses: Sequence[TermUse]) -> list[TermUse]:
    """Glossary terms found in the restored text, with their spans in the user's."""
    return [replace(u, start=origins[u.start], end=origins[u.end]) for u in uses]

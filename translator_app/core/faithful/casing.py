"""German written in capitals (a sign, a notice, a heading: „ACHTUNG: RUTSCHGEFAHR!“,
„BITTE NICHT RAUCHEN“) or without any (a message typed in haste: „bin gleich zu hause“).
The model learnt from German as it is usually written, where a capital marks a noun or a
sentence's start; in capitals it read letters, not words, and wrote "ACHTING: RUTTYYHR!"
and "BITT RAUCHEN"; without capitals it lost the nouns. Such a text is given to the model
as German writes it („Achtung: Rutschgefahr!“, „Bitte nicht rauchen“, „Bin gleich zu
Hause“), the same length, so that every piece's span still points at the user's letters.

How each word is written comes from resources/lists/german-casing.tsv (counted on the
German side of the training corpora by scripts/build_word_lists.py): lower case for verbs,
adjectives and function words, capitals kept for EU or ADAC, and for a word written both
ways (rauchen, das Rauchen) a capital only after an article; a word the corpora do not
hold is read as a noun, as German writes the compounds no corpus holds
(„Rutschgefahr“). A sentence's first word takes a capital; in capitals „SIE“ and „IHRE“
are the polite „Sie“ and „Ihre“.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache

from translator_app.core.data.tables import read_table
from translator_app.core.language.words import german_function_words, german_words
from translator_app.core.platform.paths import resources_dir

CASING = resources_dir() / "lists" / "german-casing.tsv"
# A text is in capitals where at least this share of its words (two letters or more) are,
# two of them or one of four letters or more: „Die EU und die USA“ is not, „ACHTUNG“ is.
CAPITALS_SHARE = 0.6
_WORD = re.compile(r"[^\W\d_]+")
_TOKEN = re.compile(r"[^\W\d_]+|[.!?:„\"“»«]")
# Before a noun: its article, or a preposition fused with one.
_ARTICLES = german_function_words("article", "fused")
# In capitals (a notice, instructions, a letter) „SIE“ and „IHRE“ are the polite form far
# more often than "they" and "her": register dev in capitals, BLEU 45.1 -> 47.4 with it.
# A message without capitals is read as the familiar one the table gives.
_POLITE = frozenset(german_words("polite"))


@cache
def german_casing() -> Mapping[str, str]:
    """Case-folded word -> "lower", "upper" or "either" (read once, when first needed)."""
    return {word: form for word, form in read_table(CASING, 2)}


def in_capitals(text: str) -> bool:
    """Whether ``text`` is written in capitals (see :data:`CAPITALS_SHARE`)."""
    words = [w for w in _WORD.findall(text) if len(w) >= 2]
    capitals = [w for w in words if w.isupper()]
    return (
        bool(capitals)
        and len(capitals) >= CAPITALS_SHARE * len(words)
        and (len(capitals) >= 2 or len(capitals[0]) >= 4)
    )


def written_case(text: str) -> str | None:
    """ "upper" where ``text`` is written in capitals, "lower" where it has no capital at
    all (a message typed in haste: „hab dich lieb“, „bin gleich zu hause“) and a word of
    three letters or more; None where it is written as German writes it."""
    if in_capitals(text):
        return "upper"
    if not any(ch.isupper() for ch in text) and any(len(w) >= 3 for w in _WORD.findall(text)):
        return "lower"
    return None


def _written(word: str, form: str | None, after: str) -> str:
    """``word`` as German writes it, given its usual ``form`` and the word ``after`` which
    it stands (case-folded)."""
    if form == "upper":
        return word.upper()
    if form == "lower" or (form == "either" and after not in _ARTICLES):
        return word.lower()
    return word.capitalize()


def as_german_writes(
    text: str, casing: Mapping[str, str] | None = None, case: str = "upper"
) -> str:
    """``text`` with each word written all in ``case`` ("upper" or "lower": see
    :func:`written_case`) written as German writes it (``casing``: the table of
    :func:`german_casing`); the same length as ``text`` (a word whose other case is
    longer, as some letters' are, stays as it is)."""
    casing = german_casing() if casing is None else casing
    in_case = str.isupper if case == "upper" else str.islower
    out = list(text)
    opening, after = True, ""
    for m in _TOKEN.finditer(text):
        token = m.group()
        if not token[0].isalpha():
            opening = True
            continue
        if in_case(token) and (len(token) >= 2 or case == "lower"):
            key = token.casefold()
            polite = case == "upper" and key in _POLITE
            word = token.capitalize() if polite else _written(token, casing.get(key), after)
            if opening:
                word = word[:1].upper() + word[1:]
            if len(word) == len(token):
                out[m.start() : m.end()] = word
        opening, after = False, token.casefold()
    return "".join(out)

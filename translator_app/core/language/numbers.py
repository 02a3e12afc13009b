"""German numbers in words, read by a library: text2num (MIT), not by our tables.

``cardinals_in(text)`` -> (start, end, value) of each German cardinal written as one
word („siebzehn“, „vierhundertzwanzig“, „zweitausendneunzehn“); ``with_digits(text)``
writes those from thirteen up in digits, as the model is given them (the step
"number-words": a model that garbles „vierhundertzwanzig Stühle“ into "four hundred
percent chairs" keeps "420 chairs"), with where each character stands in ``text``.

>>> with_digits("Wir haben vierhundertzwanzig Stühle.")[0]
'Wir haben 420 Stühle.'
"""

from __future__ import annotations

import re
from functools import lru_cache

from text_to_num import alpha2digit, text2num

from translator_app.core.text.clean import replaced

# A word of letters alone, not part of a hyphenated compound („achtzehn-jährig“).
_WORD = re.compile(r"(?<![\w-])[^\W\d_]{3,}(?![\w-])")
# The smallest value written in digits: English writes the numbers to twelve in words,
# and the model knows them.
FIRST_IN_DIGITS = 13
# Words text2num reads as a number that stand for a noun or a round amount when alone
# („Tausend Dank“, „eine Million Menschen“): left as they are.
ROUND_ALONE = frozenset(["hundert", "tausend", "einhundert", "eintausend"])


@lru_cache(maxsize=4096)
def cardinal(word: str) -> int | None:
    """The value of ``word`` where it is a German cardinal in words (a capital at a
    sentence's start allowed), else None: „siebzehn“ 17, „Zwanzig“ 20; not „Million“ (a
    noun), „dritten“ (an ordinal), „eine“."""
    if not word[1:].islower():
        return None
    try:
        value = text2num(word, "de")
    except ValueError:
        return None
    return value if word[:1].islower() or value < 1_000_000 else None


_ORDINAL_READ = re.compile(r"([1-9]\d*)\.")


@lru_cache(maxsize=4096)
def ordinal(word: str) -> int | None:
    """The value of ``word`` where it is a German ordinal in words, in any of its forms
    (text2num): „dritten“ 3, „Zwanzigsten“ 20, „einunddreißigste“ 31; else None
    („letzten“, „siebzehn“)."""
    read = _ORDINAL_READ.fullmatch(alpha2digit(word, "de", threshold=0))
    return int(read.group(1)) if read and " " not in word else None


def cardinals_in(text: str) -> list[tuple[int, int, int]]:
    """(start, end, value) of each German cardinal written as one word in ``text``; one
    with a capital only where it opens a sentence or a quotation (elsewhere a capital
    makes it a name: the publisher „Zweitausendeins“)."""
    found = []
    for m in _WORD.finditer(text):
        value = cardinal(m.group())
        if value is not None and (m.group()[:1].islower() or _opens(text, m.start())):
            found.append((m.start(), m.end(), value))
    return found


# Marks after which a word opens a sentence or a quotation.
_OPENERS = frozenset(".!?:;„“\"«»(‚‘'–-")


def _opens(text: str, start: int) -> bool:
    """Whether a word at ``start`` opens the text, a sentence or a quotation."""
    before = text[:start].rstrip()
    return not before or before[-1] in _OPENERS


@lru_cache(maxsize=1024)
def to_digits(text: str) -> tuple[tuple[int, int, int], ...]:
    """(start, end, value) of each cardinal in words of ``text`` that is given to the
    model in digits: from :data:`FIRST_IN_DIGITS` up, not a round amount alone
    („Tausend Dank“), nor a million or more (asked for every candidate of a sentence:
    read once)."""
    return tuple(
        (start, end, value)
        for start, end, value in cardinals_in(text)
        if FIRST_IN_DIGITS <= value < 1_000_000 and text[start:end].lower() not in ROUND_ALONE
    )


def with_digits(text: str) -> tuple[str, tuple[int, ...] | None]:
    """``text`` with each number of :func:`to_digits` written in digits, and for each of
    its characters (and its end) where it stands in ``text`` (a number's digits spread
    over its word); None where nothing changed."""
    edits = []
    for start, end, value in to_digits(text):
        digits = str(value)
        where = [start + k * (end - start) // len(digits) for k in range(len(digits))]
        edits.append((start, end, digits, where))
    done = replaced(text, edits)
    return done if done is not None else (text, None)

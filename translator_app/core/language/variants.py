"""British or American English: the edits that write a text in one of them.

Three kinds, each read from data: the words spelt two ways (breame's tables, Apache-2.0:
"colour"/"color", "metre"/"meter", "neighbour"/"neighbor"), titles before a name ("Ms
Kowalczyk" / "Ms. Kowalczyk") and a day with its month ("14 June 2025" / "June 14,
2025"). Left as written: words one variant writes both ways or in another sense
(english-words.tsv kinds british-too and american-too: "install", "program" for
software, "practice" the noun, "dialogue"), and "meter" except as a unit after a number
(kind british-unit: "5 meters", not "a gas meter").

>>> apply_edits("Dear neighbors, the center is 5 meters away.", edits(
...     "Dear neighbors, the center is 5 meters away.", BRITISH))
'Dear neighbours, the centre is 5 metres away.'
"""

from __future__ import annotations

import functools
import re

from translator_app.core.language.words import english_words, months

BRITISH, AMERICAN = "british", "american"
VARIANTS = (BRITISH, AMERICAN)

Edit = tuple[int, int, str]  # begin, end, the text written there

_WORD = re.compile(r"(?<![\w'-])[A-Za-z]+(?![\w-]|'\w)")
_UNIT_BEFORE = re.compile(r"(?:\d|\b(?:square|cubic|per))\s*$", re.IGNORECASE)


@functools.cache
def _spellings(variant: str) -> dict[str, str]:
    """Lower-case word -> its spelling in ``variant``, less the words left as written."""
    from breame.data.spelling_constants import (
        AMERICAN_ENGLISH_SPELLINGS,
        BRITISH_ENGLISH_SPELLINGS,
    )

    if variant == BRITISH:  # breame: American word -> British spelling
        table, kept = AMERICAN_ENGLISH_SPELLINGS, english_words("british-too")
    elif variant == AMERICAN:
        table, kept = BRITISH_ENGLISH_SPELLINGS, english_words("american-too")
    else:
        raise ValueError(f"unknown English {variant!r}; use one of {', '.join(VARIANTS)}")
    return {a: b for a, b in table.items() if a not in kept and a != b and " " not in a}


@functools.cache
def _dates() -> tuple[re.Pattern, re.Pattern]:
    """(day month [year], month day[, year]) with the months' English names."""
    names = "|".join(en for _, en in months())
    day = r"(?P<day>[1-9]|[12]\d|3[01])"
    year = r"(?P<year>\d{4})"
    british = re.compile(rf"\b{day} (?P<month>{names})\b(?: {year}\b)?")
    # an ordinal's ending too: "September 20th, 2012" is 20 September 2012
    american = re.compile(rf"\b(?P<month>{names}) {day}(?:st|nd|rd|th)?\b(?:(?:,)? {year}\b)?")
    return british, american


def _cased(word: str, like: str) -> str:
    """``word`` (lower case) in the case of ``like``: 'colour', 'Color' -> 'Colour'."""
    if like.isupper() and len(like) > 1:
        return word.upper()
    if like[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def _spelling_edits(text: str, variant: str) -> list[Edit]:
    table = _spellings(variant)
    units = set(english_words("british-unit"))
    out = []
    for m in _WORD.finditer(text):
        word = m.group().lower()
        new = table.get(word)
        if new is None:
            continue
        if word in units and not _UNIT_BEFORE.search(text[: m.start()]):
            continue  # "a gas meter": a meter, not a metre
        out.append((m.start(), m.end(), _cased(new, m.group())))
    return out


def _title_edits(text: str, variant: str) -> list[Edit]:
    titles = "|".join(t.capitalize() for t in english_words("title"))
    # The title with its stop, as a whole word (a candidate respells whole words).
    if variant == BRITISH:  # "Ms. Kowalczyk" -> "Ms Kowalczyk"
        pattern = re.compile(rf"\b({titles})\.(?= [A-Z])")
    else:
        pattern = re.compile(rf"\b({titles})(?= [A-Z])")
    stop = "" if variant == BRITISH else "."
    return [(m.start(), m.end(), m.group(1) + stop) for m in pattern.finditer(text)]


def _date_edits(text: str, variant: str) -> list[Edit]:
    british, american = _dates()
    out = []
    for m in (american if variant == BRITISH else british).finditer(text):
        day, month, year = m.group("day"), m.group("month"), m.group("year")
        if variant == BRITISH:
            new = f"{day} {month}" + (f" {year}" if year else "")
        else:
            new = f"{month} {day}" + (f", {year}" if year else "")
        if new != m.group():
            out.append((m.start(), m.end(), new))
    return out


KINDS = {"date": _date_edits, "title": _title_edits, "spelling": _spelling_edits}


def edits_by_kind(text: str, variant: str) -> dict[str, list[Edit]]:
    """The edits of each kind ("date", "title", "spelling") that write ``text`` in
    ``variant``, each kind on its own (a date's and its month's may overlap)."""
    return {kind: find(text, variant) for kind, find in KINDS.items()}


def edits(text: str, variant: str) -> list[Edit]:
    """The edits that write ``text`` in ``variant`` (BRITISH or AMERICAN), in text
    order, none overlapping another; [] where it is written so already."""
    found = sorted(e for kind in edits_by_kind(text, variant).values() for e in kind)
    out: list[Edit] = []
    for edit in found:  # a date's edit covers its month's: the first one wins
        if not out or edit[0] >= out[-1][1] and (edit[0], edit[1]) != (out[-1][0], out[-1][1]):
            out.append(edit)
    return out


def apply_edits(text: str, found: list[Edit]) -> str:
    """``text`` with ``found`` (from :func:`edits`) made."""
    for begin, end, new in reversed(found):
        text = text[:begin] + new + text[end:]
    return text


def in_variant(text: str, variant: str) -> str:
    """``text`` written in ``variant``: in_variant('the colour grey', AMERICAN) ->
    'the color gray'."""
    return apply_edits(text, edits(text, variant))

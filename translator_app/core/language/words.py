"""The readers of resources/language's tables: one function per list, each read once.

``german_number_words("alone")`` -> {"eins": 1, "zwei": 2, …, "neunzehn": 19}; a
detector that needs another cut of the same knowledge asks for other kinds of the one
table, never writes its own.

>>> months()[2]
('März', 'March')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import NamedTuple

from translator_app.core.data.tables import read_table
from translator_app.core.platform.paths import resources_dir

LANGUAGE = resources_dir() / "language"


@cache
def _table(name: str, columns: int) -> tuple[tuple[str, ...], ...]:
    return tuple(read_table(LANGUAGE / name, columns))


def _value(text: str) -> int | Fraction:
    """ "3" -> 3, "3/2" -> Fraction(3, 2)."""
    value = Fraction(text)
    return int(value) if value.denominator == 1 else value


def _calendar(kind: str) -> tuple[tuple[str, str], ...]:
    return tuple((de, en) for k, de, en in _table("calendar.tsv", 3) if k == kind)


def months() -> tuple[tuple[str, str], ...]:
    """(German, English) of each month, January first."""
    return _calendar("month")


def english_month_abbreviations(month: str) -> tuple[str, ...]:
    """How English cuts an English month's name, without the stop: to its first three
    letters, September to four as well ("October" -> ("Oct",), "September" -> ("Sep",
    "Sept"), "May" -> ())."""
    if len(month) <= 3:
        return ()
    return (month[:3], month[:4]) if month == "September" else (month[:3],)


def weekdays() -> tuple[tuple[str, str], ...]:
    """(German, English) of each weekday, Monday first."""
    return _calendar("weekday")


def daytimes() -> tuple[tuple[str, str], ...]:
    """(German with its article, English) of each time of day, morning first:
    ("der Morgen", "morning")."""
    return _calendar("daytime")


def relative_days() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(German, its English forms) of each day said from today, the form a fact's
    English says first: ("übermorgen", ("the day after tomorrow", …, "in two days"))."""
    return tuple((de, tuple(_forms(en))) for de, en in _calendar("relative-day"))


def frequencies() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(German, its English forms) of each adverb of how often, the form a fact's English
    says first: ("werktags", ("on working days", …)), ("täglich", ("every day", …))."""
    return tuple((de, tuple(_forms(en))) for de, en in _calendar("frequency"))


@cache
def german_number_words(*kinds: str) -> dict[str, int | Fraction]:
    """German number word -> value, of ``kinds`` (german-numbers.tsv: unit, alone,
    tens, scale, dozen, fraction, part, ordinal), in the table's order."""
    return {w: _value(v) for w, v, k in _table("german-numbers.tsv", 3) if k in kinds}


@cache
def english_number_words(*kinds: str) -> dict[str, int | Fraction]:
    """English number word -> value, of ``kinds`` (english-numbers.tsv: cardinal,
    ordinal, tens, hundred, dozen, scale, part), in the table's order."""
    return {w: _value(v) for w, v, k in _table("english-numbers.tsv", 3) if k in kinds}


def _forms(cell: str) -> list[str]:
    return [form.strip() for form in cell.split(",") if form.strip()]


@cache
def german_measures() -> tuple[str, ...]:
    """Every German form of a measure a number measures a noun in („Gramm“, „Tassen“),
    as written."""
    return tuple(form for de, _ in _table("measures.tsv", 2) for form in _forms(de))


@cache
def english_measures() -> frozenset[str]:
    """Every English form of those measures, in lower case ("grams", "tbsp")."""
    return frozenset(form.lower() for _, en in _table("measures.tsv", 2) for form in _forms(en))


def alternation(words) -> str:
    """A regex alternation of ``words``, the longest first (so that „Tassen“ is not
    read as „Tasse“)."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def spaced_alternation(words) -> str:
    """:func:`alternation` of ``words`` whose spaces stand for any run of space („die
    Hälfte“, „nicht wahr“)."""
    return alternation(words).replace("\\ ", r"\s+")


@cache
def german_function_words(*classes: str) -> frozenset[str]:
    """German words of ``classes`` (german-function-words.tsv: article, fused,
    possessive, demonstrative, quantifier, preposition, pronoun, conjunction,
    auxiliary, modal, particle); every class where none is given."""
    return frozenset(
        w for w, c in _table("german-function-words.tsv", 2) if not classes or c in classes
    )


@cache
def english_plural_kinds() -> dict[str, str]:
    """English word (lower case) -> how its plural is irregular (english-plurals.tsv:
    oes, man-s, ves)."""
    return dict(_table("english-plurals.tsv", 2))


@cache
def german_words(kind: str) -> tuple[str, ...]:
    """The German words of ``kind`` (german-words.tsv: name-title, legal-form, street,
    polite, and-or, one, some, not-adjective, not-strong-adjective, singular-determiner,
    plural-determiner, before-a-limited-fact, limited-fact …),
    as written, in the table's order."""
    return tuple(w for w, k in _table("german-words.tsv", 2) if k == kind)


@cache
def dictionary_marks(kind: str) -> tuple[str, ...]:
    """Ding's register and subject marks of ``kind`` (dictionary-marks.tsv: ``rare``, a
    sense ranked after the common ones: "veraltet", "fig."; ``unfit``, a sense not offered
    as a word's plain English: "slang", "in Zusammensetzungen")."""
    return tuple(m for m, k in _table("dictionary-marks.tsv", 2) if k == kind)


@cache
def column_titles() -> frozenset[str]:
    """The titles (lower case) a spreadsheet's export puts over a glossary's columns:
    "deutsch", "english", "quelle" … (column-titles.tsv)."""
    return frozenset(title for title, _ in _table("column-titles.tsv", 2))


@cache
def english_words(kind: str) -> tuple[str, ...]:
    """The English words of ``kind`` (english-words.tsv: sounds-consonant, sounds-vowel,
    after-number, measure-either-way, determiner, before-an-hour, not-an-hour-after,
    place-note …), in the table's order."""
    return tuple(w for w, k in _table("english-words.tsv", 2) if k == kind)


@dataclass(frozen=True)
class Limit:
    """A limit a German sentence may set on a fact (limits.tsv): its ``key``, the
    regular expressions of its ``german`` words and of the ``english`` that keeps it
    (with the table's placeholders), whether it is one only ``before_a_fact``, and the
    English to ``suggest``."""

    key: str
    german: str
    before_a_fact: bool
    english: str
    suggest: str


@cache
def limits() -> tuple[Limit, ...]:
    """The limits of limits.tsv, in its order (spätestens, mindestens, bis, über …)."""
    return tuple(
        Limit(key, german, where == "before-a-fact", english, suggest)
        for key, german, where, english, suggest in _table("limits.tsv", 5)
    )


@cache
def english_verb_plurals() -> dict[str, str]:
    """A singular verb as it follows a subject -> its plural ("is" -> "are")."""
    return dict(_table("english-verbs.tsv", 2))


class Unit(NamedTuple):
    """A unit or noun a number counts (units.tsv): its ``key`` ("kg"), ``kind`` (time,
    metric, temperature, count), the ``name`` a fact's English gives it ("kg",
    "working days"), and its German and English forms."""

    key: str
    kind: str
    name: str
    german: tuple[str, ...]
    english: tuple[str, ...]


@cache
def units(*kinds: str) -> tuple[Unit, ...]:
    """The units of ``kinds`` (every kind where none is given), in the table's order
    (a longer unit before a shorter one it holds: "workday" before "day").

    >>> units("metric")[0].german
    ('kg', 'Kilo', 'Kilogramm')
    """
    return tuple(
        Unit(key, kind, name, tuple(_forms(de)), tuple(_forms(en)))
        for key, kind, name, de, en in _table("units.tsv", 5)
        if not kinds or kind in kinds
    )

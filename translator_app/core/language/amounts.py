"""German amounts the model garbles, written in the figures it keeps: one reader of a
small grammar (numbers in words or digits, then what may follow them).

``in_figures(text)`` -> (the text with each amount below rewritten, where each of its
characters stands in ``text``; None where nothing changed):

- a half after a number in words („anderthalb“, „eineinhalb“, „zweieinhalb“): 1,5 2,5;
- a quarter or three quarters of an hour or a year after „eine“/„ein“ („eine
  Dreiviertelstunde“: 45 Minuten; „einer Viertelstunde“: 15 Minuten; „ein
  Dreivierteljahr“: 9 Monate), „dreiviertel“ before a measure („dreiviertel Liter“:
  0,75 Liter);
- a clock time with its minutes after „Uhr“ („zwanzig Uhr dreißig“, „8 Uhr 15“):
  20:30 Uhr, 8:15 Uhr;
- a price with its cents after the currency („neunzehn Euro neunundneunzig“, „5 € 50
  Cent“): 19,99 Euro, 5,50 €;
- a range in digits with a dash, before a noun, a unit or „Uhr“ („3-5 Werktage“): 3
  bis 5 Werktage;
- a date without a year after a preposition, an article or a weekday („am 24.12.“): am
  24. Dezember;
- a weekday and a time of day as one adverb („dienstagvormittags“): jeden
  Dienstagvormittag;
- „kaum“ before an indefinite pronoun („kaum einer“, „kaum jemand“): fast keiner,
  fast niemand;
- a day as an ordinal in words, before a month or as a noun after „am“, „zum“, „vom“
  („am dritten Mai“, „zum Zwanzigsten“): am 3. Mai, zum 20.

Numbers in words are read by text2num (language/numbers.py). The model, given these,
keeps them ("45 minutes", "1.5 litres", "8:30 p.m.", "€19.99", "3 to 5 working days",
"24 December", "every Tuesday morning"); given the words, it wrote "a 3-year-old", "some
milk", "8 p.m. thirty", "nineteen euros ninety-nine", "3 working days", "24 December.",
"onday morning", "As soon as one understood", "on the third May", "due to the
tenancy" (the bundled model, v23).

>>> in_figures("Wir brauchen anderthalb Liter Milch.")[0]
'Wir brauchen 1,5 Liter Milch.'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from text_to_num import text2num

from translator_app.core.language.numbers import cardinal, ordinal
from translator_app.core.language.words import (
    daytimes,
    german_function_words,
    german_measures,
    months,
    weekdays,
)
from translator_app.core.text.clean import replaced

# A number: digits (no leading zero), or one word text2num reads.
_NUMBER = r"(?:[1-9]\d{0,5}|0|[^\W\d_]{3,})"
# Not part of a longer word, number or code.
_OPEN = r"(?<![\w.,:/+-])"
_SHUT = r"(?![\w/-]|[.,:]\d)"
# A noun follows (German writes nouns with a capital): a count, not minutes or cents.
_NOUN_AHEAD = re.compile(r"\s+[A-ZÄÖÜ]")


def number(token: str) -> int | None:
    """The value of a number in digits or in one German word, else None: "17" 17,
    „siebzehn“ 17, „ein“ 1; not "017", „Haus“."""
    if token.isdigit():
        return int(token) if token == "0" or token[0] != "0" else None
    return cardinal(token.lower()) if token[1:].islower() else None


def _halves(m: re.Match) -> str | None:
    word = m.group(1).lower()
    whole = 1 if word == "anderthalb" else number(word[: -len("einhalb")])
    return None if whole is None else f"{whole},5"


def _quarter_hours(m: re.Match) -> str | None:
    article, quarters, noun = m.group(1).lower(), m.group(2).lower(), m.group(3)
    if noun == "stunde" and article in ("eine", "einer"):
        return "45 Minuten" if quarters == "dreiviertel" else "15 Minuten"
    if noun == "jahr" and quarters == "dreiviertel" and article in ("ein", "einem"):
        return "9 Monate" + ("n" if article == "einem" else "")
    return None  # „ein Vierteljahr“ is a quarter, which the model says


def _clock(m: re.Match) -> str | None:
    hour, minute = number(m.group(1)), number(m.group(2))
    if hour is None or minute is None or not (hour <= 23 and 1 <= minute <= 59):
        return None
    if _NOUN_AHEAD.match(m.string, m.end()):  # „um acht Uhr drei Kinder“
        return None
    return f"{hour}:{minute:02d} Uhr"


def _price(m: re.Match) -> str | None:
    whole, cents, currency = number(m.group(1)), number(m.group(3)), m.group(2)
    if whole is None or cents is None or not 1 <= cents <= 99:
        return None
    if not m.group(4) and _NOUN_AHEAD.match(m.string, m.end()):  # „5 Euro 20 Tage“
        return None
    return f"{whole},{cents:02d} {currency}"


def _range(m: re.Match) -> str | None:
    low, high = int(m.group(1)), int(m.group(2))
    return f"{low} bis {high}" if low < high else None


@lru_cache(maxsize=1)
def _date_openers() -> frozenset[str]:
    """Words a date without a year follows: prepositions, articles, weekdays."""
    words = german_function_words("preposition", "fused", "article")
    return frozenset(w.lower() for w in words) | {de.lower() for de, _ in weekdays()}


_WORD_BEFORE = re.compile(r"([^\W\d_]+),?\s+$")


# „jeder“ before a noun of each gender, as the object of a sentence (accusative).
_EVERY = {"der": "jeden", "die": "jede", "das": "jedes"}


@lru_cache(maxsize=1)
def _daytime_article() -> dict[str, str]:
    """Time of day in lower case -> its article: „abend“ -> „der“."""
    return {noun.lower(): article for article, noun in (de.split() for de, _ in daytimes())}


def _weekly(m: re.Match) -> str:
    weekday, daytime = m.group(1), m.group(2)
    every = _EVERY[_daytime_article()[daytime.lower()]]
    every = every.title() if weekday[0].isupper() else every
    return f"{every} {weekday.title()}{daytime.lower()}"


def _date(m: re.Match) -> str | None:
    day, month = int(m.group(1)), int(m.group(2))
    if not (1 <= day <= 31 and 1 <= month <= 12):
        return None
    before = _WORD_BEFORE.search(m.string, 0, m.start())
    if before is None or before.group(1).lower() not in _date_openers():
        return None  # „Abschnitt 2.3.“
    closes = not re.search(r"\w", m.string[m.end() :])  # its point ends the sentence too
    return f"{day}. {months()[month - 1][0]}" + ("." if closes else "")


def _ordinal_day(m: re.Match) -> str | None:
    """An ordinal in words before a month („am dritten Mai“), or one said as a noun
    after „am“, „zum“ or „vom“ with no noun after it („zum Zwanzigsten“, not „vom
    Zweiten Weltkrieg“): the day in digits."""
    day = ordinal(m.group(1))
    if day is None or not 1 <= day <= 31:
        return None
    if m.group(1)[0].isupper():  # a noun: a date only after these, and with no noun next
        before = _WORD_BEFORE.search(m.string, 0, m.start())
        if before is None or before.group(1).lower() not in {"am", "zum", "vom"}:
            return None
        if _NOUN_AHEAD.match(m.string, m.end()):
            return None
    return f"{day}."


# „kaum“ before an indefinite pronoun is „fast“ before its negative: „kaum einer“ is
# „fast keiner“ (hardly anyone: almost no one).
_NEGATIVE = {"einer": "keiner", "eine": "keine", "eines": "keines", "jemand": "niemand",
             "jemanden": "niemanden", "jemandem": "niemandem", "etwas": "nichts"}  # fmt: skip
# After „einer“, „eine“, „eines“ or „etwas“: a noun, or an adjective and a noun („kaum
# eine Stunde“, „kaum eine gute Idee“): an article or a quantity, not a pronoun.
_ARTICLE_USE = re.compile(r"\s+(?:[a-zäöüß]+(?:e|en|er|es|em)\s+)?[A-ZÄÖÜ]")


def _hardly_any(m: re.Match) -> str | None:
    pronoun = m.group(2)
    if not pronoun.startswith("jemand") and _ARTICLE_USE.match(m.string, m.end()):
        return None
    return f"{'F' if m.group(1) == 'K' else 'f'}ast {_NEGATIVE[pronoun]}"


@lru_cache(maxsize=1)
def _rules() -> tuple[tuple[re.Pattern, Callable[[re.Match], str | None]], ...]:
    measures = "|".join(sorted(german_measures(), key=len, reverse=True))
    days = "|".join(de for de, _ in weekdays())
    times = "|".join(sorted(_daytime_article(), key=len, reverse=True))
    month_names = "|".join(de for de, _ in months())
    return (
        (re.compile(r"(?<![\w-])(anderthalb|[^\W\d_]*einhalb)(?![\w-])", re.IGNORECASE), _halves),
        (
            re.compile(
                r"(?<![\w-])([Ee]ine[rm]?|[Ee]in)\s+(Dreiviertel|Viertel)(stunde|jahr)(?![\w-])"
            ),
            _quarter_hours,
        ),
        (
            re.compile(rf"(?<![\w-])dreiviertel(?=\s+(?:{measures})(?![\w-]))", re.IGNORECASE),
            lambda m: "0,75",
        ),
        (re.compile(rf"{_OPEN}({_NUMBER})\s+Uhr\s+({_NUMBER}){_SHUT}"), _clock),
        (
            re.compile(rf"{_OPEN}({_NUMBER})\s*(Euro|€)\s+(?:und\s+)?({_NUMBER})(\s+Cent)?{_SHUT}"),
            _price,
        ),
        (
            re.compile(
                rf"{_OPEN}([1-9]\d{{0,3}})\s?[-–]\s?([1-9]\d{{0,3}}){_SHUT}"
                r"(?=\s*[A-ZÄÖÜ€%])"
            ),
            _range,
        ),  # fmt: skip
        (re.compile(r"(?<![\w.,:/+-])([0-3]?\d)\.([01]?\d)\.(?!\d|\s*\d)"), _date),
        (re.compile(rf"(?<![\w-])({days})({times})s(?![\w-])", re.IGNORECASE), _weekly),
        (
            re.compile(
                rf"(?<![\w-])([a-zäöüß]{{2,}}(?:te|ten|ter|tes)(?=\s+(?:{month_names})(?![\w-]))"
                r"|[A-ZÄÖÜ][a-zäöüß]{2,}(?:te|ten))(?![\w-])"
            ),
            _ordinal_day,
        ),
        (re.compile(rf"(?<![\w-])([Kk])aum\s+({'|'.join(_NEGATIVE)})(?![\w-])"), _hardly_any),
    )


@lru_cache(maxsize=1024)
def amounts_in(text: str) -> tuple[tuple[int, int, str], ...]:
    """(start, end, figures) of each amount of ``text`` that :func:`in_figures`
    rewrites, left to right and apart (where two overlap, the one that starts first,
    then the longer, is read)."""
    found = []
    for pattern, write in _rules():
        for m in pattern.finditer(text):
            figures = write(m)
            if figures is not None:
                found.append((m.start(), m.end(), figures))
    kept: list[tuple[int, int, str]] = []
    for start, end, figures in sorted(found, key=lambda f: (f[0], -f[1])):
        if not kept or start >= kept[-1][1]:
            kept.append((start, end, figures))
    return tuple(kept)


def in_figures(text: str) -> tuple[str, tuple[int, ...] | None]:
    """``text`` with each amount of :func:`amounts_in` written in figures, and for each
    of its characters (and its end) where it stands in ``text`` (the figures spread over
    the words they replace); None where nothing changed."""
    edits = []
    for start, end, figures in amounts_in(text):
        where = [start + k * (end - start) // len(figures) for k in range(len(figures))]
        edits.append((start, end, figures, where))
    done = replaced(text, edits)
    return done if done is not None else (text, None)


# An English number: digits, or one word ("nineteen", "ninety-nine").
_EN_NUMBER = r"(?:\d{1,6}|[a-z]+(?:-[a-z]+)?)"
_EN_PRICE = re.compile(
    rf"\b({_EN_NUMBER})\s+(?:euros?|dollars?|pounds?)\s+(?:and\s+)?({_EN_NUMBER})"
    r"(?:\s+(?:cents?|pence))?\b",
    re.IGNORECASE,
)
_EN_QUARTER_HOUR = re.compile(
    r"\b(?:(three)\s+quarters|(?:a\s+)?quarter)(?:\s+of\s+an\s+|\s*-\s*|\s+)hours?\b",
    re.IGNORECASE,
)

# "an hour and a half", "a year and a half": one and a half of what the noun names.
_EN_NOUN_AND_A_HALF = re.compile(
    r"\b(?:an?|one|next|last|past|first)\s+[a-z]+\s+and\s+a\s+half\b", re.IGNORECASE
)


def english_number(token: str) -> int | None:
    """The value of an English number in digits or in one word, else None: "19" 19,
    "nineteen" 19, "ninety-nine" 99; not "euros"."""
    if token.isdigit():
        return int(token)
    try:
        return text2num(token.lower(), "en")
    except ValueError:
        return None


def english_amounts(text: str) -> tuple[tuple[int, int, str], ...]:
    """(start, end, value in figures) of each amount an English writes in words that
    :func:`in_figures` gives the model in figures: a price with its cents ("nineteen
    euros ninety-nine": 19.99), a quarter or three quarters of an hour (15, 45: the
    German's minutes), one and a half after a noun ("an hour and a half": 1.5).

    >>> english_amounts("It costs nineteen euros ninety-nine.")
    ((9, 35, '19.99'),)
    """
    found = []
    for m in _EN_PRICE.finditer(text):
        whole, cents = english_number(m.group(1)), english_number(m.group(2))
        if whole is not None and cents is not None and 1 <= cents <= 99:
            found.append((m.start(), m.end(), f"{whole}.{cents:02d}"))
    for m in _EN_NOUN_AND_A_HALF.finditer(text):
        found.append((m.start(), m.end(), "1.5"))
    for m in _EN_QUARTER_HOUR.finditer(text):
        found.append((m.start(), m.end(), "45" if m.group(1) else "15"))
    return tuple(sorted(found))

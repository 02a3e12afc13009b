"""Whether English writes a fact's English in another form of the same value.

A protected fact of the German is annotated with one English form (core/faithful/
protect.py: „20.12.2012“ -> "20 December 2012", „21 Uhr“ -> "9 p.m.", „8 733“ ->
"8,733", „12,50 €“ -> "€12.50", „10 Uhr“ -> "10 o'clock"); a decode without the
annotations may write the same value another way English writes it: the month first
("December 20th, 2012") or the German's digits ("20.12.2012"), "9pm" or "21:00", "8733",
"12.50 euros", "10 a.m.", a number glued to a code or a sign by a hyphen ("Meteor-3",
"-5"). The ordinal endings are num2words' (LGPL-2.1, a dependency already); the
months' names are calendar.tsv's (words.months).

>>> said_otherwise("20 December 2012", "on December 20th, 2012")
True
>>> said_otherwise("9 p.m.", "at 9 o'clock")
False
"""

from __future__ import annotations

import re
from functools import lru_cache

from num2words import num2words

from translator_app.core.language.words import months

_EURO = re.compile(r"€(?P<amount>\d[\d,]*(?:\.\d+)?)")
_OCLOCK = re.compile(r"(?P<hour>\d{1,2}) o'clock")
_CLOCK = re.compile(r"(?P<hour>\d{1,2})(?::(?P<minute>\d\d))? (?P<half>[ap])\.m\.")
_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
# A number standing alone: no letter, digit or decimal point glued to it; a hyphen may be
# ("Meteor-3", "-5", "1971-72": the German glued it so).
_ALONE_BEFORE, _ALONE_AFTER = r"(?<![\w.,])", r"(?![\w]|[.,]\d)"


def said_otherwise(target: str, english: str) -> bool:
    """Whether ``english`` writes the value of a fact's English ``target`` in another
    of English's forms for it (see the module's docstring); False for a target no
    other form is known for (a name, a place: those are written as annotated)."""
    pattern = _other_forms(target)
    return pattern is not None and pattern.search(english) is not None


@lru_cache(maxsize=4096)
def _other_forms(target: str) -> re.Pattern | None:
    """The pattern of every other form of ``target``'s value; None where none is."""
    forms = None
    if euro := _EURO.fullmatch(target):
        amount = re.escape(euro["amount"])
        forms = rf"(?<![\w.,]){amount}\s?(?:euros?|EUR)(?![\w-])|(?<![\w-])EUR\s?{amount}(?!\d)"
    elif hour := _OCLOCK.fullmatch(target):
        h = hour["hour"]
        forms = rf"(?<![\w.,:]){h}(?::00)?\s?a\.?m\.?(?!\w)|(?<![\w.,:]){h}:00(?![\w:])"
        if h == "12":
            forms += r"|(?<![\w-])noon(?![\w-])"
    elif clock := _CLOCK.fullmatch(target):
        forms = _clock_forms(int(clock["hour"]), clock["minute"], clock["half"])
    elif date := _date(target):
        forms = _date_forms(*date)
    elif _NUMBER.fullmatch(target):
        numbers = sorted({target, target.replace(",", "")}, key=len, reverse=True)
        forms = _ALONE_BEFORE + f"(?:{'|'.join(map(re.escape, numbers))})" + _ALONE_AFTER
    return re.compile(forms, re.IGNORECASE) if forms else None


def _clock_forms(hour: int, minute: str | None, half: str) -> str:
    """ "9 p.m." written "9pm", "9 PM", "9:00 p.m." or "21:00"."""
    mm = minute or "00"
    hh = hour % 12 + (12 if half == "p" else 0)
    minutes = rf":{mm}" if minute else r"(?::00)?"
    twelve = rf"{hour}{minutes}\s?{half}\.?\s?m\b\.?"
    return rf"(?<![\w.,:])(?:{twelve}|0?{hh}[:.]{mm}(?![\w:]|\.\d))"


def _date(target: str) -> tuple[int, int, str | None] | None:
    """(day, month, year or None) of a date as the annotations write it: "20 December
    2012", "3 May"."""
    names = [en for _, en in months()]
    m = re.fullmatch(rf"(\d{{1,2}}) ({'|'.join(names)})(?: (\d{{4}}))?", target)
    return (int(m[1]), names.index(m[2]) + 1, m[3]) if m else None


def _date_forms(day: int, month: int, year: str | None) -> str:
    """ "20 December 2012" written "December 20th, 2012", "the 20th of December 2012" or
    "20.12.2012" (the year too, where the date has one)."""
    name = months()[month - 1][1]
    nth = num2words(day, to="ordinal_num", lang="en")
    days = rf"(?:{nth}|{day})"
    after = rf",?\s{year}" if year else ""
    digits = rf"0?{day}\.0?{month}\.{year}" if year else rf"0?{day}\.0?{month}\."
    return (
        rf"(?<![\w.,]){name}\s{days}{after}(?!\d)"
        rf"|(?<![\w.,])(?:the\s)?{nth}\s(?:of\s)?{name}{after}(?!\d)"
        rf"|(?<![\w.,]){digits}(?!\d)"
    )

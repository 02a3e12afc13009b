"""What an English says, read by the benches themselves (text2num's English reader and
one pattern per kind), not by the fact check they measure; and the held-out test sets
they draw sentences from.

>>> sorted(numbers_said("three billion hours, a hundred years"))
[100.0, 3000000000.0]
"""

from __future__ import annotations

import re

from text_to_num import alpha2digit, text2num

from translator_app.core.language.words import months, weekdays

# Test sets only (never trained on): news, talks, everyday sentences, chats.
HELD_OUT_SETS = (
    "wmt-news-deen/newstest2014.deu-eng.tsv.xz",
    "wmt-news-deen/newstest2019.deu-eng.tsv.xz",
    "wmt-news-deen/generaltest2022.deu-eng.tsv.xz",
    "tatoeba-test-deu-eng/tatoeba-test-v2021-08-07.deu-eng.tsv.xz",
    "iwslt2017-deen/test.deu-eng.tsv.xz",
    "bcontrast-chat-ende/test.deu-eng.tsv.xz",
)
_MONTHS = [en.lower() for _, en in months()]
_WEEKDAYS = [en.lower() for _, en in weekdays()]
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_NUMBER = re.compile(r"(\d+(?:,\d{3})*(?:\.\d+)?)(?:\s+(thousand|million|billion|trillion))?")


def numbers_said(english: str) -> set[float]:
    """The numbers an English says, in digits or in words, scaled ("3.5 million", "a
    hundred")."""
    said = set()
    english = re.sub(r"\ban? (hundred|thousand|million|billion)\b", r"one \1", english)
    for text in (english, alpha2digit(english, "en")):
        for m in _NUMBER.finditer(text):
            value = float(m.group(1).replace(",", ""))
            said |= {value, value * _SCALES.get(m.group(2) or "", 1)}
    return said


def number_word(word: str) -> int | None:
    """An English number in digits or one word, read by text2num; else None."""
    try:
        return int(word) if word.isdigit() else text2num(word, "en")
    except ValueError:
        return None


def says_clock(hour: int, minute: str, english: str) -> bool:
    """Whether ``english`` says the time ``hour``:``minute`` (24-hour clock; minute as
    two digits): "14:30", "2:30 p.m.", "2.30pm"; a full hour also "2 p.m.", "2 o'clock",
    "noon", "midnight"."""
    hours = "|".join(str(x) for x in {hour, hour % 12 or 12})
    if re.search(rf"(?<![\d:.])(?:{hours})[:.]{minute}(?!\d)", english):
        return True
    low, named = english.lower(), {0: "midnight", 12: "noon"}.get(hour)
    return minute == "00" and (
        bool(re.search(rf"(?<![\d:.])(?:{hours})\s*(?:a\.?m|p\.?m|o'clock)", low))
        or (named is not None and named in low)
    )


def says_date(day: int, month: int, english: str) -> bool:
    """Whether ``english`` says the day ``day`` of month ``month`` (1-12): "24 December",
    "December 24th", "12/24"."""
    numeric = re.search(rf"\b0?(?:{month}[/.]0?{day}|{day}[/.]0?{month})\b", english)
    return bool(numeric) or (
        float(day) in numbers_said(english) and _MONTHS[month - 1] in english.lower()
    )


def says_weekday(index: int, english: str) -> bool:
    """Whether ``english`` names the weekday ``index`` (0: Monday)."""
    return _WEEKDAYS[index] in english.lower()


def says_month(month: int, english: str) -> bool:
    """Whether ``english`` names the month ``month`` (1-12)."""
    return _MONTHS[month - 1] in english.lower()

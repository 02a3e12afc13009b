"""The number check: every number, time and date of a German sentence must reach its
English translation, in English format (issue 30).

A German fact is written in digits: 1.150 and 12,50 (thousands dot, decimal comma),
„14:35 Uhr“, „um 9 Uhr“, „3. Mai“, „24.12.“, „im 8. Stock“, a phone number; or it is a
clock time in words: „halb acht“ (7:30), „Viertel nach/vor acht“. Each becomes
one or more keys (n1150, t14:35, d3.5); the English is read into keys the same way, in
English conventions (1,150 and 12.50; "2:35 p.m.", "9 o'clock"; "May 3", "3rd of May";
"eighth"; small numbers as words), and a fact is kept when one of its keys is found.
Unconverted German formats ("19,99", "1.150") in the English do not count: a reader
would take "1.150" for one and a bit.

The translator uses this to prefer, among its n-best candidates, one that keeps every
number, and to mark a sentence where none does (``Translation.issues``).
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

from translator_app.core.language.words import (
    alternation,
    english_month_abbreviations,
    english_number_words,
    english_words,
    german_number_words,
    months,
    units,
    weekdays,
)
from translator_app.core.values import Fact

# The calendar's names and the English number words, read from resources/language
# (core/language/words.py): the fact checks, the training augmentation and the register
# corpus take them from here.
MONTHS_DE = [de for de, _ in months()]
MONTHS_EN = [en for _, en in months()]
WEEKDAYS_DE = [de for de, _ in weekdays()]
WEEKDAYS_EN = [en for _, en in weekdays()]
_MONTH_EN_INDEX = {m[:3]: i + 1 for i, m in enumerate(MONTHS_EN)}
CARDINALS = list(english_number_words("cardinal"))  # zero … twenty
ORDINALS = list(english_number_words("ordinal"))  # zeroth … twentieth
_WORD_VALUES = {w: i for i, w in enumerate(CARDINALS)} | {w: i for i, w in enumerate(ORDINALS)}
_ORDINAL_SET = frozenset(ORDINALS)
_WORD_VALUES |= english_number_words("tens", "hundred", "dozen")

# Numbers as the two languages write them; a number is not part of a longer token, but
# a short unit may be glued to it ("60km", "5kg", "10h": units.tsv).
_GLUED_UNITS = {
    f
    for u in units("metric", "time")
    for f in (*u.german, *u.english)
    if f.isalpha() and len(f) <= 3
}
_NUM_END = rf"(?:(?=(?:{alternation(_GLUED_UNITS)})(?!\w))|(?![\w]|[.,]\d))"
# Thousands grouped by a point or a space („200.000“, „200 000“: DIN 5008); not a
# phone number's groups (0221 123 456, 512 378 2973).
DE_NUMBER = (
    r"(?<![\w.,:])(?P<int>\d{1,3}(?:\.\d{3})+|[1-9]\d{0,2}(?:[ \u00a0\u202f]\d{3})+(?![ \u00a0\u202f]?\d)|\d+)"
    r"(?:,(?P<dec>\d+))?" + _NUM_END
)
EN_NUMBER = (
    r"(?<![\w.,:])(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<dec>\d+))?"
    r"(?P<ord>st|nd|rd|th)?" + _NUM_END
)
_MONTHS_DE_RE = "|".join(MONTHS_DE)
# A month as written, or cut to its first three letters ("Oct.", "Sept.")
_MONTHS_EN_RE = "|".join(MONTHS_EN) + (
    rf"|(?:{'|'.join(a for m in MONTHS_EN for a in english_month_abbreviations(m))})\.?"
)

# Clock times in words: „halb acht“ (7:30), „Viertel nach acht“ (8:15), „Viertel vor
# acht“ (7:45); English "half past seven" (or "half seven"), "quarter past/to eight".
HOURS_DE = [w for w, v in german_number_words("alone").items() if v <= 12]
_HOURS_DE_RE = "|".join(HOURS_DE)
_HOURS_EN_RE = "|".join(CARDINALS[1:13])
# Codes copied as they are: an IBAN (DE89 3704 0044 0532 0130 00), a phone number
# (+49 (0)221 98 76 54-0, 0171 2345678, (0621) 123 45 67, 030 9027-0) and an invoice or
# order number (2024-7218, 12/345): each one fact, whole, never numbers of their own.
_IBAN = r"(?<![\w.,])[A-Z]{2}\d{2}(?:\s?\d{4}){2,7}(?:\s?\d{1,3})?(?![\w]|[.,]\d)"
_PHONE = (
    r"(?<![\w.,+])(?:\+\s?\d{1,3}\s?(?:\(0\)\s?)?\d{1,5}|\(0\d{2,5}\)|0\d{2,5})"
    r"(?:(?:\s?[/-]\s?|\s)\d+)+(?![\w]|[.,]\d)"
)
_CODE = (
    rf"(?P<code>{_IBAN}|{_PHONE}"
    # not a range, two numbers of up to four digits ("100-300 dollars", „1990-1995“,
    # "CVs from 1-255."), read as two numbers on both sides
    r"|(?<![\w.,])(?!\d{1,4}-\d{1,4}(?![\d/-]|[.,]\d))(?=[\d/-]*\d{3})\d+(?:[-/]\d+)+"
    r"(?![\w]|[.,]\d))"
)
# An English number glued to a code of letters (a road, a model, a genome: "B33", "A2",
# "X174") keeps the German's number: English glues what German spaces („B 33“, „A 2“).
# Read in the English only: „CO2“ is no fact of the German, and a number the English
# adds is found by its digits (fact_check.added_facts), not by these keys.
_GLUED = r"(?P<glued>(?<![\w.,:])[A-Za-z]{1,3}(?P<gd>\d{1,4})(?![\w]|[.,]\d))"
# A number times a scale word is one number: „16 Tausend Rubel“ is 16,000 roubles, „2,5
# Millionen“ 2.5 million (German „Milliarde“ is a billion, „Billion“ a trillion).
_DE_SCALE_NOUNS = {
    w: v for w, v in german_number_words("scale", "large-scale").items() if v >= 1000
}
_DE_SCALE_SHORT = german_number_words("scale-abbreviation")
DE_SCALES = _DE_SCALE_NOUNS | _DE_SCALE_SHORT
DE_SCALE_WORDS = (
    rf"(?:{alternation(w.capitalize() for w in _DE_SCALE_NOUNS)})(?![\w-])"
    rf"|(?:{alternation(w.capitalize() for w in _DE_SCALE_SHORT)})\.?(?![\w-])"
)
# A scale word glued on by a hyphen, in lower case: „13-tausend Ampere“ is 13,000 amps.
_DE_SCALE_GLUED = rf"(?:{alternation(_DE_SCALE_NOUNS)})(?![\w-])"
_EN_SCALES = {
    w: v for w, v in english_number_words("scale", "scale-abbreviation").items() if v >= 1000
}
EN_SCALE_OF = {v: w for w, v in english_number_words("scale").items() if v >= 1000}


def de_scale(word: str) -> int:
    """The value of a German scale word matched by :data:`DE_SCALE_WORDS` („Mrd.“: 10**9)."""
    return DE_SCALES[word.lower().rstrip(".")]


# The first time of a range shares the second's „Uhr“: „von 6.30 bis 10 Uhr“.
_UHR_AHEAD = r"(?=\s*(?:bis|und|-|–)\s*(?:[01]?\d|2[0-4])(?:[:.][0-5]\d)?\s*Uhr\b)"
_DE_FACTS = re.compile(
    rf"{_CODE}"
    rf"|(?P<half>\bhalb\s+(?P<hw>{_HOURS_DE_RE})\b)"
    rf"|(?P<quarter>\bViertel\s+(?P<qd>nach|vor)\s+(?P<qw>{_HOURS_DE_RE})\b)"
    rf"|(?P<time>\b(?P<h>[01]?\d|2[0-4])[:.](?P<m>[0-5]\d)(?:\s*Uhr\b|{_UHR_AHEAD})"
    rf"|\b(?P<h2>[01]?\d|2[0-4]):(?P<m2>[0-5]\d)\b)"
    rf"|(?P<hour>\b(?P<h3>[01]?\d|2[0-4])\s+Uhr\b)"
    rf"|(?P<dm>\b(?P<d>[0-3]?\d)\.\s*(?P<mon>{_MONTHS_DE_RE})\b)"
    rf"|(?P<numdate>(?<![\w.])(?P<d2>[0-3]?\d)\.(?P<m3>[01]?\d)\.(?P<y>\d{{4}}|\d{{2}}(?!\d))?)"
    rf"|(?P<ord>(?<![\w.,])(?P<o>\d{{1,3}})\.(?=\s+[A-Za-zÄÖÜäöü]))"
    rf"|(?P<scaled>(?<![\w.,:])(?P<si>\d{{1,3}}(?:\.\d{{3}})+|\d+)(?:,(?P<sd>\d+))?"
    rf"(?:\s+(?P<sw>{DE_SCALE_WORDS})|-(?P<swl>{_DE_SCALE_GLUED})))"
    rf"|(?P<num>{DE_NUMBER})"
)
# "at eight" is a clock time, "at eight years" is not.
_NOT_HOUR_NOUNS = alternation(english_words("not-an-hour-after"))
_EN_FACTS = re.compile(
    rf"{_CODE}"
    rf"|(?P<half>\bhalf\s+(?:past\s+)?(?P<hw>{_HOURS_EN_RE})\b)"
    rf"|(?P<quarter>\bquarter\s+(?P<qd>past|after|to|before|of)\s+(?P<qw>{_HOURS_EN_RE})\b)"
    rf"|(?P<ampmw>\b(?P<hw2>{_HOURS_EN_RE})\s*(?P<ap2>[ap])\.?\s?m\b\.?)"
    rf"|(?P<athour>\b(?:{alternation(english_words('before-an-hour'))})\s+"
    rf"(?P<hw3>{_HOURS_EN_RE})\b(?![\w-]|\s+(?:{_NOT_HOUR_NOUNS})\b))"
    rf"|(?P<ampm>\b(?P<h>1[0-2]|0?\d)(?:[:.](?P<m>[0-5]\d))?\s*(?P<ap>[ap])\.?\s?m\b\.?)"
    rf"|(?P<oclock>\b(?P<h2>1[0-2]|0?\d)\s+o'clock\b)"
    # a 24-hour time with a.m. or p.m. after it ("23:59 a.m.") is no time: lost
    rf"|(?P<clock>\b(?P<h3>[01]?\d|2[0-4]):(?P<m3>[0-5]\d)\b(?!\s*[ap]\.?\s?m\b))"
    rf"|(?P<md>\b(?P<mon>{_MONTHS_EN_RE})\s+(?P<d>[0-3]?\d)(?:st|nd|rd|th)?\b)"
    rf"|(?P<dm>\b(?P<d2>[0-3]?\d)(?:st|nd|rd|th|\.)?\s+(?:of\s+)?(?P<mon2>{_MONTHS_EN_RE})(?![a-z]))"
    rf"|(?P<numdate>(?<![\w.])(?P<d4>[0-3]?\d)\.(?P<m4>0?[1-9]|1[0-2])\.(?P<y4>\d{{4}}|\d{{2}}(?!\d))?)"
    rf"|(?P<slash>\b(?P<a>[0-3]?\d)/(?P<b>[0-3]?\d)\b)"
    rf"|(?P<noon>\b(?:noon|midday)\b)|(?P<midnight>\bmidnight\b)"
    rf"|(?P<scaled>(?<![\w.,:])(?P<si>\d{{1,3}}(?:,\d{{3}})+|\d+)(?:\.(?P<sd>\d+))?[\s-]*"
    rf"(?P<sw>{'|'.join(_EN_SCALES)})\b)"
    rf"|{_GLUED}"
    # a decade or an age in tens ("the 1990s", "in her 90s"): the number
    rf"|(?P<decade>(?<![\w.,:])(?P<dd>\d{{2,4}})['’]?s\b)"
    rf"|(?P<num>{EN_NUMBER})"
    rf"|(?P<word>\b(?:{'|'.join(sorted(_WORD_VALUES, key=len, reverse=True))})\b)",
    re.IGNORECASE,
)
# A 24-hour time written with a point ("20.00", "6.30"), which is also a number
_CLOCK_WITH_A_POINT = re.compile(r"(?:[01]?\d|2[0-4])\.[0-5]\d")
_NOT_CHECKED = {"n0", "n1"}  # "1 Kind": "a child"; "0": "no"


def number_key(int_part: str, dec: str | None, thousands: str) -> str:
    """A number's key: n + its value without separators (leading zeros kept, so a phone
    number's 0171 is not 171; trailing decimal zeros dropped: 12,50 = 12.5)."""
    whole = int_part.replace(thousands, "")
    value = whole if len(whole) > 1 and whole.startswith("0") else str(int(whole))
    dec = (dec or "").rstrip("0")
    return "n" + value + ("." + dec if dec else "")


def english_hour(h: int, m: int = 0) -> str:
    """A German clock time in English: 9 Uhr -> 9 o'clock, 14 Uhr -> 2 p.m., 14:35 ->
    14:35 (a 24-hour time stays one: both are English)."""
    if m:
        return f"{h}:{m:02d}"
    if h in (0, 24):
        return "midnight"
    return f"{h} o'clock" if h <= 12 else f"{h - 12} p.m."


def english_number(int_part: str, dec: str | None) -> str:
    """1.150 -> 1,150; 12,50 -> 12.50; 1150 and 0171 stay as written."""
    whole = int_part.replace(".", ",") if "." in int_part else int_part
    return whole + ("." + dec if dec else "")


def english_clock(hour: int, minute: int) -> str:
    """A time of the 24-hour clock as English prose writes it: 23:59 -> "11:59 p.m.",
    0:30 -> "12:30 a.m."; a morning hour as written ("9:30": the German's own)."""
    if 13 <= hour <= 23:
        return f"{hour - 12}:{minute:02d} p.m."
    if hour in (0, 24):
        return f"12:{minute:02d} a.m."
    return f"{hour}:{minute:02d}"


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def _time_keys(h: int, m: int) -> set[str]:
    return {f"t{h % 24}:{m:02d}"}


def _code_key(code: str) -> str:
    """A code's key: an IBAN's letters and digits; a phone number's digits (its spacing
    varies: 0171 2345678, 0171-2345678, 0171/2345678; "+49 (0)221" is "+49 221" as
    well); other codes' digits and hyphens/slashes as written."""
    if re.fullmatch(_IBAN, code):
        return "i" + re.sub(r"\s", "", code)
    if re.fullmatch(_PHONE, code):
        return "p" + re.sub(r"\D", "", code.replace("(0)", ""))
    return "c" + code


def _word_time(hour: int, words: str, m: int) -> tuple[set[str], int]:
    """Keys of a clock time said in words (morning or evening alike) and its hour on a
    12-hour clock: half past / quarter past ``hour``, or quarter to it (m = 45)."""
    h = hour - 1 if m in (30, 45) and words != "past" else hour
    h = h or 12
    return _time_keys(h, m) | _time_keys(h + 12, m), h


def source_facts(text: str) -> list[Fact]:
    """The facts of a German sentence (numbers 0 and 1 are left out: "a child")."""
    facts = []
    for m in _DE_FACTS.finditer(text):
        g = m.groupdict()
        if g["code"]:
            keys, english = {_code_key(g["code"])}, g["code"]
        elif g["half"]:  # halb acht = 7:30
            keys, h = _word_time(HOURS_DE.index(g["hw"]) + 1, "halb", 30)
            english = f"half past {CARDINALS[h]}"
        elif g["quarter"]:
            n = HOURS_DE.index(g["qw"]) + 1
            if g["qd"] == "nach":
                keys, _ = _word_time(n, "past", 15)
                english = f"quarter past {CARDINALS[n]}"
            else:
                keys, _ = _word_time(n, "to", 45)
                english = f"quarter to {CARDINALS[n]}"
        elif g["time"]:
            h, mi = int(g["h"] or g["h2"]), int(g["m"] or g["m2"])
            keys, english = _time_keys(h, mi), english_clock(h, mi)
        elif g["hour"]:
            keys, english = _time_keys(int(g["h3"]), 0), english_hour(int(g["h3"]))
        elif g["dm"]:
            month = MONTHS_DE.index(g["mon"])
            keys = {f"d{int(g['d'])}.{month + 1}"}
            english = f"{int(g['d'])} {MONTHS_EN[month]}"
        elif g["numdate"]:
            day, month = int(g["d2"]), int(g["m3"])
            if not (1 <= day <= 31 and 1 <= month <= 12):
                continue
            keys, english = {f"d{day}.{month}"}, f"{day} {MONTHS_EN[month - 1]}"
            if g["y"]:
                start = m.start("y")
                years = {"n" + g["y"]} | (
                    {f"n20{g['y']}", f"n19{g['y']}"} if len(g["y"]) == 2 else set()
                )
                year = Fact(g["y"], start, m.end("y"), frozenset(years), g["y"])
                date = Fact(text[m.start() : start], m.start(), start, frozenset(keys), english)
                facts += [year, date]
                continue
        elif g["scaled"]:
            scale = de_scale(g["sw"] or g["swl"])
            keys = {_scaled(g["si"].replace(".", ""), g["sd"], scale)}
            # as English says it („2,5 Millionen“: "2.5 million"), not "2,500,000"
            english = f"{english_number(g['si'], g['sd'])} {EN_SCALE_OF[scale]}"
        elif g["ord"]:  # „zum 5. Mal“: "5th" or "fifth"
            keys = {number_key(g["o"], None, "."), f"o{int(g['o'])}"}
            english = _ordinal(int(g["o"]))
        else:
            grouped = re.sub(r"[ \u00a0\u202f]", ".", g["int"])  # „200 000“ as 200.000
            keys = {number_key(grouped, g["dec"], ".")}
            if keys <= _NOT_CHECKED:
                continue
            english = english_number(grouped, g["dec"])
        facts.append(Fact(m.group().strip(), m.start(), m.end(), frozenset(keys), english))
    return sorted(facts, key=lambda f: f.start)


def _scaled(whole: str, decimals: str | None, scale: int) -> str:
    """The key of a number times its scale word's ``scale`` (``whole`` without
    separators): 2,5 Millionen -> n2500000 (0,0001 Tausend -> n0.1)."""
    value = Fraction(int(whole)) + (Fraction(int(decimals), 10 ** len(decimals)) if decimals else 0)
    value *= scale
    return f"n{value.numerator}" if value.denominator == 1 else f"n{float(value):g}"


def target_keys(text: str) -> Counter:
    """The keys found in an English sentence, with their counts."""
    keys: Counter = Counter()
    for m in _EN_FACTS.finditer(text):
        g = m.groupdict()
        if g["code"]:
            keys[_code_key(g["code"])] += 1
        elif g["half"]:  # half past seven = 7:30
            keys.update(_word_time(CARDINALS.index(g["hw"].lower()), "past", 30)[0])
        elif g["quarter"]:
            n, d = CARDINALS.index(g["qw"].lower()), g["qd"].lower()
            past = d in ("past", "after")  # "quarter before six", "quarter of six": 5:45
            keys.update(_word_time(n, "past" if past else "to", 15 if past else 45)[0])
        elif g["ampmw"]:  # "seven a.m."
            h = CARDINALS.index(g["hw2"].lower()) % 12
            keys.update(_time_keys(h + (12 if g["ap2"].lower() == "p" else 0), 0))
        elif g["athour"]:  # "at eight": morning or evening, as the German „um acht Uhr“
            h = CARDINALS.index(g["hw3"].lower())
            keys.update(_time_keys(h, 0) | _time_keys(h + 12, 0) | {f"n{h}"})
        elif g["ampm"]:  # "9 a.m." also keeps the bare hour of „von 9 bis 17 Uhr“
            h, mi = int(g["h"]) % 12, int(g["m"] or 0)
            keys.update(_time_keys(h + (12 if g["ap"].lower() == "p" else 0), mi))
            keys[f"n{int(g['h'])}"] += 0 if mi else 1
        elif g["oclock"]:
            h = int(g["h2"])
            keys.update(_time_keys(h, 0) | _time_keys(h + 12, 0) | {f"n{h}"})
        elif g["clock"]:
            h, mi = int(g["h3"]), int(g["m3"])
            keys.update(_time_keys(h, mi) | (_time_keys(h + 12, mi) if h < 12 else set()))
        elif g["md"] or g["dm"]:
            month = _MONTH_EN_INDEX[(g["mon"] or g["mon2"]).title()[:3]]
            keys[f"d{int(g['d'] or g['d2'])}.{month}"] += 1
        elif g["numdate"]:  # the German date copied: "12.03.2024"
            keys[f"d{int(g['d4'])}.{int(g['m4'])}"] += 1
            if g["y4"]:
                keys["n" + g["y4"]] += 1
            else:  # "a rating of 4.4." closes with a number, not a date
                keys[number_key(g["d4"], g["m4"], ",")] += 1
        elif g["slash"]:
            a, b = int(g["a"]), int(g["b"])
            keys.update({f"d{a}.{b}", f"d{b}.{a}"})
        elif g["noon"]:
            keys.update(_time_keys(12, 0))
        elif g["midnight"]:
            keys.update(_time_keys(0, 0))
        elif g["scaled"]:  # "16 thousand", "2.5 million"
            keys[_scaled(g["si"].replace(",", ""), g["sd"], _EN_SCALES[g["sw"].lower()])] += 1
        elif g["glued"]:  # "B33": 33
            keys[number_key(g["gd"], None, ",")] += 1
        elif g["decade"]:
            keys[f"n{int(g['dd'])}"] += 1
        elif g["num"]:
            keys[number_key(g["int"], g["dec"], ",")] += 1
            if _CLOCK_WITH_A_POINT.fullmatch(m.group()):  # "at 20.00 CET": a time too
                keys.update(_time_keys(int(g["int"]), int(g["dec"])))
            if g["ord"]:
                keys[f"o{int(g['int'].replace(',', ''))}"] += 1
        else:  # "seventh" keeps an ordinal, not „sieben“
            word = m.group().lower()
            keys[f"{'o' if word in _ORDINAL_SET else 'n'}{_WORD_VALUES[word]}"] += 1
    for m in _EN_HOUR_RANGE.finditer(text):  # "from 7 to 8 pm": 7 p.m. too
        h, mi = int(m["h"]) % 12 + (12 if m["ap"].lower() == "p" else 0), int(m["m"] or 0)
        keys.update(_time_keys(h, mi))
        keys[f"n{h}"] += 0 if mi else 1  # the bare hour of „von 19 bis 20 Uhr“
    return keys


# An hour before another that has its a.m. or p.m.: the first shares it ("from 7 to 8
# pm" is 19 to 20 o'clock, „von 19 bis 20 Uhr“).
_EN_HOUR_RANGE = re.compile(
    r"(?<![\w.,:])(?P<h>1[0-2]|0?\d)(?:[:.](?P<m>[0-5]\d))?\s*(?:to|till|until|-|–)\s*"
    r"(?:1[0-2]|0?\d)(?:[:.][0-5]\d)?\s*(?P<ap>[ap])\.?\s?m\b",
    re.IGNORECASE,
)


def missing_number_facts(source: str, translation: str) -> list[Fact]:
    """The facts in digits of ``source`` that ``translation`` does not keep (see
    core/faithful/fact_check.py for every kind of fact)."""
    return unmatched(source_facts(source), target_keys(translation))


def unmatched(facts: list[Fact], found: Counter) -> list[Fact]:
    """The facts none of whose keys is left in ``found`` (each key found once serves
    one fact)."""
    found = found.copy()
    missing = []
    for fact in facts:
        key = next((k for k in sorted(fact.keys) if found[k] > 0), None)
        if key is None:
            missing.append(fact)
        else:
            found[key] -= 1
    return missing


_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")


def repeated_numbers(source: str, translation: str) -> int:
    """How many times ``translation`` writes a number of ``source`` more often than the
    source has it ("costs 30€30." for „kostet 30 Euro“: a price doubled by a decode that
    wrote the number and then its annotated form). Digits only, separators ignored
    (1.150 = 1,150); numbers the source lacks are not counted (7:30 for „halb acht“)."""

    def counts(text: str) -> Counter:
        return Counter(re.sub(r"[.,]", "", m.group()) for m in _DIGITS.finditer(text))

    have, wrote = counts(source), counts(translation)
    return sum(max(0, wrote[d] - n) for d, n in have.items())

"""Facts said in words (issue 48): number words, the unit or noun a number counts, clock
times in words, weekdays, months and relative days, negation, and limits (spätestens,
mindestens, höchstens, bis, ab, zuzüglich, inklusive).

Each German fact gets one key; the English is read into keys with English patterns, and a
fact is kept when its key is found (as many times as the German has it, except negation:
one English negation keeps any number of German ones, since "weder … noch" and "kein …
und kein …" become one English "neither … nor" or "no … or").

core/faithful/number_check.py does the same for facts in digits; the two are combined in
core/faithful/fact_check.py, which resolves overlaps: „halb acht“ is a clock time there,
not the number word „halb“ here.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache

from translator_app.core.faithful.number_check import (
    CARDINALS,
    HOURS_DE,
    MONTHS_DE,
    MONTHS_EN,
    ORDINALS,
    WEEKDAYS_DE,
    WEEKDAYS_EN,
    Fact,
)
from translator_app.core.faithful.number_words import (
    COMPOUND,
    english_counted_keys,
    english_number_keys,
    english_value,
    german_counted,
    german_numbers,
    value_key,
)
from translator_app.core.language.multiples import english_factor, english_factors, german_multiples
from translator_app.core.language.opening import english_states, german_states
from translator_app.core.language.words import (
    Limit,
    alternation,
    daytimes,
    english_month_abbreviations,
    english_words,
    frequencies,
    german_number_words,
    german_words,
    limits,
    relative_days,
    spaced_alternation,
    units,
)

# ------------------------------------------------------------------ number words
# The simple words up to zwölf, the tens, hundert, tausend and Dutzend; „eins“ and „ein“
# are mostly "one"/"a": not checked.
NUMBER_WORDS_DE = {
    w: v for w, v in german_number_words("alone").items() if 1 < v <= 12
} | german_number_words("tens", "scale", "dozen")
_ORDINAL_STEMS_DE = german_number_words("ordinal")  # „zweit“ of „am zweiten“
_NUMBER_WORD = "|".join(sorted(NUMBER_WORDS_DE, key=len, reverse=True))
_ORDINAL_WORD = rf"(?:{'|'.join(_ORDINAL_STEMS_DE)})e[nmrs]?"
_HALF = r"halbe[nmrs]?|halb"
_EN_NUMBER_WORDS = {"thousand": 1000, "half": 0.5, "halves": 0.5}

# ------------------------------------------------------------------ units and counted nouns
# (key, German forms after a number, English forms that keep it): units.tsv
UNITS = [(u.key, alternation(u.german), alternation(u.english)) for u in units()]
UNIT_NAMES = {u.key: u.name for u in units()}

# ------------------------------------------------------------------ days and times
# (key, German, English that keeps it, as a fact says it): calendar.tsv; lower-case
# „morgen“ only (word_facts): „Morgen“ is also "morning"
# The keys of the adverbs of how often („werktags“: r:werktags), among the relative days.
FREQUENCY_KEYS = frozenset(f"r:{de}" for de, _ in frequencies())
RELATIVE_DAYS = [(de, de, alternation(en), en[0]) for de, en in relative_days() + frequencies()]
_EN_HOUR_WORDS = "|".join(CARDINALS[1:13])

# ------------------------------------------------------------------ negation and limits
NEGATION_DE = (  # „niemand“ and its forms as one: the alternation holds them all
    alternation(german_words("negation"))
)
# "no" but not "No. 5"; a verb in "n't"
_NEGATION_EN = (
    rf"\b(?:{alternation(english_words('negation') + english_words('says-no'))}"
    r"|no(?!\.?\s*\d))\b|n['’]t\b"
)


# What a limit may stand before: a digit, a number word, a day, a month, a time of day
# (german-words.tsv: the words between, before-a-limited-fact; the words that are such a
# fact, limited-fact).
_BETWEEN = spaced_alternation(german_words("before-a-limited-fact"))
_LIMITED = spaced_alternation(german_words("limited-fact"))
_FACT_AHEAD = (
    rf"(?=\s+(?:(?:{_BETWEEN})\s+){{0,2}}"
    rf"(?:\d|(?:{_NUMBER_WORD}|{COMPOUND}|{_LIMITED}"
    rf"|{'|'.join(WEEKDAYS_DE)}|{'|'.join(MONTHS_DE)})\b))"
)
# „eine Rechnung über 250 Euro“ is an invoice for 250 euros, not over them (one
# fixed-width look-behind per noun, as Python's re asks).
_NOT_AFTER_DOCUMENT = "".join(f"(?<!{noun} )" for noun in german_words("document"))
# „unter 0221 12345“ is where to call, not a limit.
_NOT_PHONE = r"(?!\s+(?:\+|\(?0\d))"
_EN_WHEN = rf"\d|a\.m\.|p\.m\.|o'clock|noon|midnight|{'|'.join(WEEKDAYS_EN)}|{'|'.join(MONTHS_EN)}"
# A range in English keeps „bis“: "May 3-7", "9 to 5", "between 1994 and 1996".
_EN_RANGE = rf"(?:{_EN_WHEN})(?:st|nd|rd|th)?\.?\s*(?:to\b|[-–])|\bbetween\s+\S+\s+and\b"


def _german_limit(limit: Limit) -> str:
    """The German regex of ``limit`` (language/words.limits), its placeholders filled
    and, where it is one only before a fact, that fact looked for ahead."""
    german = limit.german.replace("{not-after-document}", _NOT_AFTER_DOCUMENT)
    german = german.replace("{not-phone}", _NOT_PHONE)
    return rf"(?:{german}){_FACT_AHEAD}" if limit.before_a_fact else german


# (key, German, English that keeps it, the English to suggest)
LIMITS = [
    (lim.key, _german_limit(lim), lim.english.replace("{range}", _EN_RANGE), lim.suggest)
    for lim in limits()
]


@dataclass(frozen=True)
class _Rule:
    kind: str  # number word, unit, time, date, negation, limit
    keys: frozenset[str]  # one of them must be in the English
    english: str  # what the English should say, for the mark's tooltip


def _rule(kind: str, english: str, *keys: str) -> _Rule:
    return _Rule(kind, frozenset(keys), english)


def _de(pattern: str, flags: int = 0) -> re.Pattern:
    return re.compile(rf"(?<![\w.-])(?:{pattern})(?![\w-])", flags)


def _en(pattern: str, flags: int = re.IGNORECASE) -> re.Pattern:
    """An English pattern as whole words; a unit may follow a digit ("20%", "5km")."""
    return re.compile(rf"(?<![^\W\d_]|-)(?:{pattern})(?![\w-])", flags)


def _lower_or_first(word: str) -> str:
    """A German word in lower case, or capitalised at the start of the sentence."""
    return rf"{word}|^{word[:1].upper()}{word[1:]}"


# A number the unit stands after: digits, a number word, or a half.
_DIGITS = r"\d+(?:[.,]\d+)*"
_COUNT_IN_WORDS = rf"{_NUMBER_WORD}|{COMPOUND}|{_HALF}|ein(?:e[nmrs]?)?\s+halbe[nmrs]?"
_COUNT = rf"(?:{_DIGITS}|{_COUNT_IN_WORDS})"
# Before a unit: digits, with or without a space („5km“), or a number in words as a word of
# its own („zehn Meter“; „Elfmeter“ is a penalty kick, „Halbjahr“ a half-year, no measure).
_COUNT_BEFORE_UNIT = rf"(?:{_DIGITS}\s*|(?:{_COUNT_IN_WORDS})\s+)"


def _grouped(alternatives: list[tuple[str, object]]) -> tuple[str, dict[str, object]]:
    """One alternation of ``(pattern, value)`` pairs, each a named group ``g0``, ``g1``
    …, and the value of each group: a category is one regex, compiled once, not one per
    word (the start-up cost of the faithfulness checks, issue 49)."""
    parts, values = [], {}
    for i, (pattern, value) in enumerate(alternatives):
        parts.append(f"(?P<g{i}>{pattern})")
        values[f"g{i}"] = value
    return "|".join(parts), values


def _source_rules() -> list[tuple[re.Pattern, dict[str, _Rule]]]:
    """For each category of word facts: its German regex (the fact is the named group
    that matched) and the rule of each group."""
    numbers = [
        (
            word if word == "Dutzend" else _lower_or_first(word),
            _rule("number word", str(value), f"n{value}"),
        )
        for word, value in NUMBER_WORDS_DE.items()
    ]
    numbers += [
        (_lower_or_first(f"{stem}e[nmrs]?"), _rule("number word", ORDINALS[value], f"o{value}"))
        for stem, value in _ORDINAL_STEMS_DE.items()
    ]
    numbers.append((_lower_or_first(_HALF), _rule("number word", "half", "n0.5")))
    units = [(de, _rule("unit", UNIT_NAMES.get(k, k), f"u:{k}")) for k, de, _ in UNITS]
    rates = [(de, _rule("unit", f"per {UNIT_NAMES.get(k, k)}", f"u:{k}")) for k, de, _ in UNITS]
    times = [
        (rf"{word}\s+Uhr", _rule("time", f"{h} o'clock", f"t{h}:00", f"t{(h + 12) % 24}:00"))
        for h, word in enumerate(HOURS_DE, start=1)
    ] + [("Mitternacht", _rule("time", "midnight", "t0:00"))]
    days = [
        (f"{day}s?", _rule("date", WEEKDAYS_EN[i], f"w{i}")) for i, day in enumerate(WEEKDAYS_DE)
    ]
    days += [  # „samstags“: every Saturday, as English says it
        (f"{day.lower()}s", _rule("date", f"on {WEEKDAYS_EN[i]}s", f"w{i}"))
        for i, day in enumerate(WEEKDAYS_DE)
    ]
    # A weekday compounded with a time of day: „am Freitagabend“, „dienstagvormittags“.
    parts = alternation([de.split()[-1].lower() for de, _ in daytimes()])
    days += [
        (rf"(?:{day}|{day.lower()})(?:{parts})s?", _rule("date", WEEKDAYS_EN[i], f"w{i}"))
        for i, day in enumerate(WEEKDAYS_DE)
    ]
    days += [(month, _rule("date", MONTHS_EN[i], f"M{i + 1}")) for i, month in enumerate(MONTHS_DE)]
    relative = [(de, _rule("date", said, f"r:{k}")) for k, de, _, said in RELATIVE_DAYS]
    negation = [(NEGATION_DE, _rule("negation", "a negation: not, no, never", "x:neg"))]
    limits = [(de, _rule("limit", english, f"l:{k}")) for k, de, _, english in LIMITS]
    out = []
    for alternatives, flags, template in (
        (numbers, 0, "{}"),
        (units, re.IGNORECASE, rf"{_COUNT_BEFORE_UNIT}(?:{{}})"),  # „zehn Werktage“: the unit
        (rates, 0, r"(?:pro|je)\s+(?:{})"),  # a rate: „80 Euro pro Nacht“
        (times, 0, "{}"),
        (days, 0, "{}"),
        (relative, re.IGNORECASE, "{}"),
        (negation, re.IGNORECASE, "{}"),
        (limits, re.IGNORECASE, "{}"),
    ):
        pattern, values = _grouped(alternatives)
        out.append((_de(template.format(pattern), flags), values))
    return out


def _target_rules() -> list[tuple[re.Pattern, dict[str, str]]]:
    """For each category: its English regex and the key of each named group. Limits
    and the negation are one regex each: a word may serve two ("by": until, at the
    latest; "no later than": a limit, not a negation)."""
    units = _grouped([(en, f"u:{k}") for k, _, en in UNITS])
    categories = [
        (units, re.IGNORECASE),
        (_grouped([(f"{d}s?", f"w{i}") for i, d in enumerate(WEEKDAYS_EN)]), re.IGNORECASE),
        (_grouped([(en, f"r:{k}") for k, _, en, _ in RELATIVE_DAYS]), re.IGNORECASE),
        (_grouped([(w, f"n{v:g}") for w, v in _EN_NUMBER_WORDS.items()]), re.IGNORECASE),
        (_grouped([(rf"(?:{_EN_HOUR_WORDS})\s+o'clock", "oclock")]), re.IGNORECASE),
    ]
    out = [(_en(pattern, flags), values) for (pattern, values), flags in categories]
    # Month names as written ("May", not the verb "may"), or abbreviated ("Oct.", "Sept."),
    # after a hyphen too ("mid-June")
    months = _grouped(
        [
            ("|".join([m] + [rf"{a}\." for a in english_month_abbreviations(m)]), f"M{i + 1}")
            for i, m in enumerate(MONTHS_EN)
        ]
    )
    out.append((re.compile(rf"(?<![^\W\d_])(?:{months[0]})(?![\w-])"), months[1]))
    # A unit in a compound adjective after its number: "a 76-year-old", "a 40-litre box",
    # "a half-year result", "a five-day week"
    count = rf"\d+(?:[.,]\d+)?|{'|'.join(CARDINALS[2:])}|half"
    out.append(
        (re.compile(rf"(?<![\w-])(?:{count})-(?:{units[0]})(?![^\W\d_])", re.IGNORECASE), units[1])
    )
    # Limits and negation as written: their patterns say where words end.
    out += [(re.compile(en, re.IGNORECASE), {"g0": f"l:{k}"}) for k, _, en, _ in LIMITS]
    out.append((re.compile(_NEGATION_EN, re.IGNORECASE), {"g0": "x:neg"}))
    return out


@cache
def source_rules() -> list[tuple[re.Pattern, dict[str, _Rule]]]:
    return _source_rules()


@cache
def target_rules() -> list[tuple[re.Pattern, dict[str, str]]]:
    return _target_rules()


def _matched(m: re.Match) -> str:
    """The named group ``g<i>`` that matched (a pattern's own groups are unnamed)."""
    return next(name for name, value in m.groupdict().items() if value is not None)


# A score or ratio in words: „zwei zu eins“ -> "two to one", "2-1", "2:1".
_SCORE_DE_VALUES = {"null": 0, "eins": 1} | {w: v for w, v in NUMBER_WORDS_DE.items() if v <= 12}
_SCORE_EN_VALUES = {"nil": 0, "zero": 0, "nothing": 0} | {w: i for i, w in enumerate(CARDINALS)}
_SCORE_DE = re.compile(
    rf"(?<![\w-])(?P<a>{'|'.join(_SCORE_DE_VALUES)}|\d+)\s+zu\s+"
    rf"(?P<b>{'|'.join(_SCORE_DE_VALUES)}|\d+)(?![\w-])"
)
_SCORE_EN = re.compile(
    rf"(?<![\w-])(?P<a>{'|'.join(_SCORE_EN_VALUES)}|\d+)\s*(?:to|-|–|:)\s*"
    rf"(?P<b>{'|'.join(_SCORE_EN_VALUES)}|\d+)(?![\w-])",
    re.IGNORECASE,
)


def _score_value(word: str, values: dict[str, int]) -> int:
    return int(word) if word.isdigit() else values[word.lower()]


def score_facts(text: str) -> list[Fact]:
    """Scores and ratios said with „zu“: one fact each, kept by the same two numbers."""
    out = []
    for m in _SCORE_DE.finditer(text):
        a, b = (_score_value(m[k], _SCORE_DE_VALUES) for k in ("a", "b"))
        out.append(
            Fact(m.group(), m.start(), m.end(), frozenset({f"s{a}:{b}"}), f"{a}-{b}", "number word")
        )
    return out


# „Bis morgen!“ alone is a farewell: „bis“ first, one word, then nothing but punctuation
# or symbols.
_FAREWELL = re.compile(r"[Bb]is\s+\w+\W*$")
_WORD = re.compile(r"\w")
# An age limit before „Jahren“: English says the age without "years" ("children under
# six", "from 18"); the limit and the number are still checked.
_AGE_AFTER = re.compile(r"\s+alt(?:e[nmrs]?)?\b")
_AGE_BEFORE = re.compile(rf"\b(?:unter|ab|über|bis zu|mit|von)\s+{_COUNT}\s*$", re.IGNORECASE)


def word_facts(text: str) -> list[Fact]:
    """The facts a German sentence says in words, with their kind and the English
    each needs (``Fact.english``). Overlapping facts are all kept here; the caller drops
    those inside a fact written in digits."""
    facts = []
    for pattern, rules in source_rules():
        for m in pattern.finditer(text):
            group = _matched(m)
            rule = rules[group]
            start, end = m.span(group)
            if "r:morgen" in rule.keys and text[start].isupper():
                continue  # „Morgen“ is also "morning"
            if rule.keys & FREQUENCY_KEYS and text[start].isupper() and text[:start].strip():
                continue  # „des Wochentags“: a noun, not „wochentags“
            if (
                "l:until" in rule.keys
                and _FAREWELL.match(text, start)
                and not _WORD.search(text, 0, start)
            ):
                continue  # „Bis morgen!“, „Bis bald 👋“: "see you tomorrow"
            if "u:year" in rule.keys and (
                _AGE_BEFORE.search(text, 0, start) or _AGE_AFTER.match(text, end)
            ):
                continue  # an age: „unter sechs Jahren“ is "under six", "under 6s"; „19
                # Jahre alt“ is "19" as well as "19 years old" (the number is checked)
            facts.append(Fact(text[start:end], start, end, rule.keys, rule.english, rule.kind))
    facts += score_facts(text) + number_word_facts(text) + multiple_facts(text) + state_facts(text)
    return sorted(facts, key=lambda f: (f.start, f.end))


def multiple_facts(text: str) -> list[Fact]:
    """Factors („verdreifacht“, „das Doppelte“): kept by an English that says the same
    factor ("tripled", "three times", "threefold") or its number („dreifach Geimpfte“:
    "people with three vaccinations")."""
    return [
        Fact(
            text[a:b],
            a,
            b,
            frozenset({f"times{n}", f"n{n}"}),
            english_factor(n, verb),
            "number word",
        )
        for a, b, n, verb in german_multiples(text)
    ]


def state_facts(text: str) -> list[Fact]:
    """Open or closed („Die Apotheke hat heute zu.“, „hat bis 14 Uhr geöffnet“: the verb
    bracket read by core/language/opening.py): kept by an English that says the same
    state ("closed", "shut", "not open"; "open")."""
    return [
        Fact(text[a:b], a, b, frozenset({f"state:{s}"}), s, "state")
        for a, b, s in german_states(text)
    ]


def number_word_facts(text: str) -> list[Fact]:
    """Numbers in words beyond the single-word table (number_words.py: „zweihundert-
    vierzig“, „anderthalb“, „zwei Drittel“) and the nouns numbers count („250 Gramm
    Mehl“: the fact is „Gramm Mehl“, kept by any word after the English number and
    measure)."""
    facts = [
        Fact(text[a:b], a, b, frozenset({value_key(v)}), english_value(v), "number word")
        for a, b, v in german_numbers(text)
    ]
    facts += [
        Fact(text[a:b], a, b, frozenset({"c:" + value_key(v)}), "", "counted")
        for a, b, v in german_counted(text, measured=True)
    ]
    return facts


def target_word_keys(text: str) -> Counter:
    """The word-fact keys found in an English sentence, with their counts."""
    keys: Counter = Counter()
    for pattern, values in target_rules():
        for m in pattern.finditer(text):
            key = values[_matched(m)] if len(values) > 1 else values["g0"]
            if key == "oclock":
                hour = CARDINALS.index(m.group().split()[0].lower())
                keys.update({f"t{hour}:00", f"t{hour + 12}:00"})
            else:
                keys[key] += 1
                if key == "u:workday":  # "ten working days" also says days
                    keys["u:day"] += 1
    keys += english_number_keys(text) + english_counted_keys(text)
    keys.update({f"times{n}": k for n, k in english_factors(text).items()})
    keys.update({f"state:{s}": k for s, k in english_states(text).items()})
    for m in _SCORE_EN.finditer(text):
        keys[
            f"s{_score_value(m['a'], _SCORE_EN_VALUES)}:{_score_value(m['b'], _SCORE_EN_VALUES)}"
        ] += 1
    if keys["x:neg"]:
        keys["x:neg"] = 1_000  # one English negation keeps every German one
    return keys

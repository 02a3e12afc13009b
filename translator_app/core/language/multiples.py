"""How many times: a factor said in German („verdreifacht“, „das Doppelte“, „zehnfach“)
or in English ("tripled", "twice", "ten times", "tenfold"), read to its number. The
number inside a word is read by text2num (language/numbers.py, amounts.english_number).

``german_multiples(text)`` -> (start, end, factor, verb) of each German factor, ``verb``
where it is a verb's form („verdoppelt“: "doubled"); ``english_factors(text)`` -> the
factors an English sentence says; ``english_factor(factor, verb)`` -> how a fact says it.

>>> german_multiples("Die Miete hat sich verdreifacht.")
((19, 31, 3, True),)
>>> sorted(english_factors("The rent has tripled, and the costs went up ten times."))
[3, 10]
"""

from __future__ import annotations

import re
from collections import Counter

from translator_app.core.language.amounts import english_number
from translator_app.core.language.numbers import cardinal

# „ver“ (the verb), a number in digits or one word, „fach“, an ending: „verdreifacht“,
# „zehnfache“, „3-fach“, „Hundertfache“; „doppelt“ and its verb and noun.
_GERMAN = re.compile(
    r"(?<![\w-])(?P<ver>[Vv]er)?(?:(?P<n>\d{1,4}-?|[^\W\d_]{3,}?)fach|(?P<double>[Dd]oppel))"
    r"(?P<end>e|en|em|er|es|n|t|te|ten|ter|tes|st|ung|t?)(?![\w-])"
)
_ENGLISH_WORDS = {
    "double": 2, "doubled": 2, "doubles": 2, "doubling": 2, "twice": 2, "redouble": 2,
    "redoubled": 2,
    "triple": 3, "tripled": 3, "triples": 3, "tripling": 3, "treble": 3, "trebled": 3,
    "thrice": 3, "quadruple": 4, "quadrupled": 4, "quadruples": 4, "quadrupling": 4,
    "quintuple": 5, "quintupled": 5, "dual": 2,
}  # fmt: skip
_ENGLISH = re.compile(
    rf"\b(?:(?P<word>{'|'.join(_ENGLISH_WORDS)})"
    r"|(?P<n>\d{1,4}|[a-z]+(?:-[a-z]+)?)(?:\s*-\s*|\s*)fold|(?P<k>\d{1,4}|[a-z]+(?:-[a-z]+)?)\s+times)\b",
    re.IGNORECASE,
)
_VERBS = {2: "doubled", 3: "tripled", 4: "quadrupled"}
_TIMES = {2: "twice", 3: "three times", 4: "four times"}


def german_multiples(text: str) -> tuple[tuple[int, int, int, bool], ...]:
    """(start, end, factor, verb) of each German factor from two up in ``text``: „einfach“
    (simple) and „vielfach“ (often) name none."""
    found = []
    for m in _GERMAN.finditer(text):
        if m.group("double"):
            factor = 2
            if m.group("end") in ("", "ung") and not m.group("ver"):
                continue  # „Doppel“ alone is a prefix, „Doppelung“ a noun
        else:
            number = m.group("n").rstrip("-")
            factor = int(number) if number.isdigit() else cardinal(number.lower())
            if factor is None or factor < 2:
                continue
        verb = bool(m.group("ver")) and m.group("end") in ("t", "te", "ten", "en", "n", "")
        found.append((m.start(), m.end(), factor, verb))
    return tuple(found)


def english_factors(text: str) -> Counter:
    """The factors ``text`` says, with how often: "twice" 2, "tripled" 3, "ten times"
    10, "a 3-fold rise" 3; a number of times from two up."""
    factors: Counter = Counter()
    for m in _ENGLISH.finditer(text):
        if m.group("word"):
            factors[_ENGLISH_WORDS[m.group("word").lower()]] += 1
            continue
        value = english_number(m.group("n") or m.group("k"))
        if value is not None and value >= 2:
            factors[value] += 1
    return factors


def english_factor(factor: int, verb: bool) -> str:
    """How an English sentence says the factor: "tripled" for a verb, else "three
    times"; "12-fold" beyond four."""
    if verb:
        return _VERBS.get(factor, f"increased {factor}-fold")
    return _TIMES.get(factor, f"{factor} times")

"""Every fact of a German sentence, and which of them an English translation loses
(issues 30 and 48): facts in digits (core/faithful/number_check.py: numbers, prices,
times, dates, codes, phone numbers, IBANs) and facts in words
(core/faithful/fact_words.py: number words, units, clock times and days in words,
negation, limits).

The translator prefers, among its n-best candidates, one that keeps every fact, and marks
a sentence where none does (``Translation.missing_numbers``).
"""

from __future__ import annotations

import re
from collections import Counter

from translator_app.core.faithful.fact_words import target_word_keys, word_facts
from translator_app.core.faithful.number_check import (
    Fact,
    source_facts,
    target_keys,
    unmatched,
)


def all_facts(source: str) -> list[Fact]:
    """The facts of a German sentence in the order they appear. A fact in words inside a
    fact in digits or inside a longer fact in words is left out: „halb acht“ is one clock
    time, „um acht Uhr“ one time, not also the number eight."""
    digits = source_facts(source)
    words = word_facts(source)
    kept: list[Fact] = []
    for f in words:
        inside_digits = any(d.start < f.end and f.start < d.end for d in digits)
        inside_longer = any(
            g is not f
            and g.start <= f.start
            and f.end <= g.end
            and g.end - g.start > f.end - f.start
            for g in words
        )
        if not inside_digits and not inside_longer:
            kept.append(f)
    return sorted(digits + kept, key=lambda f: (f.start, f.end))


def missing_facts(source: str, translation: str) -> list[Fact]:
    """The facts of ``source`` that ``translation`` does not keep, then the numbers it
    writes that ``source`` does not hold (:func:`added_facts`)."""
    facts = all_facts(source)
    lost = (
        unmatched(facts, target_keys(translation) + target_word_keys(translation)) if facts else []
    )
    return lost + added_facts(source, translation, facts)


_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")


def _values(text: str) -> Counter:
    """The numbers written in digits, separators ignored (1.150 = 1,150 = 1150)."""
    return Counter(int(re.sub(r"[.,]", "", m.group())) for m in _DIGITS.finditer(text))


def added_facts(source: str, translation: str, facts: list[Fact] | None = None) -> list[Fact]:
    """Numbers in ``translation`` that ``source`` does not hold, each as a Fact of kind
    "added" spanning the whole source (issue 65 §1: "Ich liebe dich ❤️" became "I love
    you €2."): a number counts as held where the German writes it in digits, or where a
    fact of the German names it in its keys or its English form („14 Uhr“: 2 p.m.,
    „halb acht“: 7:30, „zwei“: 2)."""
    facts = all_facts(source) if facts is None else facts
    have = _values(source)
    named = {int(n) for f in facts for k in (*f.keys, f.english) for n in re.findall(r"\d+", k)}
    added = []
    for m in _DIGITS.finditer(translation):
        value = int(re.sub(r"[.,]", "", m.group()))
        if have[value] > 0:
            have[value] -= 1
        elif value not in named and not any(int(n) in named for n in re.split(r"[.,]", m.group())):
            added.append(Fact(m.group(), 0, len(source), frozenset(), "", kind="added"))
    return added


def describe(fact: Fact) -> str:
    """A lost fact for a person: its German and, where it helps, the English it needs:
    "Werktage (working days)", "spätestens (at the latest)", "1.150 (1,150)"."""
    if fact.kind == "added":
        return f"{fact.text} (in the English, not in the German)"
    if not fact.english or fact.english == fact.text:
        return fact.text
    return f"{fact.text} ({fact.english})"

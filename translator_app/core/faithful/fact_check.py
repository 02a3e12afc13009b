"""Every fact of a German sentence, and which of them an English translation loses
(issues 30 and 48): facts in digits (core/faithful/number_check.py: numbers, prices,
times, dates, codes, phone numbers, IBANs) and facts in words
(core/faithful/fact_words.py: number words, units, clock times and days in words,
negation, limits).

The translator prefers, among its n-best candidates, one that keeps every fact, and marks
a sentence where none does (``Translation.issues``).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from text_to_num import alpha2digit

from translator_app.core.faithful.fact_words import NEGATION_DE, target_word_keys, word_facts
from translator_app.core.faithful.number_check import (
    Fact,
    number_key,
    source_facts,
    target_keys,
    unmatched,
)
from translator_app.core.faithful.protect import address_uses
from translator_app.core.language.amounts import amounts_in, english_amounts, in_figures
from translator_app.core.language.numbers import with_digits
from translator_app.core.language.words import (
    alternation,
    english_number_words,
    english_words,
    german_words,
    spaced_alternation,
)
from translator_app.core.text.clean import through


def all_facts(source: str) -> list[Fact]:
    """The facts of a German sentence in the order they appear. A fact in words inside a
    fact in digits or inside a longer fact in words is left out: „halb acht“ is one clock
    time, „um acht Uhr“ one time, not also the number eight. Numbers in words from
    thirteen up are read as the model is given them, in digits (language/numbers.py, by
    text2num): „um siebzehn Uhr“ is the time 17:00, as „um 17 Uhr“."""
    addresses = address_facts(source)
    digits = addresses + [
        d
        for d in _digit_facts(source)
        if not any(a.start <= d.start and d.end <= a.end for a in addresses)
    ]
    words = word_facts(source)
    kept: list[Fact] = []
    for f in words:
        inside_digits = any(d.start < f.end and f.start < d.end for d in digits)
        inside_longer = any(
            g is not f
            and g.kind != "counted"  # „Gramm“ of „Gramm Mehl“ is a unit fact of its own
            and g.start <= f.start
            and f.end <= g.end
            and g.end - g.start > f.end - f.start
            for g in words
        )
        if not inside_digits and not inside_longer:
            kept.append(f)
    return sorted(digits + kept, key=lambda f: (f.start, f.end))


def address_facts(source: str) -> list[Fact]:
    """The addresses, handles, tags and file paths of ``source``
    (protect.address_uses): each kept only where the English writes it as it stands; the
    numbers inside it are no facts of their own."""
    return [
        Fact(u.source, u.start, u.end, frozenset({f"a:{u.source}"}), u.source, "address")
        for u in address_uses(source)
    ]


def _digit_facts(source: str) -> list[Fact]:
    """The facts in digits of ``source`` read as the model is given it (its amounts in
    figures, language/amounts.py; its numbers in words from thirteen up in digits), their
    spans in ``source``; a fact read from an amount spans the whole amount („eine
    Dreiviertelstunde“, read as 45 Minuten)."""
    read, origins = in_figures(source)
    read, within = with_digits(read)
    origins = through(origins, within)
    if origins is None:
        return source_facts(source)
    amounts = amounts_in(source)
    facts = []
    for f in source_facts(read):
        start, end = origins[f.start], origins[f.end]
        for a, b, _ in amounts:
            if a < end and start < b:
                start, end = min(start, a), max(end, b)
        facts.append(replace(f, text=source[start:end], start=start, end=end))
    return facts


def missing_facts(source: str, translation: str) -> list[Fact]:
    """The facts of ``source`` that ``translation`` does not keep; where it keeps them
    all, the numbers it writes that ``source`` does not hold (:func:`added_facts`: a
    number garbled from a lost one is marked once, as lost)."""
    facts = all_facts(source)
    lost = unmatched(facts, english_keys(translation)) if facts else []
    # A counted noun whose number is lost too is one loss, said once: the number.
    numbers = {k for f in lost if f.kind != "counted" for k in f.keys}
    lost = [f for f in lost if f.kind != "counted" or not {k[2:] for k in f.keys} & numbers]
    return lost or added_facts(source, translation, facts) + added_negation(source, translation)


def english_keys(translation: str) -> Counter:
    """The keys of every fact ``translation`` writes: in digits, in words, and the
    amounts in words that the German is read with in figures ("nineteen euros
    ninety-nine": 19.99; language/amounts.py)."""
    keys = target_keys(translation) + target_word_keys(translation)
    keys.update(f"a:{u.source}" for u in address_uses(translation))
    if _ORDINAL_EN.search(translation):  # "on October twentieth": the date 20.10
        in_digits = target_keys(alpha2digit(translation, "en"))
        keys += Counter({k: n for k, n in in_digits.items() if k[0] == "d" and k not in keys})
    for _, _, figures in english_amounts(translation):
        whole, _, dec = figures.partition(".")
        keys[number_key(whole, dec, ",")] += 1
    return keys


_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
# An English ordinal of a day in words ("fourth", "twentieth", "thirty-first"), read by
# text2num; asked first, so that text2num reads only an English that has one.
_ORDINAL_EN = re.compile(
    rf"\b(?:thirtieth|(?:(?:twenty|thirty)[- ]?)?(?:{alternation(english_number_words('ordinal'))}))\b",
    re.IGNORECASE,
)


def _values(text: str) -> Counter:
    """The numbers written in digits, separators ignored (1.150 = 1,150 = 1150)."""
    return Counter(int(re.sub(r"[.,]", "", m.group())) for m in _DIGITS.finditer(text))


def _named(facts: list[Fact]) -> set[int]:
    """The numbers the facts name in their keys and English forms (read as the English's
    digits are: „dreieinhalb Milliarden“ names the 3.5 of "3.5 billion"), and a clock
    time's hour on the 12-hour clock („18:03 Uhr“: 6:03 p.m.)."""
    named = {int(n) for f in facts for k in (*f.keys, f.english) for n in re.findall(r"\d+", k)}
    named |= {v for f in facts for v in _values(f.english)}
    return named | {n - 12 for n in named if 13 <= n <= 24} | ({12} if 0 in named else set())


def added_facts(source: str, translation: str, facts: list[Fact] | None = None) -> list[Fact]:
    """Numbers in ``translation`` that ``source`` does not hold, each as a Fact of kind
    "added" spanning the whole source (issue 65 §1: „Ich liebe dich ❤️“ became "I love
    you €2."). A number is held where the German writes it in digits, where a fact of
    the German names it („14 Uhr“: 2 p.m., „halb acht“: 7:30, „zwei“: 2), and, from three
    digits on, where it is a run of the German's digits grouped otherwise (a phone number
    or an IBAN spaced anew: „0221 9876-55“ as "0221 987655")."""
    facts = all_facts(source) if facts is None else facts
    have, named = _values(source), _named(facts)
    digits = "".join(re.findall(r"\d", source))
    added = []
    for m in _DIGITS.finditer(translation):
        plain = re.sub(r"[.,]", "", m.group())
        value = int(plain)
        if have[value] > 0:
            have[value] -= 1
        elif value in named or (len(plain) >= 3 and plain in digits):
            continue
        else:
            added.append(Fact(m.group(), 0, len(source), frozenset(), "", kind="added"))
    return added


# An English negation that reverses a German sentence holding none („Sehr zu empfehlen!“
# -> "Don't recommend that.", „Sorry, ich habe deine Nachricht erst jetzt gesehen.“ ->
# "Sorry, I didn't see your message now.").
_ENGLISH_NEGATION = re.compile(
    rf"\b(?:\w+n['’]t|{alternation(english_words('negation'))}|no(?!\.?\s*\d))\b",
    re.IGNORECASE,
)
# What says "no" in German besides a negation word, where English writes one: „Nein“,
# „ohne“ ("no cream"), „Baden verboten“ ("No swimming"), „ausgeschlossen“ ("not
# covered"), „kaum“, „fehlen“, „kostenlos“/„rauchfrei“ ("no charge", "no smoking"),
# un-words („unmöglich“: "not possible"; not „unter“, „uns“, „und“), „weniger“ ("no more
# than"), and a tag question („…, oder?“: "wasn't he?"). On the everyday, register and
# mixed dev sets no reference English with a negation is left without one of these.
_GERMAN_DENIAL = re.compile(
    rf"\b(?:{NEGATION_DE}|{alternation(german_words('denial'))}"
    rf"|(?:{alternation(german_words('denial-stem'))})\w*"
    r"|un(?!ter|s|d\b)\w{3,}|\w+(?:los|frei)(?:e[nmrs]?)?)\b"
    rf"|,\s*(?:{spaced_alternation(german_words('tag-question'))})\s*\?",
    re.IGNORECASE,
)


def added_negation(source: str, translation: str) -> list[Fact]:
    """An English negation in ``translation`` where ``source`` says no "no" of any kind
    (:data:`_GERMAN_DENIAL`), as a Fact of kind "added negation" spanning the whole
    source: the English says the opposite of the German."""
    said = _ENGLISH_NEGATION.search(translation)
    if said is None or _GERMAN_DENIAL.search(source):
        return []
    return [Fact(said.group(), 0, len(source), frozenset(), "", kind="added negation")]


def describe_fact(fact: Fact) -> str:
    """A lost fact for a person: its German and, where it helps, the English it needs:
    "Werktage (working days)", "spätestens (at the latest)", "1.150 (1,150)"."""
    if fact.kind == "added negation":
        return f'"{fact.text}" (a negation the German does not hold)'
    if fact.kind == "added":
        return f"{fact.text} (in the English, not in the German)"
    if not fact.english or fact.english == fact.text:
        return fact.text
    return f"{fact.text} ({fact.english})"

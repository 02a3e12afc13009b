"""Facts the translator protects with term annotations (issue 30).

For a model trained on inline term annotations (core/faithful/terms.py), the translator decodes a
sentence with what must never change annotated (always, or again where the plain decode
lost a number: the bundle's ``protect`` setting): every number, time and date of the
sentence with its English form (1.150 -> 1,150; 14 Uhr -> 2 p.m.; 3. Mai -> 3 May;
12,50 € -> €12.50; halb acht -> half past seven; core/faithful/number_check.py), the names that
titles and company forms make certain (Frau Koch, Herrn Dr. Richter, Müller GmbH stay as
they are, never "cook" or "judge"), the listed first names with the surname that follows
them (Sabine Hoffmann, never "Sabine yard") and the listed places with their English
names (München -> Munich, Lüttich -> Liège; core/faithful/entity_lists.py). The user's own terms win where they
overlap.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from translator_app.core.faithful.entity_lists import (
    FIRST_NAMES,
    MORE_PLACES,
    OTHER_SURNAMES,
    PLACES,
    WORD_SURNAMES,
)
from translator_app.core.faithful.number_check import EN_SCALE_OF, source_facts
from translator_app.core.language.english import find_target
from translator_app.core.language.fact_forms import said_otherwise
from translator_app.core.language.words import units
from translator_app.core.values import TermUse

# A name's letters after its capital: any letter („González“, not „Gonz“)
_NAME = r"(?P<name>[A-ZÄÖÜ][^\W\d_]+(?:-[A-ZÄÖÜ][^\W\d_]+)?)"
_NAMES = (
    # Frau Koch, Herrn Richter, Frau Dr. Wolf, Herr Prof. Dr. Fischer
    re.compile(rf"\b(?:Frau|Herrn?|Familie)\s+(?:(?:Dr|Prof)\.\s+)*{_NAME}"),
    re.compile(rf"\b(?:Dr|Prof)\.\s+(?:(?:Dr|Prof)\.\s+)*{_NAME}"),
    # Müller GmbH, Schneider & Partner
    re.compile(rf"{_NAME}\s+(?:GmbH|AG|KG|OHG|SE|&\s+(?:Partner|Söhne|Co\.?))(?![\w])"),
)


def _alternatives(words) -> str:
    return "|".join(sorted(map(re.escape, words), key=len, reverse=True))


# Sabine, Sabine Hoffmann: a listed first name, and a listed surname after it (any
# capitalised word would also take nouns: „Gestern hat Sabine Kuchen gebacken.“)
_FIRST = re.compile(
    rf"(?<![\w-])(?P<name>(?:{_alternatives(FIRST_NAMES)})"
    rf"(?:\s+(?:{_alternatives(WORD_SURNAMES + OTHER_SURNAMES)}))?)(?![\w-])"
)
_PLACE_ENGLISH = dict(PLACES + MORE_PLACES)
_PLACE = re.compile(rf"(?<![\w-])(?P<name>{_alternatives(_PLACE_ENGLISH)})(?![\w-])")


# An amount in euros, as German writes it after the number: 12,50 €, 12,50 EUR, 12,50 Euro.
_EURO_AFTER = re.compile(r"\s*(?:€|EUR\b|Euro\b)")
_SCALE_WORDS = tuple(f" {name}" for name in EN_SCALE_OF.values())


def _fact_use(text: str, fact) -> TermUse:
    """A fact as a term use; an amount in euros takes its currency along and becomes
    English's €12.50, so that a translation keeps the currency as well as the number. A
    number with a scale word („1,5 Milliarden“: "1.5 billion") is annotated in its digits
    alone, the model saying the scale word as it learned to (with the whole annotated,
    „1,5 Milliarden Dollar“ came out "$15 billion")."""
    if fact.text[:1].isdigit() and " " in fact.text and fact.english.endswith(_SCALE_WORDS):
        digits, english = fact.text.split()[0], fact.english.split()[0]
        return TermUse(fact.start, fact.start + len(digits), digits, english, kind="fact")
    euro = _EURO_AFTER.match(text, fact.end)
    if euro and fact.english[:1].isdigit() and " " not in fact.english:
        amount = text[fact.start : euro.end()]
        return TermUse(fact.start, euro.end(), amount, "€" + fact.english, kind="fact")
    return TermUse(fact.start, fact.end, fact.text, fact.english, kind="fact")


def _facts(text: str) -> list[TermUse]:
    """The sentence's facts as term uses; a date and the year after it are one („am 21.
    Juni 2023“ -> 21 June 2023, „24.12.2024“ -> 24 December 2024), so the year is not
    set apart from its date in the English."""
    uses: list[TermUse] = []
    last = None  # the fact before, whose keys say whether it is a date (d3.5)
    for fact in source_facts(text):
        if (
            last is not None
            and any(k.startswith("d") for k in last.keys)
            and re.fullmatch(r"\d{4}", fact.text)
            and not text[last.end : fact.start].strip()
        ):
            date = uses[-1]
            english = f"{date.target} {fact.text}"
            uses[-1] = TermUse(
                date.start, fact.end, text[date.start : fact.end], english, kind="fact"
            )
        else:
            uses.append(_fact_use(text, fact))
        last = fact
    return uses


# Addresses the English writes as the German does, without a closing stop, comma,
# bracket or quotation mark: web and e-mail addresses (a scheme or "www." and what
# follows up to a space, or local@domain.tld), @handles and #tags (a letter first: not
# "#1"), and file paths (a drive and a backslash, or a slash, "~/" or "./" first, then
# at least two parts: "/home/anna/bericht.txt", not "und/oder" or "km/h").
_ADDRESS = re.compile(
    r"(?<![\w@./~\\-])(?P<name>(?:(?:https?|ftp)://|www\.)[^\s<>\"„“”]+"
    r"|[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}"
    r"|[@#][^\W\d_]\w*(?:[.-]\w+)*"
    r"|[A-Za-z]:\\[^\s<>\"„“”]+"
    r"|(?:~|\.{1,2})?/[\w.-]*[^\W\d_][\w.-]*(?:/[\w.-]+)+/?)"
)
_ADDRESS_TAIL = ".,;:!?)]}'\"’”“"


def address_uses(text: str) -> list[TermUse]:
    """The web and e-mail addresses of ``text``, each to be written as it stands."""
    found = []
    for m in _ADDRESS.finditer(text):
        address = m.group("name").rstrip(_ADDRESS_TAIL)
        found.append(TermUse(m.start(), m.start() + len(address), address, address, kind="address"))
    return found


def entity_uses(text: str) -> list[TermUse]:
    """The certain names, listed places and addresses of ``text``, as term uses (may
    overlap)."""
    found = address_uses(text)
    for pattern in (*_NAMES, _FIRST):
        for m in pattern.finditer(text):
            name = m.group("name")
            found.append(TermUse(m.start("name"), m.end("name"), name, name, kind="name"))
    for m in _PLACE.finditer(text):
        found.append(
            TermUse(m.start(), m.end(), m.group(), _PLACE_ENGLISH[m.group()], kind="place")
        )
    return found


# Units after a number, and how English may write each (units.tsv, kind "metric"): a
# decode that turns „29,4 Liter“ into "29.4 litter" keeps the number but changes the fact.
_UNIT_ENGLISH = {
    u.key: re.compile(
        "|".join(
            # "5%": a sign stands without word boundaries; "a 40-litre box" keeps „40 Litern“
            rf"(?<!\w)(?<![^\W\d_]-){re.escape(f)}(?![\w-])" if f[0].isalnum() else re.escape(f)
            for f in sorted(u.english, key=len, reverse=True)
        ),
        re.IGNORECASE,
    )
    for u in units("metric")
}
_UNIT_DE = {form: u.key for u in units("metric") for form in u.german}
_UNIT_AFTER_NUMBER = re.compile(
    rf"(?<![\w.,])\d(?:[\d.,]*\d)?\s*({_alternatives(_UNIT_DE)})(?![\w])"
)


def _lost_units(source: str, english: str) -> int:
    wanted = Counter(_UNIT_DE[m.group(1)] for m in _UNIT_AFTER_NUMBER.finditer(source))
    return sum(max(0, n - len(_UNIT_ENGLISH[unit].findall(english))) for unit, n in wanted.items())


def lost_protected(source: str, english: str, terms: Sequence[TermUse] = ()) -> int:
    """How many of the facts, certain names and listed places of ``source`` (those the
    user's ``terms`` overlap left out) ``english`` does not write as their annotations
    would ("2 p.m." for „14 Uhr“, not "2 o'clock"; "€12.50" or "12.50 euros" for „12,50 €“; "1,150" for
    „1.150“; "Munich" for „München“), and how many units after a number it loses
    („29,4 Liter“: "litres", not "litter"). Stricter than the number check
    (core/faithful/number_check.py), it tells whether a decode without annotations is
    as faithful as an annotated one may be."""
    uses = [u for u in merge_uses(list(terms), protected_uses(source)) if u not in terms]
    missing = sum(not _written(u.target, english) for u in uses)
    return missing + _lost_units(source, english)


def _written(target: str, english: str) -> bool:
    """Whether ``english`` writes a protected fact's English ``target`` as it stands or
    in another form of the same value (language/fact_forms.py: "December 20th" for "20
    December", "9pm" for "9 p.m.", "12.50 euros" for "€12.50", "Meteor-3")."""
    return find_target(target, english) is not None or said_otherwise(target, english)


def is_place(use: TermUse) -> bool:
    """Whether a use of :func:`entity_uses` is a place (else a name or an address)."""
    return use.kind == "place"


def protected_uses(text: str) -> list[TermUse]:
    """The facts, certain names and listed places of ``text``, as term uses, left to
    right, no overlaps."""
    return merge_uses([], _facts(text) + entity_uses(text))


def merge_uses(first: list[TermUse], then: list[TermUse]) -> list[TermUse]:
    """``first`` (the user's terms) and those of ``then`` that overlap none kept so far."""
    kept = list(first)
    for u in sorted(then, key=lambda u: (u.start, -u.end)):
        if not any(u.start < k.end and k.start < u.end for k in kept):
            kept.append(u)
    return sorted(kept, key=lambda u: u.start)

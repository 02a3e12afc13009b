"""English word forms: a noun's plural, and where an English text says a word (its
plural, possessive, a verb's regular forms), case aside.

``english_plural("battery")`` -> "batteries"; ``find_target("battery", "the
batteries")`` finds "batteries"; ``englishes_pattern(["large city"]).search("rents in
large cities")`` finds "large cities". The irregular plurals are data
(resources/language/english-plurals.tsv).

The pattern of a word's senses is one alternation per sense, compiled only for those
senses whose letters the text holds: a decode checks every content word of a sentence
against every sense of it, and compiling each word's whole alternation took half the
dictionary step's Python time (bench/bench_postedit_price.py).

>>> english_plural("loaf"), find_target("MagicPan", "two MagicPans").group()
('loaves', 'MagicPans')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache

from translator_app.core.language.words import english_plural_kinds

# A last word whose plural ends in -ies (city, battery; not day, key, toy).
_CONSONANT_Y = re.compile(r"[^\Waeiou]y$", re.IGNORECASE)
# The letters re.IGNORECASE takes for an ASCII letter that str.lower() does not give
# (dotted and dotless i, the long s): a text is read through them before its letters
# are looked for.
_FOLD = str.maketrans({"İ": "i", "ı": "i", "ſ": "s"})


def english_plural(english: str) -> str:
    """The plural of an English term, on its last word: helmet -> helmets, delivery note
    -> delivery notes, box -> boxes, battery -> batteries, loaf -> loaves; one already
    plural stays."""
    head, _, last = english.rpartition(" ")
    lower = last.lower()
    kinds = english_plural_kinds()
    if not last or not last[-1].isalpha() or last[-1].isupper():
        return english  # a code, a name in capitals: no plural
    if lower.endswith("man") and kinds.get(lower) != "man-s":
        plural = last[:-2] + "en"  # craftsman, woman, chairman
    elif lower.endswith(("s", "x", "z", "ch", "sh")):
        plural = last if lower.endswith("s") and not lower.endswith("ss") else last + "es"
    elif _CONSONANT_Y.search(lower):
        plural = last[:-1] + "ies"
    elif kinds.get(lower) == "ves":
        plural = last[: -2 if lower.endswith("fe") else -1] + "ves"
    elif lower.endswith(_oes()):
        plural = last + "es"
    else:
        plural = last + "s"
    return f"{head} {plural}" if head else plural


@cache
def _oes() -> tuple[str, ...]:
    return tuple(w for w, kind in english_plural_kinds().items() if kind == "oes")


@dataclass(frozen=True)
class SaidPattern:
    """Where an English text says one of some phrases, as one regex alternation would
    find it (``search``, ``finditer``: the same matches), each alternative tried only on
    texts that hold its ``needle`` (letters every match of it contains, in lower case;
    "" where that cannot be told)."""

    alternatives: tuple[tuple[str, str], ...]  # (needle, regex)

    def _compiled(self, text: str) -> re.Pattern | None:
        folded = text.translate(_FOLD).lower()
        present = tuple(src for needle, src in self.alternatives if needle in folded)
        return _compile(present) if present else None

    def search(self, text: str) -> re.Match | None:
        pattern = self._compiled(text)
        return pattern.search(text) if pattern is not None else None

    def finditer(self, text: str) -> Iterator[re.Match]:
        pattern = self._compiled(text)
        return pattern.finditer(text) if pattern is not None else iter(())

    def full(self) -> re.Pattern:
        """The one alternation of every phrase (what ``search`` finds, compiled whole)."""
        return _compile(tuple(src for _, src in self.alternatives)) or re.compile(r"(?!)")


@lru_cache(maxsize=20_000)
def _compile(alternatives: tuple[str, ...]) -> re.Pattern | None:
    if not alternatives:
        return None
    return re.compile(rf"(?<![\w-])(?:{'|'.join(alternatives)})(?![\w-])", re.IGNORECASE)


def _needle(letters: str) -> str:
    """``letters`` in lower case where every match of them holds that (ASCII letters and
    signs: re.IGNORECASE takes a few other letters for those, which the text is read
    through); "" otherwise."""
    return letters.lower() if letters.isascii() else ""


def english_pattern(english: str) -> SaidPattern:
    """Where an English text says ``english`` as a word, a plural too, case aside ("hymn",
    "hymns"; not inside "hymnal"): the English of a sense said, or counted in the pairs.
    (:func:`find_target` takes a possessive too.)"""
    return englishes_pattern((english,))


def englishes_pattern(englishes: Iterable[str], verbs: Iterable[str] = ()) -> SaidPattern:
    """Where an English text says one of ``englishes`` as :func:`english_pattern` finds
    one, or one of ``verbs`` (verb phrases: "deliver", "look after") in one of its
    regular forms; without any, a pattern found nowhere."""
    return _englishes_pattern(tuple(dict.fromkeys(englishes)), tuple(dict.fromkeys(verbs)))


@lru_cache(maxsize=20_000)
def _englishes_pattern(englishes: tuple[str, ...], verbs: tuple[str, ...]) -> SaidPattern:
    said = [_with_plural(e, "(?:e?s)?") for e in englishes] + [_verb_forms(v) for v in verbs]
    return SaidPattern(tuple(said))


def _with_plural(english: str, endings: str) -> tuple[str, str]:
    """(needle, pattern) of ``english`` followed by ``endings`` (a pattern: "(?:e?s)?");
    where it ends in a consonant's y, of it (its possessive too) or its plural in -ies:
    the model writes "large cities" where the dictionary says "large city", and
    "batterys" is no English but its garble of „Batterien“, which must not count as
    said."""
    if _CONSONANT_Y.search(english):
        stem = english[:-1]
        return _needle(stem), re.escape(english) + "(?:'s)?|" + re.escape(stem) + "ies"
    return _needle(english), re.escape(english) + endings


def _verb_forms(verb: str) -> tuple[str, str]:
    """(needle, pattern) of verb phrase ``verb`` with its first word in its regular
    forms (deliver: delivers, delivered, delivering; supply: supplies, supplied; stop:
    stopped; bake: baked, baking)."""
    first, _, rest = verb.partition(" ")
    stem = re.escape(first)
    if _CONSONANT_Y.search(first):
        forms = rf"{stem}(?:ing)?|{re.escape(first[:-1])}(?:ies|ied)"
    elif first.endswith("e"):
        forms = rf"{stem}[sd]?|{re.escape(first[:-1])}ing"
    else:
        forms = rf"{stem}(?:s|es|ed|ing)?|{stem}{re.escape(first[-1:])}(?:ed|ing)"
    return _needle(first[:-1]), f"(?:{forms})" + (r"\s+" + re.escape(rest) if rest else "")


@lru_cache(maxsize=20_000)
def _target_pattern(target: str) -> SaidPattern:
    return SaidPattern((_with_plural(target, "(?:s|es|'s)?"),))


def find_target(target: str, english: str) -> re.Match | None:
    """Where ``english`` uses a term's English (its plural and possessive too: MagicPans,
    MagicPan's; not as part of another word: "pot" is not in "potato")."""
    return _target_pattern(target).search(english)


def target_matches(target: str, english: str) -> Iterator[re.Match]:
    """Every place ``english`` uses a term's English, as :func:`find_target` finds one."""
    return _target_pattern(target).finditer(english)


_ENGLISH_DETERMINERS = ("the ", "a ", "an ")


def with_the(english: str) -> str:
    """``english`` with "the" in front, unless it starts with an article already.

    >>> with_the("delivery note"), with_the("a receipt")
    ('the delivery note', 'a receipt')
    """
    if english.casefold().startswith(_ENGLISH_DETERMINERS):
        return english
    return f"the {english}"

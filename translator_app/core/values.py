"""The values a translation carries about its source, below every check that finds them
(issue 87: the detectors return these and do not define them): a :class:`Fact` of the
German (a number, a time, a date, a limit, a negation …) that the English must keep, a
:class:`TermUse` (a glossary, taught or dictionary term found in the German, and whether
the English says it), and a :class:`SourceWord` (a content word the English may not
carry). Immutable: they cross threads and processes with the translation.

>>> Fact("12,50", 11, 16, frozenset({"n12.5"}), "12.50").kind
'number'
"""

from __future__ import annotations

from dataclasses import dataclass

from translator_app.core.language.english import english_plural, with_the
from translator_app.core.text.tokenizer import Span

# What a Fact is (``Fact.kind``), and so what a translation's issue with it is: a fact of
# the German the English does not keep (a number in digits, a time, a date, an address
# written whole; the facts in words of faithful/fact_words.py), or what the English adds
# that the German does not hold (the last two).
FACT_KINDS = (
    "number",  # in digits: 1.150, 14 Uhr, 3. Mai, 12,50 €
    "number word",  # in words: „zehn“, „zweiten“, „halb acht“, „verdreifacht“
    "unit",  # what a number measures: „Werktage“, „Liter“
    "counted",  # the noun a number counts: „250 Gramm Mehl“
    "time",  # a clock time in words: „acht Uhr“
    "date",  # a weekday, a month, a day said from today: „Montag“, „übermorgen“
    "negation",  # „nicht“, „kein“, „nie“
    "limit",  # „bis“, „ab“, „spätestens“, „über“ before a number
    "state",  # open or closed: „hat heute zu“
    "address",  # a web or e-mail address, a path
    "added",  # a number the English writes that the German does not hold
    "added negation",  # a negation the English says where the German says no "no"
)


@dataclass(frozen=True)
class Fact:
    """A fact of the German (a number, time, date, unit, negation, limit …: ``kind``, one
    of :data:`FACT_KINDS`) with its text, its span and the keys of which one must be in
    the English; or, as a translation's issue of kind "added" or "added negation", the
    English's own words that the German does not hold (spanning the whole German)."""

    text: str
    start: int
    end: int
    keys: frozenset[str]
    english: str = ""  # the fact as English writes it: 1,150; 12.50; 2 p.m.; 3 May
    kind: str = "number"

    @property
    def added(self) -> bool:
        """Whether this is something the English adds, not a fact of the German it loses."""
        return self.kind.startswith("added")


# Where a term use's English comes from (``TermUse.kind``): a term the user's glossary
# holds, one a fine-tune taught the model (its bundle's terms.tsv), the dictionary's
# English for a German word the model copied, or a fact, a certain name, a listed place
# or an address the translator annotates so that the model keeps it (faithful/protect.py).
TERM_KINDS = ("user", "taught", "dictionary", "fact", "name", "place", "address")


@dataclass(frozen=True)
class TermUse:
    """A term found in a source sentence (``kind``, one of :data:`TERM_KINDS`: the user's,
    a taught one, the dictionary's, a protected fact or name): its span there, the English
    asked for, and (after translation) whether the English contains it."""

    start: int
    end: int
    source: str
    target: str
    kept: bool = False
    plural: bool = False  # the German is the term's plural: the English is asked in it
    definite: bool = False  # after „ins“, „zum“, „im“ …: the English is asked with "the"
    kind: str = "user"

    @property
    def dictionary(self) -> bool:
        """Whether the English is the dictionary's, for a German word the model copied."""
        return self.kind == "dictionary"

    @property
    def english(self) -> str:
        """The English as the sentence needs it: the term's, in the German's number, with
        "the" where the German fused its article into a preposition."""
        english = english_plural(self.target) if self.plural else self.target
        return with_the(english) if self.definite else english


@dataclass(frozen=True)
class SourceWord:
    """A content word of the source: its text, span and the source piece indices it
    covers."""

    text: str
    span: Span
    pieces: tuple[int, ...]

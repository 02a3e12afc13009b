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


@dataclass(frozen=True)
class Fact:
    """A number, time or date of the German: its text, its span and the keys of which
    one must be in the English."""

    text: str
    start: int
    end: int
    keys: frozenset[str]
    english: str = ""  # the fact as English writes it: 1,150; 12.50; 2 p.m.; 3 May
    kind: str = "number"  # or, for facts in words (fact_words.py): unit, date, negation, ...


@dataclass(frozen=True)
class TermUse:
    """A glossary term found in a source sentence: its span there, the English asked for,
    and (after translation) whether the English contains it."""

    start: int
    end: int
    source: str
    target: str
    kept: bool = False
    plural: bool = False  # the German is the term's plural: the English is asked in it
    definite: bool = False  # after „ins“, „zum“, „im“ …: the English is asked with "the"
    dictionary: bool = False  # the dictionary's English for a German word the model copied

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

"""Ding's entry format, read into plain values.

One line is one entry: ``German | sub-entry | … :: English | sub-entry | …``; the
sub-entries of the two sides correspond one to one (the first is the headword, the rest
its forms, compounds and example phrases), and within a sub-entry ``;`` separates
variants. Annotations: ``{f}`` gender or word class, ``[ugs.]`` register or subject,
``(…)`` explanations, ``<…>`` variant spellings, ``/…/`` abbreviations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from translator_app.core.language.words import alternation, german_words

_GENDER = re.compile(r"\{([^}]*)\}")
_REGISTER = re.compile(r"\[([^\]]*)\]")
# ``/acc., acct./`` stands apart; "ich/er/sie" is not an abbreviation
_ANNOTATION = re.compile(
    r"\{[^}]*\}|\[[^\]]*\]|<[^>]*>|\([^)]*\)|(?:(?<=\s)|^)/[^/\s][^/]*/(?=[\s;]|$)"
)
# Words that stand before the form itself in Ding's German (german-words.tsv, kind
# before-a-headword): articles, personal pronouns of the verb forms ("ich/er/sie ging"),
# "am" of superlatives, reflexive and object marks ("sich", "jdm./etw.").
_LEADING = re.compile(rf"^(?:(?:{alternation(german_words('before-a-headword'))})\s+)+")
WORD = re.compile(r"[^\W\d_][\w-]*", re.UNICODE)


def variants(side: str) -> list[str]:
    """The ``;`` variants of one side of a sub-entry, each with its own annotations (a
    ``;`` inside an annotation, as in "/prop.; propr/", separates none)."""
    inside = {i for m in _ANNOTATION.finditer(side) for i in range(m.start(), m.end())}
    out, start = [], 0
    for i, char in enumerate(side):
        if char == ";" and i not in inside:
            out.append(side[start:i])
            start = i + 1
    out.append(side[start:])
    return [v.strip() for v in out if v.strip()]


def marks(text: str) -> tuple[str, ...]:
    """The register and subject marks of ``text`` ("ugs.", "übtr." …), in order."""
    return tuple(dict.fromkeys(m.strip() for m in _REGISTER.findall(text) if m.strip()))


@dataclass(frozen=True)
class SubEntry:
    """One German sub-entry and its English, as Ding writes them."""

    german: str
    english: str

    @property
    def tags(self) -> tuple[str, ...]:
        """Gender and word class: "f", "pl", "vt" …"""
        return tuple(t.strip() for t in _GENDER.findall(self.german) if t.strip())

    @property
    def register(self) -> tuple[str, ...]:
        """Register and subject marks of both sides: "ugs.", "Br.", "econ." …"""
        return tuple(dict.fromkeys(marks(self.german) + marks(self.english)))

    def form_register(self, form: str) -> tuple[str, ...]:
        """The marks of the German variants that write ``form`` (a mark follows the
        variant it qualifies: in „Sabbat {m}; Schabbat {m} [selten]“ only „Schabbat“ is
        rare); every German mark where no variant writes it."""
        key = form.casefold()
        own = [v for v in variants(self.german) if key in (f.casefold() for f in forms(v))]
        return tuple(dict.fromkeys(m for v in own or [self.german] for m in marks(v)))


def parse_line(line: str) -> tuple[SubEntry, ...]:
    """The sub-entries of one Ding line; () for a comment, a blank or a malformed line."""
    if not line.strip() or line.startswith("#") or "::" not in line:
        return ()
    german, _, english = line.partition("::")
    de_parts = [p.strip() for p in german.split(" | ")]
    en_parts = [p.strip() for p in english.split(" | ")]
    if len(de_parts) != len(en_parts):
        # A few entries have an uneven count; only the headword pairs are sure.
        de_parts, en_parts = de_parts[:1], en_parts[:1]
    return tuple(SubEntry(d, e) for d, e in zip(de_parts, en_parts, strict=True) if d and e)


def plain(text: str) -> str:
    """``text`` without Ding's annotations and with single spaces."""
    return " ".join(_ANNOTATION.sub(" ", text).split()).replace(" ;", ";")


def forms(german: str) -> list[str]:
    """The single words a German sub-entry names: each ``;`` variant without annotations
    and leading articles or pronouns, where one word remains ("ich/er/sie ging" ->
    "ging", "am schönsten" -> "schönsten", "Rechnung {f}" -> "Rechnung")."""
    return german_words_of(german)[0]


def phrase_words(german: str) -> list[str]:
    """The words (three letters or more) of a sub-entry's variants that are phrases of
    several words ("eine Rechnung prüfen"); [] where every variant is one word."""
    return german_words_of(german)[1]


def german_words_of(german: str) -> tuple[list[str], list[str]]:
    """(:func:`forms`, :func:`phrase_words`) of a German sub-entry, each variant read
    once (the index reads both of 391,731 sub-entries).

    >>> german_words_of("Rechnung {f}; eine Rechnung prüfen")
    (['Rechnung'], ['eine', 'Rechnung', 'prüfen'])
    """
    single, phrase = [], []
    for variant in german.split(";"):
        bare = plain(variant)
        words = WORD.findall(bare)
        if len(words) > 1:
            phrase += [w for w in words if len(w) >= 3]
        bare = _LEADING.sub("", bare) if len(words) > 1 else bare
        if WORD.fullmatch(bare):
            single.append(bare)
    return single, list(dict.fromkeys(phrase))

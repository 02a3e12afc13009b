"""Compounds the dictionary does not list whole (issue 60): their English from their parts.

German writes new compounds freely („Tagesticket“, „Spam-Ordner“, „Bio-Baumwolle“); Ding
lists the common ones, and the lookup finds the others by their longest known last part
(core/dictionary/lookup.py). The model, which never met the whole word, copies it or
garbles it ("dayicket", "Spam-Ordner"). As Koehn and Knight (2003, "Empirical methods
for compound splitting") translated a compound by its parts, the dictionary pass asks for
such a word with the English of its last part, after the English of the part before it
where that is one English word („Tagesticket“: day ticket, „Spam-Ordner“: spam folder)
or, before a hyphen, a name („Walmart-Kassen“), else with the last part's alone
(„Kreuzschlitzschraubendreher“: screwdriver).

    compound_term(dictionary, "Tagesticket", dictionary.lookup("Tagesticket"), noun=True)
    # ("Tagesticket", "day ticket", <the sense of „Ticket“>)
"""

from __future__ import annotations

import re

from translator_app.core.faithful.senses import fit_englishes, usual_english
from translator_app.core.language.words import german_words

_ONE_WORD = re.compile(r"[a-z]+")
# Last parts of a street's name: a compound of them that Ding does not list is a name.
_STREETS = frozenset(german_words("street"))


def compound_term(dictionary, word: str, found, noun: bool):
    """(German to ask for, its English, the last part's sense) for ``word``, which
    ``dictionary`` found only as a compound (``found``: its lookup, whose ``compound``
    holds the part before and the last part as written); None where the last part has
    no English to ask. The German is the compound with its last part's lemma (the
    number the glossary reads the source's word in comes from it: „Tagestickets“ asks
    for "day tickets")."""
    head, tail = found.compound
    if found.lemma in _STREETS:
        return None  # „in der Bahnhofstraße“: a street's name, which the English keeps
    chosen = usual_english(found.lemma, found.senses, noun)
    if chosen is None:
        return None
    english, sense = chosen
    if " " in english:  # the sense's English of one word, where it has one: "day
        # ticket", not "day admission ticket"
        one = (e for e, s in fit_englishes(found.senses, noun) if s is sense and " " not in e)
        english = next(one, english)
    joint = word[: len(word) - len(tail)]  # the part before as written, a hyphen too
    hyphen = joint.endswith("-")
    last = found.lemma if hyphen else found.lemma[:1].lower() + found.lemma[1:]
    before = head_english(dictionary, head, hyphen)
    return joint + last, f"{before} {english}" if before else english, sense


def head_english(dictionary, head: str, hyphen: bool) -> str:
    """The English of a compound's first part: the dictionary's where it is one word
    („Tages“: day, „Kinder“: children); else, before a hyphen, the part itself, in
    lower case where it is an English word („Spam-Ordner“: spam, „Bio-Baumwolle“: bio),
    as written where it is none (a name: „Walmart-Kassen“); else ""."""
    found = dictionary.lookup(head)
    if found.senses and found.compound is None:
        for noun in (True, False):
            chosen = usual_english(head, found.senses, noun)
            if chosen is not None and _ONE_WORD.fullmatch(chosen[0]):
                return chosen[0]
    if not hyphen:
        return ""
    return head.lower() if dictionary.is_english_word(head) else head

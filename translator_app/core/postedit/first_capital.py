"""An English that begins in lower case where the German began with a capital (issue 60).

The model sometimes starts the English of a sentence, a heading or a form's field in
lower case: „Forscher vermuten …“ -> "researchers suspect …", „Nachname“ -> "family
name", „Den Teig in eine gefettete Form füllen.“ -> "fill the dough …" (on the dev sets
10 of 422 everyday sentences, 8 of 322 register lines, 17 of 2,996 newstest2013 lines,
each with a reference that begins with a capital). A reader takes that for a fault of
the translator. Such an English gets its first letter in upper case: the pieces of its
first word are encoded anew with the capital and take the attention the word's pieces
had (their rows' mean: each row still sums to one), so the alignment, the panel's
layers and the passes that read the ids again see the text the user sees.

Left as the model wrote it: an English whose first word has capitals of its own inside
("iPhone", "mRNA"), one that begins with a digit, and one whose German began in lower
case (a message typed in haste; the window gives the model its capitals, not the user).
"""

from __future__ import annotations

import re

from translator_app.core.engine.respell import respelled
from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.text.tokenizer import Tokenizer

_WORD = re.compile(r"[^\W\d_][\w'-]*")


def first_word(text: str) -> re.Match | None:
    """The first word of ``text`` where only marks (quotation marks, brackets, dashes,
    spaces) stand before it; None where a digit or nothing does."""
    m = _WORD.search(text)
    if m is None or any(ch.isalnum() for ch in text[: m.start()]):
        return None
    return m


def begins_with_capital(text: str) -> bool:
    """Whether ``text``'s first word (:func:`first_word`) begins with a capital."""
    m = first_word(text)
    return m is not None and m.group()[0].isupper()


def _to_capitalise(text: str) -> re.Match | None:
    """The first word of an English that a capital would mend: lower case throughout."""
    m = first_word(text)
    return m if m is not None and m.group().islower() else None


def capitalised(tokenizer: Tokenizer, cand: Candidate) -> Candidate:
    """``cand`` with the first letter of its first word in upper case, the word's pieces
    encoded anew and each given the mean of the attention rows (and layers) of the
    pieces it replaces (engine/respell.py); unchanged where its first word is not all in
    lower case, does not begin a piece of its own, or the new pieces would not spell the
    text."""
    m = _to_capitalise(cand.text)
    if m is None:
        return cand
    word = m.group()
    return respelled(tokenizer, cand, m.start(), m.end(), word[0].upper() + word[1:])


def capital_rewrite(tokenizer: Tokenizer, t: Translation, cand: Candidate) -> Candidate:
    """The step "first-capital": ``cand`` (a candidate of ``t``) begun with a capital
    where ``t``'s German begins with one (:func:`capitalised`)."""
    return capitalised(tokenizer, cand) if begins_with_capital(t.source) else cand

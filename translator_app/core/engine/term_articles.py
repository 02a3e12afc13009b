""" "a" or "an" as the term after it sounds (issue 61 §3: a term takes the article the
German gives it).

The model chooses the article before it writes the noun, for the word it would have
written: with Angebot -> quotation, „ein Angebot“ came out "an quotation" (it meant
"an offer"); the dictionary's English for a copied word does the same. Where a term's
English (the user's glossary, Teach's or the dictionary's) follows "a" or "an" that does
not fit its first sound, the article is written as it sounds (engine/respell.py keeps
the pieces and the attention in step). An English whose sound its letters do not tell
(an acronym, a digit) is left as the model wrote it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from translator_app.core.engine.respell import respelled
from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.faithful.glossary import TermUse
from translator_app.core.text.tokenizer import Tokenizer

# Words spelt with a vowel that begin with a consonant's sound ("a user", "a European",
# "a one-off"), and words spelt with an "h" that begin with a vowel's ("an hour").
# fmt: off
_SOUNDS_CONSONANT = (
    "unique", "unit", "univers", "uniform", "union", "unison", "usual", "user", "use",
    "usage", "utensil", "utility", "uran", "urin", "euro", "eu", "ewe", "one", "once",
)
_SOUNDS_VOWEL = ("hour", "honest", "honor", "honour", "heir")
# fmt: on
_ARTICLE = re.compile(r"(?<![\w'-])(an?)\s+$", re.IGNORECASE)


def article_for(english: str) -> str | None:
    """ "a" or "an", as the first word of ``english`` sounds; None where its letters do
    not tell (an acronym: "an SMS", "a USB stick"; a digit)."""
    words = english.split()
    word = words[0] if words else ""
    if not word[:1].isalpha() or (len(word) > 1 and word.isupper()):
        return None
    low = word.lower()
    if low.startswith(_SOUNDS_CONSONANT):
        return "a"
    if low.startswith(_SOUNDS_VOWEL):
        return "an"
    return "an" if low[0] in "aeiou" else "a"


def articles_fitted(tokenizer: Tokenizer, cand: Candidate, uses: tuple[TermUse, ...]) -> Candidate:
    """``cand`` with each "a"/"an" right before one of ``uses``' English written as that
    English sounds (its capital kept)."""
    for english in dict.fromkeys(e for u in uses for e in (u.english, u.target)):
        article = article_for(english)
        if article is None:
            continue
        for m in reversed(list(_term_at(english, cand.text))):  # later ones first: offsets
            before = _ARTICLE.search(cand.text[: m.start()])
            if before is None or before.group(1).lower() == article:
                continue
            written = before.group(1)
            word = article.capitalize() if written[0].isupper() else article
            cand = respelled(tokenizer, cand, before.start(1), before.end(1), word)
    return cand


def _term_at(english: str, text: str):
    return re.finditer(rf"(?<![\w-]){re.escape(english)}(?![\w])", text, re.IGNORECASE)


def with_term_articles(
    tokenizer: Tokenizer, translations: list[Translation], prefixes=None
) -> list[Translation]:
    """``translations`` with the articles before their terms fitted
    (:func:`articles_fitted`); those whose beginning was forced (``prefixes``: words the
    user chose, kept as chosen) and those without terms are returned as they are."""
    out = []
    for i, t in enumerate(translations):
        if t.nbest and t.terms and not (prefixes and prefixes[i]):
            nbest = tuple(articles_fitted(tokenizer, c, t.terms) for c in t.nbest)
            if any(a is not b for a, b in zip(nbest, t.nbest, strict=True)):
                t = replace(t, nbest=nbest)
        out.append(t)
    return out

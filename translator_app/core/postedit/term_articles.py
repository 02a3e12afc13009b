""" "a" or "an" as the term after it sounds, and a verb in the term's number (issue 61
§3: a term takes the article and the number the German gives it).

The model chooses the article before it writes the noun, for the word it would have
written: with Angebot -> quotation, „ein Angebot“ came out "an quotation" (it meant
"an offer"); the dictionary's English for a copied word does the same. Where a term's
English (the user's glossary, Teach's or the dictionary's) follows "a" or "an" that does
not fit its first sound, the article is written as it sounds (engine/respell.py keeps
the pieces and the attention in step). An English whose sound its letters do not tell
(an acronym, a digit) is left as the model wrote it.

The verb right after a term is chosen the same way, before the model knows the term's
number: with Lieferschein -> delivery note, „weil die Lieferscheine fehlten“ came out
"because the delivery notes was missing". Where a term the German holds in the plural is
written in the plural and the next word is a singular "is", "was", "has" or "does", that
verb is written in the plural, unless "of" comes before the term ("one of the delivery
notes is").
"""

from __future__ import annotations

import re

from translator_app.core.engine.respell import respelled
from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.language.english import english_plural
from translator_app.core.language.words import alternation, english_verb_plurals, english_words
from translator_app.core.text.tokenizer import Tokenizer
from translator_app.core.values import TermUse

# Words spelt with a vowel that begin with a consonant's sound ("a user", "a European",
# "a one-off"), and words spelt with an "h" that begin with a vowel's ("an hour").
_SOUNDS_CONSONANT = english_words("sounds-consonant")
_SOUNDS_VOWEL = english_words("sounds-vowel")
_ARTICLE = re.compile(r"(?<![\w'-])(an?)\s+$", re.IGNORECASE)
# A singular verb and its plural, as they follow a subject.
_PLURAL_VERBS = english_verb_plurals()
_VERB_AFTER = re.compile(r"\s+([\w']+)")
# "of" (and its determiner) before the term: the term is not the subject ("one of the
# delivery notes is").
_OF_BEFORE = re.compile(
    rf"(?<![\w'-])of\s+(?:(?:{alternation(english_words('determiner'))})\s+)?$", re.I
)


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


def terms_cased(tokenizer: Tokenizer, cand: Candidate, uses: tuple[TermUse, ...]) -> Candidate:
    """``cand`` with each of ``uses``' English written as the glossary writes it where the
    model changed its capitals ("dish Washer" for "dish washer"); a capital that opens a
    sentence, and a term in capitals (a notice), are kept."""
    for english in dict.fromkeys(u.target for u in uses):
        for m in reversed(list(_term_at(english, cand.text))):  # later ones first: offsets
            written = m.group()
            wanted = english
            if not cand.text[: m.start()].strip() or re.search(
                r"[.!?:]\s*$", cand.text[: m.start()]
            ):
                wanted = english[:1].upper() + english[1:]
            if written == wanted or (len(written) > 1 and written.isupper()):
                continue
            cand = respelled(tokenizer, cand, m.start(), m.end(), wanted)
    return cand


def verbs_fitted(tokenizer: Tokenizer, cand: Candidate, uses: tuple[TermUse, ...]) -> Candidate:
    """``cand`` with a singular verb right after the plural English of one of ``uses``
    whose German is plural written in the plural ("the delivery notes was" -> "were")."""
    for plural in dict.fromkeys(english_plural(u.target) for u in uses if u.plural):
        for m in reversed(list(_term_at(plural, cand.text))):  # later ones first: offsets
            verb = _VERB_AFTER.match(cand.text, m.end())
            written = verb.group(1) if verb is not None else ""
            if written.lower() not in _PLURAL_VERBS or _OF_BEFORE.search(cand.text[: m.start()]):
                continue
            word = _PLURAL_VERBS[written.lower()]
            word = word.capitalize() if written[0].isupper() else word
            cand = respelled(tokenizer, cand, verb.start(1), verb.end(1), word)
    return cand


def _term_at(english: str, text: str):
    return re.finditer(rf"(?<![\w-]){re.escape(english)}(?![\w])", text, re.IGNORECASE)


def article_rewrite(tokenizer: Tokenizer, t: Translation, cand: Candidate) -> Candidate:
    """The step "term-articles": ``cand`` (a candidate of ``t``) with each term of ``t``'s
    written with the glossary's capitals (:func:`terms_cased`) and each "a"/"an" before
    one written as the term sounds (:func:`articles_fitted`)."""
    if not t.terms:
        return cand
    return articles_fitted(tokenizer, terms_cased(tokenizer, cand, t.terms), t.terms)


def verb_rewrite(tokenizer: Tokenizer, t: Translation, cand: Candidate) -> Candidate:
    """The step "term-verbs": ``cand`` (a candidate of ``t``) with the verb after a
    plural term of ``t``'s in the plural (:func:`verbs_fitted`)."""
    return verbs_fitted(tokenizer, cand, t.terms) if t.terms else cand

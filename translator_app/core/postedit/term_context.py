"""The words around a glossary term (issue 61 §3: nothing around a term may be dropped).

A term's annotation changes how the model reads the words beside it: with Angebot ->
quotation, „Angebot für Büromöbel“ came out "Quotation for offices", where the model's
own English was "Offer for office furniture" and the n-best held "Quotation for office
furniture" at a slightly lower score. A sentence with a term of the user's (glossary or
Teach) is decoded once more without the glossary; the content words of that English
that attend most to a German word outside every term are the words around the terms,
and the n-best is chosen again with a cost for each of them a candidate does not say
(faithful_choice.AROUND_TERM_PENALTY), kept where it says every one of them the first
candidate said and more, and loses no more facts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial

import numpy as np

from translator_app.core.engine.translation import Translation, word_alignment
from translator_app.core.faithful.glossary import TermUse, check_uses, englishes_pattern
from translator_app.core.postedit.judge import facts_lost, prefer_faithful
from translator_app.core.postedit.request import PostEditRequest

# English words that carry grammar, not content: a candidate may say them otherwise.
# fmt: off
_ENGLISH_FUNCTION_WORDS = frozenset([
    "this", "that", "these", "those", "with", "from", "have", "has", "had", "been", "were",
    "will", "would", "shall", "should", "could", "they", "them", "their", "there", "here",
    "which", "what", "when", "where", "your", "yours", "about", "into", "onto", "than",
    "then", "some", "more", "most", "also", "only", "very", "just", "does", "done",
    "being", "please", "each", "every", "such", "over", "under", "because", "while",
])
# fmt: on
_WORD = re.compile(r"[^\W\d_]{4,}")
_GERMAN_WORD = re.compile(r"[^\W\d_]+")


def words_around(plain: Translation, uses: Sequence[TermUse]) -> tuple[str, ...]:
    """The content words of ``plain``'s English (four letters or more) that attend most
    to a German noun (a capitalised word, not the first) outside each of ``uses``'
    spans. (Words of any class let a plainer English push out words the glossary's
    decode had: "Everything goes well with the work order" for „Mit dem Auftrag geht
    alles viel schneller.“)"""
    best = plain.best
    if best is None or not best.target_ids:
        return ()
    aligned = word_alignment(
        plain.source, plain.source_pieces, plain.source_spans, best, best.attention
    )
    if aligned.attention.size == 0:
        return ()
    spans = [
        (
            min(plain.source_spans[k][0] for k in pieces),
            max(plain.source_spans[k][1] for k in pieces),
        )
        for pieces in aligned.german_pieces
    ]
    found = []
    for english, row in zip(aligned.english, aligned.attention, strict=True):
        g = int(np.argmax(row))
        start, end = spans[g]
        in_term = any(u.start < end and start < u.end for u in uses)
        if (
            g > 0  # the first word is capitalised whatever it is
            and aligned.german[g][:1].isupper()
            and not in_term
            and _WORD.fullmatch(english)
            and english.lower() not in _ENGLISH_FUNCTION_WORDS
        ):
            found.append(english.lower())
    return tuple(dict.fromkeys(found))


def _unsaid(patterns: dict[str, re.Pattern], english: str) -> frozenset[str]:
    """The words of ``patterns`` (word -> where a text says it, a plural too, case
    aside) that ``english`` does not say."""
    return frozenset(w for w, said in patterns.items() if said.search(english) is None)


def _noun_beside(source: str, uses: Sequence[TermUse]) -> bool:
    """Whether ``source`` holds one of ``uses`` and a capitalised word (not its first)
    outside them: a sentence without one is not decoded again."""
    return bool(uses) and any(
        m.group()[:1].isupper() and not any(u.start < m.end() and m.start() < u.end for u in uses)
        for m in list(_GERMAN_WORD.finditer(source))[1:]
    )


def _users(t: Translation) -> list[TermUse]:
    """The terms of the user's glossary (or Teach's) found in ``t``'s German."""
    return [u for u in t.terms if not u.dictionary]


def _count(unsaid: Callable[[str], frozenset[str]], english: str) -> int:
    return len(unsaid(english))


def with_words_around_terms(request: PostEditRequest, out: list[Translation]) -> list[Translation]:
    """The step "words-around-terms": ``out`` with the n-best of each sentence that holds
    a term of the user's chosen again where a candidate says more of the words around
    its terms (module doc); sentences whose beginning was forced are left as they are."""
    todo = [
        i
        for i, t in enumerate(out)
        if len(t.nbest) > 1 and not request.prefixed(i) and _noun_beside(t.source, _users(t))
    ]
    if not todo:
        return out
    out = list(out)
    plain = request.decode([request.texts[i] for i in todo], None, False, None)
    for i, own in zip(todo, plain, strict=True):
        t = out[i]
        words = words_around(own, _users(t))
        if not words:
            continue
        unsaid = partial(_unsaid, {w: englishes_pattern((w,)) for w in words})
        around = partial(_count, unsaid)
        cands, missing = prefer_faithful(t.source, t.nbest, t.terms, around=around)
        # kept where it says what the first said and more: the English without the
        # glossary is another translation, not a reference ("Everything goes well with
        # the order" would have pushed out "much faster")
        if cands[0] is t.nbest[0] or not unsaid(cands[0].text) < unsaid(t.text):
            continue
        new = replace(
            t, nbest=cands, missing_numbers=missing, terms=check_uses(list(t.terms), cands[0].text)
        )
        if facts_lost(new) <= facts_lost(t):
            out[i] = new
    return out

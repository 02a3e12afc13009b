"""The pass that says words the model does not know with the dictionary's English (issue
60): which sentences are decoded again with dictionary terms, and which result is kept.

The model copies a German word it cannot translate („Den Teig …“ -> "The Teig …") or
leaves it out („250 Gramm Mehl“ -> "250 grams", where a lower candidate of the n-best
writes "250 Gramm Mehl"). For a word that reads as a common word
(core/faithful/copied_words.py) the dictionary's English is annotated as a term and the
sentence decoded once more; the new translation is kept where it renders more of those
words, copies no more and loses no more facts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from translator_app.core.engine.faithful_choice import facts_lost, prefer_faithful
from translator_app.core.engine.faithful_passes import retry_lost_facts, some_of
from translator_app.core.engine.translation import Translation
from translator_app.core.faithful.copied_words import copied_common_words, dictionary_terms
from translator_app.core.faithful.glossary import Glossary, Term, check_uses, merged

# The translator's decode with a glossary of its own (the user's, the dictionary's
# terms under it): (texts, prefixes, annotate facts, glossary).
DecodeWith = Callable[
    [list[str], Sequence[Sequence[int]] | None, bool, Glossary | None], list[Translation]
]
# A word another candidate copies counts where that candidate scores within this of the
# best (a length-normalised log-probability): the model hesitated between leaving the
# word out and copying it („250 Gramm Mehl“: "250 grams" at -1.12, "250 Gramm Mehl" at
# -1.20). The alignment's attention cannot tell: the best's still rests on „Mehl“.
HESITATION = 0.5


def with_dictionary_terms(
    texts: list[str],
    out: list[Translation],
    prefixes,
    decode: DecodeWith,
    glossary: Glossary | None,
    protect: str,
    dictionary,
) -> list[Translation]:
    """Decode again, with the dictionary's English as terms under the user's
    ``glossary``, each sentence whose best candidate copies a common German word or
    leaves out one that a close candidate copies (:func:`unknown_words`); keep the new
    translation where it renders more of them, copies no more and loses no more facts.
    ``protect``: the translator's mode ("off", "retry", "always"), for these decodes as
    for the first. One glossary for all: a term applies only where its German stands."""
    out = [_rechosen(t, dictionary) for t in out]
    todo = [(i, unknown_words(dictionary, t)) for i, t in enumerate(out) if t.nbest]
    todo = [(i, terms) for i, terms in todo if terms]
    if not todo:
        return out
    extra = Glossary(tuple(dict.fromkeys(term for _, terms in todo for term in terms)))
    with_terms = merged(extra, glossary)

    def decode_with_terms(some: list[str], their_prefixes, annotate: bool) -> list[Translation]:
        return decode(some, their_prefixes, annotate, with_terms)

    indices = [i for i, _ in todo]
    some, their_prefixes = [texts[i] for i in indices], some_of(prefixes, indices)
    if protect == "off":
        again = decode_with_terms(some, their_prefixes, False)
    else:
        again = retry_lost_facts(some, their_prefixes, decode_with_terms, protect == "always")
    for (i, terms), t in zip(todo, again, strict=True):
        t = _rechosen(t, dictionary)
        old = out[i]
        if (
            t.nbest
            and _unrendered(t, terms) < _unrendered(old, terms)
            and len(copied_common_words(dictionary, t.source, t.text))
            <= len(copied_common_words(dictionary, old.source, old.text))
            and facts_lost(t) <= facts_lost(old)
        ):
            out[i] = t
    return out


def unknown_words(dictionary, t: Translation) -> tuple[Term, ...]:
    """Dictionary terms for the common German words ``t``'s best candidate copies, and
    for those another candidate copies within :data:`HESITATION` of the best's score
    where the best does not say the dictionary's English either."""
    best = t.nbest[0]
    terms = {term.source: term for term in dictionary_terms(dictionary, t.source, best.text)}
    for cand in t.nbest[1:]:
        if cand.score < best.score - HESITATION:
            break  # the n-best comes best first
        for term in dictionary_terms(dictionary, t.source, cand.text):
            if term.source not in terms and _unrendered(t, (term,)):
                terms[term.source] = term
    return tuple(terms.values())


def _unrendered(t: Translation, terms: tuple[Term, ...]) -> int:
    """How many of ``terms`` found in ``t``'s German its English does not say."""
    uses = Glossary(terms).find(t.source)
    return sum(not u.kept for u in check_uses(uses, t.text))


def _rechosen(t: Translation, dictionary) -> Translation:
    """``t`` with its n-best chosen again where its best candidate copies common German
    words: each copied one costs faithful_choice.COPIED_WORD_PENALTY (the n-best often
    holds the word translated at a slightly lower score); the new first candidate is
    kept where it loses no more facts."""
    if len(t.nbest) < 2 or not copied_common_words(dictionary, t.source, t.text):
        return t
    cands, missing = prefer_faithful(t.source, t.nbest, t.terms, dictionary)
    if cands[0] is t.nbest[0]:
        return t
    terms = check_uses(list(t.terms), cands[0].text)
    new = replace(t, nbest=cands, missing_numbers=missing, terms=terms)
    return new if facts_lost(new) <= facts_lost(t) else t

"""Which candidate keeps the facts (issue 30): counting what a candidate loses (numbers,
dates, times and glossary terms it does not keep, numbers it writes twice, protected
facts it does not write as annotated) and putting first the best-scored candidate among
those that lose the least. Pure functions over candidates; the translator decides when
to decode again.
"""

from __future__ import annotations

from collections.abc import Sequence

from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.faithful.fact_check import missing_facts
from translator_app.core.faithful.glossary import TermUse, check_uses
from translator_app.core.faithful.number_check import Fact, repeated_numbers
from translator_app.core.faithful.protect import lost_protected


def _lost(source: str, cand: Candidate, terms: Sequence[TermUse]) -> tuple[tuple[Fact, ...], int]:
    """The numbers of ``source`` the candidate does not keep, and how many of those and
    of ``terms`` it loses in all (a number written twice counts as one lost)."""
    facts = tuple(missing_facts(source, cand.text))
    lost = len(facts) + repeated_numbers(source, cand.text)
    return facts, lost + sum(not u.kept for u in check_uses(terms, cand.text))


def facts_lost(t: Translation) -> tuple[int, int]:
    """How many numbers, dates and times the translation loses or writes twice, how
    many glossary terms it does not use, and how many protected facts, names, places
    and units it does not write as their annotations would (a number lost counts
    twice); then that last count alone, which decides between decodes that lose as
    many: „69,30 €“ lost as "69.30" is worse than doubled as "69,30 €69.30"."""
    strict = lost_protected(t.source, t.text, t.terms)
    lenient = (
        # facts in words (a negation, a unit) are not annotated: a retry cannot help them
        sum(f.kind in ("number", "added") for f in t.missing_numbers)
        + repeated_numbers(t.source, t.text)
        + sum(not u.kept for u in t.terms)
    )
    return lenient + strict, strict


def n_lost(source: str, cand: Candidate, terms: Sequence[TermUse] = ()) -> int:
    """How many numbers of ``source`` and ``terms`` the candidate does not keep."""
    return _lost(source, cand, terms)[1]


def prefer_faithful(
    source: str, cands: tuple[Candidate, ...], terms: Sequence[TermUse] = ()
) -> tuple[tuple[Candidate, ...], tuple[Fact, ...]]:
    """Put first the best-scored candidate among those that keep the most numbers of
    ``source`` and glossary ``terms``; return the candidates and the numbers the first
    one still misses. A price or a time silently changed is worse than a slightly less
    fluent sentence."""
    if not cands:
        return cands, ()

    missing, first_lost = _lost(source, cands[0], terms)
    if not first_lost or len(cands) == 1:
        return cands, missing
    best, best_missing, best_lost = 0, missing, first_lost
    for i, c in enumerate(cands[1:], start=1):
        m, n = _lost(source, c, terms)
        if n < best_lost:
            best, best_missing, best_lost = i, m, n
            if not n:
                break
    order = (cands[best],) + cands[:best] + cands[best + 1 :]
    return order, best_missing

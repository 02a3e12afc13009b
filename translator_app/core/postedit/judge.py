"""Which candidate keeps the facts (issues 30 and 61): counting what a candidate loses
(numbers, dates, times and glossary terms it does not keep, numbers it writes twice,
protected facts it does not write as annotated) and putting first the candidate whose
score, less what its losses cost, is best. Pure functions over candidates; the
translator decides when to decode again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.faithful.fact_check import missing_facts
from translator_app.core.faithful.glossary import TermUse, check_uses, repeated_terms
from translator_app.core.faithful.number_check import Fact, repeated_numbers
from translator_app.core.faithful.protect import lost_protected

# What a lost fact costs against the model's score (a length-normalised log-probability)
# in the one rule that picks among the n-best: a changed number, price, date or glossary
# term outweighs nearly any difference in fluency; a lost negation much; a fact in words
# (a limit, a unit, a counted noun) less, since its English patterns may miss a right
# rendering and a garbled candidate may hold the keyword (issue 61 §2: "submitted by the
# delay two weeks ago", -2.98, was chosen over "submitted two weeks before the move",
# -2.21, for its "by").
PENALTY = {"number": 3.0, "added": 3.0, "negation": 1.5, "added negation": 1.5}
WORD_FACT_PENALTY = 0.6
TERM_PENALTY = 3.0  # a glossary term not used, or a number written twice
# The dictionary's English for a word the model copied (core/faithful/copied_words.py) is
# one sense of several: a candidate that says it otherwise is not garbled.
DICTIONARY_TERM_PENALTY = 1.0
# A German word copied into the English where the German reads as a common word ("The
# sessel is …"; core/faithful/copied_words.py): the n-best often holds the translated
# word at a slightly lower score.
COPIED_WORD_PENALTY = 0.5
# Every weight of the judge, what it costs, and for what (docs/postedit.md's table).
WEIGHTS: tuple[tuple[str, float, str], ...] = (
    ("a lost or changed number, price, date or time", PENALTY["number"], "PENALTY"),
    ("a number the German does not hold", PENALTY["added"], "PENALTY"),
    ("a lost negation, or one the German does not hold", PENALTY["negation"], "PENALTY"),
    ("a lost fact in words (a limit, a unit, a counted noun)", WORD_FACT_PENALTY,
     "WORD_FACT_PENALTY"),
    ("a glossary term not used, or a number or term written twice", TERM_PENALTY,
     "TERM_PENALTY"),
    ("the dictionary's English for a copied word not said", DICTIONARY_TERM_PENALTY,
     "DICTIONARY_TERM_PENALTY"),
    ("a common German word copied (asked by the dictionary steps)", COPIED_WORD_PENALTY,
     "COPIED_WORD_PENALTY"),
)  # fmt: skip
# (source, output) -> the common German words the output copies.
Copies = Callable[[str, str], Sequence[str]]


def _lost(source: str, cand: Candidate, terms: Sequence[TermUse]) -> tuple[tuple[Fact, ...], int]:
    """The numbers of ``source`` the candidate does not keep, and how many of those and
    of ``terms`` it loses in all (a number written twice counts as one lost)."""
    facts = tuple(missing_facts(source, cand.text))
    return facts, len(facts) + _slips(source, cand, terms)


def _slips(source: str, cand: Candidate, terms: Sequence[TermUse]) -> int:
    """The numbers the candidate writes twice and the user's glossary terms it does not
    use or writes more often than the German holds them."""
    mine = [u for u in terms if not u.dictionary]
    return (
        repeated_numbers(source, cand.text)
        + sum(not u.kept for u in check_uses(mine, cand.text))
        + repeated_terms(mine, cand.text)
    )


def _cost(
    source: str,
    cand: Candidate,
    terms: Sequence[TermUse],
    copies: Copies | None = None,
) -> tuple[float, tuple[Fact, ...]]:
    """The candidate's cost: minus its score, plus what its lost facts and terms cost,
    and, given ``copies``, the common German words it copies."""
    facts = tuple(missing_facts(source, cand.text))
    penalty = sum(PENALTY.get(f.kind, WORD_FACT_PENALTY) for f in facts)
    penalty += TERM_PENALTY * _slips(source, cand, terms)
    from_dictionary = [u for u in terms if u.dictionary]
    if from_dictionary:
        unused = sum(not u.kept for u in check_uses(from_dictionary, cand.text))
        penalty += DICTIONARY_TERM_PENALTY * unused
    if copies is not None:
        penalty += COPIED_WORD_PENALTY * len(copies(source, cand.text))
    return penalty - cand.score, facts


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
        + sum(not u.kept for u in t.terms if not u.dictionary)
    )
    return lenient + strict, strict


def n_lost(source: str, cand: Candidate, terms: Sequence[TermUse] = ()) -> int:
    """How many numbers of ``source`` and ``terms`` the candidate does not keep."""
    return _lost(source, cand, terms)[1]


def prefer_faithful(
    source: str,
    cands: tuple[Candidate, ...],
    terms: Sequence[TermUse] = (),
    copies: Copies | None = None,
) -> tuple[tuple[Candidate, ...], tuple[Fact, ...]]:
    """Put first the candidate of least cost (:func:`_cost`: the model's score with a
    penalty for each fact of ``source`` and glossary term of ``terms`` it loses, and
    given ``copies``, each common German word it copies), so that a complete, fluent
    candidate wins where there is one; return the candidates and the facts the first
    one still misses (marked in the window)."""
    if not cands:
        return cands, ()
    # A candidate costs at least minus its score: one that cannot beat the best so far is
    # never checked (a first candidate that keeps everything is the only one checked).
    best, best_cost, best_missing = 0, float("inf"), ()
    for i in sorted(range(len(cands)), key=lambda i: -cands[i].score):
        if -cands[i].score >= best_cost:
            break
        cost, missing = _cost(source, cands[i], terms, copies)
        if cost < best_cost:
            best, best_cost, best_missing = i, cost, missing
    order = (cands[best],) + cands[:best] + cands[best + 1 :]
    return order, best_missing


def judged(t: Translation, checked: Sequence[TermUse], choose: bool = True) -> Translation:
    """``t`` (a decode's translation, its n-best in the search's order) with the
    candidate of least cost first where ``choose`` (the step "judge": checked for the
    glossary terms, names and places of ``checked``), and the facts its first candidate
    misses (the window marks them) whether or not it chose."""
    if not t.nbest:
        return t
    if choose:
        cands, missing = prefer_faithful(t.source, t.nbest, checked)
    else:
        cands, missing = t.nbest, tuple(missing_facts(t.source, t.nbest[0].text))
    terms = check_uses(list(t.terms), cands[0].text) if cands[0] is not t.nbest[0] else t.terms
    return replace(t, nbest=cands, missing_numbers=missing, terms=terms)

"""The judge, the step "choose" of the pipeline: which candidate, and which of two
decodes of a sentence, to keep (issues 30, 60, 61, 87).

Within one decode, the candidate whose score, less what its losses cost, is best goes
first (:func:`prefer_faithful`: numbers, dates, times and glossary terms it does not
keep, numbers it writes twice, protected facts not written as annotated, and for the
dictionary steps common German words it copies). Between two decodes of one sentence
(a step decoded it again), the functions after them say whether the new one replaces
the old: the steps propose, the judge keeps. Pure functions over candidates.

>>> [name for _, _, name in WEIGHTS][:2]
['PENALTY', 'PENALTY']
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.faithful.copied_words import copied_common_words
from translator_app.core.faithful.fact_check import missing_facts
from translator_app.core.faithful.garbled_words import garbled_by_attention
from translator_app.core.faithful.glossary import (
    Glossary,
    Term,
    TermUse,
    check_uses,
    repeated_terms,
)
from translator_app.core.faithful.number_check import repeated_numbers
from translator_app.core.faithful.number_words import measure_mends
from translator_app.core.faithful.protect import lost_protected
from translator_app.core.faithful.unsaid_nouns import says_more_senses
from translator_app.core.values import Fact

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
        sum(f.kind in ("number", "added") for f in t.issues)
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
    return replace(t, nbest=cands, issues=missing, terms=terms)


# ------------------------------------------------------------------------------------
# Between two decodes of one sentence: whether a step's new translation replaces the old.
# Every step that decodes again asks one of these; none compares translations itself.


def fewer_facts_lost(new: Translation, old: Translation) -> bool:
    """Whether ``new`` loses fewer facts than ``old`` (:func:`facts_lost`): the step
    "facts" keeps a decode made the other way (annotated, or plain) only then."""
    return facts_lost(new) < facts_lost(old)


def fact_fixed(
    tries: Sequence[Translation], shown: Translation, fact: Fact, rest: Counter
) -> Translation | None:
    """Of ``tries`` (``shown``'s sentence decoded with ``fact``'s English forced in at
    several places: the word menu's fix of a lost fact, api/followups.fact_fix), the
    likeliest (the model's score of the whole English) that keeps the fact and loses
    fewer facts than ``shown``, ends no sentence inside where ``shown`` does not ("at
    noon. on Saturdays"), writes the fact's English no more often than ``shown`` does
    (not "at 23:59 23:59 a.m.") and drops none of ``rest`` (the words of ``shown`` said
    for other German than the fact's, with their counts); None where none does."""
    best = shown.best
    said = max(1, best.text.count(fact.english))
    kept = [
        t
        for t in tries
        if t.best is not None
        and t.best.text != best.text
        and len(t.issues) < len(shown.issues)
        and not any(f.keys == fact.keys for f in t.issues)
        and _stops_inside(t.best.text) <= _stops_inside(best.text)
        and t.best.text.count(fact.english) <= said
        and not _words_dropped(rest, t.best.text)
    ]
    return max(kept, key=lambda t: t.best.score) if kept else None


# A word of the English a fix must keep: four letters or more ("noon", not "at").
KEPT_WORD = re.compile(r"[^\W\d_]{4,}")


def _words_dropped(words: Counter, english: str) -> bool:
    """Whether ``english`` says fewer of any of ``words`` than they count."""
    said = Counter(w.casefold() for w in KEPT_WORD.findall(english))
    return any(said[w] < n for w, n in words.items())


def _stops_inside(text: str) -> int:
    """Full stops inside ``text`` that a word in lower case follows, not ending an
    abbreviation ("at noon. on Saturdays", not "6 p.m. on Tuesdays")."""
    return sum("." not in m.group(1) for m in re.finditer(r"(\S+)\.\s+[a-z]", text))


def loses_fewer_of(source: str, new: Candidate, old: Candidate, checked: Sequence[TermUse]) -> bool:
    """Whether candidate ``new`` loses fewer of the facts, terms and names of ``checked``
    than ``old`` (the step "placeholders": a name written back must be kept)."""
    return n_lost(source, new, checked) < n_lost(source, old, checked)


def mends_measures(new: Translation, old: Translation, words: WordChecks) -> bool:
    """Whether ``new`` writes fewer measures as English does not ("200 gram sugar":
    number_words.measure_mends) than ``old`` and loses, copies or garbles nothing more,
    drops no sentence and uses its terms no less (the step "measures")."""
    return (
        bool(new.nbest)
        and len(measure_mends(new.text)) < len(measure_mends(old.text))
        and not loses_more(new, old)
        and keeps_sentences(new, old)
        and len(words.wrong(new)) <= len(words.wrong(old))
        and sum(u.kept for u in new.terms) >= sum(u.kept for u in old.terms)
    )


def fewer_wrong_words(new: Translation, old: Translation, words: WordChecks) -> bool:
    """Whether ``new`` copies and garbles fewer of the German's words than ``old``,
    loses no more facts and drops no sentence (the step "openers")."""
    return (
        bool(new.nbest)
        and len(words.wrong(new)) < len(words.wrong(old))
        and not loses_more(new, old)
        and keeps_sentences(new, old)
    )


# The end of a sentence: a full stop, question or exclamation mark, and a closing quote
# or bracket, at the end or before a capital or a number (not the points of "4.50",
# "z.B." or "e.g. bread").
_SENTENCE_END = re.compile(r"[.!?]+[\"'»«“”‘’)]*(?=\s+\W*[A-ZÄÖÜ0-9]|\s*$)")


@dataclass(frozen=True)
class WordChecks:
    """What a translation does with the source's words, by the ``dictionary``: which
    common words it copies (``names``: the names of the text around it), how many it
    garbles, whether it says more of them in a sense of the dictionary than another."""

    dictionary: object
    names: frozenset[str]

    def copies(self, source: str, english: str) -> tuple[str, ...]:
        return copied_common_words(self.dictionary, source, english, self.names)

    def garbled(self, t: Translation) -> tuple[str, ...]:
        return garbled_by_attention(self.dictionary, t)

    def wrong(self, t: Translation) -> tuple[str, ...]:
        """The source's words ``t`` copies or garbles."""
        return self.copies(t.source, t.text) + self.garbled(t)

    def says_more(self, source: str, new: str, old: str) -> bool:
        return says_more_senses(self.dictionary, source, new, old)


def says_words_better(new: Translation, old: Translation, terms, words: WordChecks) -> bool:
    """Whether ``new`` says the dictionary's words better than ``old``: it renders more
    of ``terms``, or all of them with fewer copies (the first English may say the word
    and copy it too: "the ban on the torture of the Folter"); it copies no more, nor
    copies, garbles and leaves terms unsaid more together („Grundschule“ asked: "Her
    election station is …" -> "Her choicelokal is …"; „Winterreifen“ asked: "The winter
    mates are in charge." -> "The snow tyres are residen." is one wrong word for
    another), drops no sentence and loses no more facts; and where it
    copies no fewer, it says more of the source's words in a sense of the dictionary, or
    garbles fewer and says no fewer (unsaid_nouns.says_more_senses: a term for a word
    the model said otherwise, or garbled, that pushes other words out gains nothing)."""
    left, left_before = unrendered(new, terms), unrendered(old, terms)
    copied, copied_before = (
        len(words.copies(new.source, new.text)),
        len(words.copies(old.source, old.text)),
    )
    garbled, garbled_before = len(words.garbled(new)), len(words.garbled(old))
    return (
        (left < left_before or (left == 0 and copied < copied_before))
        and copied <= copied_before
        and copied + garbled + left <= copied_before + garbled_before + left_before
        and not loses_more(new, old)
        and keeps_sentences(new, old)
        and (
            copied < copied_before
            or words.says_more(new.source, new.text, old.text)
            # a garble mended, no other word lost ("batterys" -> "batteries", where
            # "battery subject" said „Batterien“ already in one of its senses)
            or (garbled < garbled_before and not words.says_more(new.source, old.text, new.text))
        )
    )


def loses_more(new: Translation, old: Translation) -> bool:
    """Whether ``new`` loses more facts than ``old`` (:func:`facts_lost`) or
    holds more negations the German does not, or loses more it does (a decode asked
    for one word wrote "could not allow" for „konnte … abwenden“: 5 of 2,996 news dev
    sentences gained a "not" so)."""
    return facts_lost(new) > facts_lost(old) or _negations(new) > _negations(old)


def _negations(t: Translation) -> int:
    return sum(f.kind in ("negation", "added negation") for f in t.issues)


def keeps_sentences(new: Translation, old: Translation) -> bool:
    """Whether ``new`` ends as many sentences as ``old`` does, or as its German does
    where that is fewer: a decode asked for one word must not drop a sentence („Baden
    verboten! starke Strömung.“: "Baden forbiddens!" for "Bads banned! Starke String.")."""
    ends = [len(_SENTENCE_END.findall(text)) for text in (new.text, old.text, old.source)]
    return ends[0] >= min(ends[1], ends[2])


def unrendered(t: Translation, terms: tuple[Term, ...]) -> int:
    """How many of ``terms`` found in ``t``'s German its English does not say."""
    uses = Glossary(terms).find(t.source)
    return sum(not u.kept for u in check_uses(uses, t.text))


def rechosen(t: Translation, copies: Copies) -> Translation:
    """``t`` with its n-best chosen again where its best candidate copies common German
    words: each copied one costs :data:`COPIED_WORD_PENALTY` (the n-best often
    holds the word translated at a slightly lower score); the new first candidate is
    kept where it loses no more facts."""
    if len(t.nbest) < 2 or not copies(t.source, t.text):
        return t
    cands, missing = prefer_faithful(t.source, t.nbest, t.terms, copies)
    if cands[0] is t.nbest[0]:
        return t
    terms = check_uses(list(t.terms), cands[0].text)
    new = replace(t, nbest=cands, issues=missing, terms=terms)
    return new if facts_lost(new) <= facts_lost(t) else t

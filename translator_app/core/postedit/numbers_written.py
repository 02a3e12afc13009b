"""The step "numbers-in-words": a number the German writes in words and the English in
digits is written in words again, as num2words (LGPL, unmodified) writes it, where
English says it in one or two words („fünfzehn Euro“: "15 euros" -> "fifteen euros";
„dreihundert Dollar“: "three hundred dollars"). The step "number-words" gives the model
those numbers in digits, which it keeps where it garbled the words ("four hundred
percent chairs" for „vierhundertzwanzig Stühle“); this step gives the writer's choice
back where English writes words too. Longer ones ("420 chairs", "1990") stay in digits,
and so do clock times („siebzehn Uhr“: "5 p.m."), amounts after a currency sign and
percentages in a sign.

>>> from translator_app.core.postedit.numbers_written import english_words
>>> english_words(24), english_words(420)
('twenty-four', None)
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from translator_app.core.engine.respell import respelled
from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.language.amounts import amounts_in
from translator_app.core.language.numbers import to_digits
from translator_app.core.text.tokenizer import Tokenizer

# The most words a number written back may take ("three hundred", "fifteen thousand").
WORDS_AT_MOST = 2
# A clock time after the number in the German: its English is a time ("5 p.m.").
_CLOCK_AFTER = re.compile(r"\s+Uhr\b")
_DIGITS = re.compile(r"(?<![\w.,:$€£/-])\d+(?![\w%:/-]|[.,]\d|\s?%)")


@lru_cache(maxsize=1024)
def english_words(value: int) -> str | None:
    """``value`` in English words (num2words) where that takes at most :data:`WORDS_AT_MOST`
    words; None where it takes more."""
    from num2words import num2words  # 35 ms, asked only where a number in words stands

    words = num2words(value, lang="en")
    return words if len(words.split()) <= WORDS_AT_MOST else None


def in_words(tokenizer: Tokenizer, source: str, cand: Candidate) -> Candidate:
    """``cand`` with each number in digits that stands for one the German ``source``
    writes in words (:func:`~translator_app.core.language.numbers.to_digits`, not a
    clock time) written in words (:func:`english_words`), and each amount the German
    writes in words and the model was given in figures (:func:`amounts_said`: "4.5
    years" for „viereinhalb Jahre“ as "four and a half years"), its pieces and attention
    kept in step (engine/respell.py); where the English writes a value more often than
    the German in words, or the German writes it in digits too, it is left."""
    edits = [(m.start(), m.end(), words) for m, words in amounts_said(source, cand.text)]
    asked: Counter = Counter()
    for _, end, value in to_digits(source):
        if not _CLOCK_AFTER.match(source, end):
            asked[value] += 1
    if asked:
        in_digits = Counter(int(m.group()) for m in _DIGITS.finditer(source))
        found = [m for m in _DIGITS.finditer(cand.text) if int(m.group()) in asked]
        written = Counter(int(m.group()) for m in found)
        for m in found:
            value = int(m.group())
            words = english_words(value)
            if words is None or written[value] > asked[value] or in_digits[value]:
                continue
            edits.append((m.start(), m.end(), words))
    for start, end, words in sorted(edits, reverse=True):  # later ones first: offsets hold
        cand = respelled(tokenizer, cand, start, end, words)
    return cand


# An amount given in figures (language/amounts.py) -> its English in digits and in words.
_QUARTERS = {
    "45 Minuten": ("45 minutes", "three quarters of an hour"),
    "15 Minuten": ("15 minutes", "a quarter of an hour"),
    "9 Monate": ("9 months", "nine months"),
    "9 Monaten": ("9 months", "nine months"),
}


def amounts_said(source: str, english: str) -> list[tuple[re.Match, str]]:
    """Each place ``english`` writes in figures an amount the German ``source`` writes in
    words and the model was given in figures (a half after a number, a quarter hour),
    with the English words for it; one place per amount at most.

    >>> [(m.group(), w) for m, w in amounts_said("seit dreieinhalb Jahren", "for 3.5 years")]
    [('3.5', 'three and a half')]
    """
    said, taken = [], set()
    for _, _, figures in amounts_in(source):
        if m := re.fullmatch(r"(\d+),5", figures):
            digits, words = f"{m.group(1)}.5", english_words(int(m.group(1)))
            words = words and f"{words} and a half"
        elif figures in _QUARTERS:
            digits, words = _QUARTERS[figures]
        else:
            continue
        for found in re.finditer(rf"(?<![\w.,]){re.escape(digits)}(?![\w]|[.,]\d)", english):
            if words and found.start() not in taken:
                said.append((found, words))
                taken.add(found.start())
                break
    return said


def words_rewrite(tokenizer: Tokenizer, t: Translation, cand: Candidate) -> Candidate:
    """The step "numbers-in-words" on ``cand``, a candidate of ``t``."""
    return in_words(tokenizer, t.source, cand)

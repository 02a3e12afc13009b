"""The user's terms, found in the pairs they teach (issue 33).

A term is a German word that the user's English renders the same way nearly every time
it occurs: „Zauberpfanne“ -> "MagicPan", „Prise“ -> "pinch", „Nudelholz“ -> "rolling
pin". Found by co-occurrence (the Dice coefficient of the pairs holding the German word
and those holding the English word or two-word phrase), as terminology extractors for
translation memories do; then kept only where the base model does not already produce
that English for those sentences, so the list names what Teach must teach.

The list serves three ends: annotated copies of the user's pairs for the fine-tune (the
model learns to follow its own glossary), the new bundle's ``terms.tsv`` (applied like
the user's glossary, so a taught term is used in every sentence), and the verdict (the
share of these terms the new model uses on held-out sentences).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher

from translator_app.core.faithful.glossary import Glossary, Term, check_uses
from translator_app.core.language.english import find_target

Pair = tuple[str, str]

_DE_WORD = re.compile(r"[A-Za-zÄÖÜäöüß][\wÄÖÜäöüß-]*")
_EN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_DE_ENDINGS = ("e", "n", "en", "s", "es", "er", "ern", "ns")
MIN_GERMAN_CHARS = 4

# Function words: never a term, nor the first or last word of an English term.
_DE_STOP_WORDS = """aber alle allem allen aller alles also auch auf aus bei beim bin bis bist dann
    darauf daran darin dass dein deine dem den denn der des dessen dich die dies diese
    diesem diesen dieser dieses doch dort durch eine einem einen einer eines etwas euch
    euer für gegen habe haben hast hat hatte hier ihm ihn ihnen ihr ihre ihrem ihren
    ihrer immer jede jedem jeden jeder jedes jetzt kann kein keine keinen können könnte
    mehr mein meine meinem meinen mich mit muss nach nicht nichts noch nun nur oder ohne
    sehr sein seine seinem seinen sich sie sind soll sollte über uns unser unsere unter
    viel vom von vor war waren warum was weil welche wenn wer werden wie wieder wir
    wird wo wurde zum zur zwei drei vier fünf sechs sieben acht neun zehn"""
_DE_STOP = set(_DE_STOP_WORDS.split())
_EN_STOP_WORDS = """a about all also an and any are as at be been but by can could did do does for
    from had has have he her his how i if in into is it its just may me more most my
    no not of off on one only or our out over she so some than that the their them then
    there these they this those to too two three four five six up us very was we were
    what when which who why will with would you your"""
_EN_STOP = set(_EN_STOP_WORDS.split())


def _german_groups(pairs: Sequence[Pair]) -> tuple[dict[str, set[int]], set[str]]:
    """Casefolded German word -> the pairs holding it (inflected forms under their
    shortest form: Topflappen, Zauberpfannen -> Zauberpfanne), and the words seen other
    than first in a sentence (a word only ever first is most often a verb: „Stellen Sie“)."""
    where: dict[str, set[int]] = defaultdict(set)
    inside: set[str] = set()
    for i, (de, _) in enumerate(pairs):
        for n, m in enumerate(_DE_WORD.finditer(de)):
            word = m.group().casefold()
            if len(word) < MIN_GERMAN_CHARS or word in _DE_STOP:
                continue
            where[word].add(i)
            if n:
                inside.add(word)
    # Forms that are another form plus an ending join it.
    for word in sorted(where, key=len):
        for ending in _DE_ENDINGS:
            stem = word[: -len(ending)]
            if word.endswith(ending) and stem in where and stem != word:
                where[stem] |= where.pop(word)
                if word in inside:
                    inside.add(stem)
                break
    return where, inside


def _english_groups(pairs: Sequence[Pair]) -> tuple[dict[str, set[int]], dict[str, str]]:
    """Casefolded English word or two-word phrase -> the pairs holding it (plurals under
    the singular), and each one's most frequent spelling (MagicPan, not magicpan)."""
    where: dict[str, set[int]] = defaultdict(set)
    spellings: dict[str, Counter] = defaultdict(Counter)
    for i, (_, en) in enumerate(pairs):
        words = [m.group() for m in _EN_WORD.finditer(en)]
        for n in (1, 2):
            for k in range(len(words) - n + 1):
                gram = words[k : k + n]
                folded = [w.casefold() for w in gram]
                if folded[0] in _EN_STOP or folded[-1] in _EN_STOP:
                    continue
                key = " ".join(folded)
                where[key].add(i)
                # A sentence's first word is capitalised whatever it is ("Peel the
                # potatoes"): its spelling counts for less than one inside a sentence.
                spellings[key][" ".join(gram)] += 1 if k else 0.5
    for key in sorted(where, key=len, reverse=True):
        for ending in ("es", "s"):
            if key.endswith(ending) and key[: -len(ending)] in where:
                where[key[: -len(ending)]] |= where.pop(key)
                spellings.pop(key)
                break
    return where, {k: c.most_common(1)[0][0] for k, c in spellings.items()}


def mine_terms(
    pairs: Sequence[Pair],
    *,
    min_pairs: int = 2,
    min_dice: float = 0.85,
    known: Callable[[list[str], str], bool] | None = None,
) -> list[Term]:
    """The terms of ``pairs``: German words in at least ``min_pairs`` pairs whose best
    English (Dice >= ``min_dice``) goes with them. ``known(sources, english)`` says
    whether the base model already produces ``english`` for those German sentences; such
    pairs are left out."""
    de_where, inside = _german_groups(pairs)
    en_where, spelling = _english_groups(pairs)
    en_by_pair: dict[int, list[str]] = defaultdict(list)
    for key, ids in en_where.items():
        for i in ids:
            en_by_pair[i].append(key)
    chosen = {}  # German word -> (dice, similarity, English key)
    for word, ids in sorted(de_where.items()):
        if len(ids) < min_pairs or word not in inside:
            continue
        together = Counter(e for i in ids for e in en_by_pair[i])
        scored = [
            (2 * n / (len(ids) + len(en_where[e])), n, len(e.split()), e)
            for e, n in together.items()
            if n >= min_pairs
        ]
        if not scored:
            continue
        dice, _, _, english = max(scored)
        if dice >= min_dice:
            chosen[word] = (dice, _similarity(word, english), english)
    # "scharfe Klinge" -> "sharp blade" for „Klinge“ when „scharf“ -> "sharp": the
    # phrase's other word is Klinge's.
    for word, (dice, _, english) in list(chosen.items()):
        parts = english.split()
        for k, part in enumerate(parts if len(parts) > 1 else ()):
            rest = parts[1 - k]
            if rest in en_where and any(
                e == part and w != word and de_where[w] & de_where[word]
                for w, (_, _, e) in chosen.items()
            ):
                chosen[word] = (dice, _similarity(word, rest), rest)
    terms = []
    for word, (dice, similarity, english) in chosen.items():
        ids = de_where[word]
        # One English for two German words of the same sentences („fasst zwei Liter“:
        # both "fasst" and "Liter" -> "litre"): the better one, the look-alike on a tie.
        rivals = [
            (d, sim)
            for w, (d, sim, e) in chosen.items()
            if e == english and w != word and de_where[w] & ids
        ]
        if any((d, sim) > (dice, similarity) for d, sim in rivals):
            continue
        target = spelling[english]
        both = [pairs[i][0] for i in sorted(ids) if find_target(target, pairs[i][1])]
        if known is not None and known(both[:3], target):
            continue
        terms.append(Term(_surface(word, [pairs[i][0] for i in ids]), target))
    return sorted(terms, key=lambda t: t.source.casefold())


def _similarity(german: str, english: str) -> float:
    return SequenceMatcher(None, german.casefold(), english.casefold()).ratio()


def _surface(word: str, sources: list[str]) -> str:
    """The spelling of casefolded ``word`` in the user's text (Zauberpfanne)."""
    for s in sources:
        m = re.search(rf"(?<![\w-]){re.escape(word)}", s, re.IGNORECASE)
        if m:
            return m.group()
    return word


def term_use(
    sources: Sequence[str], references: Sequence[str], outputs: Sequence[str], glossary: Glossary
) -> tuple[int, int]:
    """How many of the term uses in ``references`` the ``outputs`` keep: a use is a
    glossary term whose German is in the source and whose English is in the reference.
    Returns (kept, uses)."""
    kept = total = 0
    for src, ref, out in zip(sources, references, outputs, strict=True):
        uses = [u for u in glossary.find(src) if find_target(u.target, ref)]
        total += len(uses)
        kept += sum(u.kept for u in check_uses(uses, out))
    return kept, total

"""Training pairs with inline term annotations, made from a dictionary (issue 30).

For a share of the training pairs, a German word whose dictionary translation occurs in
the English is annotated with it (see translator_app/core/faithful/terms.py):

    Ich habe den <term> Schlüssel <means> key </term> verloren. -> I lost the key.

So that the model learns to *obey* the annotation rather than to agree with it when it
would have chosen the same word anyway, a share of the annotations (``terms_swap``) give
another English word, which then also replaces the word in the English:

    Ich habe den <term> Schlüssel <means> MagicKey </term> verloren. -> I lost the MagicKey.

The replacements are other dictionary words and invented product-like names (what users
put in glossaries). The annotated copies are added beside the plain pairs, so a model
without a glossary translates as before.

The facts that the translator protects (core/faithful/protect.py: numbers, times and dates with
their English form, names after titles, listed first names and places) are annotated the
same way in a share of the pairs (``facts_share``) where the English has that form, so
the model has seen such annotations before the translator adds them:

    Der Kurs kostet <term> 12,50 <means> 12.50 </term> € bei <term> Frau Koch ...
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from translator_app.core.data.corpus import read_all
from translator_app.core.faithful.protect import protected_uses
from translator_app.core.faithful.terms import annotate_spans, annotation

Pair = tuple[str, str]

_DE_NOUN = re.compile(r"[A-ZÄÖÜ][a-zäöüß]{3,}(?:-[A-ZÄÖÜ]?[a-zäöüß]+)?")
_EN_PHRASE = re.compile(r"[A-Za-z][A-Za-z'-]*(?: [A-Za-z][A-Za-z'-]*){0,2}")
_DE_WORD = re.compile(r"(?<![\w-])[A-ZÄÖÜ][\w-]{3,}(?![\w-])")
# Halves of invented names (MagicPan, SilverLine): what users' glossaries hold.
_NAME_PARTS = [
    "Magic",
    "Silver",
    "Blue",
    "Green",
    "Smart",
    "Quick",
    "Easy",
    "Pro",
    "Max",
    "Star",
    "Sun",
    "Sky",
    "Nova",
    "Terra",
    "Flex",
    "Eco",
    "Prime",
    "Swift",
    "Bright",
    "Clear",
    "Pure",
    "Alpha",
    "Vita",
    "Aqua",
    "Pan",
    "Line",
    "Box",
    "Cook",
    "Fix",
    "Tec",
    "Way",
    "Point",
    "Port",
    "Works",
    "Soft",
    "Care",
    "Home",
    "Plus",
    "Lab",
    "Mate",
    "Grip",
    "Flow",
    "Wave",
]


def load_dictionary(path: str | Path) -> dict[str, list[str]]:
    """German noun -> English words or phrases (up to three words), from a TSV of
    (German, English) pairs such as the Ding dictionary's de-en.pairs.tsv.xz."""
    entries: dict[str, list[str]] = {}
    for de, en in read_all([Path(path)]):
        de, en = de.strip(), en.strip()
        if _DE_NOUN.fullmatch(de) and _EN_PHRASE.fullmatch(en) and len(en) >= 3:
            found = entries.setdefault(de, [])
            if en not in found:
                found.append(en)
    return entries


def _invented(rng: random.Random) -> str:
    a, b = rng.sample(_NAME_PARTS, 2)
    return a + b


def _in_english(phrase: str, en: str) -> re.Match | None:
    return re.search(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", en, re.IGNORECASE)


def annotate_pair(
    pair: Pair, dictionary: dict[str, list[str]], pool: Sequence[str], swap: float, rng
) -> Pair | None:
    """An annotated copy of ``pair`` (one or two terms), or None when no German word's
    dictionary translation is in the English."""
    de, en = pair
    candidates = []
    for m in _DE_WORD.finditer(de):
        for phrase in dictionary.get(m.group(), ()):
            hit = _in_english(phrase, en)
            if hit:
                candidates.append((m, hit))
                break
    if not candidates:
        return None
    rng.shuffle(candidates)
    chosen, used = [], set()
    for m, hit in candidates[: 2 if rng.random() < 0.3 else 1]:
        if hit.span() in used:
            continue
        used.add(hit.span())
        chosen.append((m, hit))
    # Replace from the end, so earlier offsets stay valid.
    new_en = en
    spans = []
    for m, hit in sorted(chosen, key=lambda c: c[1].start(), reverse=True):
        target = hit.group()
        if rng.random() < swap:
            target = _invented(rng) if rng.random() < 0.5 else rng.choice(pool)
            if hit.group()[0].isupper():
                target = target[0].upper() + target[1:]
            new_en = new_en[: hit.start()] + target + new_en[hit.end() :]
        spans.append((m.start(), m.end(), target))
    new_de = de
    for start, end, target in sorted(spans, reverse=True):
        new_de = new_de[:start] + annotation(de[start:end], target) + new_de[end:]
    return new_de, new_en


def annotate_pairs(
    pairs: Sequence[Pair], dictionary: dict[str, list[str]], share: float, swap: float, seed: int
) -> tuple[list[Pair], Counter]:
    """Annotated copies of about ``share`` of ``pairs`` (those with a dictionary match)."""
    rng = random.Random(seed * 104_729 + 3)
    pool = sorted({p for phrases in dictionary.values() for p in phrases if " " not in p})
    out, counts = [], Counter()
    if not pool:
        return out, counts
    for pair in pairs:
        if rng.random() >= share:
            continue
        copy = annotate_pair(pair, dictionary, pool, swap, rng)
        if copy is not None:
            out.append(copy)
            counts["terms"] += 1
    return out, counts


def annotate_facts(pairs: Sequence[Pair], share: float, seed: int) -> tuple[list[Pair], Counter]:
    """Copies of about ``share`` of ``pairs`` with their protected facts annotated: those
    whose English form is in the English (so the annotation tells the truth)."""
    rng = random.Random(seed * 15_485_863 + 11)
    out, counts = [], Counter()
    for de, en in pairs:
        if rng.random() >= share:
            continue
        spans = [
            (u.start, u.end, u.target) for u in protected_uses(de) if _in_english(u.target, en)
        ]
        if spans:
            out.append((annotate_spans(de, spans), en))
            counts["facts"] += 1
    return out, counts

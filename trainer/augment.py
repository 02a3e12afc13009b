"""Training-data augmentation for faithful names, numbers and dates (issue 30).

A model that has seen „Schneider“ mostly as "tailor" translates Frau Schneider into
"Mrs Tailor"; one that has seen few prices drops or garbles them. Both are cured by
examples: copies of real pairs in which a name, place, number or date that the two sides
share is swapped for another one, written in each language's convention:

- entities: a capitalised word found on both sides (mid-sentence in the English, so a
  proper noun) becomes another name (surnames that are German words weighted up), and a
  listed place becomes another place with its English exonym (München -> Munich);
- numbers: every number of the pair must have a partner of equal value on the other side;
  then each gets a new value in German format on the German side (1.150 / 12,50) and
  English format on the English side (1,150 / 12.50); times (14:35) and dates
  („3. Mai“ / "May 3") change together, and prices and dates are also rewritten into the
  other common forms („5 €“ / "€5", „am 24.12.“).

The copies are added to the training pairs once, at data preparation, from a seeded
generator (``[data] augment_entities`` / ``augment_numbers``: the share of eligible pairs
that get a copy), so a run is reproducible and resumable like any other.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence

from translator_app.core.faithful.entity_lists import (
    FIRST_NAMES,
    MONTHS,
    OTHER_SURNAMES,
    PLACES,
    WORD_SURNAMES,
)

Pair = tuple[str, str]

# ------------------------------------------------------------------------- entities
_WORD = re.compile(r"[^\W\d_]{2,}")
_CAP = re.compile(r"(?<![\w'-])([A-ZÄÖÜ][a-zäöüß]+)(?![\w-])")
_SENTENCE_START = re.compile(r"(^|[.!?:;\"„“”«»(]\s*)$")
# Capitalised mid-sentence in English, yet not names.
_NOT_NAMES = {"Mr", "Mrs", "Ms", "Dr", "Herr", "Frau", "Euro", "Euros", "Internet"} | {
    m for pair in MONTHS for m in pair
}
_PLACE_BY_DE = {de: en for de, en in PLACES}
_TITLE = re.compile(r"(?:Frau|Herrn?|Dr\.)\s+$")


def _word(w: str) -> str:
    return rf"(?<![\w-]){re.escape(w)}(?![\w-])"


def name_words(pairs: Sequence[Pair], min_count: int = 3) -> frozenset[str]:
    """Words the English side writes as names: capitalised mid-sentence at least
    ``min_count`` times and almost never in lower case (so "Tom" is one, "Hotel" not)."""
    caps: Counter = Counter()
    lower: Counter = Counter()
    for _, en in pairs:
        for m in _WORD.finditer(en):
            w = m.group()
            if w[0].islower():
                lower[w] += 1
            elif w[1:].islower() and not _SENTENCE_START.search(en[: m.start()]):
                caps[w] += 1
    return (
        frozenset(w for w, n in caps.items() if n >= min_count and lower[w.lower()] * 20 < n)
        - _NOT_NAMES
    )


def shared_names(de: str, en: str, names: frozenset[str]) -> list[str]:
    """Known names (see :func:`name_words`) that occur on both sides."""
    de_words = set(_CAP.findall(de))
    de_words |= {w[:-1] for w in de_words if w.endswith("s")}  # genitive: Toms Hund
    return sorted(set(_CAP.findall(en)) & de_words & names)


def shared_places(de: str, en: str) -> list[tuple[str, str]]:
    """Listed places named on both sides (in the German and the English form)."""
    return [(d, e) for d, e in PLACES if re.search(_word(d), de) and re.search(_word(e), en)]


def _new_name(rng: random.Random, surname_only: bool) -> str:
    r = rng.random()
    if surname_only or r < 0.55:
        return rng.choice(WORD_SURNAMES if rng.random() < 0.75 else OTHER_SURNAMES)
    if r < 0.8:
        return rng.choice(FIRST_NAMES)
    return f"{rng.choice(FIRST_NAMES)} {rng.choice(WORD_SURNAMES)}"


def _replace_german_name(de: str, old: str, new: str) -> str:
    """Replace ``old`` and its genitive (Toms -> Schneiders, Hans' for names in s)."""

    def sub(m: re.Match) -> str:
        if not m.group(1):
            return new
        return new + ("'" if new[-1] in "sßxz" else "s")

    return re.sub(rf"(?<![\w-]){re.escape(old)}(s?)(?![\w-])", sub, de)


def swap_entities(pair: Pair, rng: random.Random, known: frozenset[str]) -> Pair | None:
    """A copy of ``pair`` with its shared names (of ``known``) and places swapped, or
    None."""
    de, en = pair
    names = [n for n in shared_names(de, en, known) if n not in _PLACE_BY_DE]
    places = shared_places(de, en)
    if not names and not places:
        return None
    for d, e in places:
        nd, ne = rng.choice(PLACES)
        de, en = re.sub(_word(d), nd, de), re.sub(_word(e), ne, en)
    for old in names:
        m = re.search(_word(old), de)
        titled = m is not None and bool(_TITLE.search(de[: m.start()]))
        new = _new_name(rng, surname_only=titled)
        de = _replace_german_name(de, old, new)
        en = re.sub(_word(old), new, en)
    return (de, en) if (de, en) != pair else None


# -------------------------------------------------------------------------- numbers
# A number with its own separators, not part of a longer token; German: 1.150,50;
# English: 1,150.50 (an English ordinal suffix is allowed: 3rd). Times 14:35 are one unit.
_TIME = r"(?P<time>\b(?:[01]?\d|2[0-3]):[0-5]\d\b)"
_DE_NUM = re.compile(
    _TIME + r"|(?<![\w.,:])(?P<int>\d{1,3}(?:\.\d{3})+|\d+)(?:,(?P<dec>\d+))?(?![\w:]|[.,]\d)"
)
_EN_NUM = re.compile(
    _TIME
    + r"|(?<![\w.,:])(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<dec>\d+))?"
    + r"(?P<ord>st|nd|rd|th)?(?![\w:]|[.,]\d)"
)


def _value(m: re.Match, thousands: str) -> str:
    if m.group("time"):
        return "t" + m.group("time").zfill(5)
    dec = m.group("dec")
    return m.group("int").replace(thousands, "").lstrip("0") + ("." + dec if dec else "")


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _group(n: int, sep: str) -> str:
    return f"{n:,}".replace(",", sep)


def _new_number(
    value: str, rng: random.Random, day: bool, plain: bool
) -> tuple[str, str, int | None]:
    """(German, English, integer or None) for a new number shaped like ``value``."""
    if value.startswith("t"):
        t = f"{rng.randrange(0, 24)}:{rng.randrange(0, 60):02d}"
        return t, t, None
    whole, _, dec = value.partition(".")
    n = int(whole or "0")
    if day:
        k = rng.randrange(2, 29)
        return str(k), str(k), k
    if dec:
        d = "".join(str(rng.randrange(10)) for _ in dec)
        k = rng.randrange(0, 100) if rng.random() < 0.6 else rng.randrange(100, 20000)
        return f"{_group(k, '.')},{d}", f"{_group(k, ',')}.{d}", None
    if plain and 1000 <= n <= 2100 and len(whole) == 4:  # a year: no separators on either side
        k = rng.randrange(1950, 2031)
        return str(k), str(k), k
    r = rng.random()
    k = (
        rng.randrange(2, 100)
        if r < 0.5
        else rng.randrange(100, 1000)
        if r < 0.7
        else (rng.randrange(1000, 1_000_000))
    )
    if 1000 <= k < 10000 and rng.random() < 0.5:
        return str(k), f"{k:,}", k  # German 1150 (no dot), English 1,150
    return _group(k, "."), _group(k, ","), k


_MONTHS_DE = "|".join(d for d, _ in MONTHS)
_DAY_BEFORE_MONTH = re.compile(rf"\.\s+(?:{_MONTHS_DE})\b")


def swap_numbers(pair: Pair, rng: random.Random) -> Pair | None:
    """A copy of ``pair`` with every number changed on both sides, or None when the two
    sides' numbers do not pair up by value (then the pair is left alone)."""
    de, en = pair
    de_nums = list(_DE_NUM.finditer(de))
    en_nums = list(_EN_NUM.finditer(en))
    if not de_nums:
        return None
    de_vals = [_value(m, ".") for m in de_nums]
    en_vals = [_value(m, ",") for m in en_nums]
    if Counter(de_vals) != Counter(en_vals) or set(de_vals) & {"", "1"}:
        return None
    new: dict[str, tuple[str, str, int | None]] = {}
    for m, v in zip(de_nums, de_vals, strict=True):
        if v not in new:
            day = bool(_DAY_BEFORE_MONTH.match(de, m.end())) or any(
                e.group("ord") for e, ev in zip(en_nums, en_vals, strict=True) if ev == v
            )
            plain = m.group("int") is not None and m.group("int").isdigit()
            new[v] = _new_number(v, rng, day, plain)
    out_de = _DE_NUM.sub(lambda m: new[_value(m, ".")][0], de)

    def en_sub(m: re.Match) -> str:
        _, text, k = new[_value(m, ",")]
        if m.group("ord") and k is not None:
            return text + _ordinal(k)
        return text

    out_en = _EN_NUM.sub(en_sub, en)
    out = rewrite_months(out_de, out_en, rng)
    out = rewrite_money(*out, rng)
    return out if out != pair else None


def rewrite_months(de: str, en: str, rng: random.Random) -> Pair:
    """Swap a month named on both sides for another one; sometimes write the German date
    in numbers („3. Mai“ -> „3.5.“), as letters and forms do."""
    for _i, (md, me) in enumerate(MONTHS):
        if re.search(_word(md), de) and re.search(_word(me), en):
            j = rng.randrange(12)
            nd, ne = MONTHS[j]
            de, en = re.sub(_word(md), nd, de), re.sub(_word(me), ne, en)
            if rng.random() < 0.3:
                # „am 24. Dezember.“ -> „am 24.12.“ (one full stop for both)
                de = re.sub(rf"\b(\d{{1,2}})\.\s+{nd}\b\.?", rf"\g<1>.{j + 1}.", de)
            break
    return de, en


_DE_MONEY = re.compile(r"(\d[\d.,]*)\s?(?:Euro|EUR|€)(?![\w])")
_EN_MONEY = re.compile(r"(?:€\s?|EUR\s)(\d[\d.,]*\d|\d)|(\d[\d.,]*\d|\d)\s?(?:euros?|EUR)\b")


def rewrite_money(de: str, en: str, rng: random.Random) -> Pair:
    """Write prices in another common form on each side („5 €“, „5 Euro“; "€5", "5 euros")
    when both sides name the same amounts in euros."""
    de_amounts = [m.group(1) for m in _DE_MONEY.finditer(de)]
    en_amounts = [m.group(1) or m.group(2) for m in _EN_MONEY.finditer(en)]
    if not de_amounts or len(de_amounts) != len(en_amounts):
        return de, en
    de_form = rng.choice(("{} Euro", "{} €", "{} €", "{} EUR"))
    en_form = rng.choice(("€{}", "€{}", "{} euros", "EUR {}"))
    de = _DE_MONEY.sub(lambda m: de_form.format(m.group(1)), de)
    en = _EN_MONEY.sub(lambda m: en_form.format(m.group(1) or m.group(2)), en)
    return de, en


# ------------------------------------------------------------------------- the pass
def augment_pairs(
    pairs: Sequence[Pair],
    entities: float,
    numbers: float,
    seed: int,
    known: frozenset[str] | None = None,
) -> tuple[list[Pair], Counter]:
    """New pairs to add to ``pairs``: for each pair with shared names or places, an
    entity-swapped copy with probability ``entities``; for each pair whose numbers pair
    up, a number-swapped copy with probability ``numbers``. Returns (copies, counts).
    ``known``: the names to swap in (default: :func:`name_words` of ``pairs``; a shard of
    the data passes the names of the whole)."""
    rng = random.Random(seed * 7919 + 17)
    if known is None:
        known = name_words(pairs) if entities > 0 else frozenset()
    out: list[Pair] = []
    counts: Counter = Counter()
    for pair in pairs:
        if entities > 0 and rng.random() < entities:
            copy = swap_entities(pair, rng, known)
            if copy is not None:
                out.append(copy)
                counts["entities"] += 1
        if numbers > 0 and rng.random() < numbers:
            copy = swap_numbers(pair, rng)
            if copy is not None:
                out.append(copy)
                counts["numbers"] += 1
    return out, counts

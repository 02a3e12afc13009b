"""A register corpus of the project's own (issue 46): the building blocks of letters,
e-mails, forms and shop text, combined with varied content into sentence pairs, as
translation teams build translation memories.

Each template is a German sentence and its English with slots; each slot fills from a
list of German/English pairs (names, weekdays, dates, times, amounts, documents, goods,
counts). Everything is deterministic for a seed. The corpus is training data only: the
register dev and test sets (testsets/register) are never built from it, and
scripts/prepare_data.py removes every pair that matches one of their sentences.

    python -m trainer.register_corpus --pairs 8000 --seed 1 > register.tsv
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Iterator

from trainer.register_tables import (
    CHILDREN,
    CITIES,
    CLOSINGS,
    COUNTS,
    CRATES,
    DEPARTMENTS,
    DOCUMENTS,
    FIELDS,
    FIXTURES,
    GOODS,
    LABELS,
    MEETINGS,
    MEN,
    MONTHS,
    MORE_GOODS,
    MORE_TEMPLATES,
    PLACES,
    PRIVATE_THANKS,
    REASONS,
    ROOMS,
    SALUTATIONS,
    SURNAMES,
    TEMPLATES,
    THANKS_FOR,
    WEEKDAYS,
    WOMEN,
    WORK_VERBS,
    WORKERS,
)


def _date(rng: random.Random) -> tuple[str, str]:
    day, (month_de, month_en) = rng.randint(1, 28), rng.choice(MONTHS)
    return f"{day}. {month_de}", f"{day} {month_en}"


def hour_english(h: int) -> str:
    """A full hour of the 24-hour clock as English writes it: 9 -> "9 a.m.", 18 -> "6 p.m."."""
    return f"{h} a.m." if h < 12 else ("12 noon" if h == 12 else f"{h - 12} p.m.")


def _hour(rng: random.Random, after: int = 6) -> tuple[str, str, int]:
    h = rng.randint(after + 1, 19)
    return str(h), hour_english(h), h


def _amount(rng: random.Random) -> tuple[str, str]:
    euros, cents = (
        rng.choice((rng.randint(5, 99), rng.randint(100, 2500))),
        rng.choice((0, 50, 90, 99)),
    )
    if cents:
        return f"{euros},{cents:02d} €", f"€{euros}.{cents:02d}"
    return f"{euros} Euro", f"{euros} euros"


def _random_slots(rng: random.Random) -> dict[str, str]:
    """One value for every slot (German and English together)."""
    slots: dict[str, str] = {"surname": rng.choice(SURNAMES)}
    slots["woman"], slots["man"] = rng.choice(WOMEN), rng.choice(MEN)
    for key, table in (
        ("thanks", THANKS_FOR),
        ("doc", DOCUMENTS),
        ("meeting", MEETINGS),
        ("weekday", WEEKDAYS),
        ("count", COUNTS),
        ("crate", CRATES),
        ("dept", DEPARTMENTS),
        ("field", FIELDS),
        ("label", LABELS),
        ("verb", WORK_VERBS),
        ("fixture", FIXTURES),
        ("worker", WORKERS),
        ("place", PLACES),
        ("reason", REASONS),
        ("city", CITIES),
        ("child", CHILDREN),
        ("private", PRIVATE_THANKS),
    ):
        slots[f"{key}_de"], slots[f"{key}_en"] = rng.choice(table)
    for key, table in (("goods_pl", GOODS), ("more_pl", MORE_GOODS), ("room", ROOMS)):
        four = rng.choice(table)  # German, English, and a second German/English form
        second = key.replace("_pl", "_sg") if key.endswith("_pl") else f"{key}_in"
        slots[f"{key}_de"], slots[f"{key}_en"] = four[:2]
        slots[f"{second}_de"], slots[f"{second}_en"] = four[2:]
    slots["digits"], slots["year"] = str(rng.randint(8, 12)), str(rng.randint(2022, 2026))
    slots["date_de"], slots["date_en"] = _date(rng)
    slots["date2_de"], slots["date2_en"] = _date(rng)
    slots["hour_de"], slots["hour_en"], first = _hour(rng)
    slots["hour2_de"], slots["hour2_en"], _ = _hour(rng, after=min(first, 18))
    slots["amount_de"], slots["amount_en"] = _amount(rng)
    slots["order"] = str(rng.randint(10_000, 999_999))
    return slots


ALL_TEMPLATES = TEMPLATES + MORE_TEMPLATES
SLOT = re.compile(r"\{(\w+)\}")


def fill(template: str, slots: dict[str, str]) -> str:
    return SLOT.sub(lambda m: slots[m.group(1)], template)


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


# First words that keep their capital after a salutation's comma: German nouns and the
# polite pronoun, English "I", titles and names of days.
_KEEP_CAPITAL = {"Frau", "Herr", "Frühstück", "Ihre", "Ihr", "Ihren", "Ihnen", "I", "Mr", "Ms"} | {
    en for _, en in WEEKDAYS
}


_INFORMAL = re.compile(r"\b(?:du|dich|dir|dein\w*|Kannst|Hast|Vergiss)\b")
_FORMAL = re.compile(r"\b(?:Sie|Ihnen|Ihr\w*)\b")
_FIRST_NAME_ONLY = re.compile(r"^(?:Liebe|Lieber|Hallo) \{(?:woman|man)\},$")
DOUBLE_STOP = re.compile(r"(?<=[ap]\.m\.)\.")  # "at 8 a.m.." -> "at 8 a.m."


def _fits(salutation: str, sentence: str) -> bool:
    """ "Liebe Jana" goes with "du", "Sehr geehrte Frau Keller" with "Sie"."""
    first_name_only = bool(_FIRST_NAME_ONLY.match(salutation))
    if _INFORMAL.search(sentence):
        return first_name_only
    if _FORMAL.search(sentence):
        return not first_name_only
    return True


def _after_comma(sentence: str) -> str:
    """A sentence continuing after "Dear Ms Keller,": its first word in lower case
    unless that word keeps its capital."""
    first = sentence.split(" ", 1)[0]
    return sentence if first in _KEEP_CAPITAL else sentence[:1].lower() + sentence[1:]


def register_pairs(n: int, seed: int = 1) -> Iterator[tuple[str, str]]:
    """``n`` distinct pairs: body sentences, most alone, some after a salutation on the
    same line (as in e-mails), and closings with a name."""
    rng = random.Random(seed)
    seen: set[tuple[str, str]] = set()
    tries = 0
    while len(seen) < n and tries < n * 20:
        tries += 1
        slots = _random_slots(rng)
        kind = rng.random()
        if kind < 0.08:  # a closing with the sender's name (alone, it is a test line)
            de, en = rng.choice(CLOSINGS)
            name = f"{rng.choice(WOMEN + MEN)} {slots['surname']}"
            de, en = f"{de}, {name}", f"{en}, {name}"
        else:
            de, en = (fill(t, slots) for t in rng.choice(ALL_TEMPLATES))
            if kind < 0.25:
                fitting = [s for s in SALUTATIONS if _fits(s[0], de)]
                sal_de, sal_en = (fill(t, slots) for t in rng.choice(fitting))
                de, en = f"{sal_de} {_after_comma(de)}", f"{sal_en} {_after_comma(en)}"
        pair = (capitalised(de), capitalised(DOUBLE_STOP.sub("", en)))
        if pair not in seen:
            seen.add(pair)
            yield pair


def pairs_command(generate, description: str, default: int, argv: list[str] | None) -> int:
    """Write ``generate(pairs, seed)``'s pairs to standard output as TSV."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--pairs", type=int, default=default)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    for de, en in generate(args.pairs, args.seed):
        sys.stdout.write(f"{de}\t{en}\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    return pairs_command(register_pairs, __doc__.split("\n\n")[0], 8000, argv)


if __name__ == "__main__":
    sys.exit(main())

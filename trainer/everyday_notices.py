"""Product descriptions, reviews, support replies and travel notices built from blocks
(issue 60).

On the everyday dev set the kinds that the recipe, manual and message blocks
(``trainer/everyday_blocks.py``) do not cover scored lowest with v22: travel notices 33.7
BLEU, products 35.9, reviews 36.1, against 42–43 for instructions and messages. Their
sentences are few in the corpora: a product's qualities after „ist“, a review's praise and
complaint in one sentence, support's promises, a train that „fällt wegen … aus“. Here they
come from tables under ``trainer/data/everyday/`` (goods, what a stay or a meal was, trains
and places one visits, with the words said of them) put into sentence frames, German and
English together, in the case and number the German gives:

    Die Kopfhörer sind leicht und preiswert.          ->  The headphones are light and good value.
    Wegen Nebels fällt die Fähre nach Kiel aus.       ->  ...

    python -m trainer.everyday_notices --pairs 8000 --seed 1 > everyday-notices.tsv

Training data only; scripts/prepare_data.py removes every pair that matches a sentence
of a dev or test set.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass

from trainer.everyday_blocks import DATA, Pair
from trainer.register_corpus import (
    DOUBLE_STOP,
    SLOT,
    capitalised,
    fill,
    hour_english,
    pairs_command,
)
from trainer.tables import DATA as TABLES
from trainer.tables import read_table
from translator_app.core.faithful.number_check import WEEKDAYS_DE, WEEKDAYS_EN

_ARTICLES = {"m": ("der", "den", "dem"), "f": ("die", "die", "der"), "n": ("das", "das", "dem")}
# German and English verbs by number (singular, plural), for the frames' verb slots.
_VERBS = {
    "IST": ("ist", "sind"), "IS": ("is", "are"), "WAR": ("war", "waren"), "WAS": ("was", "were"),
    "HAT": ("hat", "haben"), "HAS": ("has", "have"), "KAM": ("kam", "kamen"),
    "WURDE": ("wurde", "wurden"), "WIRD": ("wird", "werden"), "SIEHT": ("sieht", "sehen"),
    "LOOKS": ("looks", "look"), "PASST": ("passt", "passen"), "FITS": ("fits", "fit"),
    "FITS_NOT": ("doesn't fit", "don't fit"),
}  # fmt: skip
_PRONOUNS = {"m": "er", "f": "sie", "n": "es"}
DURATIONS = [
    ("einer Woche", "a week"), ("zwei Wochen", "two weeks"), ("drei Wochen", "three weeks"),
    ("einem Monat", "a month"), ("wenigen Tagen", "a few days"), ("zwei Monaten", "two months"),
]  # fmt: skip
COUNTS = [("zwei", "two"), ("drei", "three"), ("vier", "four"), ("fünf", "five"), ("sechs", "six"),
          ("acht", "eight"), ("zehn", "ten")]  # fmt: skip


@dataclass(frozen=True)
class Noun:
    """A row of goods.tsv, stay.tsv or transport.tsv: gender ``p`` is a German plural
    noun with an English plural (Kopfhörer, headphones)."""

    singular: str
    gender: str
    plural: str
    english: str
    english_plural: str
    kinds: str

    def slots(self, rng: random.Random, suffix: str = "") -> dict[str, str]:
        """{NOM}, {ACC}, {DAT}, {THE}, pronouns and the verbs by number, in the singular
        or (where the noun has one, three times in ten) the plural; ``suffix`` names a
        second noun's slots ({NOM2}, {WAR2})."""
        plural = self.gender == "p" or (bool(self.plural) and rng.random() < 0.3)
        if plural:
            word = self.singular if self.gender == "p" else self.plural
            english = self.english if self.gender == "p" else self.english_plural
            dative = word if word.endswith(("n", "s")) else word + "n"
            out = {"NOM": f"die {word}", "ACC": f"die {word}", "DAT": f"den {dative}",
                   "PRON": "sie", "PRON_E": "they", "IT_E": "them"}  # fmt: skip
        else:
            nom, acc, dat = _ARTICLES[self.gender]
            english, word = self.english, self.singular
            out = {"NOM": f"{nom} {word}", "ACC": f"{acc} {word}", "DAT": f"{dat} {word}",
                   "PRON": _PRONOUNS[self.gender], "PRON_E": "it", "IT_E": "it"}  # fmt: skip
        out["THE"] = f"the {english}"
        out |= {verb: forms[plural] for verb, forms in _VERBS.items()}
        return {name + suffix: value for name, value in out.items()}


@dataclass(frozen=True)
class Quality:
    """A row of goods-qualities.tsv or stay-qualities.tsv: what is said of a noun whose
    kinds meet ``kinds`` (``*``: any), praise (+) or complaint (-); doubled (++, --)
    where it is already the utmost and takes no „sehr“ or „etwas“ (hervorragend,
    winzig)."""

    german: str
    english: str
    kinds: str
    praise: bool
    graded: bool = True

    def suits(self, noun: Noun) -> bool:
        return self.kinds == "*" or bool(set(self.kinds) & set(noun.kinds))

    def one_word(self) -> bool:
        """A graded quality of one word: „sehr ruhig“, „etwas laut“."""
        return self.graded and " " not in self.german + self.english


def _qualities(path) -> list[Quality]:
    rows = read_table(path, 4)
    return [Quality(de, en, kinds, sign[0] == "+", len(sign) == 1) for de, en, kinds, sign in rows]


def quality_slots(rng: random.Random, noun: Noun, qualities: list[Quality]) -> dict[str, str]:
    """What is said of ``noun``: {Q} and {Q2} alike in praise or complaint, {P}, {P2}
    praise, {N} complaint, {P1}, {N1} of one word each (after „sehr“, „etwas“); each with
    its English in ``_E``. A slot the noun has no quality for is left out."""
    fitting = [q for q in qualities if q.suits(noun)]
    rng.shuffle(fitting)
    praise = [q for q in fitting if q.praise]
    complaint = [q for q in fitting if not q.praise]
    chosen = {
        "P": praise[:1], "P2": praise[1:2], "N": complaint[:1],
        "P1": [q for q in praise if q.one_word()][:1],
        "N1": [q for q in complaint if q.one_word()][:1],
    }  # fmt: skip
    same = praise if rng.random() < 0.5 and len(praise) > 1 else complaint
    chosen |= {"Q": same[:1], "Q2": same[1:2]}
    slots = {}
    for name, found in chosen.items():
        if found:
            slots[name], slots[name + "_E"] = found[0].german, found[0].english
    return slots


# German joins a preposition and the article („in dem Museum“ is „im Museum“).
_CONTRACTIONS = re.compile(r"\b(von|in|zu|an) dem\b|\bin das\b", re.IGNORECASE)
_CONTRACTED = {"von dem": "vom", "in dem": "im", "zu dem": "zum", "an dem": "am", "in das": "ins"}


def contracted(german: str) -> str:
    """„Fotografieren ist in dem Museum …“ -> „… im Museum …“ (the case of the first
    letter kept)."""

    def join(m: re.Match) -> str:
        short = _CONTRACTED[m.group(0).lower()]
        return capitalised(short) if m.group(0)[0].isupper() else short

    return _CONTRACTIONS.sub(join, german)


def _frame_pairs(n, rng, nouns, frames, extra) -> Iterator[Pair]:
    """``n`` pairs of ``frames`` (German, English, kinds of noun), each filled with a
    noun that suits it and the slots ``extra(rng, noun)`` gives; a frame whose slots the
    noun cannot fill is drawn again."""
    made = 0
    while made < n:
        de, en, kinds = rng.choice(frames)
        fitting = [x for x in nouns if not kinds or set(x.kinds) & set(kinds)]
        noun = rng.choice(fitting)
        second = rng.choice([x for x in nouns if x != noun and set(x.kinds) & set(noun.kinds)]
                            or [noun])  # fmt: skip
        slots = noun.slots(rng) | second.slots(rng, "2") | extra(rng, noun)
        if not set(SLOT.findall(de + en)) <= set(slots):
            continue
        made += 1
        english = DOUBLE_STOP.sub("", capitalised(fill(en, slots)))  # "at 5 p.m.." ends once
        yield contracted(capitalised(fill(de, slots))), english


def _nouns(name: str) -> list[Noun]:
    return [Noun(*row) for row in read_table(DATA / name, 6)]


def goods_pairs(n: int, rng: random.Random) -> Iterator[Pair]:
    """Product descriptions, reviews and support replies about goods."""
    qualities = _qualities(DATA / "goods-qualities.tsv")
    materials = read_table(DATA / "materials.tsv", 3)

    def extra(rng: random.Random, noun: Noun) -> dict[str, str]:
        slots = quality_slots(rng, noun, qualities)
        fitting = [m for m in materials if set(m[2]) & set(noun.kinds)]
        if fitting:
            slots["MAT"], slots["MAT_E"], _ = rng.choice(fitting)
        day = rng.randrange(5)
        slots |= {"DAYS": str(rng.randint(2, 14)), "DAY": WEEKDAYS_DE[day],
                  "DAY_E": WEEKDAYS_EN[day]}  # fmt: skip
        slots["WEEKS"], slots["WEEKS_E"] = rng.choice(DURATIONS)
        slots["COLORS"], slots["COLORS_E"] = rng.choice(COUNTS)
        return slots

    return _frame_pairs(
        n, rng, _nouns("goods.tsv"), read_table(DATA / "goods-frames.tsv", 3), extra
    )


def stay_pairs(n: int, rng: random.Random) -> Iterator[Pair]:
    """Reviews of hotels, holiday flats, restaurants and deliveries."""
    qualities = _qualities(DATA / "stay-qualities.tsv")
    frames = read_table(DATA / "stay-frames.tsv", 3)
    return _frame_pairs(
        n, rng, _nouns("stay.tsv"), frames, lambda rng, noun: quality_slots(rng, noun, qualities)
    )


def _day(rng: random.Random) -> tuple[str, str]:
    choice = rng.randrange(10)
    if choice < 7:
        return f"am {WEEKDAYS_DE[choice]}", f"on {WEEKDAYS_EN[choice]}"
    return [("heute", "today"), ("morgen", "tomorrow"), ("am Wochenende", "at the weekend")][
        choice - 7
    ]


def _time(rng: random.Random) -> tuple[str, str]:
    hour, minute = rng.randint(5, 22), rng.choice((0, 5, 12, 15, 20, 30, 35, 42, 45, 50))
    if not minute:
        return str(hour), hour_english(hour)
    half = "a.m." if hour < 12 else "p.m."
    return f"{hour}:{minute:02d}", f"{(hour - 1) % 12 + 1}:{minute:02d} {half}"


def travel_pairs(n: int, rng: random.Random) -> Iterator[Pair]:
    """Notices of trains, buses, flights and ferries, and of places one visits."""
    cities = read_table(TABLES / "register" / "cities.tsv", 2)
    reasons = read_table(DATA / "reasons.tsv", 3)

    def extra(rng: random.Random, noun: Noun) -> dict[str, str]:
        (city, city_e), (city2, city2_e) = rng.sample(cities, 2)
        slots = {"CITY": city, "CITY_E": city_e, "CITY2": city2, "CITY2_E": city2_e,
                 "MIN": str(rng.choice((5, 10, 15, 20, 25, 30, 40, 45, 60, 90))),
                 "TRACK": str(rng.randint(1, 14)), "AGE": str(rng.choice((6, 12, 14, 16, 18)))}  # fmt: skip
        fitting = [r for r in reasons if set(r[2]) & set(noun.kinds)]
        if fitting:
            slots["REASON"], slots["REASON_E"], _ = rng.choice(fitting)
            slots["REASON_CAP"], slots["REASON_E_CAP"] = (
                capitalised(slots["REASON"]),
                capitalised(slots["REASON_E"]),
            )
        slots["DAY"], slots["DAY_E"] = _day(rng)
        slots["DAY_E_CAP"] = capitalised(slots["DAY_E"])
        slots["TIME"], slots["TIME_E"] = _time(rng)
        weekday = rng.randrange(7)
        slots["WEEKDAYS"] = WEEKDAYS_DE[weekday].lower() + "s"
        slots["WEEKDAYS_E"] = f"on {WEEKDAYS_EN[weekday]}s"
        opens, closes = rng.randint(8, 11), rng.randint(15, 20)  # a museum's day
        slots |= {"H1": str(opens), "H1_E": hour_english(opens),
                  "H2": str(closes), "H2_E": hour_english(closes)}  # fmt: skip
        return slots

    frames = read_table(DATA / "transport-frames.tsv", 3)
    return _frame_pairs(n, rng, _nouns("transport.tsv"), frames, extra)


def notice_pairs(n: int, seed: int = 1) -> list[Pair]:
    """``n`` distinct pairs at most: every line of review-lines.tsv, then goods, stays
    and travel drawn alike (the tables with fewer distinct sentences give fewer), in a
    seeded order."""
    rng = random.Random(seed)
    lines = [(de, en) for de, en in read_table(DATA / "review-lines.tsv", 2)]
    made = [*goods_pairs(n, rng), *stay_pairs(n, rng), *travel_pairs(n, rng)]
    rng.shuffle(made)
    return list(dict.fromkeys([*lines, *made]))[:n]


def main(argv: list[str] | None = None) -> int:
    return pairs_command(notice_pairs, __doc__.split("\n\n")[0], 8000, argv)


if __name__ == "__main__":
    sys.exit(main())

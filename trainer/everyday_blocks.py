"""Recipes, device instructions and private messages built from blocks (issue 60).

The bundled model wrote „Den Teig eine Stunde an einem warmen Ort gehen lassen“ as "The
Teig had an hour on a warm place" and „Schrauben Sie zuerst die Rückwand ab“ as "Turn
back first": the infinitive and Sie-imperative of recipes and manuals, with their
separable verbs, are rare in its corpora. Here they come from tables under
``trainer/data/everyday/`` (what is cooked and with what verb; a device's parts and what
one does to them) put into sentence frames, German and English together:

    Die Zwiebeln fein hacken und in Würfel schneiden.  ->  Finely chop the onions and cut them into cubes.
    Nehmen Sie den Deckel vor dem Reinigen ab.          ->  ...

    python -m trainer.everyday_blocks --pairs 8000 --seed 1 > everyday-blocks.tsv

Training data only; scripts/prepare_data.py removes every pair that matches a sentence
of a dev or test set.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass

from trainer.register_corpus import SLOT, capitalised, fill, pairs_command
from trainer.tables import DATA as TABLES
from trainer.tables import read_table

__all__ = ["DATA", "SLOT", "Pair", "block_pairs", "capitalised", "fill", "read_table"]

DATA = TABLES / "everyday"
Pair = tuple[str, str]

# German, English: how long a step takes.
DURATIONS = [
    ("fünf Minuten", "five minutes"),
    ("zehn Minuten", "ten minutes"),
    ("15 Minuten", "15 minutes"),
    ("20 Minuten", "20 minutes"),
    ("eine halbe Stunde", "half an hour"),
    ("eine Stunde", "an hour"),
    ("etwa 30 Minuten", "about 30 minutes"),
    ("zwei bis drei Minuten", "two to three minutes"),
]
SECONDS = [
    ("drei Sekunden", "three seconds"),
    ("fünf Sekunden", "five seconds"),
    ("zehn Sekunden", "ten seconds"),
    ("zwei Sekunden", "two seconds"),
]


def _join(*words: str) -> str:
    return " ".join(w for w in words if w)


@dataclass(frozen=True)
class Verb:
    """A German verb with its separable particle and the words that stand before the
    infinitive („fein“ hacken, „in Würfel“ schneiden)."""

    verb: str
    particle: str
    before: str

    def infinitive(self) -> str:
        """„fein hacken“, „scharf anbraten“."""
        return _join(self.before, self.particle + self.verb)

    def imperative(self, obj: str, middle: str = "") -> str:
        """„Braten Sie das Fleisch zehn Minuten scharf an“."""
        return _join(capitalised(self.verb), "Sie", obj, middle, self.before, self.particle)


# -------------------------------------------------------------------------- recipes
def recipe_slots(rng: random.Random, food: tuple[str, ...], verbs) -> dict[str, str] | None:
    """The slots of the recipe frames for ``food``: two steps with different verbs that
    suit it, and a step that takes a duration (the step itself where none does: no frame
    with a duration is then filled, see :func:`recipe_pairs`); None where the food has no
    two such steps."""
    acc, pronoun, english, en_pronoun, kinds = food
    fitting = [v for v in verbs if set(v[4]) & set(kinds)]
    v1 = rng.choice(fitting)
    others = [v for v in fitting if v[0] != v1[0]]
    if not others:
        return None
    v2 = rng.choice(others)
    timed = [v for v in fitting if v[5] == "t"]
    vt = rng.choice(timed) if timed else None
    verb1, verb2 = Verb(*v1[:3]), Verb(*v2[:3])
    inf = _join(acc, verb1.infinitive())
    imp2 = verb2.imperative(pronoun)
    slots = {
        "INF": capitalised(inf),
        "inf": inf,
        "INF2": verb2.infinitive(),
        "IMP": verb1.imperative(acc),
        "IMP2": imp2[:1].lower() + imp2[1:],
        "E": capitalised(v1[3].format(X=english)),
        "e": v1[3].format(X=english),
        "E2": v2[3].format(X=en_pronoun),
    }
    if vt is not None:
        d_de, d_en = rng.choice(DURATIONS)
        inf_d = _join(acc, d_de, Verb(*vt[:3]).infinitive())
        e_d = vt[3].format(X=english) + f" for {d_en}"
        slots |= {
            "INF_D": capitalised(inf_d),
            "inf_d": inf_d,
            "IMP_D": Verb(*vt[:3]).imperative(acc, d_de),
            "E_D": capitalised(e_d),
            "e_d": e_d,
        }
    return slots


# ---------------------------------------------------------------------- instructions
_ARTICLES = {"m": ("der", "den"), "f": ("die", "die"), "n": ("das", "das"), "p": ("die", "die")}


def part_phrases(rng: random.Random, part: tuple[str, ...]) -> dict[str, str]:
    """A part in the singular or (where it has one) the plural: German nominative and
    accusative, English, and the modal verbs' number."""
    singular, gender, plural, english, english_plural, _kinds = part
    if plural and rng.random() < 0.3:
        return {"NOM": f"die {plural}", "ACC": f"die {plural}", "THE": f"the {english_plural}",
                "MUSS": "müssen", "DARF": "dürfen"}  # fmt: skip
    nom, acc = _ARTICLES[gender]
    return {"NOM": f"{nom} {singular}", "ACC": f"{acc} {singular}", "THE": f"the {english}",
            "MUSS": "muss", "DARF": "darf"}  # fmt: skip


def device_slots(rng: random.Random, part, verb_row) -> dict[str, str]:
    verb = Verb(*verb_row[:3])
    p = part_phrases(rng, part)
    s_de, s_en = rng.choice(SECONDS)
    imp = verb.imperative(p["ACC"])
    english = verb_row[4].format(X=p["THE"])
    return {
        "IMP": imp,
        "imp": imp[:1].lower() + imp[1:],
        "IMP_NOT": verb.imperative(p["ACC"], "nicht"),
        "IMP_D": verb.imperative(p["ACC"], f"{s_de} lang"),
        "NOM": capitalised(p["NOM"]),
        "MUSS": p["MUSS"],
        "DARF": p["DARF"],
        "PP": verb_row[3],
        "E": capitalised(english),
        "e": english,
        "THE": capitalised(p["THE"]),
        "EPP": verb_row[5],
        "DE": s_en,
    }


# ---------------------------------------------------------------------------- pairs
def recipe_pairs(n: int, rng: random.Random) -> Iterator[Pair]:
    foods = read_table(DATA / "foods.tsv", 5)
    verbs = read_table(DATA / "cooking.tsv", 6)
    frames = read_table(DATA / "recipe-frames.tsv", 2)
    made = 0
    while made < n:
        de, en = rng.choice(frames)
        slots = recipe_slots(rng, rng.choice(foods), verbs)
        if slots is None or not set(SLOT.findall(de)) <= set(slots):
            continue
        made += 1
        yield fill(de, slots), fill(en, slots)


def device_pairs(n: int, rng: random.Random) -> Iterator[Pair]:
    parts = read_table(DATA / "parts.tsv", 6)
    verbs = read_table(DATA / "device-verbs.tsv", 7)
    frames = read_table(DATA / "device-frames.tsv", 3)
    made = 0
    while made < n:
        de, en, frame_kinds = rng.choice(frames)
        part = rng.choice(parts)
        kinds = set(part[5]) & set(frame_kinds or part[5])
        fitting = [v for v in verbs if set(v[6]) & kinds]
        if not fitting:
            continue
        slots = device_slots(rng, part, rng.choice(fitting))
        made += 1
        yield fill(de, slots), fill(en, slots)


def _after_comma(text: str, keeps_capital: bool) -> str:
    """A message's start after a comma: „Hallo Anna, gute Besserung!“; English keeps "I"."""
    if keeps_capital or text.startswith(("I ", "I'")):
        return text
    return text[:1].lower() + text[1:]


def message_pairs(n: int, rng: random.Random) -> Iterator[Pair]:
    """Messages to family and friends: each alone, then in frames: to a named person,
    two in a row (emoji
    are carried past the model: candidates.symbol_tail; the bundled model wrote "pale" for „Hab dich lieb“, "Good order" for „Gute
    Besserung“)."""
    messages = read_table(DATA / "messages.tsv", 3)
    frames = read_table(DATA / "message-frames.tsv", 2)
    women = [row[0] for row in read_table(TABLES / "register" / "women.tsv", 1)]
    men = [row[0] for row in read_table(TABLES / "register" / "men.tsv", 1)]
    for de, en, _ in messages[:n]:  # each alone first
        yield de, en
    for _ in range(max(0, n - len(messages))):
        (de, en, noun), (de2, en2, _) = rng.sample(messages, 2)
        woman, man = rng.choice(women), rng.choice(men)
        name = rng.choice((woman, man))
        slots_de = {"M": de, "m": _after_comma(de, noun == "n"), "M2": de2}
        slots_en = {"M": en, "m": _after_comma(en, False), "M2": en2}
        common = {"N": name, "W": woman, "B": man}
        frame_de, frame_en = rng.choice(frames)
        yield fill(frame_de, slots_de | common), fill(frame_en, slots_en | common)


def block_pairs(n: int, seed: int = 1) -> list[Pair]:
    """``n`` distinct pairs at most, from recipes, instructions and messages in equal
    parts, in a seeded order."""
    rng = random.Random(seed)
    pairs = list(
        dict.fromkeys([*recipe_pairs(n, rng), *device_pairs(n, rng), *message_pairs(n, rng)])
    )
    rng.shuffle(pairs)
    return pairs[:n]


def main(argv: list[str] | None = None) -> int:
    return pairs_command(block_pairs, __doc__.split("\n\n")[0], 8000, argv)


if __name__ == "__main__":
    sys.exit(main())

"""Everyday words of letters, forms, shops and services in sentences (issue 46).

The bundled model still guesses at words a user writes every day: „Versandkosten“ came
out as "charges", „Lebenslauf“ as "life", „Störung“ as "deterioration". The Ding
dictionary teaches them as bare words, which a small model does not carry into a
sentence. Here each word comes in the sentences it lives in: things one sends, receives,
checks and pays for (with German nominative and accusative and English number), and
what one asks to do (German infinitive phrases), each in a set of plain templates.

    python -m trainer.register_vocab --pairs 6000 --seed 1 > register-vocab.tsv

Training data only; scripts/prepare_data.py removes every pair that matches a sentence
of a dev or test set, and none of these templates writes a sentence of the register dev
or test set (tests/trainer/test_register_corpus.py).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator

from trainer.register_corpus import capitalised, pairs_command
from trainer.register_tables import WEEKDAYS
from trainer.tables import rows

THINGS = rows("register-vocab", "things")

ACTIONS = rows("register-vocab", "actions")

THING_TEMPLATES = rows("register-vocab", "thing-templates")
ACTION_TEMPLATES = rows("register-vocab", "action-templates")
# Separable prefixes: „abbestellen“ -> „abzubestellen“, „krankmelden“ -> „krankzumelden“.
_SEPARABLE_PREFIXES = (
    "ab", "an", "auf", "aus", "ein", "nach", "um", "zurück", "weiter", "dazu", "krank"
)  # fmt: skip


def zu_infinitive(phrase: str) -> str:
    """„den Newsletter abbestellen“ -> „den Newsletter abzubestellen“; „Urlaub
    beantragen“ -> „Urlaub zu beantragen“; „die Heizung reparieren lassen“ -> „die
    Heizung reparieren zu lassen“."""
    head, _, verb = phrase.rpartition(" ")
    for prefix in _SEPARABLE_PREFIXES:
        if verb.startswith(prefix) and len(verb) > len(prefix) + 3:
            verb = f"{prefix}zu{verb[len(prefix) :]}"
            break
    else:
        verb = f"zu {verb}"
    return f"{head} {verb}".strip()


# The article of a thing, or a possessive in its place: (nominative, accusative, English).
DETERMINERS = {
    "the": {"der": "der", "die": "die", "das": "das", "den": "den", "en": "the"},
    "my": {"der": "mein", "die": "meine", "das": "mein", "den": "meinen", "en": "my"},
    "your": {"der": "Ihr", "die": "Ihre", "das": "Ihr", "den": "Ihren", "en": "your"},
}


def with_determiner(de_nom: str, de_acc: str, en: str, which: str) -> tuple[str, str, str]:
    """„der Lebenslauf“, „den Lebenslauf“, "the CV" with ``which`` ("the", "my",
    "your") as their determiner: „mein Lebenslauf“, „meinen Lebenslauf“, "my CV"."""
    forms = DETERMINERS[which]
    nom_article, nom_rest = de_nom.split(" ", 1)
    acc_article, acc_rest = de_acc.split(" ", 1)
    return (
        f"{forms[nom_article]} {nom_rest}",
        f"{forms[acc_article]} {acc_rest}",
        f"{forms['en']} {en.removeprefix('the ')}",
    )


def vocab_pairs(n: int, seed: int = 1) -> Iterator[tuple[str, str]]:
    """``n`` distinct pairs, two thirds of them about things, a third about actions."""
    rng = random.Random(seed)
    seen: set[tuple[str, str]] = set()
    tries = 0
    while len(seen) < n and tries < n * 20:
        tries += 1
        weekday_de, weekday_en = rng.choice(WEEKDAYS)
        if rng.random() < 2 / 3:
            de_nom, de_acc, en, number, kind = rng.choice(THINGS)
            which = rng.choice(("the", "the", "my", "your"))
            de_nom, de_acc, en = with_determiner(de_nom, de_acc, en, which)
            t_de, t_en = rng.choice([t[1:] for t in THING_TEMPLATES if kind in t[0]])
            plural = number == "p"
            slots = {
                "de": de_nom,
                "acc": de_acc,
                "en": en,
                "ist": "sind" if plural else "ist",
                "wurde": "wurden" if plural else "wurde",
                "stimmt": "stimmen" if plural else "stimmt",
                "is": "are" if plural else "is",
                "was": "were" if plural else "was",
                "has": "have" if plural else "has",
            }
        else:
            de, en = rng.choice(ACTIONS)
            t_de, t_en = rng.choice(ACTION_TEMPLATES)
            slots = {"de": de, "en": en, "zu": zu_infinitive(de)}
        slots |= {"weekday_de": weekday_de, "weekday_en": weekday_en}
        pair = (capitalised(t_de.format(**slots)), capitalised(t_en.format(**slots)))
        if pair not in seen:
            seen.add(pair)
            yield pair


def main(argv: list[str] | None = None) -> int:
    return pairs_command(vocab_pairs, __doc__.split("\n\n")[0], 8000, argv)


if __name__ == "__main__":
    sys.exit(main())

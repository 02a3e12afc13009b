"""Names, places and months that the training augmentation (trainer/augment.py) swaps into
sentence pairs, so the model learns to carry them over unchanged (or to the English
exonym) instead of translating them. The translator protects the listed places and first
names the same way (core/faithful/protect.py).

Surnames lean on the ones that are also German words (Schneider = tailor, Koch = cook,
Richter = judge): exactly the names a model translates by mistake. The bench's own set
(bench/faithful_set.py) also uses names and places that are not listed here, so it can
tell copying that generalises from copying that was memorised.

The lists are data files in resources/lists (README there), read once at import.
"""

from translator_app.core.data.tables import read_table
from translator_app.core.language.words import months
from translator_app.core.platform.paths import resources_dir

LISTS = resources_dir() / "lists"


def _names(name: str) -> list[str]:
    return [row[0] for row in read_table(LISTS / f"{name}.tsv", 1)]


def _pairs(name: str) -> tuple[tuple[str, str], ...]:
    return tuple((de, en) for de, en in read_table(LISTS / f"{name}.tsv", 2))


WORD_SURNAMES = _names("surnames-words")  # also German words: Schneider, Koch, Richter
OTHER_SURNAMES = _names("surnames-other")
FIRST_NAMES = _names("first-names")
# Every first name of the German-speaking countries (Faker's lists, MIT: built by
# scripts/build_first_names.py), for telling a name from a word written alike
GERMAN_FIRST_NAMES = frozenset(_names("german-first-names"))
PLACES = _pairs("places")  # (German, English), many with an English exonym
MORE_PLACES = _pairs("more-places")  # the translator's gazetteer beyond PLACES
MONTHS = months()  # (Januar, January), ...

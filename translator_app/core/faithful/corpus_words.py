"""What the training corpora tell of capitalised German words (issue 60), counted by
scripts/build_word_lists.py into resources/lists (README there):

- ``german-names.tsv``: the capitalised words of the dictionary that the English of their
  pairs keeps (Bayern 30 of 58 pairs): names, or words English writes alike. Every other
  capitalised word of the dictionary is a common noun wherever it stands: the English of
  its pairs says it otherwise (Forscher in none of 106 pairs, König in 3 of 112).
- ``german-noun-english.tsv``: the English of a noun that its pairs say most, where the
  dictionary gives another first („Föderation“: federation, not "federal state").

Both are read once, when first needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from translator_app.core.data.tables import read_table
from translator_app.core.platform.paths import resources_dir

LISTS = resources_dir() / "lists"


@cache
def kept_names() -> frozenset[str]:
    """Capitalised words of the dictionary that the corpora keep in the English."""
    return frozenset(word for word, _, _ in read_table(LISTS / "german-names.tsv", 3))


@cache
def noun_english() -> Mapping[str, str]:
    """Noun -> the English its pairs say most, where not the dictionary's first."""
    return dict(read_table(LISTS / "german-noun-english.tsv", 2))

"""German words the model garbled into the English (issue 60): where it cannot translate a
word it does not always copy it whole. It copies a part and translates another
(„Hustensaft“ -> "Husten juice", „Nachtruhe“ -> "nightruhe", „Brotdose“ -> "breaddose"),
spells the German its English way ("giraffs", "Chineses", "studys"), or stutters through
its pieces („Palliativpflege“ -> "Palliativivivation"). On the dev sets, greedy, such
words stood in 17 of 422 everyday sentences and in about one news sentence in seven.

A word of the English is taken for a garbled German word of the source when it

- stands nowhere in the source (a copy is copied_words.py's) and is no English word (no
  word of any English side of Ding, nor a regular inflection of one: "blinks"),
- begins or ends with the same :data:`MIN_SHARED` letters or more as a word of the source
  (compared case-folded, umlauts and ß spelt out), and
- that source word is a German word of Ding, of :data:`MIN_SOURCE` letters or more, and
  no English word itself.

The dictionary pass (core/engine/dictionary_pass.py) then asks for such a word with the
dictionary's English, as it asks for a copied one.
"""

from __future__ import annotations

import re
import unicodedata

MIN_SHARED = 4  # letters the two words begin or end with alike ("Stab" of „Stabmixer“)
MIN_SOURCE = 5  # „Salbe“ ("salbes"); a shorter word shares its ends with too many others
MIN_OUTPUT = 4
_WORD = re.compile(r"[^\W\d_]+")


def folded(word: str) -> str:
    """``word`` case-folded with its umlauts and ß spelt without marks („Rötung“ ->
    "rotung"): the model's garbles drop the marks as often as they keep them."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def shared_ends(a: str, b: str) -> int:
    """How many letters ``a`` and ``b`` begin or end with alike, the longer of the two."""
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) and a[-1 - end] == b[-1 - end]:
        end += 1
    return max(start, end)


def garbled_sources(lexicon, source: str, output: str) -> tuple[str, ...]:
    """The words of ``source``, as it writes them and in its order, that a word of
    ``output`` garbles (see the module's description); ``lexicon``: German and English
    words (copied_words.Lexicon)."""
    source_words = _WORD.findall(source)
    written = {folded(w) for w in source_words}
    candidates = [
        (w, folded(w))
        for w in dict.fromkeys(source_words)
        if len(w) >= MIN_SOURCE and lexicon.is_german_word(w) and not lexicon.is_english_word(w)
    ]
    if not candidates:
        return ()
    found: dict[str, None] = {}
    # an English verb or plural ("blinks" beside „blinkt“) is no garble
    is_english = getattr(lexicon, "is_english_form", lexicon.is_english_word)
    for word in _WORD.findall(output):
        key = folded(word)
        if len(word) < MIN_OUTPUT or key in written or is_english(word):
            continue
        for german, german_key in candidates:
            if shared_ends(key, german_key) >= MIN_SHARED:
                found[german] = None
                break
    return tuple(w for w in dict.fromkeys(source_words) if w in found)

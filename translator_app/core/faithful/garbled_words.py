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
  (compared case-folded, umlauts and ß spelt out), or begins with its letter and is as
  like it as :data:`MIN_LIKENESS` (difflib's ratio: „Königin“ -> "kingin" 0.77, „Allergien“
  -> "Allgis" 0.67, „Physikern“ -> "pysikers" 0.82; on 1,544 sentences of the everyday,
  register and news dev sets the likeness found 18 words more, each a garble; on 800
  sentences of newstest2013 not looked at before, 22 more, 13 of them gone after the
  dictionary pass), and
- that source word is a German word of Ding, of :data:`MIN_SOURCE` letters or more, and
  no English word itself.

Many garbles share no letters with their German: "splunching" for „spülmaschinenfest“,
"Craining waste" for „Sperrmüll“, "unreasy" for „unzugänglich“. The model's attention
tells where they came from (:func:`garbled_by_attention`): a word of the English that is
no English word and stands nowhere in the source is taken for a garble of the German
word it attends to most, where that attention is :data:`MIN_ATTENTION` or more and
:data:`ATTENTION_MARGIN` times any other German word's. On the everyday dev set (v23,
greedy, after the app's passes) 20 of 422 English sentences held such a word; the
likeness found one of them; the attention named a German word for 16, 15 of them the
right one (one also found by the likeness) and one wrong ("twice a dayly thinly": „dünn“
for „täglich“), and none for the other four, whose attention was spread.

The dictionary pass (core/postedit/dictionary_words.py) then asks for such a word with the
dictionary's English, as it asks for a copied one.
"""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher

MIN_SHARED = 4  # letters the two words begin or end with alike ("Stab" of „Stabmixer“)
MIN_SOURCE = 5  # „Salbe“ ("salbes"); a shorter word shares its ends with too many others
MIN_OUTPUT = 4
MIN_LIKENESS = 0.6
MIN_ATTENTION = 0.3  # of a garbled word's attention, on one German word
ATTENTION_MARGIN = 1.5  # ... and that many times as much as on any other
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


def garbles_word(key: str, german_key: str) -> bool:
    """Whether the English word ``key`` reads as a garble of the German ``german_key``
    (both :func:`folded`)."""
    if shared_ends(key, german_key) >= MIN_SHARED:
        return True
    return (
        key[:1] == german_key[:1] and SequenceMatcher(None, key, german_key).ratio() >= MIN_LIKENESS
    )


def garbled_sources(lexicon, source: str, output: str) -> tuple[str, ...]:
    """The words of ``source``, as it writes them and in its order, that a word of
    ``output`` garbles (see the module's description); ``lexicon``: German and English
    words (copied_words.Lexicon), and where it can look a word up (the dictionary), a
    compound it knows by its last part counts as German too („Tagesticket“: "dayicket")."""
    return _garbled_by_letters(lexicon, source, odd_words(lexicon, source, output))


def _garbled_by_letters(lexicon, source: str, odd: list[str]) -> tuple[str, ...]:
    """:func:`garbled_sources` of the :func:`odd_words` ``odd`` of an English."""
    source_words = _WORD.findall(source)
    garbles = [folded(word) for word in odd]
    if not garbles:  # the usual English: no German word need be looked at
        return ()
    candidates = [
        (german, german_key)
        for german, german_key in ((w, folded(w)) for w in dict.fromkeys(source_words))
        if len(german) >= MIN_SOURCE
        and any(garbles_word(key, german_key) for key in garbles)
        and _is_german(lexicon, german)
    ]
    # each garble is of one word, the likest ("batterys": „Batterien“, not „Batteriefach“)
    found = set()
    for key in garbles:
        like = [(_likeness(key, k), german) for german, k in candidates if garbles_word(key, k)]
        if like:
            found.add(max(like)[1])
    found = [german for german, _ in candidates if german in found]
    return tuple(found)


def garbled_by_attention(lexicon, t) -> tuple[str, ...]:
    """The words of translation ``t``'s source, as it writes them and in its order, that
    a word of its best English garbles: :func:`garbled_sources`'s, and those a word that
    is no English word and stands nowhere in the source attends to most (see the
    module's description)."""
    odd = odd_words(lexicon, t.source, t.text)
    found = set(_garbled_by_letters(lexicon, t.source, odd))
    if odd:
        words = t.words()
        for english, row in zip(words.english, words.attention, strict=True):
            if len(row) and set(odd).intersection(_WORD.findall(english)):
                german = _attended(words.german, row)
                if german is not None and german not in found and _is_german(lexicon, german):
                    found.add(german)
    return tuple(w for w in dict.fromkeys(_WORD.findall(t.source)) if w in found)


def _attended(german: tuple[str, ...], row) -> str | None:
    """The German word (of :data:`MIN_SOURCE` letters or more) that ``row``'s attention
    rests on, as :data:`MIN_ATTENTION` and :data:`ATTENTION_MARGIN` say; None where it
    rests on none so."""
    order = sorted(range(len(row)), key=lambda g: -float(row[g]))
    first = float(row[order[0]])
    second = float(row[order[1]]) if len(order) > 1 else 0.0
    word = german[order[0]]
    if first < MIN_ATTENTION or first < ATTENTION_MARGIN * second:
        return None
    return word if _WORD.fullmatch(word) and len(word) >= MIN_SOURCE else None


def odd_words(lexicon, source: str, output: str) -> list[str]:
    """The words of ``output`` of :data:`MIN_OUTPUT` letters or more that stand nowhere
    in ``source`` (case, umlauts and ß aside) and are no English word, nor a regular
    inflection of one ("blinks" beside „blinkt“ is no garble)."""
    written = {folded(w) for w in _WORD.findall(source)}
    is_english = getattr(lexicon, "is_english_form", lexicon.is_english_word)
    return [
        word
        for word in dict.fromkeys(_WORD.findall(output))
        if len(word) >= MIN_OUTPUT and folded(word) not in written and not is_english(word)
    ]


def _likeness(key: str, german_key: str) -> tuple[int, float]:
    """How alike two folded words are: the letters their ends share, then difflib's ratio."""
    return shared_ends(key, german_key), SequenceMatcher(None, key, german_key).ratio()


def _is_german(lexicon, word: str) -> bool:
    """Whether ``word`` is a German word of ``lexicon`` and no English one, or a
    compound whose last part it knows (where it can look words up)."""
    if lexicon.is_english_word(word):
        return False
    if lexicon.is_german_word(word):
        return True
    lookup = getattr(lexicon, "lookup", None)
    return lookup is not None and word[:1].isupper() and lookup(word).compound is not None

"""Numbers said in words, read as values in both languages (issue 61, section 1), and the
noun a number counts.

German writes a number as one word of any length („zweihundertvierzig“,
„fünfundsechzigtausend“, „eineinhalbtausend“) and fractions as words („anderthalb“,
„zweieinhalb“, „dreiviertel“, „zwei Drittel“, „die Hälfte“); English as a phrase ("two
hundred and forty", "sixty-five thousand", "one and a half", "two thirds"). Each side is
read into values, so that „zweihundertvierzig“ is kept by "240" and by "two hundred and
forty" and lost by "two hundred".

A counted noun („250 Gramm Mehl“, „drei Schrauben“) is a fact too: the English must say
something after the number and its measure ("250 grams of flour"), not stop at it ("250
grams"). Which noun it says is the model's and the dropped-words check's business.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

from translator_app.core.faithful.number_check import (
    DE_SCALE_WORDS,
    EN_SCALE_OF,
    MONTHS_DE,
    WEEKDAYS_DE,
    de_scale,
)
from translator_app.core.language.english import english_plural
from translator_app.core.language.words import (
    alternation,
    english_measures,
    english_number_words,
    english_words,
    german_measures,
    german_number_words,
    german_words,
    units,
)

# ------------------------------------------------------------------ German, one word
_DE_UNITS = german_number_words("unit")  # ein … neun, inside a compound
_DE_ALONE = german_number_words("alone")  # eins … neunzehn
_DE_TENS = german_number_words("tens")
_DE_FRACTION_WORDS = german_number_words("fraction")  # anderthalb, dreiviertel
# Fractions of two words: „zwei Drittel“, „ein Viertel“, „die Hälfte“.
_DE_PARTS = german_number_words("part")
# the count before a part: a form of „ein“, or zwei … neun („drei Viertel“, „fünf Achtel“)
_DE_PARTS_COUNT = dict.fromkeys(german_words("one"), 1) | {
    w: v for w, v in _DE_ALONE.items() if 2 <= v <= 9
}
_DE_PARTS_RE = re.compile(
    rf"(?<![\w-])(?:(?P<n>{alternation(_DE_PARTS_COUNT)})\s+(?P<part>{'|'.join(_DE_PARTS)})"
    rf"|(?P<half>(?:{alternation(german_words('before-half'))})\s+Hälfte))(?![\w-])"
    # a part of something: „ein Viertel der Plätze“, „zwei Drittel aller“ („ein Viertel
    # mit Altbauten“ is a quarter of a town)
    rf"(?=\s+(?:{alternation(german_words('after-a-part'))}|[A-ZÄÖÜ])|\s*[.,;:!?]|$)",
    re.IGNORECASE,
)
# A number word before a scale word is one number: „zwei Millionen“ 2,000,000, „eine
# Million“, „anderthalb Milliarden“ (number_check.py reads „2 Millionen“).
_DE_SCALED = re.compile(rf"(?<![\w-])(?P<count>[a-zA-ZäöüÄÖÜß]+)\s+(?P<scale>{DE_SCALE_WORDS})")
_DE_ONE = frozenset(german_words("one"))
_DE_SOME = frozenset(german_words("some"))
_DE_WORD = re.compile(r"(?<![\w-])[a-zA-ZäöüÄÖÜß]+(?![\w-])")
_IN_THE_TABLE = frozenset(["ein", "hundert", "tausend", *_DE_TENS])
# Where a German number word of more than one part may stand (its value is
# german_number_word's): „dreizehn“, „zweihundertvierzig“, „zweieinhalb“, „anderthalb“.
COMPOUND = r"[a-zäöüß]+(?:zig|ßig|hundert|tausend|einhalb)|[a-zäöüß]*zehn|anderthalb|dreiviertel"


def _below100(s: str) -> int | None:
    if s in _DE_ALONE:
        return _DE_ALONE[s]
    if s in _DE_TENS:
        return _DE_TENS[s]
    unit, und, tens = s.partition("und")
    if und and unit in _DE_UNITS and tens in _DE_TENS:
        return _DE_UNITS[unit] + _DE_TENS[tens]  # „einundzwanzig“
    return None


def _below1000(s: str) -> int | None:
    head, hundred, tail = s.partition("hundert")
    if not hundred:
        return _below100(s)
    count = 1 if head in ("", "ein") else _below100(head)  # „elfhundert“ too
    rest = 0 if not tail else _below100(tail.removeprefix("und"))
    return None if count is None or rest is None else count * 100 + rest


def _with_half(s: str) -> Fraction | None:
    """„zweieinhalb“ 2.5, „eineinhalb“ 1.5, „anderthalb“ 1.5, or a whole number."""
    if s in _DE_FRACTION_WORDS:
        return _DE_FRACTION_WORDS[s]
    if s.endswith("einhalb"):
        head = s.removesuffix("einhalb")
        whole = 1 if head == "ein" else _below1000(head)
        return None if whole is None else whole + Fraction(1, 2)
    whole = _below1000(s)
    return None if whole is None else Fraction(whole)


def german_number_word(word: str) -> Fraction | None:
    """The value of one German number word of any length below a million, or None:
    „zweihundertvierzig“ 240, „neunzigtausend“ 90000, „eineinhalbtausend“ 1500."""
    s = word.lower()
    head, thousand, tail = s.partition("tausend")
    if not thousand:
        return _with_half(s)
    count = Fraction(1) if head in ("", "ein") else _with_half(head)
    rest = 0 if not tail else _below1000(tail.removeprefix("und"))
    return None if count is None or rest is None else count * 1000 + rest


def german_numbers(text: str) -> list[tuple[int, int, Fraction]]:
    """(start, end, value) of each number said in words in a German text that the
    single-word table of fact_words.py does not hold: the teens, compounds, fractions,
    fractions of two words and a number word with a scale word („zwei Millionen“). „ein“, „eins“ and the simple words (zwei … zwölf,
    zwanzig …) are left to it; „halb“ too (a clock time there)."""
    found = []
    for m in _DE_WORD.finditer(text):
        word = m.group().lower()
        if word in _IN_THE_TABLE or _DE_ALONE.get(word, 13) <= 12:
            continue  # fact_words.NUMBER_WORDS_DE checks these (not the teens)
        value = german_number_word(word)
        if value is not None:
            found.append((m.start(), m.end(), value))
    for m in _DE_SCALED.finditer(text):
        word = m["count"].lower()
        before = text[: m.start()].split()[-1:]
        if before and before[0].lower() in _DE_SOME:
            continue  # „mehrere Hundert Millionen“: hundreds of millions, no number
        count = Fraction(1) if word in _DE_ONE else german_number_word(word)
        if count is not None:
            found.append((m.start(), m.end(), count * de_scale(m["scale"])))
    for m in _DE_PARTS_RE.finditer(text):
        if m["half"]:
            value = Fraction(1, 2)
        else:
            value = _DE_PARTS_COUNT[m["n"].lower()] * _DE_PARTS[m["part"].title()]
        found.append((m.start(), m.end(), value))
    return sorted(found)


def value_key(value: Fraction) -> str:
    """A number's key as number_check.py writes it: n240, n1.5, n0.333333."""
    if value.denominator == 1:
        return f"n{value.numerator}"
    return f"n{float(value):g}"


def english_value(value: Fraction) -> str:
    """How the English may write it, for the mark's tooltip: 240, 1.5, 2/3, 2.5 million."""
    for scale in sorted(EN_SCALE_OF, reverse=True):
        if scale >= 10**6 and value >= scale and (value * 10 / scale).denominator == 1:
            return f"{float(value / scale):g} {EN_SCALE_OF[scale]}"
    if value.denominator == 1:
        return f"{value.numerator:,}"
    return f"{float(value):g}" if value.denominator in (2, 4, 5) else str(value)


# ------------------------------------------------------------------ English, a phrase
_EN_SMALL = {w: v for w, v in english_number_words("cardinal").items() if v < 20}
_EN_TENS = english_number_words("tens")
_EN_SCALES = {"hundred": 100} | {name: value for value, name in EN_SCALE_OF.items()}
_EN_PARTS = english_number_words("part")  # half, thirds, quarter …
_EN_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[A-Za-z]+")
# "an hour and a half", "a year and a half": one and a half of the unit named.
_EN_ONE_AND_A_HALF = re.compile(r"\ban?\s+[a-z]+\s+and\s+a\s+half\b", re.IGNORECASE)


def english_numbers(text: str) -> list[tuple[int, int, Fraction]]:
    """(start, end, value) of each number phrase of two words or more in an English text
    ("two hundred and forty", "sixty-five thousand", "one and a half", "two thirds", "a
    dozen"); single words and digits are number_check.py's."""
    tokens = [(m.start(), m.end(), m.group().lower()) for m in _EN_TOKEN.finditer(text)]
    found = [(m.start(), m.end(), Fraction(3, 2)) for m in _EN_ONE_AND_A_HALF.finditer(text)]
    i = 0
    while i < len(tokens):
        end, value = _phrase(tokens, i)
        if end - i >= 2 and value is not None:
            found.append((tokens[i][0], tokens[end - 1][1], value))
            i = end
        else:
            i += 1
    return sorted(found)


def _phrase(tokens: list[tuple[int, int, str]], i: int) -> tuple[int, Fraction | None]:
    """The number phrase starting at token ``i``: (the index after it, its value)."""
    total, current, seen, j = Fraction(0), Fraction(0), False, i
    parted = False  # after "half", "thirds": only a scale may follow ("… a half thousand")
    while j < len(tokens):
        word = tokens[j][2]
        after = tokens[j + 1][2] if j + 1 < len(tokens) else ""
        if parted and word not in _EN_SCALES:
            break
        if word in _EN_SMALL or word in _EN_TENS:
            current += _EN_SMALL.get(word, _EN_TENS.get(word, 0))
        elif word in ("a", "an") and after in (*_EN_SCALES, *_EN_PARTS, "dozen") and not seen:
            current = Fraction(1)
        elif word in _EN_SCALES and (seen or tokens[j - 1][2] in ("a", "an")):
            if word == "hundred":
                current = (current or 1) * 100
            else:
                total, current = total + (current or 1) * _EN_SCALES[word], Fraction(0)
        elif word == "dozen" and j > i:
            current = (current or 1) * 12
        elif word in _EN_PARTS and j > i:
            current, parted = (current or 1) * _EN_PARTS[word], True
        elif word == "and" and seen and after in (*_EN_SMALL, *_EN_TENS, "a"):
            if after == "a":  # "one and a half"
                if j + 2 < len(tokens) and tokens[j + 2][2] in _EN_PARTS:
                    current += _EN_PARTS[tokens[j + 2][2]]
                    j, parted = j + 3, True
                    continue
                break
        else:
            break
        seen = seen or word not in ("a", "an", "and")
        j += 1
    return j, (total + current if seen or j > i + 1 else None)


def english_number_keys(text: str) -> Counter:
    """The keys of the English number phrases (see :func:`english_numbers`)."""
    return Counter(value_key(v) for _, _, v in english_numbers(text))


# ------------------------------------------------------------------ counted nouns
# What a number measures a noun in: „250 Gramm Mehl“, „zwei Esslöffel Zucker“.
_DE_MEASURES = alternation(german_measures())
# Nouns after a number that are its unit, a time or a date, not a counted thing: the unit
# facts (fact_words.UNITS) and the clock have their own checks.
_DE_NOT_COUNTED = alternation(
    [form for unit in units() for form in unit.german if form[:1].isupper()]
    + [w.capitalize() for w, v in german_number_words("scale", "large-scale", "dozen").items()]
    + MONTHS_DE
    + WEEKDAYS_DE
    + list(german_words("not-counted"))
)
_DE_COUNT = (  # a year („2010 Selbstmord“: "suicide in 2010") counts nothing
    # thousands grouped by a space, as number_check.DE_NUMBER reads them („12 000
    # Fahrzeuge“: 12,000, not the „000“ of its last group)
    r"[1-9]\d{0,2}(?:[ \u00a0\u202f]\d{3})+(?![ \u00a0\u202f]?\d)"
    rf"|(?!(?:1[89]|20)\d\d\b)\d+(?:[.,]\d+)?(?![.\d])|{COMPOUND}"
    rf"|{alternation(w for w, v in _DE_ALONE.items() if 2 <= v <= 12)}"
)
_DE_COUNTED = re.compile(
    rf"(?<![\w.,-])(?:(?P<one>[Ee]in(?:en|e|em|es)?)\s+(?P<half>halbe[nmrs]?\s+)?(?=(?:{_DE_MEASURES})\s)"
    rf"|(?P<n>{_DE_COUNT})\s+)"
    rf"(?:(?P<measure>{_DE_MEASURES})\s+)?"
    rf"(?!(?:{_DE_NOT_COUNTED}|{_DE_MEASURES})\b)(?P<noun>[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ]?[a-zäöüß]+)*)\b"
)


def german_counted(text: str, measured: bool = False) -> list[tuple[int, int, Fraction]]:
    """(start, end, value) of each noun a number counts, the span the noun's: „Mehl“ of
    „250 Gramm Mehl“, „Schrauben“ of „drei Schrauben“, „Brühe“ of „einen Liter Brühe“
    (an article counts only before a measure); with ``measured``, the span of the
    measure and the noun („Prise Salz“ of „eine Prise Salz“: what an English that says
    "a priest salt" fails to say is the measure, not the salt)."""
    found = []
    for m in _DE_COUNTED.finditer(text):
        value = Fraction(1, 2 if m["half"] else 1) if m["one"] else _de_count(m["n"])
        if value == 1 and not m["measure"]:
            continue  # „1 Hund“ is "a dog": English says one thing with an article
        if value is not None:
            start = m.start("measure") if measured and m["measure"] else m.start("noun")
            found.append((start, m.end("noun"), value))
    return found


def german_counted_nouns(text: str) -> set[str]:
    """The nouns of ``text`` a number counts, as written (:func:`german_counted`)."""
    return {text[start:end] for start, end, _ in german_counted(text)}


def german_counted_many(text: str) -> set[str]:
    """The nouns of ``text`` a number above one counts with no measure between („30
    Tabletten“, „zehn Dübel“, not „200 Gramm Zucker“): their English is a plural, whatever
    the German's form („Dübel“ is singular and plural)."""
    return {
        m["noun"]
        for m in _DE_COUNTED.finditer(text)
        if m["n"] and not m["measure"] and (_de_count(m["n"]) or 0) > 1
    }


def _de_count(word: str) -> Fraction | None:
    if word[0].isdigit():
        grouped = re.sub(r"[ \u00a0\u202f]", "", word)
        return Fraction(grouped.replace(".", "").replace(",", "."))
    simple = _DE_ALONE.get(word) or _DE_TENS.get(word)
    return Fraction(simple) if simple else german_number_word(word)


# A measure's English, and "of" after it ("200 grams of sugar").
_EN_MEASURES = english_measures() | {"of"}
# What may follow a number without being the thing it counts.
_EN_NOT_NOUNS = frozenset(english_words("after-number"))
_EN_WORD_VALUES = {**_EN_SMALL, **_EN_TENS}


def english_counted_keys(text: str) -> Counter:
    """Keys ``c:`` + the number's key for each number in an English text that is followed,
    after its measure ("grams of"), by a word that can be the thing counted."""
    keys: Counter = Counter()
    for value, _, counted in _english_counts(text):
        if counted:
            keys["c:" + value_key(value)] += 1
    return keys


def english_bare_measures(text: str) -> list[tuple[int, bool]]:
    """(end offset, ends with "of") of each number and measure in an English text that no
    counted thing follows ("Put 400 grams in the pan.": after "grams"): where the noun
    the model left out belongs („400 Gramm Tomaten“)."""
    return [(end, of) for _, (end, of), counted in _english_counts(text) if not counted and end]


def measure_mends(text: str) -> list[tuple[int, int, str]]:
    """(start, end, English) of each measure after a number above one that English
    writes otherwise: in the plural and with "of" before the thing counted ("Put 200
    gram sugar" -> "200 grams of sugar", "two tablespoon of honey" -> "two tablespoons
    of honey", "200 grams rice" -> "200 grams of rice"). Not after an article ("a 500
    gram pack" is right), nor for a short form ("200 ml cream")."""
    tokens = [(m.start(), m.end(), m.group()) for m in _EN_TOKEN.finditer(text)]
    lowered = [(a, b, w.lower()) for a, b, w in tokens]  # as _english_count reads them
    mends = []
    for i, (start, end, word) in enumerate(tokens[1:], 1):
        lower = "litre" if word.lower() == "liter" else word.lower()  # the German's spelling
        before = tokens[i - 1][2].lower()
        after = tokens[i + 1][2].lower() if i + 1 < len(tokens) else ""
        _, value = _english_count(lowered, i - 1)
        if (
            value is None
            or value <= 1
            or lower not in _EN_MEASURES
            or lower in _NOT_MENDED
            or len(lower) < 3
            or (i >= 2 and tokens[i - 2][2].lower() in ("a", "an", "the"))
            or not _adjacent(text, tokens, i)
            or before in ("a", "an")
        ):
            continue
        plural = _measure_plural(lower)
        # a space alone between ("70,000 pieces - currently" is no "pieces of currently")
        noun_next = bool(after) and text[end : tokens[i + 1][0]] == " " and _can_be_noun(after)
        noun_next = noun_next and after != "of"
        if plural == lower and not noun_next:
            continue  # "200 grams of …", "200 grams in the pan" (a noun left out: elsewhere)
        said = plural + (" of" if noun_next else "")
        if said != text[start:end].lower():
            mends.append((start, end, said))
    return mends


# Measures English writes either way after a number: currencies ("5 euro cents", "a 2
# euro coin", "five pound notes"), and "of" (no measure of its own).
_NOT_MENDED = frozenset(english_words("measure-either-way"))


def _measure_plural(word: str) -> str:
    """The plural of a measure word of :data:`_EN_MEASURES` (it is its own plural if
    it has none there)."""
    if word.endswith("s") and word in _EN_MEASURES:
        return word
    plural = english_plural(word)
    return plural if plural in _EN_MEASURES else word


def _english_counts(text: str):
    """(value, (end of its measures or 0 where it has none, whether they end with "of"),
    whether a word that can be the thing counted follows) of each number of ``text``."""
    tokens = [(m.start(), m.end(), m.group().lower()) for m in _EN_TOKEN.finditer(text)]
    i = 0
    while i < len(tokens):
        end, value = _english_count(tokens, i)
        if value is None:
            i += 1
            continue
        j = end
        while j < len(tokens) and tokens[j][2] in _EN_MEASURES and _adjacent(text, tokens, j):
            j += 1
        measures = (tokens[j - 1][1], tokens[j - 1][2] == "of") if j > end else (0, False)
        counted = j < len(tokens) and _adjacent(text, tokens, j) and _can_be_noun(tokens[j][2])
        yield value, measures, counted
        i = end


def _english_count(tokens: list[tuple[int, int, str]], i: int) -> tuple[int, Fraction | None]:
    """A number at token ``i``: digits, a word, a phrase, or "a"/"an" before a measure."""
    word = tokens[i][2]
    if word[0].isdigit():
        try:
            return i + 1, Fraction(word.replace(",", ""))
        except ValueError:
            return i + 1, None
    end, value = _phrase(tokens, i)
    if end - i >= 2 and value is not None:
        return end, value
    if word in _EN_WORD_VALUES:
        return i + 1, Fraction(_EN_WORD_VALUES[word])
    after = tokens[i + 1][2] if i + 1 < len(tokens) else ""
    if word in ("a", "an") and after in _EN_MEASURES and after != "of":
        return i + 1, Fraction(1)
    if word == "half" and after in ("a", "an"):  # "half a kilo of …": „ein halbes Kilo“
        return i + 2, Fraction(1, 2)
    return i + 1, None


def _adjacent(text: str, tokens: list[tuple[int, int, str]], j: int) -> bool:
    """Token ``j`` follows the one before it with only spaces or a hyphen between."""
    between = text[tokens[j - 1][1] : tokens[j][0]]
    return not between.strip(" -\u00a0")


def _can_be_noun(word: str) -> bool:
    return word.isalpha() and word not in _EN_NOT_NOUNS and word not in _EN_WORD_VALUES

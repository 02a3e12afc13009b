"""English word forms (core/language/english.py): a word's plural, and where an English
text says a phrase, found the same with the alternatives tried only where their letters
stand as with the whole alternation compiled."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from translator_app.core.language.english import (
    english_plural,
    englishes_pattern,
    find_target,
    target_matches,
)

# Phrases and texts drawn from a small alphabet, so that they meet often; the letters
# re.IGNORECASE takes for i and s (İ, ı, ſ), a Kelvin sign, a hyphen, an apostrophe
# and a non-ASCII letter among them.
_LETTERS = "aeisyk" + "İıſKé" + " -'"
_PHRASE = st.text(alphabet="aeisyk é", min_size=1, max_size=6).map(str.strip).filter(bool)


# A phrase as a text may write it: in capitals, with the letters re.IGNORECASE takes for
# i and s, with an ending.
_WRITTEN = {"i": "İı", "s": "ſS", "k": "K"}


@st.composite
def _texts(draw, phrases):
    """A text of some of ``phrases`` (as written, or with letters swapped for ones
    re.IGNORECASE takes for them), endings and other letters, between separators."""
    parts = []
    for _ in range(draw(st.integers(0, 6))):
        if phrases and draw(st.booleans()):
            phrase = draw(st.sampled_from(phrases))
            phrase = "".join(draw(st.sampled_from(c + _WRITTEN.get(c, c.upper()))) for c in phrase)
            parts.append(phrase + draw(st.sampled_from(["", "s", "es", "ies", "ed", "'s"])))
        else:
            parts.append(draw(st.text(alphabet=_LETTERS, max_size=5)))
    return draw(st.sampled_from([" ", "-", ", "])).join(parts)


@settings(max_examples=400, deadline=None)
@given(st.data(), st.lists(_PHRASE, max_size=4), st.lists(_PHRASE, max_size=3))
def test_a_pattern_finds_what_its_whole_alternation_finds(data, englishes, verbs):
    text = data.draw(_texts(englishes + verbs))
    said = englishes_pattern(englishes, verbs)
    whole = said.full()
    found, expected = said.search(text), whole.search(text)
    assert (found and found.span()) == (expected and expected.span())
    assert [m.span() for m in said.finditer(text)] == [m.span() for m in whole.finditer(text)]


def test_a_pattern_is_compiled_only_for_the_senses_a_text_holds():
    said = englishes_pattern(["large city", "town", "metropolis"], ["deliver"])
    assert said.search("Rents rise in LARGE CITIES.").group() == "LARGE CITIES"
    assert said.search("It was delivered.").group() == "delivered"
    assert said.search("the largests") is None
    assert said._compiled("nothing here") is None


def test_an_english_plural_follows_the_table_of_irregular_plurals():
    assert [english_plural(w) for w in ("loaf", "roof", "tomato", "photo")] == [
        "loaves",
        "roofs",
        "tomatoes",
        "photos",
    ]
    assert english_plural("German") == "Germans" and english_plural("craftsman") == "craftsmen"
    assert english_plural("delivery note") == "delivery notes"


def test_a_term_is_found_with_its_plural_and_possessive_not_inside_another_word():
    assert find_target("pot", "a potato") is None
    assert [m.group() for m in target_matches("pot", "a pot, two pots, the pot's lid")] == [
        "pot",
        "pots",
        "pot's",
    ]

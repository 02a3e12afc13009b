"""Invisible format characters are not given to the model (issue 86 §1): a soft hyphen
kept „Hun\u00adger“ from being translated, a zero-width space turned „Hunger“ into
"hurn", and a right-to-left override was carried into the English unclosed, so that
the rest of the line displayed reversed. The model reads the text without them; the
spans still point into the user's text."""

from __future__ import annotations

import pytest

from translator_app.core.faithful.umlauts import spelled_as_german
from translator_app.core.text.clean import without_invisible

SHY, ZWSP, RLO, PDF, ZWJ = "\u00ad", "\u200b", "\u202e", "\u202c", "\u200d"


@pytest.mark.parametrize(
    ("text", "read"),
    [
        (f"Hun{SHY}ger", "Hunger"),
        (f"Ich habe{ZWSP} Hunger.", "Ich habe Hunger."),
        (f"{RLO}Hallo{PDF} Welt", "Hallo Welt"),
        ("\ufeffGuten Morgen", "Guten Morgen"),
        (f"👨{ZWJ}👩{ZWJ}👧 Familie", f"👨{ZWJ}👩{ZWJ}👧 Familie"),  # the joiner of an emoji
    ],
)
def test_invisible_characters_are_left_out_and_each_character_keeps_its_place(text, read):
    got = without_invisible(text)
    if read == text:
        assert got is None
        return
    shown, origins = got
    assert shown == read and len(origins) == len(read) + 1 and origins[-1] == len(text)
    assert all(text[origins[i]] == ch for i, ch in enumerate(read))


def test_the_read_form_composes_them_with_umlauts_restored():
    """„Schluessel fuer die Tuer“ with a soft hyphen: the umlauts are restored in the
    visible text, and every character still points at its place in the user's."""
    text = f"Ich habe den Schlues{SHY}sel fuer die Tuer vergessen."
    read, origins = spelled_as_german(text)
    assert read == "Ich habe den Schlüssel für die Tür vergessen."
    start = read.index("Schlüssel")
    assert text[origins[start] : origins[start + len("Schlüssel")]] == f"Schlues{SHY}sel"


@pytest.mark.parametrize(
    "typed",
    [f"Ich habe Hun{SHY}ger.", f"Ich habe{ZWSP} Hun{ZWSP}ger.", f"{RLO}Ich habe Hunger.{PDF}"],
)
def test_the_bundled_model_translates_the_text_as_if_they_were_not_there(translator, typed):
    t = translator.translate([typed])[0]
    assert t.text == translator.translate(["Ich habe Hunger."])[0].text
    assert RLO not in t.text and SHY not in t.text and ZWSP not in t.text
    assert all(0 <= a <= b <= len(typed) for a, b in t.source_spans)
    words = t.words().german
    assert any("Hun" in w for w in words)

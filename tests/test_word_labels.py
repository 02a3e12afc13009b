"""What the word menu calls a choice (no Qt): whole words, never pieces, and a part of
the sentence short enough for the screen."""

from __future__ import annotations

import pytest

from translator_app.gui.linking import excerpt, word_at

SENTENCE = "On March 14 March 2024 we're celebrating my grandmother's birthday."


@pytest.mark.parametrize(
    "piece, word",
    [
        (" ", "celebrating"),  # a word-start mark alone: the word after it
        ("'", "we're"),  # an apostrophe inside a word: the word
        ("cele", "celebrating"),
        (".", "."),  # punctuation is its own choice
    ],
)
def test_a_piece_is_named_by_its_word(piece, word):
    at = {" ": SENTENCE.index(" celebrating"), "'": SENTENCE.index("'re")}.get(
        piece, SENTENCE.find(piece)
    )
    assert word_at(SENTENCE, at, at + len(piece)) == word


def test_the_excerpt_starts_near_the_choice_and_fits():
    long = "Zu Beginn " * 6 + SENTENCE
    shown = excerpt(long, long.index("celebrating"), before=12, width=40)
    assert shown.startswith("…") and shown.endswith("…") and len(shown) <= 42
    assert "celebrating" in shown and " we're" in shown
    assert excerpt("Short one.", 0) == "Short one."

"""Hovering a word in the real window lights up whole words on the other side (issue 61
§5): „spätestens“ underlined whole, not its piece „est“; never the "y" of "delivery"."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from conftest import translate_in  # noqa: E402
from translator_app.gui.views.linking import link_from_output, link_from_source  # noqa: E402

SENTENCE = "Der Antrag muss spätestens zwei Wochen vor der Lieferung eingereicht werden."


def _whole_words(text: str, ranges) -> bool:
    return all(
        text[s:e].strip() == text[s:e]
        and (s == 0 or not text[s - 1].isalnum())
        and (e == len(text) or not text[e].isalnum())
        for s, e, *_ in ranges
    )


def test_links_are_whole_words_both_ways_with_the_bundled_model(qtbot, real_window):
    w = real_window
    translate_in(qtbot, w, SENTENCE)
    shown = w.highlighter.shown
    inside = SENTENCE.index("spätestens") + 4  # on „est“
    link = link_from_source(shown, inside)
    assert shown.source[link.own[0] : link.own[1]] == "spätestens"
    assert link.ranges and _whole_words(shown.output, link.ranges)
    for pos in range(len(shown.output)):
        back = link_from_output(shown, pos)
        if back is None:
            continue
        own = shown.output[back.own[0] : back.own[1]]
        if any(c.isalnum() for c in own):  # a full stop hovered is underlined as it is
            assert _whole_words(shown.output, [back.own]), own
        assert _whole_words(shown.source, back.ranges)

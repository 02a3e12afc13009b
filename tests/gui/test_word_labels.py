"""What the word menu calls a choice (no Qt): whole words, never pieces, and a part of
the sentence short enough for the screen."""

from __future__ import annotations

import numpy as np
import pytest

from translator_app.gui.views.linking import excerpt, word_at

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


def test_the_attended_list_names_whole_german_words():
    """Issue 48 §5: "Bürostühle 0.85", never "ühl 0.29" and "st 0.06"; a protected
    fact's annotation and its pieces are one "1.249,90 €"."""
    from translator_app.core.engine.text_document import translate_document
    from translator_app.core.engine.translation import Candidate, Translation
    from translator_app.gui.views.linking import alignment_pairs

    de = "Bürostühle kosten 1.249,90 €."
    pieces = (
        "▁Büro",
        "st",
        "ühl",
        "e",
        "▁kosten",
        "▁1.249",
        ",",
        "90",
        "▁€",
        "<term>",
        ".",
        "</s>",
    )
    spans = ((0, 4), (4, 6), (6, 9), (9, 10), (10, 17), (17, 23), (23, 24), (24, 26),
             (26, 28), (17, 28), (28, 29), (29, 29))  # fmt: skip
    att = np.zeros((2, len(pieces)), np.float32)
    att[0, :4] = (0.4, 0.1, 0.3, 0.05)  # "offices" on the pieces of „Bürostühle“
    att[0, 5:10] = (0.02, 0.01, 0.02, 0.02, 0.03)
    att[0, 4] = 0.07
    cand = Candidate("offices", (7, 3), ("▁offices", "</s>"), ((0, 7), (7, 7)), att, 0, 0)
    t = Translation(de, tuple(range(len(pieces))), pieces, spans, (cand,), ())
    doc = translate_document(de, lambda _: [t])
    pairs = [(w, round(x, 2)) for w, x in alignment_pairs(doc, 0, 0)]
    assert pairs == [("Bürostühle", 0.85), ("1.249,90 €", 0.1), ("kosten", 0.07)]


def test_the_heatmap_labels_each_word_once():
    """Issue 48 §5: the panel's columns were "1.249,90 €" seven times plus "1,249", ".",
    "90" and "€" (the number's pieces and its annotation's); rows likewise by word."""
    from translator_app.core.engine.translation import Candidate, Translation
    from translator_app.gui.views.heatmap import heatmap_view

    de = "Die Rechnung über 1.249,90 € zahlen Sie."
    pieces = ("▁Die", "▁Rechnung", "▁über", "▁1.249", ",", "90", "▁€", "<t>", "▁€", "1", ",",
              "249", ".", "90", "</t>", "▁zahlen", "▁Sie", ".", "</s>")  # fmt: skip
    term = (18, 28)
    spans = ((0, 3), (3, 12), (12, 17), (17, 23), (23, 24), (24, 26), (26, 28), *[term] * 8,
             (28, 35), (35, 39), (39, 40), (40, 40))  # fmt: skip
    en = "Please pay the invoice of €1,249.90."
    t_pieces = ("▁Please", "▁pay", "▁the", "▁invoice", "▁of", "▁€", "1", ",", "249", ".",
                "90", ".", "</s>")  # fmt: skip
    t_spans = ((0, 6), (6, 10), (10, 14), (14, 22), (22, 25), (25, 27), (27, 28), (28, 29),
               (29, 32), (32, 33), (33, 35), (35, 36), (36, 36))  # fmt: skip
    att = np.full((len(t_pieces), len(pieces)), 1 / len(pieces), np.float32)
    cand = Candidate(en, tuple(range(13)), t_pieces, t_spans, att, 0, 0)
    t = Translation(de, tuple(range(len(pieces))), pieces, spans, (cand,), ())
    view = heatmap_view(t, att)
    assert view.cols == ("Die", "Rechnung", "über", "1.249,90 €", "zahlen", "Sie", ".")
    assert view.rows == ("Please", "pay", "the", "invoice", "of", "€1,249.90", ".")
    # the column holds the attention of all twelve pieces: the number's and the annotation's
    assert np.isclose(view.matrix[0, 3], 12 / len(pieces))

"""British or American English (issue 89 §4): "Dear neighbors" beside "Ms", "Program"
beside "Programme item", "Ms Dr. Kowalczyk" in one text. The variant a user chose is
written consistently: spellings from breame's tables, titles and dates by rule, words a
variant writes both ways left as they are."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import spelled_candidate
from translator_app.core.engine.candidates import text_of
from translator_app.core.language.variants import AMERICAN, BRITISH, edits, in_variant
from translator_app.core.postedit import english_variant
from translator_app.core.postedit.pipeline import (
    ALL,
    english_of,
    parse_steps,
    with_english,
    with_step,
)

CASES = [
    # (American, British)
    (
        "Dear neighbors, the center is 5 meters away.",
        "Dear neighbours, the centre is 5 metres away.",
    ),
    ("The Color of the flat is gray.", "The Colour of the flat is grey."),
    (
        "Ms. Kowalczyk and Dr. Smith met on June 14, 2025.",
        "Ms Kowalczyk and Dr Smith met on 14 June 2025.",
    ),
    (
        "We traveled on May 3 and organized the catalog.",
        "We travelled on 3 May and organised the catalogue.",
    ),
    ("COLOR", "COLOUR"),
]


@pytest.mark.parametrize("american, british", CASES)
def test_each_variant_is_written_both_ways(american, british):
    assert in_variant(american, BRITISH) == british
    assert in_variant(british, AMERICAN) == american
    for text, variant in ((british, BRITISH), (american, AMERICAN)):
        assert edits(text, variant) == []  # written so already: nothing to do


@pytest.mark.parametrize(
    "text",
    [
        "Install the program and practice every day.",  # British writes these too
        "Read the gas meter.",  # a meter that measures, not a metre
        "The licensed draft is on the disk.",
    ],
)
def test_words_british_english_writes_too_are_left(text):
    assert in_variant(text, BRITISH) == text


def test_a_date_with_an_ordinal_ending_is_written_the_british_way():
    assert in_variant("We celebrate on September 20th.", BRITISH) == "We celebrate on 20 September."
    assert in_variant("on December 21st, 2012", BRITISH) == "on 21 December 2012"
    assert in_variant("on December 21st, 2012", AMERICAN) == "on December 21st, 2012"


def test_a_dialogue_and_a_disc_stay_in_american_english():
    assert in_variant("The dialogue on the disc.", AMERICAN) == "The dialogue on the disc."


def test_words_inside_others_and_names_are_not_respelled():
    # "colored-pencil" is one word with a hyphen; "Colorado" is not "color"
    text = "Colorado sells colored-pencil sets; Mr Color's shop."
    assert in_variant(text, BRITISH) == "Colorado sells colored-pencil sets; Mr Color's shop."


def test_the_variants_are_asked_for_by_name_and_one_at_a_time():
    assert "british" not in ALL and "american" not in ALL
    assert parse_steps("all,british") == ALL | {"british"}
    with pytest.raises(ValueError, match="one English"):
        parse_steps("all,british,american")
    spec = with_english("all,-judge", "american")
    assert parse_steps(spec) == (ALL - {"judge"}) | {"american"}
    assert english_of(parse_steps(with_english(spec, "british"))) == "british"
    assert english_of(parse_steps(with_english(spec, ""))) == ""
    # switching another step keeps the variant
    assert "american" in parse_steps(with_step(spec, "other-languages", False))


def test_a_candidate_keeps_its_pieces_and_attention_in_step(translator):
    tok = translator.tokenizer
    cand = spelled_candidate(tok, "Dear neighbors, Ms. Kowalczyk comes on June 14, 2025.")
    new = english_variant.british_rewrite(tok, None, cand)
    assert new.text == "Dear neighbours, Ms Kowalczyk comes on 14 June 2025."
    assert text_of(tok, new.target_ids) == new.text
    assert len(new.target_pieces) == len(new.target_ids) == len(new.attention)
    assert np.allclose(np.asarray(new.attention).sum(axis=1), 1.0)
    assert english_variant.american_rewrite(tok, None, new).text == cand.text

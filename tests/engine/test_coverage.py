"""The bundled model's beam search with GNMT's coverage penalty (issue 60, clauses the
English dropped): a candidate that says every part of the German wins over a likelier
one that leaves a part out. Sentences of the everyday dev set."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "german, dropped",
    [
        ("Magst du am Sonntag zum Frühstück kommen?", "breakfast"),
        ("Die Frist kann auf Antrag verlängert werden.", "application"),
    ],
)
def test_the_apps_search_says_what_the_likelier_candidate_drops(translator, german, dropped):
    assert translator.options.coverage_penalty == 0.3  # the bundle's search setting
    # the search alone: the dictionary pass may decode the sentence again with a term
    without = translator.translate([german], coverage_penalty=0.0, dictionary_words=False)[0]
    assert dropped not in without.text  # the model's likeliest candidate drops it
    assert dropped in translator.translate([german], dictionary_words=False)[0].text

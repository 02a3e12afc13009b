"""The app's beam search with GNMT's coverage penalty (issue 60, clauses the English
dropped): a candidate that says every part of the German wins over a likelier one that
leaves a part out. The bundled model's own sentences are in the regression lane
(tests/regression/cases.toml, "coverage-*"); here a scripted decoder writes the two
candidates, so the choice holds on every CPU."""

from __future__ import annotations

from scripted_decoder import Written, scripted_translator

GERMAN = "Magst du am Sonntag zum Frühstück kommen?"
DROPS = Written("Do you like to come on Sunday?", -3.0, ignores=("Frühstück",))
SAYS = Written("Do you like to come for breakfast on Sunday?", -3.6)


def test_the_apps_search_says_what_the_likelier_candidate_drops():
    translator = scripted_translator(lambda source: [DROPS, SAYS])
    assert translator.options.coverage_penalty == 0.3  # the bundle's search setting
    alone = translator.translate([GERMAN], coverage_penalty=0.0, dictionary_words=False)[0]
    assert alone.text == DROPS.text  # the likelier candidate, with no penalty
    chosen = translator.translate([GERMAN], dictionary_words=False)[0]
    assert chosen.text == SAYS.text
    # greedy search has no beam to choose from: the penalty changes nothing there
    greedy = translator.translate([GERMAN], beam=1, dictionary_words=False)[0]
    assert greedy.text == DROPS.text


def test_a_candidate_that_covers_as_much_stays_the_likelier_one():
    """Both say every German word: the penalty is the same, the log-probability decides."""
    also_whole = Written("Would you like to come for breakfast on Sunday?", -3.6)
    translator = scripted_translator(lambda source: [SAYS, also_whole])
    assert translator.translate([GERMAN], dictionary_words=False)[0].text == SAYS.text

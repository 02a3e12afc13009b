"""The decodes a step makes start the way the translation they may replace was decoded,
and are retried the other way only where they lose more facts than it
(postedit/facts.decoded_keeping_facts), with a scripted decode: no model."""

from __future__ import annotations

import numpy as np

from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.faithful.fact_check import missing_facts
from translator_app.core.postedit.facts import decoded_keeping_facts
from translator_app.core.postedit.request import PostEditRequest

GERMAN = "Das Ticket kostet 30 Euro und gilt bis Montag."


def _translation(english: str, annotated: bool) -> Translation:
    cand = Candidate(english, (5,), ("▁x",), ((0, len(english)),), np.ones((1, 2)), -1.0, -1.0)
    return Translation(
        GERMAN,
        (4, 2),
        ("▁x", "</s>"),
        ((0, len(GERMAN)), (len(GERMAN), len(GERMAN))),
        (cand,),
        issues=tuple(missing_facts(GERMAN, english)),
        facts_annotated=annotated,
    )


def _request(english_by_way: dict[bool, str], calls: list[bool]) -> PostEditRequest:
    """A request whose decode writes ``english_by_way[annotated]`` and records the way
    each decode was asked for."""

    def decode(texts, prefixes, annotate, glossary):
        calls.append(annotate)
        return [_translation(english_by_way[annotate], annotate) for _ in texts]

    return PostEditRequest((GERMAN,), None, decode, tokenizer=None, protect="retry")


KEPT = "The ticket costs 30 euros and is valid until Monday."
LOST = "The ticket costs euros and is valid until Monday."


def test_a_decode_starts_annotated_where_the_translation_it_may_replace_was():
    calls: list[bool] = []
    request = _request({True: KEPT, False: KEPT}, calls)
    (out,) = decoded_keeping_facts(request, [GERMAN], None, None, [_translation(KEPT, True)])
    assert calls == [True] and out.facts_annotated
    calls.clear()
    decoded_keeping_facts(request, [GERMAN], None, None, [_translation(KEPT, False)])
    assert calls == [False]


def test_a_decode_losing_no_more_than_the_old_one_is_not_retried():
    calls: list[bool] = []
    request = _request({True: KEPT, False: LOST}, calls)
    (out,) = decoded_keeping_facts(request, [GERMAN], None, None, [_translation(LOST, False)])
    assert calls == [False] and out.text == LOST  # the old one lost „30“ both ways too


def test_a_decode_losing_more_than_the_old_one_is_retried_the_other_way():
    calls: list[bool] = []
    request = _request({True: KEPT, False: LOST}, calls)
    (out,) = decoded_keeping_facts(request, [GERMAN], None, None, [_translation(KEPT, False)])
    assert calls == [False, True] and out.text == KEPT

"""The fix a mark offers (core/api/followups.fact_fix, issue 88 §2): the sentence decoded
with a lost fact's English forced in where its German is aligned; the model's own words
around it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from conftest import spelled_candidate
from translator_app.core.faithful.fact_check import missing_facts


def _with_english(translator, german: str, english: str):
    """The bundled model's translation of ``german`` with ``english`` as its only
    candidate (attention spread evenly), its lost facts checked: a model that lost what
    ``english`` loses, whatever this CPU's model writes."""
    (t,) = translator.translate([german], beam=1)
    cand = spelled_candidate(translator.tokenizer, english)
    rows = np.full((len(cand.target_ids), len(t.source_ids)), 1 / len(t.source_ids), np.float32)
    cand = replace(cand, attention=rows)
    return replace(t, nbest=(cand,), issues=tuple(missing_facts(german, cand.text)))


@pytest.mark.parametrize(
    "german, wrong, kept",
    [
        ("Der Mantel kostet 1.249,90 €.", "The coat costs €249.90.", "1,249.90"),
        ("Wir haben 420 Stühle bestellt.", "We have ordered chairs.", "420"),
    ],
)
def test_a_lost_fact_is_forced_in_and_the_rest_kept(translator, german, wrong, kept):
    t = _with_english(translator, german, wrong)
    (fact,) = t.issues
    fixed = translator.fact_fix(t, fact)
    assert fixed is not None and kept in fixed.text
    assert not any(f.keys == fact.keys for f in fixed.issues)
    # the English before the forced words is the model's, as the user saw it
    assert fixed.text.startswith(wrong.split()[0])


def test_a_fact_without_english_offers_no_fix(translator):
    t = _with_english(translator, "Der Mantel kostet 1.249,90 €.", "The coat costs €249.90.")
    (fact,) = t.issues
    assert translator.fact_fix(t, replace(fact, english="")) is None


def _aligned(translator, german: str, english: str, said_for: dict[str, str]):
    """:func:`_with_english` with each English word of ``said_for`` attending to its
    German word, the others to the German's first piece."""
    t = _with_english(translator, german, english)
    cand = t.best
    rows = np.zeros((len(cand.target_ids), len(t.source_ids)), np.float32)
    rows[:, 0] = 1.0
    for word, german_word in said_for.items():
        g0 = german.index(german_word)
        cols = [
            j for j, (a, b) in enumerate(t.source_spans) if a < g0 + len(german_word) and g0 < b
        ]
        e0 = english.index(word)
        for k, (a, b) in enumerate(cand.target_spans):
            if a < e0 + len(word) and e0 < b:
                rows[k] = 0.0
                rows[k, cols] = 1.0 / len(cols)
    return replace(t, nbest=(replace(cand, attention=rows),))


def _scripted(translator, german: str, t, englishes: dict[str, float]):
    """A translator whose forced decodes write ``englishes`` (with the model's score of
    the whole English) in turn, whatever the prefix."""

    class Scripted:
        tokenizer = translator.tokenizer

        def translate(self, texts, prefixes):
            scripted = list(englishes.items())
            out = []
            for k in range(len(prefixes)):
                english, score = scripted[k % len(scripted)]
                cand = replace(spelled_candidate(self.tokenizer, english), score=score)
                missing = tuple(missing_facts(german, english))
                out.append(replace(t, nbest=(cand,), issues=missing))
            return out

    return Scripted()


def test_the_fix_is_the_likeliest_decode_that_keeps_the_fact(translator):
    """Of the decodes that keep the fact, the mark offers the one the model scores best
    as a whole, not the one closest to the shown English, which kept the garbled word
    beside the fact's English ("… on Mondays on Wednesdays and withworms.")."""
    from translator_app.core.api.followups import fact_fix

    german = "Die Stadtbücherei ist montags und mittwochs geschlossen."
    shown = "The city library is closed on Mondays and withworms."
    t = _aligned(translator, german, shown, {"withworms": "mittwochs", "Mondays": "montags"})
    (fact,) = t.issues
    scripted = {
        "The city library is closed on Mondays on Wednesdays and withworms.": -9.9,
        "The city library is closed on Mondays and on Wednesdays.": -8.3,
        "The city library is closed on Wednesdays and withworms.": -8.1,  # loses Mondays
    }
    fixed = fact_fix(_scripted(translator, german, t, scripted), t, fact)
    assert fixed is not None
    assert fixed.text == "The city library is closed on Mondays and on Wednesdays."


def test_a_fix_keeps_the_words_the_shown_english_said_for_the_rest(translator):
    """A decode that drops a word the shown English wrote for another German word than
    the fact's is no fix, however likely: „bis mittags“ said as "until at noon" stays
    said, where the shortest decode, the likeliest, dropped "noon"."""
    from translator_app.core.api.followups import fact_fix

    german = "Die Apotheke hat samstags nur bis mittags geöffnet."
    shown = "The pharmacy is only open until at noon."
    t = _aligned(translator, german, shown, {"noon": "mittags", "open": "geöffnet"})
    fact = next(f for f in t.issues if f.text == "samstags")
    scripted = {
        "The pharmacy is only open until on Saturdays.": -7.4,
        "The pharmacy is only open on Saturdays until at noon.": -11.7,
    }
    fixed = fact_fix(_scripted(translator, german, t, scripted), t, fact)
    assert fixed is not None
    assert fixed.text == "The pharmacy is only open on Saturdays until at noon."

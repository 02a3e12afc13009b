"""Emoji and symbols inside a sentence are kept from the model and written back into the
English after the word aligned with the German before them (engine/symbols.py; issue 86:
„Das Wetter ist schön ☀️ und warm.“ came out "The weather is good at ‘Gerage and warm.")."""

from __future__ import annotations

import numpy as np
import pytest

from scripted_decoder import Written, scripted_translator
from translator_app.core.engine.symbols import (
    model_ids,
    symbol_rows,
    with_runs,
    with_tail,
    without_inserted,
    without_symbol_runs,
)
from translator_app.core.engine.translation import Candidate


@pytest.mark.parametrize(
    "text, bare, symbols",
    [
        ("Das Wetter ist schön ☀️ und warm.", "Das Wetter ist schön und warm.", ["☀️"]),
        ("Daumen 👍🏽 hoch", "Daumen hoch", ["👍🏽"]),  # with its skin tone
        ("👍 Super Sache", "Super Sache", ["👍"]),  # opening the sentence
        ("schön☀️und warm", "schön und warm", ["☀️"]),  # between letters: a space stays
        ("Ich ❤️ dich 😀 sehr", "Ich dich sehr", ["❤️", "😀"]),
        ("Kostet 5 €", "Kostet 5 €", []),  # a currency sign is no emoji
        ("Es sind 25 °C draußen.", "Es sind 25 °C draußen.", []),  # nor a degree
        ("Marke™ gut", "Marke™ gut", []),
        ("\ufffd kaputt", "\ufffd kaputt", []),  # bytes that were not text
        ("😀 😀", "😀 😀", []),  # symbols alone: kept as they are elsewhere
        ("Guten Morgen", "Guten Morgen", []),
    ],
)
def test_runs_inside_a_sentence_are_taken_out(text, bare, symbols):
    got, origins, runs = without_symbol_runs(text)
    assert got == bare and [r.symbols for r in runs] == symbols
    if origins is not None:  # each character of the bare text stands there in the user's
        assert len(origins) == len(bare) + 1 and origins[-1] == len(text)
        assert all(text[origins[i]] == ch for i, ch in enumerate(bare) if not ch.isspace())


def _cand(words: list[str], aligned: list[int], n_source: int) -> Candidate:
    """A candidate of ``words`` whose piece i attends to source piece ``aligned[i]``."""
    text, spans = "", []
    for w in words:
        start = len(text)
        text += (" " if text else "") + w
        spans.append((start, len(text)))
    rows = np.full((len(words) + 1, n_source), 0.01, np.float32)
    for r, col in enumerate(aligned):
        rows[r, col] = 1.0
    rows[-1, -1] = 1.0
    rows /= rows.sum(axis=1, keepdims=True)
    return Candidate(
        text,
        tuple(range(len(words) + 1)),
        tuple(f"▁{w}" for w in words) + ("</s>",),
        tuple(spans) + ((len(text), len(text)),),
        rows,
        -1.0,
        -1.0,
    )


def test_a_run_goes_after_the_english_of_the_german_word_before_it():
    text = "Das Wetter ist schön ☀️ und warm."
    _, _, runs = without_symbol_runs(text)
    # the source pieces' spans in the user's text: Das Wetter ist schön und warm . </s>
    source_spans = ((0, 3), (3, 10), (10, 14), (14, 23), (23, 27), (27, 32), (32, 33), (33, 33))
    words = ["The", "weather", "is", "beautiful", "and", "warm."]
    cand = _cand(words, [1, 1, 2, 3, 2, 5], len(source_spans))
    out = with_runs(cand, runs, source_spans)
    assert out.text == "The weather is beautiful ☀️ and warm."
    # the pieces' spans moved with the text: "warm." still spans its letters
    assert [out.text[a:b].strip() for a, b in out.target_spans[:-1]] == words
    assert without_inserted(out.text, runs) == cand.text


def test_a_run_with_nothing_before_it_opens_the_english():
    _, _, runs = without_symbol_runs("👍 Super Sache")
    cand = _cand(["Great", "thing"], [0, 1], 3)
    assert with_runs(cand, runs, ((0, 7), (7, 13), (13, 13))).text == "👍 Great thing"


def _weather(source: str) -> list[Written]:
    return [
        Written("The weather is beautiful and warm.", -1.0, {"beautiful": "schön"}),
        Written("The weather is nice and warm.", -2.0, {"nice": "schön"}),
    ]


def test_the_model_never_reads_the_emoji_and_the_english_keeps_it():
    translator = scripted_translator(_weather)
    (t,) = translator.translate(["Das Wetter ist schön ☀️ und warm."])
    assert "☀" not in translator.backend.jobs[-1]
    assert t.text == "The weather is beautiful ☀️ and warm."
    # the German pieces' spans are in the user's text: „schön“ is where the user wrote it
    schoen = [t.source[a:b].strip() for a, b in t.source_spans if "schön" in t.source[a:b]]
    assert schoen and schoen[0].startswith("schön")
    # the word menu works on it, and its alternatives keep the emoji too
    piece = next(k for k, (a, b) in enumerate(t.best.target_spans) if "beautiful" in t.text[a:b])
    offered = translator.alternatives(t, piece)
    assert [c.text for c in offered] == ["The weather is nice ☀️ and warm."]
    # with the step off, the model reads the emoji
    translator.translate(["Das Wetter ist schön ☀️ und warm."], steps="all,-symbols")
    assert "☀" in translator.backend.jobs[-1]


def test_the_real_model_translates_the_sentence_as_it_would_without_the_emoji(translator):
    for german in ("Das Wetter ist schön ☀️ und warm.", "Daumen 👍🏽 hoch"):
        bare, _, runs = without_symbol_runs(german)
        (with_emoji,) = translator.translate([german])
        (without,) = translator.translate([bare])
        assert all(with_emoji.text.count(r.symbols) == 1 for r in runs)
        assert without_inserted(with_emoji.text, runs) == without.text


def test_the_emoji_are_written_into_the_ids_and_read_out_of_a_given_beginning(translator):
    tok = translator.tokenizer
    (t,) = translator.translate(["Das Hotel war sauber und ruhig. 👍"])
    best = t.best
    assert best.text.endswith(" 👍") and best.text.count("👍") == 1
    rows = symbol_rows(tok, best.target_ids)
    assert rows and max(rows) == len(best.target_ids) - 2  # the last before the end
    # its pieces look at the German's end: they translate nothing the model read
    assert all(best.attention[k].argmax() == len(t.source_ids) - 1 for k in rows)
    # the English as the model wrote it: no emoji in it
    assert "👍" not in tok.decode(model_ids(tok, best.target_ids)).text
    # a decode given the shown English as its beginning (a chosen word, a fact's fix)
    # reads the emoji out and puts it back once
    (again,) = translator.translate([t.source], prefixes=[best.target_ids[:-1]])
    assert again.text == best.text
    # the word menu offers no alternatives for the emoji, and others keep it
    assert translator.alternatives(t, max(rows)) == ()
    words = [k for k, p in enumerate(best.target_pieces[:-1]) if k not in rows and p != "▁"]
    offered = [c for k in words for c in translator.alternatives(t, k)]
    assert offered and all(c.text.endswith(" 👍") and c.text.count("👍") == 1 for c in offered)
    # the dropped-words check reads it: its text is the decode of its ids
    (checked,) = translator.check_dropped([t])
    assert checked.not_carried is not None


def test_without_byte_pieces_the_emoji_go_in_the_text_alone():
    # a tokenizer that cannot spell them (an imported model's): the ids stay the model's
    _, _, runs = without_symbol_runs("👍 Super Sache")
    cand = _cand(["Great", "thing"], [0, 1], 3)
    out = with_runs(cand, runs, ((0, 7), (7, 13), (13, 13)), tokenizer=None)
    assert out.text == "👍 Great thing" and out.target_ids == cand.target_ids
    assert with_tail(cand, " 😀").text == "Great thing 😀"

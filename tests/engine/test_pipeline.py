"""The post-editing pipeline (core/postedit/pipeline.py): one ordered list of named steps,
switched by name on every path (translate, the dictionary follow-up, the word menu), and
the model's own search where none are asked for."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from scripted_decoder import Written, scripted_translator
from translator_app.cli import main as cli_main
from translator_app.core.faithful.glossary import Glossary, Term
from translator_app.core.postedit import pipeline
from translator_app.core.postedit.pipeline import ALL, STEPS, parse_steps

ROOT = Path(__file__).resolve().parents[2]
STAGE_ORDER = (pipeline.READ, pipeline.CHOOSE, pipeline.SEARCH, pipeline.WORDS, pipeline.REWRITE)


def test_every_step_is_listed_once_in_the_order_of_its_stage():
    names = [s.name for s in STEPS]
    assert len(names) == len(set(names))
    stages = [STAGE_ORDER.index(s.stage) for s in STEPS]
    assert stages == sorted(stages)
    # a step either acts in the decode (read, choose) or says how it acts
    for s in STEPS:
        acts = (s.run is not None) + (s.rewrite is not None)
        assert acts == (0 if s.stage in (pipeline.READ, pipeline.CHOOSE) else 1), s.name


def test_steps_are_asked_for_by_name():
    assert parse_steps(None) == ALL == parse_steps("all")
    assert parse_steps("none") == frozenset()
    assert parse_steps("all,-judge") == ALL - {"judge"}
    assert parse_steps("umlauts, first-capital") == {"umlauts", "first-capital"}
    with pytest.raises(ValueError, match="'judgee'.*umlauts, closing-stop"):
        parse_steps("all,-judgee")
    for nothing in ("", " , "):  # an unset shell variable is not "none"
        with pytest.raises(ValueError, match="no post-editing step named"):
            parse_steps(nothing)
    assert parse_steps(()) == frozenset()  # the API's empty collection: none


def test_no_module_outside_the_pipeline_calls_a_step():
    """Only pipeline.py (and the steps' own room) imports the modules that hold steps:
    nothing else can order them or run one on the side."""
    step_modules = {
        f"translator_app.core.postedit.{m}"
        for m in ("facts", "dictionary_words", "term_articles", "first_capital", "english_variant")
    }
    importers = []
    for path in sorted((ROOT / "translator_app").rglob("*.py")):
        if path.parent.name == "postedit":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module in step_modules:
                importers.append(f"{path.relative_to(ROOT)}: {node.module}")
    assert importers == []


def test_the_command_line_lists_the_steps_and_refuses_an_unknown_one(capsys):
    assert cli_main(["steps"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert listed == [s.name for s in STEPS]
    assert cli_main(["translate", "--steps", "all,-nothing", "Hallo"]) != 0
    assert "unknown post-editing step 'nothing'" in capsys.readouterr().err


def test_the_command_line_writes_the_english_asked_for(capsys):
    from translator_app.core.language.variants import AMERICAN, BRITISH, edits

    german = "Liebe Nachbarn, die Farbe im Zentrum ist grau."
    for variant, other in ((BRITISH, AMERICAN), (AMERICAN, BRITISH)):
        assert cli_main(["translate", "--english", variant, german]) == 0
        english = capsys.readouterr().out.strip()
        assert english and edits(english, variant) == [], english
        assert edits(english, other)  # it has words the other variant spells otherwise


def _lower_case(source: str) -> list[Written]:
    return [Written("the hotel was clean and quiet.", -1.0)]


def test_with_no_steps_the_english_is_the_models_own():
    translator = scripted_translator(_lower_case)
    german = "Das Hotel war sauber und ruhig"
    assert translator.translate([german])[0].text == "The hotel was clean and quiet"
    own = translator.translate([german], steps="none")[0]
    assert own.text == "the hotel was clean and quiet."  # no capital, its own stop
    # the model read the German as it came, without the stop the app adds
    assert translator.backend.jobs[-1] == german


def _hotel(source: str) -> list[Written]:
    return [
        Written("The hotel was clean and quiet.", -1.0),
        Written("The hotel was tidy and quiet.", -2.0),
    ]


def _word_piece(t, word: str) -> int:
    at = t.text.index(word)
    return next(k for k, (a, b) in enumerate(t.best.target_spans) if a <= at < b)


def test_word_alternatives_after_a_closing_emoji_keep_it():
    """„Das Hotel war sauber und ruhig. 👍“ offered no alternatives where the same
    sentence without the emoji offered some: the emoji was glued on after decoding."""
    translator = scripted_translator(_hotel)
    (t,) = translator.translate(["Das Hotel war sauber und ruhig. 👍"])
    assert t.text == "The hotel was clean and quiet. 👍"
    offered = translator.alternatives(t, _word_piece(t, "clean"))
    assert [c.text for c in offered] == ["The hotel was tidy and quiet. 👍"]


def _quotation(source: str) -> list[Written]:
    # the model chose the article for its own word ("an offer"), then wrote the term
    return [
        Written("We need an quotation.", -1.0),
        Written("We really need an quotation.", -2.0),
    ]


def test_word_alternatives_after_a_glossary_term_get_its_article():
    """With Angebot -> quotation the word menu offered "We need an quotation.": the
    alternatives ran another subset of the steps than the translation."""
    translator = scripted_translator(_quotation)
    glossary = Glossary((Term("Angebot", "quotation"),))
    (t,) = translator.translate(["Wir brauchen ein Angebot."], glossary=glossary)
    assert t.text == "We need a quotation."
    offered = translator.alternatives(t, _word_piece(t, "need"))
    assert [c.text for c in offered] == ["We really need a quotation."]
    assert not any(re.search(r"\ban quotation", c.text) for c in offered)


def test_the_real_model_offers_the_same_alternatives_with_a_closing_emoji(translator):
    plain = "Das Hotel war sauber und ruhig."
    (t,) = translator.translate([plain])
    (e,) = translator.translate([plain + " 👍"])
    assert e.text == t.text + " 👍"
    for piece in range(len(t.best.target_ids) - 1):
        without = [c.text for c in translator.alternatives(t, piece)]
        assert [c.text for c in translator.alternatives(e, piece)] == [
            text.rstrip() + " 👍" for text in without
        ]

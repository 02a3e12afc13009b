"""Teach's recipe (issue 33): the user's terms found in their pairs, the run sized to the
data, taught terms carried by the new bundle and applied like a glossary."""

from pathlib import Path

import pytest

from trainer.teach_recipe import (
    annotated_copies,
    compare_sentences,
    general_verdict,
    plan,
    sign_test,
    terms_verdict,
)
from trainer.term_mining import mine_terms, term_use
from translator_app.core.data.corpus import read_all
from translator_app.core.faithful.glossary import Glossary, Term, merged

TEACH_SET = Path(__file__).resolve().parents[2] / "bench" / "teach"


def bench_pairs():
    return list(read_all([TEACH_SET / "train.tsv"]))


def test_the_bench_terms_are_all_found():
    found = {t.source: t.target for t in mine_terms(bench_pairs())}
    wanted = {
        "Zauberpfanne": "MagicPan",
        "Prise": "pinch",
        "Nudelholz": "rolling pin",
        "Topflappen": "pot holder",  # "pot holders" too: the plural joins the singular
        "spülmaschinenfest": "dishwasher-safe",
        "Schälen": "peel",  # the spelling inside a sentence, not "Peel" of a first word
        "Klinge": "blade",  # not "sharp blade": "sharp" is „scharf“'s
    }
    for de, en in wanted.items():
        assert found.get(de) == en, (de, found.get(de))
    # Two German words of the same sentences for one English: the look-alike wins.
    assert found.get("Liter") == "litre" and "fasst" not in found
    # A verb only ever first in its sentence („Stellen Sie …“) is no term.
    assert "Stellen" not in found


def test_terms_the_base_model_already_uses_are_left_out():
    asked = []

    def known(sources, english):
        asked.append((tuple(sources), english))
        return english == "whisk"

    found = {t.source for t in mine_terms(bench_pairs(), known=known)}
    assert "Schneebesen" not in found and "Zauberpfanne" in found
    # It was asked about the user's own sentences holding both sides.
    sources, _ = next(a for a in asked if a[1] == "MagicPan")
    assert sources and all("Zauberpfanne" in s for s in sources)


def test_term_use_counts_terms_in_source_and_reference():
    g = Glossary((Term("Zauberpfanne", "MagicPan"), Term("Prise", "pinch")))
    sources = ["Die Zauberpfanne und eine Prise Salz.", "Eine Prise Zucker."]
    refs = ["The MagicPan and a pinch of salt.", "A dash of sugar."]  # no "pinch": no use
    assert term_use(sources, refs, ["The magic pan and a pinch of salt.", "x"], g) == (1, 2)
    assert term_use(sources, refs, refs, g) == (2, 2)


def test_annotated_copies_only_where_the_english_uses_the_term():
    g = Glossary((Term("Zauberpfanne", "MagicPan"),))
    pairs = [
        ("Die Zauberpfanne ist heiß.", "The MagicPan is hot."),
        ("Die Zauberpfanne.", "The pan."),
    ]
    copies = annotated_copies(pairs, g)
    assert copies == [
        ("Die <term> Zauberpfanne <means> MagicPan </term> ist heiß.", "The MagicPan is hot.")
    ]


def test_the_run_grows_with_the_data_and_the_effort():
    small, large = plan(60), plan(6000)
    assert small.steps < large.steps and large.steps <= 240
    assert plan(60, "thorough").steps > small.steps
    with pytest.raises(ValueError, match="effort"):
        plan(60, "forever")


def test_verdict_words():
    assert terms_verdict((1, 10), (9, 10), 12) == (
        "learnt 12 terms from your pairs; of their 10 uses in the held-out sentences it "
        "keeps 9 (the base model: 1)"
    )
    assert terms_verdict((0, 0), (0, 0), 8) == (
        "learnt 8 terms from your pairs; none of them comes up in the held-out sentences"
    )
    assert terms_verdict((0, 0), (0, 0), 0) == ""
    assert general_verdict(30.0, 29.5) == "everyday sentences unchanged"
    assert general_verdict(30.0, 27.0).startswith("everyday sentences worse")


def test_the_users_glossary_wins_over_taught_terms():
    taught = Glossary((Term("Pfanne", "pan"), Term("Prise", "pinch")))
    mine = Glossary((Term("pfanne", "skillet"),))
    both = merged(taught, mine)
    assert {(t.source.casefold(), t.target) for t in both.terms} == {
        ("pfanne", "skillet"),
        ("prise", "pinch"),
    }
    assert merged(taught, None) is taught


def test_the_dialogs_choices_reach_the_trainer(tmp_path):
    from translator_app.gui.teach.finetune_process import FinetuneJob

    job = FinetuneJob(
        base="base", out=tmp_path / "o", work=tmp_path / "w", name="n", effort="thorough",
        device="cpu", train_pairs=(), heldout_pairs=(),
    )  # fmt: skip
    args = job.arguments()
    assert args[args.index("--effort") + 1] == "thorough"
    assert "--epochs" not in args and "--lr" not in args  # the effort decides
    advanced = FinetuneJob(**{**job.__dict__, "epochs": 2, "lr": 3e-5}).arguments()
    assert advanced[advanced.index("--epochs") + 1] == "2"
    assert advanced[advanced.index("--lr") + 1] == "3e-05"


def test_the_sign_test_and_the_sentence_split():
    assert sign_test(0, 0) == 1.0 and sign_test(1, 1) == 1.0
    assert sign_test(5, 0) == sign_test(0, 5) == 0.0625  # 2 / 2**5
    assert abs(sign_test(9, 1) - 22 / 1024) < 1e-9  # 2 * (1 + 10) / 2**10
    split = compare_sentences([50.0, 40.0, 30.0, 20.0], [60.0, 39.5, 10.0, 20.0])
    assert split == {"better": 1, "worse": 1, "same": 2, "p": 1.0}


def test_a_word_the_dictionary_knows_only_as_a_verb_is_no_term(monkeypatch):
    """A bakery's terms.tsv listed „kostet“ → "costs" and „gebacken“ → "baked" (issue
    89 §2): the dictionary's word classes tell a verb's forms from a thing's name."""
    from types import SimpleNamespace

    from trainer import teach_recipe
    from translator_app.core.dictionary.lookup import Dictionary
    from translator_app.core.faithful.glossary import Term

    ding = Dictionary.shipped()
    ding.ready(wait=True)
    for word in ("hält", "kostet", "gebacken"):
        assert teach_recipe.only_a_verb(ding, word), word
    for word in ("Prise", "spülmaschinenfest", "Schälen", "Zauberpfanne"):
        assert not teach_recipe.only_a_verb(ding, word), word  # unknown: kept
    assert not teach_recipe.only_a_verb(None, "kostet")  # no dictionary: kept
    mined = [Term("kostet", "costs"), Term("Prise", "pinch"), Term("gebacken", "baked")]
    monkeypatch.setattr(teach_recipe, "mine_terms", lambda pairs, known: mined)
    found = teach_recipe.find_terms([], SimpleNamespace(dictionary=ding))
    assert [(t.source, t.target) for t in found.terms] == [("Prise", "pinch")]


def test_every_term_use_says_where_its_english_comes_from(tmp_path):
    """TermUse.kind: the user's glossary, a fine-tune's taught terms (terms.tsv), a fact,
    a name, a place or an address the translator protects (values.TERM_KINDS)."""
    from translator_app.core.engine.bundle import TERMS_FILE, _read_terms
    from translator_app.core.faithful.protect import protected_uses
    from translator_app.core.values import TERM_KINDS

    (tmp_path / TERMS_FILE).write_text("Prise\tpinch\n", "utf-8")
    taught = _read_terms(tmp_path)
    assert [t.kind for t in taught.terms] == ["taught"]
    text = "Frau Koch gibt eine Prise Salz in die Pfanne, in München, um 14 Uhr: www.koch.de"
    uses = merged(taught, Glossary((Term("Pfanne", "skillet"),))).find(text)
    assert {u.source: u.kind for u in uses} == {"Prise": "taught", "Pfanne": "user"}
    kinds = {u.source: u.kind for u in protected_uses(text)}
    assert kinds == {
        "Koch": "name", "München": "place", "14 Uhr": "fact", "www.koch.de": "address"
    }  # fmt: skip
    assert {u.kind for u in uses} | set(kinds.values()) <= set(TERM_KINDS)
    assert not any(u.dictionary for u in uses)

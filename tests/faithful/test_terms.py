"""Inline term annotations (issue 30): marker pieces added to a tokenizer, the model's
vocabulary grown for them at a warm start, and annotated training pairs."""

from __future__ import annotations

import random

import pytest
import torch

from conftest import tiny_model, write_config
from trainer import cli
from trainer.config import parse_config
from trainer.term_data import annotate_pair, annotate_pairs, load_dictionary
from trainer.train import load_weights
from translator_app.core.engine.bundle import load_bundle
from translator_app.core.faithful.terms import (
    MARKERS,
    TERM_MEANS,
    TERM_START,
    annotate_spans,
    has_term_markers,
    mask_markers,
    with_term_markers,
)
from translator_app.core.models.config import ConfigError
from translator_app.core.text.tokenizer import Tokenizer


def test_markers_become_pieces_of_their_own(spm_bytes):
    plain = Tokenizer(spm_bytes)
    extended = Tokenizer(with_term_markers(spm_bytes))
    assert not has_term_markers(plain) and has_term_markers(extended)
    assert extended.vocab_size == plain.vocab_size + len(MARKERS)
    assert Tokenizer(with_term_markers(extended.model_proto)).vocab_size == extended.vocab_size
    text = "Das Haus ist groß."
    assert extended.encode(text).ids == plain.encode(text).ids  # other ids unchanged
    annotated = annotate_spans(text, [(4, 8, "house")])
    assert annotated == "Das <term> Haus <means> house </term> ist groß."
    pieces = extended.encode(annotated).pieces
    for marker in MARKERS:
        assert marker in pieces or "▁" + marker in pieces
    ids = extended.encode(annotated).ids
    assert sum(i >= plain.vocab_size for i in ids) == 3
    masked = mask_markers(annotated)
    assert len(masked) == len(annotated)
    assert not any(i >= plain.vocab_size for i in extended.encode(masked).ids)


def test_a_warm_start_grows_the_vocabulary(tokenizer):
    small = tiny_model(tokenizer)
    big = tiny_model(tokenizer, vocab_size=tokenizer.vocab_size + 3, seed=1)
    with pytest.raises(ValueError, match="embedding.weight"):
        load_weights(big, small.state_dict())
    load_weights(big, small.state_dict(), grow=True)
    n = tokenizer.vocab_size
    assert torch.equal(big.embedding.weight[:n], small.embedding.weight)
    assert torch.allclose(big.embedding.weight[n:], small.embedding.weight.mean(0).expand(3, -1))


DICTIONARY = {"Schlüssel": ["key"], "Haus": ["house", "home"]}


def test_an_annotation_asks_for_the_english_in_the_pair():
    rng = random.Random(0)
    pair = ("Ich habe den Schlüssel verloren.", "I lost the key.")
    de, en = annotate_pair(pair, DICTIONARY, ["door"], swap=0.0, rng=rng)
    assert de == f"Ich habe den {TERM_START} Schlüssel {TERM_MEANS} key </term> verloren."
    assert en == "I lost the key."
    assert annotate_pair(("Ich bin müde.", "I am tired."), DICTIONARY, ["x"], 0.0, rng) is None


def test_a_swapped_annotation_changes_the_english_to_match():
    rng = random.Random(1)
    for _ in range(20):
        de, en = annotate_pair(
            ("Das Haus ist groß.", "The house is big."), DICTIONARY, ["cabin"], 1.0, rng
        )
        wanted = de.split(TERM_MEANS)[1].split("</term>")[0].strip()
        assert wanted != "house" and en == f"The {wanted} is big."


def test_annotated_copies_are_seeded(tmp_path):
    path = tmp_path / "dict.tsv"
    path.write_text("Haus\thouse\nhaus\thouse\nHausaufgabe\thomework\nX\ty\n", "utf-8")
    dictionary = load_dictionary(path)
    assert dictionary == {"Haus": ["house"], "Hausaufgabe": ["homework"]}
    pairs = [("Das Haus ist groß.", "The house is big.")] * 10
    a, counts = annotate_pairs(pairs, dictionary, 0.5, 0.5, seed=2)
    assert a == annotate_pairs(pairs, dictionary, 0.5, 0.5, seed=2)[0]
    assert 0 < counts["terms"] == len(a) < 10


def test_term_settings_are_checked(tmp_path):
    with pytest.raises(ConfigError, match="terms_share"):
        parse_config({"model": {}, "data": {"terms_share": 2.0}}, tmp_path)


def test_training_with_terms_extends_the_bundle(tmp_path, overfit_run):
    dictionary = tmp_path / "dict.tsv"
    dictionary.write_text("Haus\thouse\nMorgen\tmorning\n", "utf-8")
    cfg = write_config(tmp_path, steps=2, eval_every=2)
    text = cfg.read_text().replace(
        "vocab_size = 400", f'vocab_size = 400\nterms = "{dictionary}"\nterms_share = 1.0'
    )
    cfg.write_text(text.replace("[train]", "[train]\ngrow = true"))
    assert cli.main(["train", str(cfg), "--init", str(overfit_run / "model")]) == 0
    bundle = load_bundle(tmp_path / "run" / "model", "cpu")
    base = load_bundle(overfit_run / "model", "cpu")
    assert has_term_markers(bundle.tokenizer)
    assert bundle.model.config.vocab_size == base.model.config.vocab_size + 3

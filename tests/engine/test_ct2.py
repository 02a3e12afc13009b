"""CTranslate2 decoding of Transformer bundles (issue 31): the same tokens, scores and
attention as the PyTorch search in fp32, a cache that converts once, and the PyTorch
search wherever CTranslate2 cannot be used."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from conftest import tiny_model
from translator_app.core.api.translator import Translator
from translator_app.core.engine import ct2, ct2_models
from translator_app.core.engine.bundle import load_bundle

pytestmark = pytest.mark.skipif(not ct2.available(), reason="CTranslate2 is not installed")

SENTENCES = [
    "Guten Morgen.",
    "Das Haus ist sehr groß und alt.",
    "Wir fahren morgen mit dem Zug nach Berlin, weil das Auto kaputt ist.",
]
# Our own models (pre-norm, ReLU, interleaved sines) and Marian's shape (post-norm, SiLU,
# sines then cosines, an output bias, decoding from the padding id, one alignment head
# that is not the first: the converter must move it to the front).
SHAPES = {
    "ours": {},
    "learned-positions": {"positions": "learned"},
    "marian-like": {
        "norm": "post",
        "activation": "silu",
        "positions": "sinusoidal_halves",
        "output_bias": True,
        "alignment_head": 2,
        "alignment_layer": -1,
    },
}


def _model(tokenizer, shape: str, seed: int = 0):
    overrides = dict(SHAPES[shape])
    model = tiny_model(tokenizer, "transformer", seed, **overrides)
    torch.manual_seed(seed + 1)
    with torch.no_grad():
        if overrides.get("output_bias"):  # a zero bias would not test that it is carried over
            model.output.bias.normal_(0, 0.5)
        # A random model runs to the length limit, where the engines score the forced EOS
        # differently; a larger EOS row makes its outputs end by themselves.
        model.embedding.weight[tokenizer.eos_id] *= 2.0
        if overrides.get("output_bias"):
            model.output.bias[tokenizer.eos_id] += 1.0
    return model


def _pair(tokenizer, shape: str, **options):
    model = _model(tokenizer, shape)
    torch_t = Translator(model, tokenizer, engine="torch", **options)
    ct2_t = Translator(model, tokenizer, engine="ctranslate2", **options)
    return torch_t, ct2_t


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TRANSLATOR_CACHE_DIR", str(tmp_path / "cache"))


@pytest.mark.parametrize(
    "shape, search",
    [(shape, dict(beam=1)) for shape in SHAPES]
    # Beam search on our shapes; the random Marian-like model's beams run to the length
    # limit, where the engines' rules for finished hypotheses differ.
    + [(shape, dict(beam=4, nbest=3)) for shape in ("ours", "learned-positions")]
    # with a coverage penalty: both engines' beams rescored alike
    + [("ours", dict(beam=4, nbest=2, coverage_penalty=0.5))],
)
def test_same_output_as_pytorch_in_fp32(tokenizer, shape, search):
    torch_t, ct2_t = _pair(tokenizer, shape)
    assert ct2_t.engine is not None and torch_t.engine is None
    assert ct2_t.engine_name == "CTranslate2 float32"
    # Random weights give near-ties; fp32 in both engines must still agree.
    mine = torch_t.translate(SENTENCES, max_len_a=0.0, max_len_b=12, **search)
    theirs = ct2_t.translate(SENTENCES, max_len_a=0.0, max_len_b=12, **search)
    for a, b in zip(mine, theirs, strict=True):
        assert len(a.nbest) == len(b.nbest) == search.get("nbest", 1)
        # The best hypothesis; the beams' later finishers may differ (the engines collect
        # finished hypotheses by different rules).
        for x, y in zip(a.nbest[:1], b.nbest[:1], strict=True):
            assert x.target_ids == y.target_ids
            # CTranslate2 renormalises the probabilities without padding, BOS and UNK
            # (ours masks them after the softmax): close, not equal, on a random model.
            # A forced EOS at the limit is scored differently.
            if len(x.target_ids) < 12:
                assert x.score == pytest.approx(y.score, rel=0.05)
            # Sentences of three lengths in one batch: padding must not show.
            np.testing.assert_allclose(x.attention, y.attention, atol=1e-4)


@pytest.mark.parametrize("shape, beam", [("ours", 3), ("marian-like", 1)])
def test_explain_adds_the_layers_the_search_would_have_given(tokenizer, shape, beam):
    """The panel's other layers, computed later for the translation shown, are those of
    a search that returned every layer (the same teacher-forced pass), and its default
    view is the decoded alignment."""
    torch_t, ct2_t = _pair(tokenizer, shape)
    search = dict(beam=beam, nbest=min(beam, 2), max_len_b=8)
    full = torch_t.translate(SENTENCES, all_layers=True, **search)
    for engine in (torch_t, ct2_t):
        plain = engine.translate(SENTENCES, **search)
        for t, want in zip(plain, full, strict=True):
            assert t.best.layers is None and t.best.target_ids == want.best.target_ids
            explained = engine.explain(t)
            assert explained.text == t.text and explained.nbest[1:] == t.nbest[1:]
            np.testing.assert_allclose(explained.best.layers, want.best.layers, atol=1e-4)
            # the alignment view is the alignment layer's (its mean over heads here)
            layer = explained.best.layers[:, engine.model.align_layer]
            np.testing.assert_allclose(
                engine.model.alignment_of(torch.from_numpy(layer.copy())).numpy(),
                t.best.attention,
                atol=1e-4,
            )
            assert engine.explain(explained) is explained  # nothing to add


@pytest.mark.parametrize("shape, beam", [("ours", 3), ("marian-like", 1)])
def test_all_layers_come_from_one_teacher_forced_pass(tokenizer, shape, beam):
    torch_t, ct2_t = _pair(tokenizer, shape)
    search = dict(beam=beam, nbest=min(beam, 2), all_layers=True, max_len_b=8)
    mine = torch_t.translate(SENTENCES, **search)
    theirs = ct2_t.translate(SENTENCES, **search)
    for a, b in zip(mine, theirs, strict=True):
        for x, y in zip(a.nbest[:1], b.nbest[:1], strict=True):
            assert y.layers is not None and y.layers.shape == x.layers.shape
            np.testing.assert_allclose(x.layers, y.layers, atol=1e-4)
            np.testing.assert_allclose(x.attention, y.attention, atol=1e-4)


def test_forced_prefix_and_length_limit(tokenizer):
    torch_t, ct2_t = _pair(tokenizer, "ours")
    prefix = [tuple(tokenizer.encode("the house").ids)]
    for search in (dict(beam=1), dict(beam=3, nbest=2)):
        a = torch_t.translate(SENTENCES[1:2], prefixes=prefix, max_len_b=9, **search)[0]
        b = ct2_t.translate(SENTENCES[1:2], prefixes=prefix, max_len_b=9, **search)[0]
        assert b.best.target_ids[: len(prefix[0])] == prefix[0]
        assert a.best.target_ids == b.best.target_ids
    # The limit counts the EOS, which ends every output; the attention of the step that
    # was forced to EOS is the model's own.
    plain = tiny_model(tokenizer, "transformer")
    a = Translator(plain, tokenizer, engine="torch").translate(
        SENTENCES, max_len_a=0.0, max_len_b=3
    )
    b = Translator(plain, tokenizer, engine="ctranslate2").translate(
        SENTENCES, max_len_a=0.0, max_len_b=3
    )
    for x, y in zip(a, b, strict=True):
        assert len(y.best.target_ids) == 3 and y.best.target_ids[-1] == tokenizer.eos_id
        assert x.best.target_ids == y.best.target_ids
        np.testing.assert_allclose(x.best.attention, y.best.attention, atol=1e-4)


@pytest.mark.parametrize("search", [dict(beam=1), dict(beam=3, nbest=2)])
def test_a_forced_prefix_is_scored_with_its_own_tokens_in_both_engines(tokenizer, search):
    """A hypothesis decoded after a forced prefix carries the log-probability of all its
    tokens, the forced ones included, in CTranslate2 as in the PyTorch search: scores of
    decodes forced at different places compare (the fix a lost fact's mark offers takes
    the likeliest; CTranslate2 alone counted only the tokens it chose)."""
    torch_t, ct2_t = _pair(tokenizer, "ours")
    prefix = [tuple(tokenizer.encode("the house").ids)]
    kw = dict(max_len_a=0.0, max_len_b=16, **search)
    a = torch_t.translate(SENTENCES[1:2], prefixes=prefix, **kw)[0]
    b = ct2_t.translate(SENTENCES[1:2], prefixes=prefix, **kw)[0]
    assert a.best.target_ids == b.best.target_ids
    # all its tokens scored, an EOS forced at the length limit too (as the PyTorch search)
    assert b.best.logprob == pytest.approx(a.best.logprob, rel=0.05)
    assert b.best.score == pytest.approx(a.best.score, rel=0.05)


@pytest.mark.parametrize("piece", [0, 2])
def test_word_alternatives_agree_between_the_engines(tokenizer, piece):
    """The word menu's alternatives: the best's beginning kept, another piece at the
    position, decoded on to the end. CTranslate2's ``return_alternatives`` and the
    PyTorch ranking of one teacher-forced pass give the same choices in fp32."""
    torch_t, ct2_t = _pair(tokenizer, "ours")
    t = ct2_t.translate(SENTENCES[1:2], max_len_b=10)[0]
    eos = tokenizer.eos_id
    found = {}
    for name, engine in (("torch", torch_t), ("ctranslate2", ct2_t)):
        alts = engine.alternatives(t, piece, k=4)
        assert 0 < len(alts) <= 4
        for c in alts:
            assert c.target_ids[:piece] == t.best.target_ids[:piece]
            assert c.target_ids[piece] not in (t.best.target_ids[piece], eos)
            assert c.target_ids[-1] == eos and c.attention.shape[0] == len(c.target_ids)
        assert len({c.target_ids[piece] for c in alts}) == len(alts)
        found[name] = {c.target_ids[piece]: c.target_ids for c in alts}
    # the same pieces, each continued the same way (greedy after the choice)
    assert found["torch"] == found["ctranslate2"]


def test_no_alternatives_for_text_the_ids_do_not_make(tokenizer):
    from dataclasses import replace

    _, ct2_t = _pair(tokenizer, "ours")
    t = ct2_t.translate(SENTENCES[:1], max_len_b=8)[0]
    restored = replace(t, nbest=(replace(t.best, text="Frau Bäumer"),))  # a placeholder's
    assert ct2_t.alternatives(restored, 0) == ()
    assert ct2_t.alternatives(t, len(t.best.target_ids)) == ()  # past the end
    # at the end marker: CTranslate2 ended the process there (SIGFPE)
    assert t.best.target_ids[-1] == tokenizer.eos_id
    assert ct2_t.alternatives(t, len(t.best.target_ids) - 1) == ()


def test_int8_conversion_leaves_the_pytorch_weights_alone(tokenizer):
    model = _model(tokenizer, "ours")
    before = ct2.state_sha256(model)
    t = Translator(model, tokenizer, precision="int8", engine="ctranslate2")
    assert ct2.state_sha256(model) == before  # the quantisation works on copies
    assert t.engine_name == "CTranslate2 int8"
    # The PyTorch model stays unquantised: it gives the panel its per-layer view.
    assert isinstance(t.model.output, torch.nn.Linear)
    out = t.translate(SENTENCES, all_layers=True, max_len_b=6)
    assert all(o.best.layers is not None for o in out)


def test_converted_once_into_the_cache(tokenizer, make_bundle, tmp_path):
    bundle = make_bundle("transformer")
    Translator.load(bundle, "cpu")
    converted = list((tmp_path / "cache" / "ctranslate2").glob("*/model.bin"))
    assert len(converted) == 1
    stamp = converted[0].stat().st_mtime_ns
    Translator.load(bundle, "cpu")
    assert list((tmp_path / "cache" / "ctranslate2").glob("*/model.bin")) == converted
    assert converted[0].stat().st_mtime_ns == stamp
    # A model in memory (the trainer's evaluations) leaves nothing in the cache.
    t = Translator(_model(tokenizer, "ours", seed=5), tokenizer)
    assert t.engine is not None and t.translate(["Guten Morgen."])[0].best is not None
    assert list((tmp_path / "cache" / "ctranslate2").glob("*/model.bin")) == converted


def test_a_bundle_carries_its_converted_model(tokenizer, make_bundle, tmp_path):
    bundle = make_bundle("transformer")
    t = Translator.load(bundle, "cpu", "int8")
    key = load_bundle(bundle, "cpu").weights_key  # the checked weights hash and the config
    assert key
    ct2.save_converted(t.model, t.tokenizer, bundle / ct2_models.CT2_DIR, "int8", key)
    cache = tmp_path / "cache" / "ctranslate2"
    for d in cache.iterdir():  # forget the cached copy: the bundle's own must serve
        for f in d.iterdir():
            f.unlink()
        d.rmdir()
    Translator.load(bundle, "cpu", "int8").translate(["Guten Morgen."])
    assert not any(cache.iterdir()), list(cache.rglob("*"))


def test_rnn_models_and_missing_ctranslate2_use_pytorch(tokenizer, monkeypatch):
    rnn = tiny_model(tokenizer, "gru-luong-dot")
    t = Translator(rnn, tokenizer)
    assert t.engine is None and t.engine_name == "PyTorch fp32"
    with pytest.raises(ValueError, match="does not run rnn"):
        Translator(rnn, tokenizer, engine="ctranslate2")
    monkeypatch.setattr(ct2, "ctranslate2", None)
    t = Translator(_model(tokenizer, "ours"), tokenizer, precision="int8")
    assert t.engine is None and "not installed" in t.engine_problem
    assert t.translate(["Guten Morgen."])[0].best.target_ids[-1] == tokenizer.eos_id


def test_pytorch_keeps_its_threads_after_ctranslate2_loads(tokenizer):
    """CTranslate2 sets the process's OpenMP threads to its own (1 on 2 cores); the
    trainer evaluates with it mid-run and then trained on one core (stage 17: 2.4 s a
    step became 3.5 s). PyTorch's threads are put back."""
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        t = Translator(tiny_model(tokenizer), tokenizer, precision="int8", engine="ctranslate2")
        t.translate(["ein kleiner Test"], beam=1)
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)

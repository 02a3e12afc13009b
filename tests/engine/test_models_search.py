"""Models and search: shapes, incremental == full, beam 1 == greedy, attention bookkeeping."""

import math
from dataclasses import replace

import numpy as np
import pytest
import torch

from conftest import VARIANTS, tiny_config, tiny_model
from conftest import encode_batch as batch
from translator_app.core import SearchCancelled
from translator_app.core.engine.bundle_format import SearchDefaults
from translator_app.core.engine.search import (
    SearchOptions,
    beam_search,
    greedy_search,
    length_penalty,
    with_choices,
)
from translator_app.core.engine.search_types import (
    Hypothesis,
    coverage_penalty,
    searched_options,
    with_coverage,
)
from translator_app.core.models.config import ConfigError, ModelConfig

SOURCES = ["Das Haus ist groß.", "Guten Morgen!", "Wir treffen uns am 3. Oktober in Berlin."]


def full_logprobs(model, src, mask, tokens):
    """Log-probabilities of ``tokens`` (ending with EOS) by one teacher-forced pass."""
    tgt = torch.tensor([model.config.bos_id, *tokens[:-1]]).unsqueeze(0)
    with torch.no_grad():
        logits, attn = model(src, mask, tgt)
    logp = torch.log_softmax(logits.float(), -1)[0]
    return logp.gather(1, torch.tensor(tokens).unsqueeze(1)).squeeze(1), attn[0]


@pytest.mark.parametrize("variant", VARIANTS)
def test_forward_shapes(tokenizer, variant):
    model = tiny_model(tokenizer, variant)
    src, mask = batch(tokenizer, SOURCES)
    tgt = torch.randint(4, tokenizer.vocab_size, (3, 7))
    logits, attn = model(src, mask, tgt)
    assert logits.shape == (3, 7, tokenizer.vocab_size)
    assert attn.shape == (3, 7, src.size(1))
    assert torch.allclose(attn.sum(-1), torch.ones(3, 7), atol=1e-5)
    assert torch.all(attn.masked_select(~mask.unsqueeze(1).expand_as(attn)) == 0)


@pytest.mark.parametrize("variant", VARIANTS)
def test_incremental_decoding_equals_full_recomputation(tokenizer, variant):
    model = tiny_model(tokenizer, variant)
    src, mask = batch(tokenizer, SOURCES)
    hyps = greedy_search(model, src, mask, SearchOptions(max_len_b=12))
    for i, (hyp,) in enumerate(hyps):
        s = int(mask[i].sum())
        lp, attn = full_logprobs(model, src[i : i + 1, :s], mask[i : i + 1, :s], list(hyp.tokens))
        assert hyp.logprob == pytest.approx(
            float(lp.sum()), rel=1e-5, abs=1e-4
        )  # a sum of ~100 float32 terms
        assert torch.allclose(hyp.attention, attn, atol=1e-5)
        # Greedy really chose the argmax at every step of the full pass.
        tgt = torch.tensor([model.config.bos_id, *hyp.tokens[:-1]]).unsqueeze(0)
        with torch.no_grad():
            logits, _ = model(src[i : i + 1, :s], mask[i : i + 1, :s], tgt)
        logits[..., [tokenizer.pad_id, tokenizer.bos_id, tokenizer.unk_id]] = float("-inf")
        limit = len(hyp.tokens) - 1  # the last step may be a forced EOS at the length limit
        assert logits[0, :limit].argmax(-1).tolist() == list(hyp.tokens[:limit])


@pytest.mark.parametrize("variant", ["transformer", "gru-bahdanau-additive", "lstm-luong-general"])
def test_beam_size_one_equals_greedy(tokenizer, variant):
    model = tiny_model(tokenizer, variant, seed=3)
    src, mask = batch(tokenizer, SOURCES)
    greedy = greedy_search(model, src, mask)
    beam = beam_search(model, src, mask, SearchOptions(beam=1, length_penalty=0.0))
    for (g,), (b,) in zip(greedy, beam, strict=True):
        assert g.tokens == b.tokens
        assert g.logprob == pytest.approx(b.logprob, abs=1e-5)
        assert torch.allclose(g.attention, b.attention, atol=1e-6)


@pytest.mark.parametrize("variant", ["transformer", "gru-bahdanau-additive", "lstm-luong-general"])
def test_beam_hypotheses_carry_their_own_attention_and_scores(tokenizer, variant):
    """Reordering: every n-best entry's attention and score must match a fresh full pass
    over exactly its tokens, whichever beams it passed through."""
    model = tiny_model(tokenizer, variant, seed=5)
    src, mask = batch(tokenizer, SOURCES)
    results = beam_search(model, src, mask, SearchOptions(beam=4, nbest=4, length_penalty=0.6))
    for i, hyps in enumerate(results):
        assert 1 <= len(hyps) <= 4
        assert len({h.tokens for h in hyps}) == len(hyps), "n-best entries must differ"
        assert [h.score for h in hyps] == sorted((h.score for h in hyps), reverse=True)
        s = int(mask[i].sum())
        for h in hyps:
            assert h.tokens[-1] == tokenizer.eos_id
            lp, attn = full_logprobs(model, src[i : i + 1, :s], mask[i : i + 1, :s], list(h.tokens))
            assert h.logprob == pytest.approx(float(lp.sum()), rel=1e-5, abs=1e-4)
            assert h.score == pytest.approx(
                h.logprob / length_penalty(len(h.tokens), 0.6), abs=1e-4
            )
            assert h.attention.shape == (len(h.tokens), s)
            assert torch.allclose(h.attention, attn, atol=1e-5)


def test_beam_search_finds_at_least_as_good_a_sequence_as_greedy(tokenizer):
    model = tiny_model(tokenizer, "transformer", seed=7)
    src, mask = batch(tokenizer, SOURCES)
    greedy = greedy_search(model, src, mask)
    beam = beam_search(model, src, mask, SearchOptions(beam=5, length_penalty=0.0))
    for (g,), b in zip(greedy, beam, strict=True):
        assert b[0].logprob >= g.logprob - 1e-5


def test_batched_equals_one_by_one(tokenizer):
    model = tiny_model(tokenizer, "lstm-bahdanau-concat", seed=2)
    src, mask = batch(tokenizer, SOURCES)
    together = beam_search(model, src, mask, SearchOptions(beam=3, nbest=2))
    for i in range(len(SOURCES)):
        s = int(mask[i].sum())
        alone = beam_search(
            model, src[i : i + 1, :s], mask[i : i + 1, :s], SearchOptions(beam=3, nbest=2)
        )
        assert [h.tokens for h in alone[0]] == [h.tokens for h in together[i]]


@pytest.mark.parametrize("search", ["greedy", "beam"])
def test_forced_prefix_and_length_limit(tokenizer, search):
    model = tiny_model(tokenizer, "transformer", seed=4)
    src, mask = batch(tokenizer, SOURCES[:2])
    prefixes = [[10, 11, 12], []]
    limit = dict(max_len_a=0.0, max_len_b=6)
    if search == "greedy":
        out = greedy_search(model, src, mask, SearchOptions(**limit), prefixes=prefixes)
    else:
        options = SearchOptions(beam=3, nbest=2, **limit)
        out = beam_search(model, src, mask, options, prefixes=prefixes)
    for hyp in out[0]:
        assert hyp.tokens[:3] == (10, 11, 12)
    for hyps in out:
        for hyp in hyps:
            assert len(hyp.tokens) <= 6 and hyp.tokens[-1] == tokenizer.eos_id


@pytest.mark.parametrize("search", [greedy_search, beam_search])
def test_should_stop_abandons_decoding(tokenizer, search):
    model = tiny_model(tokenizer, "transformer")
    src, mask = batch(tokenizer, SOURCES)
    calls = []

    def stop():
        calls.append(1)
        return len(calls) > 2

    with pytest.raises(SearchCancelled):
        search(model, src, mask, SearchOptions(max_len_a=0, max_len_b=50), should_stop=stop)
    assert len(calls) == 3


def test_all_layers_attention(tokenizer):
    model = tiny_model(tokenizer, "transformer", dec_layers=3)
    src, mask = batch(tokenizer, SOURCES[:1])
    (hyp,) = greedy_search(model, src, mask, SearchOptions(all_layers=True))[0]
    t, s = len(hyp.tokens), src.size(1)
    assert hyp.layers.shape == (t, 3, 4, s)
    # The alignment is the heads-average of the configured layer (default: second to last).
    assert torch.allclose(hyp.layers[:, 1].mean(1), hyp.attention, atol=1e-6)
    (b,) = beam_search(model, src, mask, SearchOptions(beam=2, all_layers=True))[0]
    assert b.layers.shape == (len(b.tokens), 3, 4, s)


def test_config_rejects_bad_values_with_field_names():
    with pytest.raises(ConfigError, match="attention='dot'.*dec_hidden"):
        ModelConfig(arch="rnn", attention="dot", enc_hidden=16, dec_hidden=16)
    with pytest.raises(ConfigError, match="d_model .* divisible"):
        ModelConfig(d_model=30, n_heads=4)
    with pytest.raises(ConfigError, match="unknown key.s. in model config.*valid keys are: arch"):
        ModelConfig.from_dict({"arch": "rnn", "hiden": 3})
    with pytest.raises(ConfigError, match="must be int"):
        ModelConfig.from_dict({"vocab_size": "300"})


def test_config_round_trip(tokenizer):
    cfg = tiny_config(tokenizer, "lstm-luong-general")
    assert ModelConfig.from_dict(cfg.to_dict()) == cfg
    with pytest.raises(AttributeError):
        cfg.vocab_size = 1  # frozen


def test_one_rule_for_the_search_settings():
    """The bundle's defaults, changed by a caller's choices; the n-best never exceeds
    the beam (a beam alone narrows it, a wider n-best widens the beam)."""
    model = SearchDefaults(beam=5).options()
    assert (model.beam, model.nbest) == (5, 5)  # n-best unset: as wide as the beam
    assert with_choices(model) == model
    assert with_choices(model, beam=None, nbest=None) == model  # None: the model's
    greedy = with_choices(model, beam=1)
    assert (greedy.beam, greedy.nbest) == (1, 1)
    wide = with_choices(SearchOptions(beam=4, nbest=2), nbest=6)
    assert (wide.beam, wide.nbest) == (6, 6)
    assert (with_choices(model, beam=8).nbest, with_choices(model, nbest=2).beam) == (5, 5)
    assert with_choices(model, length_penalty=1.0).length_penalty == 1.0
    with pytest.raises(ValueError, match="beam must be"):
        with_choices(model, beam=0)
    with pytest.raises(ValueError, match="nbest"):
        SearchDefaults(beam=2, nbest=3)
    assert SearchDefaults.from_dict({"beam": 4}).options().nbest == 4  # bundles before n-best
    # bundles before the coverage penalty have none
    assert SearchDefaults.from_dict({"beam": 4}).options().coverage_penalty == 0.0
    with pytest.raises(ValueError, match="coverage_penalty"):
        with_choices(model, coverage_penalty=-0.1)


def _hypothesis(tokens, logprob, attention):
    return Hypothesis(tuple(tokens), logprob, logprob, np.asarray(attention, np.float32))


def test_the_coverage_penalty_is_gnmts_and_ranks_the_beams_hypotheses():
    """beta * sum_j log(min(sum_t a[t, j], 1)) (Wu et al., 2016): a source token half
    attended to costs beta * log(0.5); one attended to in full costs nothing."""
    half = [[0.5, 0.2], [0.5, 0.3]]  # token 0 covered once, token 1 half
    assert coverage_penalty(half, 0.3) == pytest.approx(0.3 * math.log(0.5))
    assert coverage_penalty(half, 0.0) == 0.0
    assert coverage_penalty([[1.0, 0.0]], 1.0) == pytest.approx(math.log(1e-9))  # finite
    # A likelier hypothesis that leaves a source token unread loses to one that reads all
    dropped = _hypothesis([5, 3], -1.0, [[1.0, 0.0, 0.0], [0.9, 0.05, 0.05]])
    whole = _hypothesis([5, 6, 3], -1.3, [[0.9, 0.1, 0.0], [0.1, 0.9, 0.0], [0.0, 0.0, 1.0]])
    options = SearchOptions(beam=4, nbest=1, coverage_penalty=0.3)
    assert searched_options(options).nbest == 4  # every hypothesis of the beam is weighed
    (row,) = with_coverage([[dropped, whole]], options)
    assert row == [replace(whole, score=(-1.3 + coverage_penalty(whole.attention, 0.3))
                           / length_penalty(3, 0.6))]  # fmt: skip
    # without the penalty, and in greedy search, the ranking is the model's
    plain = SearchOptions(beam=4, nbest=2)
    assert with_coverage([[dropped, whole]], plain) == [[dropped, whole]]
    greedy = SearchOptions(coverage_penalty=0.3)
    assert with_coverage([[dropped]], greedy) == [[dropped]] and searched_options(greedy) == greedy

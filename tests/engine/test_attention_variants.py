"""The cosine score and local attention (issue 51 §1): their equations on hand-computed
values, configs that say what is wrong, a search that keeps the window, and tiny models
of each that learn a few pairs."""

from __future__ import annotations

import math

import pytest
import torch

from conftest import train_tiny
from translator_app.core.engine.search import SearchOptions, beam_search, greedy_search
from translator_app.core.models.attention import CosineScorer, LocalWindow, build_scorer
from translator_app.core.models.config import ConfigError, ModelConfig


def _softmax(xs: list[float]) -> list[float]:
    e = [math.exp(x) for x in xs]
    return [v / sum(e) for v in e]


def test_a_cosine_score_is_the_scaled_cosine_of_query_and_key():
    scorer = CosineScorer(2, 2)
    with torch.no_grad():
        scorer.proj.weight.copy_(torch.eye(2))
    keys = torch.tensor([[[1.0, 0.0], [0.0, 2.0], [3.0, 3.0]]])  # lengths differ: cosines
    query = torch.tensor([[2.0, 0.0]])
    mask = torch.ones(1, 3, dtype=torch.bool)
    context, weights = scorer(query, keys, mask)
    expected = _softmax([10 * 1.0, 10 * 0.0, 10 * (1 / math.sqrt(2))])
    assert weights[0].tolist() == pytest.approx(expected, abs=1e-6)
    assert context[0].tolist() == pytest.approx(
        [expected[0] * 1 + expected[2] * 3, expected[1] * 2 + expected[2] * 3], abs=1e-5
    )
    # the scale is learned: the gradient reaches it
    weights[0, 0].backward()
    assert scorer.log_scale.grad is not None and scorer.log_scale.grad != 0


def test_local_m_attends_only_around_the_target_step():
    window = LocalWindow("local-m", 2, 2, window=1)
    scores = torch.tensor([[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]]])
    mask = torch.tensor([[True] * 6 + [False]])  # six real positions
    weights = window(scores, mask, torch.zeros(1, 1, 2), torch.tensor([3.0]))
    expected = _softmax([2.0, 3.0, 4.0])  # positions 2, 3 and 4
    assert weights[0, 0].tolist() == pytest.approx([0, 0, *expected, 0, 0], abs=1e-6)
    # past the end of the source the centre stays on its last real position (5)
    late = window(scores, mask, torch.zeros(1, 1, 2), torch.tensor([9.0]))
    assert late[0, 0].tolist() == pytest.approx([0, 0, 0, 0, *_softmax([4.0, 5.0]), 0], abs=1e-6)


def test_local_p_predicts_a_centre_and_weighs_by_a_gaussian():
    window = LocalWindow("local-p", 2, 3, window=2)
    with torch.no_grad():  # v_p = 0: sigmoid(0) = 1/2, so p_t = S / 2 = 3.5
        window.v_p.weight.zero_()
    scores = torch.zeros(1, 1, 7)
    mask = torch.ones(1, 7, dtype=torch.bool)
    weights = window(scores, mask, torch.randn(1, 1, 2), torch.tensor([0.0]))
    # |s - 3.5| <= 2: positions 2..5, equal scores, Gaussian with sigma = 1
    gauss = [math.exp(-((s - 3.5) ** 2) / 2) for s in (2, 3, 4, 5)]
    expected = [g / sum(gauss) for g in gauss]
    assert weights[0, 0].tolist() == pytest.approx([0, 0, *expected, 0], abs=1e-6)


def test_build_scorer_makes_every_kind_global_or_local():
    for kind in ("additive", "dot", "general", "concat", "scaled_dot", "cosine"):
        for locality in ("global", "local-m", "local-p"):
            scorer = build_scorer(kind, 4, 4, 3, locality, window=2)
            assert (scorer.window is None) == (locality == "global")
            _, weights = scorer(
                torch.randn(2, 4), torch.randn(2, 5, 4), torch.ones(2, 5, dtype=bool)
            )
            assert weights.sum(-1).tolist() == pytest.approx([1.0, 1.0], abs=1e-5)


def test_a_config_names_a_wrong_locality_or_window():
    with pytest.raises(ConfigError, match="locality='local-x'"):
        ModelConfig(arch="rnn", locality="local-x")
    with pytest.raises(ConfigError, match="window=0"):
        ModelConfig(arch="rnn", locality="local-m", window=0)


@pytest.mark.slow  # trains: outside the fast lane
@pytest.mark.parametrize(
    "overrides",
    [
        {"attention": "cosine"},
        {"attention": "cosine", "decoder_style": "luong"},
        {"locality": "local-m", "window": 2},
        {"locality": "local-p", "window": 2},
    ],
    ids=["cosine", "cosine-luong", "local-m", "local-p"],
)
def test_a_tiny_model_of_each_variant_learns_a_few_pairs_and_translates(tokenizer, overrides):
    model, cfg, src, src_mask, tgt, losses = train_tiny(tokenizer, 120, **overrides)
    assert losses[-1] < 0.1 * losses[0], (losses[0], losses[-1])
    greedy = greedy_search(model, src, src_mask, SearchOptions(beam=1))
    beam = beam_search(model, src, src_mask, SearchOptions(beam=3, all_layers=True))
    for k, gold in enumerate(tgt):
        assert list(greedy[k][0].tokens) == gold
        h = beam[k][0]  # beam search reorders the decoder state, the step with it
        rows = h.attention  # [T, S]: one distribution per output token, as every search
        assert rows.shape[0] == len(h.tokens)
        assert rows.sum(-1).tolist() == pytest.approx([1.0] * len(h.tokens), abs=1e-4)
        if overrides.get("locality") == "local-m":
            n = int(src_mask[k].sum())
            for t, row in enumerate(rows[:, :n]):
                centre = min(t, n - 1)
                outside = [s for s in range(n) if abs(s - centre) > 2]
                assert float(row[outside].sum()) == 0.0, (t, row)

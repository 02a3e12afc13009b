import math

import pytest
import torch

from translator_app.core.models.attention import build_scorer, masked_softmax

SCORERS = ["additive", "dot", "general", "concat", "scaled_dot"]


@pytest.mark.parametrize("kind", SCORERS)
@pytest.mark.parametrize("query_steps", [None, 3])
def test_scorer_shapes_mask_and_normalisation(kind, query_steps):
    torch.manual_seed(0)
    b, s, d = 2, 5, 8
    scorer = build_scorer(kind, query_dim=d, key_dim=d, attn_dim=6)
    keys = torch.randn(b, s, d)
    mask = torch.tensor([[True] * 5, [True, True, True, False, False]])
    query = torch.randn(b, d) if query_steps is None else torch.randn(b, query_steps, d)
    context, weights = scorer(query, keys, mask)
    lead = (b,) if query_steps is None else (b, query_steps)
    assert context.shape == (*lead, d)
    assert weights.shape == (*lead, s)
    w = weights if query_steps else weights.unsqueeze(1)
    assert torch.all(w[1, :, 3:] == 0), "padding must get exactly zero weight"
    assert torch.allclose(w.sum(-1), torch.ones(w.shape[:-1]), atol=1e-6)
    assert torch.all(w >= 0)
    # The context is the weighted sum of the keys (which are the values).
    expected = torch.einsum("bts,bsd->btd", w, keys)
    ctx = context if query_steps else context.unsqueeze(1)
    assert torch.allclose(ctx, expected, atol=1e-6)


@pytest.mark.parametrize("kind", SCORERS)
def test_prepared_keys_give_the_same_result(kind):
    torch.manual_seed(1)
    scorer = build_scorer(kind, 8, 8, 4)
    keys, query = torch.randn(3, 4, 8), torch.randn(3, 8)
    mask = torch.ones(3, 4, dtype=torch.bool)
    direct = scorer(query, keys, mask)
    prepared = scorer(query, keys, mask, scorer.prepare_keys(keys))
    for a, b in zip(direct, prepared, strict=True):
        assert torch.allclose(a, b)


def test_dot_and_scaled_dot_golden_values():
    keys = torch.tensor([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]])
    query = torch.tensor([[2.0, 0.0]])
    mask = torch.tensor([[True, True, False]])
    _, w = build_scorer("dot", 2, 2, 1)(query, keys, mask)
    e = math.exp(2.0)
    assert torch.allclose(w, torch.tensor([[e / (e + 1), 1 / (e + 1), 0.0]]), atol=1e-6)
    _, w = build_scorer("scaled_dot", 2, 2, 1)(query, keys, mask)
    e = math.exp(2.0 / math.sqrt(2))
    assert torch.allclose(w, torch.tensor([[e / (e + 1), 1 / (e + 1), 0.0]]), atol=1e-6)


def test_additive_golden_value():
    scorer = build_scorer("additive", 1, 1, 1)
    with torch.no_grad():
        scorer.query_proj.weight.fill_(1.0)
        scorer.key_proj.weight.fill_(1.0)
        scorer.key_proj.bias.zero_()
        scorer.v.weight.fill_(2.0)
    keys = torch.tensor([[[0.0], [1.0]]])
    _, w = scorer(torch.tensor([[0.5]]), keys, torch.ones(1, 2, dtype=torch.bool))
    s0, s1 = 2 * math.tanh(0.5), 2 * math.tanh(1.5)
    p1 = math.exp(s1) / (math.exp(s0) + math.exp(s1))
    assert torch.allclose(w, torch.tensor([[1 - p1, p1]]), atol=1e-6)


def test_masked_softmax_fully_masked_row_is_zero_not_nan():
    w = masked_softmax(torch.randn(1, 1, 3), torch.zeros(1, 3, dtype=torch.bool))
    assert torch.equal(w, torch.zeros(1, 1, 3))


def test_scorers_keep_no_state_between_calls():
    scorer = build_scorer("additive", 4, 4, 4)
    before = {k: v.clone() for k, v in scorer.state_dict().items()}
    scorer(torch.randn(2, 4), torch.randn(2, 3, 4), torch.ones(2, 3, dtype=torch.bool))
    assert set(vars(scorer)) == set(vars(build_scorer("additive", 4, 4, 4)))
    assert all(torch.equal(before[k], v) for k, v in scorer.state_dict().items())


def test_the_transformer_leaves_cudnn_attention_off_in_a_fresh_process():
    """cuDNN's fused attention builds a graph for every new shape (issue 63: an H100 spent
    530 ms a training step for 31 ms of work); loading the model module turns it off, in
    the app, the command line and the trainer alike."""
    import subprocess
    import sys

    code = (
        "import torch; before = torch.backends.cuda.cudnn_sdp_enabled(); "
        "import translator_app.core.models.transformer; "
        "print(before, torch.backends.cuda.cudnn_sdp_enabled())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False"]

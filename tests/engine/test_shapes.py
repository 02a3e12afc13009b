"""The Transformer's tensor shapes computed without PyTorch (issue 49) equal those of a
real build, for every option that changes them."""

from __future__ import annotations

import itertools

import pytest

from translator_app.core.models.config import ModelConfig
from translator_app.core.models.shapes import transformer_shapes


@pytest.mark.parametrize(
    ("positions", "norm", "tie", "bias"),
    list(
        itertools.product(("sinusoidal", "learned"), ("pre", "post"), (True, False), (True, False))
    ),
)
def test_the_shapes_are_those_of_a_real_build(positions, norm, tie, bias):
    from translator_app.core.engine.bundle_torch import _expected_shapes

    cfg = ModelConfig(
        vocab_size=300, d_model=32, n_heads=4, ff_dim=48, enc_layers=3, dec_layers=2,
        positions=positions, norm=norm, tie_embeddings=tie, output_bias=bias, max_positions=64,
    )  # fmt: skip
    built = {k: tuple(v.shape) for k, v in _expected_shapes(cfg, None).items()}
    assert transformer_shapes(cfg) == built


def test_an_rnn_config_is_refused():
    with pytest.raises(ValueError, match="not a Transformer"):
        transformer_shapes(ModelConfig(arch="rnn"))


def test_the_bundled_models_header_matches():
    import json
    from pathlib import Path

    from safetensors import safe_open

    bundle = Path(__file__).parents[2] / "resources" / "model"
    cfg = ModelConfig.from_dict(json.loads((bundle / "config.json").read_text("utf-8"))["model"])
    with safe_open(str(bundle / "model.safetensors"), framework="numpy") as f:
        header = {k: tuple(f.get_slice(k).get_shape()) for k in f.keys()}  # noqa: SIM118
    assert transformer_shapes(cfg) == header

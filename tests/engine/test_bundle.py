"""Bundles: round trip, and every kind of broken bundle gives one clear BundleError."""

import json
import pickle
from pathlib import Path

import pytest
import torch

from translator_app.core import BundleError
from translator_app.core.engine.bundle import load_bundle
from translator_app.core.engine.bundle_format import BUNDLE_FILES, SearchDefaults
from translator_app.core.engine.bundle_torch import save_bundle


def logits_of(model, tokenizer):
    ids = tokenizer.encode("Das Haus ist groß.").ids + (tokenizer.eos_id,)
    src = torch.tensor([ids])
    tgt = torch.tensor([[tokenizer.bos_id, 10, 20, 30]])
    with torch.no_grad():
        return model(src, src != 0, tgt)[0]


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["transformer", "gru-bahdanau-additive", "lstm-luong-general"])
def test_round_trip_gives_identical_logits(make_bundle, tokenizer, variant):
    from conftest import tiny_model

    path = make_bundle(variant)
    bundle = load_bundle(path, "cpu")
    assert torch.equal(
        logits_of(bundle.model, tokenizer), logits_of(tiny_model(tokenizer, variant), tokenizer)
    )
    assert bundle.config.to_dict()["arch"] == ("rnn" if "-" in variant else "transformer")
    assert bundle.name == "tiny" and bundle.card.startswith("# Tiny")
    assert bundle.device == torch.device("cpu")
    assert bundle.tokenizer.vocab_size == tokenizer.vocab_size
    # Tied embeddings are stored once and tied again on load.
    assert bundle.model.output.weight.data_ptr() == bundle.model.embedding.weight.data_ptr()


def test_fp16_bundle_is_smaller_and_close(make_bundle, tokenizer):
    full, half = make_bundle(), make_bundle(fp16=True)
    assert (half / "model.safetensors").stat().st_size < 0.6 * (
        full / "model.safetensors"
    ).stat().st_size
    a = logits_of(load_bundle(full, "cpu").model, tokenizer)
    b = logits_of(load_bundle(half, "cpu").model, tokenizer)
    assert torch.allclose(a, b, atol=2e-2)


def test_save_refuses_to_overwrite_and_is_atomic(make_bundle, tmp_path, tokenizer, spm_bytes):
    path = make_bundle()
    with pytest.raises(BundleError, match="already exists"):
        save_bundle(path, load_bundle(path, "cpu").model, spm_bytes, name="x", card="", metrics={})
    leftovers = [p.name for p in path.parent.iterdir() if p.name.startswith(".")]
    assert leftovers == []


def test_search_defaults_are_stored(tmp_path, tokenizer, spm_bytes):
    from conftest import tiny_model

    out = save_bundle(
        tmp_path / "b",
        tiny_model(tokenizer),
        spm_bytes,
        name="x",
        card="c",
        metrics={},
        search=SearchDefaults(beam=2, length_penalty=1.0, coverage_penalty=0.3),
    )
    loaded = load_bundle(out, "cpu").search
    assert loaded == SearchDefaults(beam=2, length_penalty=1.0, coverage_penalty=0.3)
    assert loaded.options().coverage_penalty == 0.3


def test_auto_device_picks_cpu_without_cuda(make_bundle):
    bundle = load_bundle(make_bundle(), "auto")
    assert bundle.device.type == ("cuda" if torch.cuda.is_available() else "cpu")


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without CUDA")
def test_cuda_request_falls_back_to_cpu_with_warning(make_bundle):
    with pytest.warns(UserWarning, match="CUDA is not available"):
        bundle = load_bundle(make_bundle(), "cuda")
    assert bundle.device.type == "cpu"
    assert "CUDA" in bundle.warnings[0]


def _rewrite_config(path, **changes):
    cfg = json.loads((path / "config.json").read_text())
    for key, value in changes.items():
        if key == "model":
            cfg["model"].update(value)
        else:
            cfg[key] = value
    (path / "config.json").write_text(json.dumps(cfg))


def _truncate(p):
    data = (p / "model.safetensors").read_bytes()
    (p / "model.safetensors").write_bytes(data[: len(data) // 2])


def _flip_byte(p):
    data = bytearray((p / "model.safetensors").read_bytes())
    data[-10] ^= 0xFF
    (p / "model.safetensors").write_bytes(bytes(data))


def _garbage_header(p):
    (p / "model.safetensors").write_bytes(b"\xff" * 64)
    _rewrite_config(p, files={})


def _pickle_weights(p):
    # A pickle that would run code if anything unpickled it.
    class Evil:
        def __reduce__(self):
            return (exec, ("open('PWNED', 'w').write('x')",))

    (p / "model.safetensors").write_bytes(pickle.dumps(Evil()))
    _rewrite_config(p, files={})


BROKEN = {
    "truncated weights": (_truncate, "model.safetensors: is .* bytes, config.json says"),
    "corrupt weights": (_flip_byte, "model.safetensors: checksum does not match"),
    "garbage weights": (_garbage_header, "model.safetensors: weights are truncated or corrupt"),
    "pickled weights": (_pickle_weights, "model.safetensors: weights are truncated or corrupt"),
    "wrong shapes": (lambda p: _rewrite_config(p, model={"ff_dim": 48}), "tensor .* has shape"),
    "missing tensors": (
        lambda p: _rewrite_config(p, model={"enc_layers": 3}),
        "missing tensors enc_layers.2",
    ),
    "unexpected tensors": (
        lambda p: _rewrite_config(p, model={"enc_layers": 1}),
        "unexpected tensors enc_layers.1",
    ),
    "unknown format version": (
        lambda p: _rewrite_config(p, format_version=99),
        "format version 99",
    ),
    "not a bundle": (
        lambda p: _rewrite_config(p, format="something-else"),
        "not a translator bundle",
    ),
    "bad model config": (lambda p: _rewrite_config(p, model={"arch": "lstm"}), "arch='lstm'"),
    "unknown config key": (
        lambda p: _rewrite_config(p, model={"layers": 2}),
        "unknown key.s. in model config",
    ),
    "invalid json": (
        lambda p: (p / "config.json").write_text("{not json"),
        "config.json: is not valid JSON \\(line 1",
    ),
    "bad metrics": (
        lambda p: (p / "metrics.json").write_text("[1, 2"),
        "metrics.json: is not valid JSON",
    ),
    "bad search": (lambda p: _rewrite_config(p, search={"beam": 0}), "invalid search settings"),
    "vocab mismatch": (
        lambda p: _rewrite_config(p, model={"vocab_size": 500}),
        "spm.model: has .* pieces but the model expects 500",
    ),
    "corrupt spm": (
        lambda p: ((p / "spm.model").write_bytes(b"nonsense"), _rewrite_config(p, files={})),
        "spm.model: is not a valid SentencePiece model",
    ),
}


@pytest.mark.parametrize("kind", BROKEN)
def test_broken_bundles_raise_one_clear_error(make_bundle, kind, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = make_bundle()
    breaker, message = BROKEN[kind]
    breaker(path)
    with pytest.raises(BundleError, match=message) as info:
        load_bundle(path, "cpu")
    assert str(path) in str(info.value)
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize("missing", BUNDLE_FILES)
def test_missing_file_is_named(make_bundle, missing):
    path = make_bundle()
    (path / missing).unlink()
    with pytest.raises(BundleError, match=f"{missing}: is missing"):
        load_bundle(path, "cpu")


def test_not_a_directory(tmp_path):
    with pytest.raises(BundleError, match="no such model directory"):
        load_bundle(tmp_path / "nope", "cpu")
    (tmp_path / "file").write_text("x")
    with pytest.raises(BundleError, match="is not a model directory"):
        load_bundle(tmp_path / "file", "cpu")


def test_non_finite_weights_are_rejected(make_bundle, tokenizer, spm_bytes, tmp_path):
    from conftest import tiny_model

    model = tiny_model(tokenizer)
    with torch.no_grad():
        model.enc_norm.weight[0] = float("nan")
    out = save_bundle(tmp_path / "nan", model, spm_bytes, name="x", card="c", metrics={})
    with pytest.raises(BundleError, match="NaN or infinite"):
        load_bundle(out, "cpu")


def test_the_bundled_model_is_found_in_the_checkout():
    from translator_app.core import bundled_model_dir

    root = Path(__file__).resolve().parents[2]
    assert bundled_model_dir() == root / "resources" / "model"
    assert (bundled_model_dir() / "config.json").is_file()

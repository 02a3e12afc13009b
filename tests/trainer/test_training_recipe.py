"""The base-model v2 recipe: schedule offset for warm starts, bf16 chosen by CPU flags,
target word dropout, padding share, weight snapshots and their average, warm start."""

import math

import pytest
import torch

from conftest import tiny_pairs, write_config
from trainer import cli
from trainer.checkpoints import load_checkpoint, snapshots
from trainer.config import load_config
from trainer.dataset import Encoded, padding_fraction
from trainer.train import drop_words, lr_factor, use_bf16
from translator_app.core import Translator
from translator_app.core.engine.bundle import load_bundle
from translator_app.core.models.config import ConfigError


def config_with(tmp_path, extra: str, **kwargs):
    """write_config's tiny run with more [train] keys (the [train] table comes last)."""
    path = write_config(tmp_path, **kwargs)
    path.write_text(path.read_text() + extra)
    return path


def test_lr_schedule_without_offset_is_warmup_then_inverse_sqrt():
    f = lr_factor("inverse_sqrt", 4, 100)
    assert [round(f(s), 6) for s in range(6)] == [0.25, 0.5, 0.75, 1.0, 0.894427, 0.816497]


def test_lr_schedule_with_offset_goes_on_decaying_after_a_short_warmup():
    f = lr_factor("inverse_sqrt", 4, 100, offset=96)
    assert f(0) == pytest.approx(0.25 * math.sqrt(4 / 97))
    assert f(3) == pytest.approx(math.sqrt(4 / 100))  # warm-up done: the decay at step 100
    assert f(10) == pytest.approx(math.sqrt(4 / 107))
    cosine = lr_factor("cosine", 4, 100, offset=100)
    assert cosine(99) == pytest.approx(0.5 * (1 + math.cos(math.pi * 196 / 196)), abs=1e-9)


@pytest.mark.parametrize(
    ("flags", "vendor", "expected"),
    [
        ({"avx512_bf16", "avx512f"}, "AuthenticAMD", True),
        ({"avx512_bf16", "avx512f"}, "GenuineIntel", False),  # measured slower than fp32
        ({"amx_bf16", "avx512_bf16"}, "GenuineIntel", True),
        ({"avx512f", "avx2"}, "AuthenticAMD", False),
    ],
)
def test_auto_bf16_follows_the_cpu_flags(monkeypatch, flags, vendor, expected):
    from translator_app.core.platform import hardware

    monkeypatch.setattr(hardware, "cpu_flags", lambda: frozenset(flags))
    monkeypatch.setattr(hardware, "cpu_vendor", lambda: vendor)
    assert use_bf16("auto", torch.device("cpu")) is expected
    assert use_bf16("off", torch.device("cpu")) is False
    assert use_bf16("on", torch.device("cpu")) is True


def test_word_dropout_keeps_bos_and_padding():
    pad, unk, bos = 0, 1, 2
    tgt_in = torch.full((64, 50), 7)
    tgt_in[:, 0] = bos
    tgt_in[:, 40:] = pad
    assert torch.equal(drop_words(tgt_in, 0.0, pad, unk), tgt_in)
    torch.manual_seed(0)
    dropped = drop_words(tgt_in, 0.3, pad, unk)
    assert torch.equal(dropped[:, 0], tgt_in[:, 0]) and torch.equal(dropped[:, 40:], tgt_in[:, 40:])
    share = (dropped[:, 1:40] == unk).float().mean().item()
    assert 0.25 < share < 0.35
    assert set(dropped[:, 1:40].unique().tolist()) == {unk, 7}


def test_padding_fraction_counts_both_sides():
    data = Encoded(src=[[5, 6, 3], [5, 3], [9, 3]], tgt=[[5, 3], [5, 6, 7, 3], [4, 3]])
    # batch [0, 1]: src 6 slots, 5 tokens; tgt 8 slots, 6 tokens. batch [2]: no padding.
    assert padding_fraction(data, [[0, 1], [2]]) == pytest.approx(1 - 15 / 18)
    assert padding_fraction(data, [[2]]) == 0.0


def test_new_train_keys_are_checked(tmp_path):
    with pytest.raises(ConfigError, match="word_dropout"):
        load_config(config_with(tmp_path, "word_dropout = 1.5\n"))
    with pytest.raises(ConfigError, match="keep_snapshots"):
        load_config(config_with(tmp_path, "keep_snapshots = -1\n"))


@pytest.mark.slow
def test_snapshots_are_kept_and_their_average_exports(tmp_path, capsys):
    cfg = config_with(tmp_path, "keep_snapshots = 2\n", steps=30, eval_every=30)
    assert cli.main(["train", str(cfg)]) == 0
    folder = tmp_path / "run" / "checkpoints"
    kept = snapshots(folder)
    assert [p.name for p in kept] == ["step-20.pt", "step-30.pt"]
    snap = load_checkpoint(kept[-1])
    assert "optimizer" not in snap and "model" in snap

    out = tmp_path / "avg.pt"
    assert cli.main(["average", str(folder), "--last", "2", "--out", str(out)]) == 0
    assert "steps 20, 30" in capsys.readouterr().out
    averaged = load_checkpoint(out)["model"]
    a, b = (load_checkpoint(p)["model"] for p in kept)
    assert any(not torch.equal(a[k], b[k]) for k in a)  # two different models were averaged
    for key in a:
        if a[key].is_floating_point():
            assert torch.allclose(averaged[key], (a[key] + b[key]) / 2, atol=1e-6), key

    assert cli.main(["export", str(out), "--out", str(tmp_path / "bundle")]) == 0
    Translator.from_bundle(load_bundle(tmp_path / "bundle", "cpu")).translate(
        ["Guten Morgen!"], beam=1
    )


def test_average_refuses_other_models(tmp_path, trained_checkpoint, capsys):
    """An RNN snapshot and the Transformer fixture: other parameters, no mean."""
    cfg = config_with(tmp_path, "keep_snapshots = 1\n", arch="rnn", steps=10, eval_every=10)
    assert cli.main(["train", str(cfg)]) == 0
    mine = snapshots(tmp_path / "run" / "checkpoints")[-1]
    out = tmp_path / "avg.pt"
    assert cli.main(["average", str(mine), str(trained_checkpoint), "--out", str(out)]) != 0
    assert "cannot average" in capsys.readouterr().err and not out.exists()


@pytest.fixture
def trained_checkpoint(overfit_run):
    return overfit_run / "checkpoints" / "last.pt"


def test_warm_start_begins_from_the_bundle(tmp_path, overfit_run):
    """One step at a tiny learning rate: a warm-started model still translates like the
    bundle it started from (a model from scratch would not)."""
    cfg = config_with(tmp_path, "schedule_offset = 300\n", steps=1, eval_every=1)
    assert cli.main(["train", str(cfg), "--init", str(overfit_run / "model")]) == 0
    pairs = tiny_pairs()
    outputs = Translator.from_bundle(load_bundle(tmp_path / "run" / "model", "cpu")).translate(
        [de for de, _ in pairs], beam=1
    )
    assert [t.text for t in outputs] == [en for _, en in pairs]
    info = load_checkpoint(tmp_path / "run" / "checkpoints" / "last.pt")["info"]
    assert "warm_start" in info


def test_warm_start_from_a_model_of_another_shape_is_one_clear_error(tmp_path, overfit_run, capsys):
    cfg = write_config(tmp_path, steps=1)
    cfg.write_text(cfg.read_text().replace("d_model = 64", "d_model = 32"))
    assert cli.main(["train", str(cfg), "--init", str(overfit_run / "model")]) != 0
    err = capsys.readouterr().err
    assert "do not fit this model" in err and "Traceback" not in err
    assert not (tmp_path / "run" / "checkpoints").exists()


def _tiny_transformer(**changes):
    from translator_app.core.models.config import ModelConfig
    from translator_app.core.models.model import build_model

    cfg = ModelConfig.from_dict(
        {"arch": "transformer", "vocab_size": 40, "d_model": 16, "n_heads": 2, "ff_dim": 32}
        | {"enc_layers": 1, "dec_layers": 1, "dropout": 0.0, "alignment_layer": -1}
        | changes
    )
    torch.manual_seed(0)
    return build_model(cfg).eval()


def test_a_grown_model_starts_as_the_smaller_one():
    """Extra layers start as identities: the deeper model's logits equal the smaller one's
    (and, grown without zeroing, they would not)."""
    from trainer.train import load_weights

    small = _tiny_transformer()
    deep = _tiny_transformer(enc_layers=3, dec_layers=2)
    src = torch.randint(4, 40, (2, 7))
    tgt = torch.randint(4, 40, (2, 5))
    with pytest.raises(ValueError, match="is missing"):
        load_weights(deep, small.state_dict())
    load_weights(deep, small.state_dict(), grow=True)
    mask = torch.ones_like(src, dtype=torch.bool)
    with torch.no_grad():
        want, _ = small(src, mask, tgt)
        got, _ = deep(src, mask, tgt)
    torch.testing.assert_close(got, want)
    assert deep.enc_layers[2].ff.net[0].weight.abs().sum() > 0  # only the outputs are zero
    with pytest.raises(ValueError, match="fewer layers"):
        load_weights(small, deep.state_dict())


def test_only_pre_norm_models_grow():
    from trainer.train import load_weights

    small = _tiny_transformer(norm="post")
    deep = _tiny_transformer(norm="post", enc_layers=2)
    with pytest.raises(ValueError, match="pre-norm"):
        load_weights(deep, small.state_dict(), grow=True)


def test_repeat_weights_the_files_and_a_shared_pair_belongs_to_the_first(tmp_path):
    from trainer.prepare import note_files, repeat_pairs
    from translator_app.core.data.corpus import filter_pairs, read_each

    a, b = tmp_path / "a.tsv", tmp_path / "b.tsv"
    a.write_text("Hallo\tHello\nJa\tYes\n", "utf-8")
    b.write_text("Nein\tNo\n Ja\tYes \n", "utf-8")  # "Ja" is a's too (after stripping)
    owner = {}
    kept = filter_pairs(note_files(read_each([a, b]), owner))
    assert kept == [("Hallo", "Hello"), ("Ja", "Yes"), ("Nein", "No")]
    pairs = list(kept)
    assert repeat_pairs(pairs, owner, (1, 3)) == 2
    assert pairs[3:] == [("Nein", "No"), ("Nein", "No")]
    pairs = list(kept)
    assert repeat_pairs(pairs, owner, (2, 1)) == 2
    assert pairs[3:] == [("Hallo", "Hello"), ("Ja", "Yes")]
    assert repeat_pairs(pairs, owner, ()) == 0 and len(pairs) == 5


def test_repeat_needs_one_whole_count_per_train_file(tmp_path):
    data = "[data]\n"
    for extra, message in [
        ("repeat = [1, 2]\n", "2 counts for 1 train files"),
        ("repeat = [0]\n", "at least 1"),
        ("repeat = [1.5]\n", "whole numbers"),
    ]:
        path = write_config(tmp_path)
        path.write_text(path.read_text().replace(data, data + extra, 1))
        with pytest.raises(ConfigError, match=message):
            load_config(path)

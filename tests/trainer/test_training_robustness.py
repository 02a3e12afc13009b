"""Hardening of training and fine-tuning (#15): checkpoints by steps, resume without the
name, atomic files, a full disk, leftovers, file modes. Each fails on the code before."""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path

import pytest

from conftest import write_config
from trainer import cli

PAIRS = [
    (f"{de} Zahl {i}.", f"{en} Number {i}.")
    for i in range(6)
    for de, en in [
        ("Der Vogel singt.", "The bird sings."),
        ("Die Blume ist rot.", "The flower is red."),
        ("Der Fluss ist breit.", "The river is wide."),
        ("Das Auto ist schnell.", "The car is fast."),
    ]
]


@pytest.fixture
def user_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("TRANSLATOR_DATA_DIR", str(tmp_path / "userdata"))
    monkeypatch.setenv("TRANSLATOR_CACHE_DIR", str(tmp_path / "cache"))
    data = tmp_path / "mine.tsv"
    data.write_text("".join(f"{de}\t{en}\n" for de, en in PAIRS), "utf-8")
    return data


def finetune(base: Path, data: Path, *extra: str) -> int:
    return cli.main(
        ["finetune", "--model", str(base), "--data", str(data), "--valid", str(data)]
        + ["--batch-tokens", "64", "--patience", "0", "--device", "cpu", "--bf16", "off"]
        + list(extra)
    )


def test_finetune_checkpoints_by_steps_too(overfit_run, user_dirs, monkeypatch):
    """It checkpointed once per epoch only: a kill lost a whole epoch."""
    import trainer.train as train_module

    saved = []
    original = train_module.save_checkpoint

    def record(path, payload):
        saved.append((path.name, json.loads(payload["state"])["step"]))
        original(path, payload)

    monkeypatch.setattr(train_module, "save_checkpoint", record)
    assert (
        finetune(overfit_run / "model", user_dirs, "--epochs", "1", "--checkpoint-every", "2") == 0
    )
    steps = [step for name, step in saved if name == "last.pt"]
    assert steps[:3] == [2, 4, 6]


def test_resume_finds_the_stopped_finetune_without_its_name(
    overfit_run, user_dirs, tmp_path, monkeypatch
):
    import trainer.finetune as finetune_module

    def killed(*args, **kwargs):
        raise KeyboardInterrupt  # the process dies after training, before the export

    monkeypatch.setattr(finetune_module, "export_model", killed)
    assert finetune(overfit_run / "model", user_dirs, "--steps", "4") == 130
    runs = list((tmp_path / "cache" / "finetune").iterdir())
    assert len(runs) == 1 and (runs[0] / "checkpoints" / "last.pt").is_file()
    monkeypatch.undo()
    monkeypatch.setenv("TRANSLATOR_DATA_DIR", str(tmp_path / "userdata"))
    monkeypatch.setenv("TRANSLATOR_CACHE_DIR", str(tmp_path / "cache"))
    assert finetune(overfit_run / "model", user_dirs, "--steps", "4", "--resume") == 0
    models = list((tmp_path / "userdata" / "models").iterdir())
    assert [m.name for m in models] == [runs[0].name]
    # The finished run's work folder in the cache is gone.
    assert not runs[0].exists()


def test_resume_with_nothing_to_resume_is_a_clear_error(overfit_run, user_dirs, capsys):
    assert finetune(overfit_run / "model", user_dirs, "--resume") == 1
    assert "no stopped fine-tune to resume" in capsys.readouterr().err


def test_a_finetune_killed_before_its_first_checkpoint_is_started_again_in_its_folder(
    overfit_run, user_dirs, tmp_path, monkeypatch, capsys
):
    """It left an empty --out folder: --resume found nothing, and a new run said the
    folder already exists (issue 65, section 5)."""
    import subprocess
    import sys

    import trainer.finetune as finetune_module

    def killed(*args, **kwargs):
        raise KeyboardInterrupt  # killed while preparing, before any checkpoint

    monkeypatch.setattr(finetune_module, "train", killed)
    base = overfit_run / "model"
    assert finetune(base, user_dirs, "--steps", "4", "--name", "mine") == 130
    out = tmp_path / "userdata" / "models" / "mine"
    assert out.is_dir() and not any(out.iterdir())
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # the killed process: its claim names a process that no longer runs
    (out.parent / ".mine.claim").write_text(str(gone.pid))
    monkeypatch.undo()
    monkeypatch.setenv("TRANSLATOR_DATA_DIR", str(tmp_path / "userdata"))
    monkeypatch.setenv("TRANSLATOR_CACHE_DIR", str(tmp_path / "cache"))
    capsys.readouterr()
    assert finetune(base, user_dirs, "--steps", "4", "--resume") == 1
    err = capsys.readouterr().err
    assert "stopped before the first checkpoint" in err and "without --resume" in err
    assert finetune(base, user_dirs, "--steps", "4", "--name", "mine") == 0
    assert (out / "config.json").is_file()
    assert not (out.parent / ".mine.claim").exists()


def test_a_full_disk_during_a_checkpoint_is_one_clear_error_and_leaves_no_temp(
    tmp_path, monkeypatch
):
    import torch

    from trainer.train import CHECKPOINT_FORMAT, load_checkpoint, save_checkpoint

    path = tmp_path / "checkpoints" / "last.pt"
    payload = {"format": CHECKPOINT_FORMAT, "version": 1, "x": torch.zeros(1000)}
    save_checkpoint(path, payload)
    before = path.read_bytes()
    real_open = open

    def full_disk(file, mode="r", *args, **kwargs):
        f = real_open(file, mode, *args, **kwargs)
        if "w" in mode and str(file).endswith(".tmp"):
            real_write = f.write

            def write(data):
                real_write(bytes(data)[:100])
                raise OSError(errno.ENOSPC, "No space left on device")

            f.write = write
        return f

    monkeypatch.setattr("builtins.open", full_disk)
    with pytest.raises(OSError, match=r"last.pt: could not write the checkpoint \(No space left"):
        save_checkpoint(path, {**payload, "x": torch.ones(1000)})
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert load_checkpoint(path)["x"].sum() == 0
    assert [p.name for p in path.parent.iterdir()] == ["last.pt"]


def test_resume_does_not_need_spm_model_beside_the_checkpoint(tmp_path):
    """spm.model was rewritten non-atomically at each start; a kill mid-write broke
    --resume although the checkpoint holds the tokenizer."""
    cfg = write_config(tmp_path, "run", steps=6, eval_every=6)
    assert cli.main(["train", str(cfg), "--device", "cpu"]) == 0
    spm = tmp_path / "run" / "spm.model"
    good = spm.read_bytes()
    spm.write_bytes(good[: len(good) // 3])  # a kill during the write
    cfg.write_text(cfg.read_text().replace("steps = 6", "steps = 8"))
    assert cli.main(["train", str(cfg), "--resume", "--device", "cpu"]) == 0
    assert spm.read_bytes() == good
    assert not [p for p in spm.parent.iterdir() if p.name.endswith(".tmp")]


def test_exported_bundles_get_the_users_umask(tmp_path, make_bundle):
    """Bundles came out 0700/0600 whatever the umask."""
    old = os.umask(0o022)
    try:
        bundle = make_bundle()
    finally:
        os.umask(old)
    assert stat.S_IMODE(bundle.stat().st_mode) == 0o755
    for f in bundle.iterdir():
        assert stat.S_IMODE(f.stat().st_mode) == 0o644, f.name


def test_export_temporaries_carry_the_pid_for_cleanup(tmp_path, make_bundle, monkeypatch):
    import translator_app.core.engine.bundle_torch as bundle_module
    from translator_app.core.platform.paths import remove_orphans, temporary_name

    seen = []

    def killed(folder):
        seen.append(folder.name)
        raise KeyboardInterrupt

    monkeypatch.setattr(bundle_module, "apply_umask", killed)
    with pytest.raises(KeyboardInterrupt):
        make_bundle()
    assert seen and seen[0].startswith(temporary_name("bundle-transformer-0", ""))
    # save_bundle removes its own temporary on the way out; a kill -9 would not, so
    # recreate what it leaves, with a dead process's pid.
    leftover = tmp_path / temporary_name("bundle-transformer-0", "0123abcd", 2**22 + 12345)
    leftover.mkdir()
    assert leftover in remove_orphans(tmp_path)
    assert not leftover.exists()

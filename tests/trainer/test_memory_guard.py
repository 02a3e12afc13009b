"""A training run stops itself before the machine runs out of memory (issue 47 §6): it
writes its checkpoint and says so, instead of being killed with nothing written."""

from __future__ import annotations

import json

from conftest import write_config
from trainer import cli, memory_guard
from trainer.checkpoints import load_checkpoint
from trainer.memory_guard import Memory, read_memory, too_little_left


def test_a_run_short_of_memory_stops_with_its_checkpoint_and_a_message(
    tmp_path, monkeypatch, capsys
):
    readings = iter([Memory(20_000, 24_000, 900)] * 2 + [Memory(300, 24_000, 21_000)] * 99)
    monkeypatch.setattr(memory_guard, "read_memory", lambda: next(readings))
    cfg = write_config(tmp_path, steps=50, eval_every=50)
    assert cli.main(["train", str(cfg), "--device", "cpu"]) == 1
    err = capsys.readouterr().err
    assert "error: stopped at step 3: the machine has only 300 MB of memory left" in err
    assert "this run uses 20.5 GB of 23.4 GB" in err and "--resume" in err
    last = tmp_path / "run" / "checkpoints" / "last.pt"
    assert json.loads(load_checkpoint(last)["state"])["step"] == 3  # where --resume goes on


def test_the_floor_and_the_reading(tmp_path):
    assert too_little_left(Memory(300, 4_000, 1_000))  # under 512 MB
    assert too_little_left(Memory(1_000, 64_000, 1_000))  # under 5 % of 64 GB
    assert not too_little_left(Memory(4_000, 24_000, 1_000))
    assert not too_little_left(None)  # no /proc: no guard
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       24000000 kB\nMemAvailable:    2048000 kB\n")
    statm = tmp_path / "statm"
    statm.write_text("1000 25600 0 0 0 0 0\n")
    assert read_memory(meminfo, statm) == Memory(2000.0, 24000000 / 1024, 100.0)
    assert read_memory(tmp_path / "missing", statm) is None

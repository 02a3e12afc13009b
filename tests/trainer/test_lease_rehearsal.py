"""A GPU lease rehearsed on the CPU (issue 63 §1): scripts/lease_train.sh trains a tiny
model in two commands, the second resuming the first from the run folder with the data
it prepared; each brings back the weights in parts (the second the mean of the last two
snapshots, AVERAGE=2), and scripts/lease_join.py joins the parts of the last into a
bundle that loads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import write_config

ROOT = Path(__file__).resolve().parents[2]


def _command(cfg: Path, total: str, out: Path, **more: str) -> subprocess.CompletedProcess:
    env = os.environ | {"OUT": str(out), "PYTHON": sys.executable, "DEVICE": "cpu"} | more
    return subprocess.run(
        ["bash", str(ROOT / "scripts" / "lease_train.sh"), str(cfg), total],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def test_two_lease_commands_train_on_and_bring_back_a_bundle(tmp_path):
    cfg = write_config(tmp_path, "lease", steps=400, eval_every=1000)
    cfg.write_text(
        cfg.read_text().replace("[train]\n", "[train]\ncache_data = true\nkeep_snapshots = 3\n", 1)
    )
    first = _command(cfg, "0.05", tmp_path / "out1")
    assert first.returncode == 0, first.stdout + first.stderr
    second = _command(cfg, "0.10", tmp_path / "out2", AVERAGE="2", TRAIN_WALL="300")
    assert second.returncode == 0, second.stdout + second.stderr
    log = (tmp_path / "out2" / "train.log").read_text()
    assert "as prepared before" in log  # the data was not tokenised again
    assert "the mean of 2 checkpoints" in second.stdout
    steps = [
        json.loads(line)["step"]
        for line in (tmp_path / "lease" / "log.jsonl").read_text().splitlines()
        if '"step"' in line
    ]
    assert steps and max(steps) > 0
    parts = sorted((tmp_path / "out2").glob("bundle.tar.part-*"))
    assert parts and all(p.stat().st_size <= 15 * 2**20 for p in parts)
    joined = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "lease_join.py"), str(tmp_path / "out2")]
        + ["--out", str(tmp_path / "bundle")],
        capture_output=True,
        text=True,
    )
    assert joined.returncode == 0, joined.stderr
    assert (tmp_path / "bundle" / "model.safetensors").is_file()

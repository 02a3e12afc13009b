"""What a kill -9 leaves behind is removed by the next writer of the same file (issue 65,
section 5): checkpoint temporaries, dictionary index builds, export folders. A running
process's temporaries are kept."""

from __future__ import annotations

import lzma
import os
import subprocess
import sys

import torch

from conftest import tiny_model
from translator_app.core.dictionary.index import build_index
from translator_app.core.engine.bundle_torch import save_bundle
from translator_app.core.platform.paths import write_atomic


def _dead_pid() -> int:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    return gone.pid


def test_checkpoint_temporaries_of_killed_runs_go_with_the_next_checkpoint(tmp_path):
    from trainer.checkpoints import save_checkpoint

    folder = tmp_path / "checkpoints"
    folder.mkdir()
    dead = folder / f".last.pt.{_dead_pid()}.tmp"
    live = folder / f".last.pt.{os.getppid()}.tmp"  # a running process, writing now
    other = folder / f".best.pt.{_dead_pid()}.tmp"  # another file's: its writer's job
    for leftover in (dead, live, other):
        leftover.write_bytes(b"\0" * 1000)
    save_checkpoint(folder / "last.pt", {"step": torch.tensor(3)})
    assert not dead.exists() and live.exists() and other.exists()
    write_atomic(folder / "best.pt", b"x")
    assert not other.exists()


def test_a_killed_dictionary_build_is_removed_by_the_next_build(tmp_path):
    source = tmp_path / "de-en.txt.xz"
    with lzma.open(source, "wt", encoding="utf-8") as f:
        f.write("Rechnung {f} :: invoice\n")
    target = tmp_path / "cache" / "ding-de-en.sqlite"
    target.parent.mkdir()
    dead = target.with_name(f"{target.name}.{_dead_pid()}.tmp")
    dead.write_bytes(b"\0" * 100_000)
    build_index(source, target, "stamp")
    assert target.is_file() and not dead.exists()


def test_an_export_killed_halfway_is_removed_by_the_next_export(tmp_path, tokenizer, spm_bytes):
    out = tmp_path / "models" / "mine"
    out.parent.mkdir()
    dead = out.parent / f".mine.{_dead_pid()}.0badf00d"
    dead.mkdir()
    (dead / "model.safetensors").write_bytes(b"\0" * 1000)
    save_bundle(out, tiny_model(tokenizer), spm_bytes, name="mine", card="", metrics={})
    assert (out / "config.json").is_file()
    assert sorted(p.name for p in out.parent.iterdir()) == ["mine"]

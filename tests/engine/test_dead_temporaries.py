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
from translator_app.core.platform.paths import temporary_name, write_atomic


def _dead_pid() -> int:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    return gone.pid


def test_checkpoint_temporaries_of_killed_runs_go_with_the_next_checkpoint(tmp_path):
    from trainer.checkpoints import save_checkpoint

    folder = tmp_path / "checkpoints"
    folder.mkdir()
    dead = folder / temporary_name("last.pt", "tmp", _dead_pid())
    live = folder / temporary_name("last.pt", "tmp", os.getppid())  # a running process
    other = folder / temporary_name("best.pt", "tmp", _dead_pid())  # its writer's job
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
    dead = target.with_name(temporary_name(target.name, "tmp", _dead_pid(), hidden=False))
    dead.write_bytes(b"\0" * 100_000)
    build_index(source, target, "stamp")
    assert target.is_file() and not dead.exists()


def test_an_export_killed_halfway_is_removed_by_the_next_export(tmp_path, tokenizer, spm_bytes):
    out = tmp_path / "models" / "mine"
    out.parent.mkdir()
    dead = out.parent / temporary_name("mine", "0badf00d", _dead_pid())
    dead.mkdir()
    (dead / "model.safetensors").write_bytes(b"\0" * 1000)
    save_bundle(out, tiny_model(tokenizer), spm_bytes, name="mine", card="", metrics={})
    assert (out / "config.json").is_file()
    assert sorted(p.name for p in out.parent.iterdir()) == ["mine"]


def test_a_users_own_files_that_look_like_leftovers_are_kept(tmp_path):
    """Beside `--output out.docx`, a user's file „out.docx.99999.tmp“ and folder
    „out.docx.2023.20231231/“ were deleted as leftovers (issue 86 §2): only names this
    program writes (temporary_name) are its to remove."""
    target = tmp_path / "out.docx"
    mine = tmp_path / "out.docx.99999.tmp"
    mine.write_text("my notes")
    folder = tmp_path / "out.docx.2023.20231231"
    folder.mkdir()
    (folder / "a.txt").write_text("kept")
    hidden = tmp_path / ".out.docx.99999.tmp"
    hidden.write_text("mine too")
    leftover = tmp_path / temporary_name("out.docx", "tmp", _dead_pid())
    leftover.write_text("half a document")
    write_atomic(target, b"new")
    assert mine.read_text() == "my notes" and (folder / "a.txt").exists() and hidden.exists()
    assert not leftover.exists() and target.read_bytes() == b"new"

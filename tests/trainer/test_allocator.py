"""The trainer's memory allocator (trainer/allocator.py): with jemalloc preloaded, freed
memory is reused instead of page-faulted in afresh each step; the restart that preloads
it happens once, never where the user opted out, and keeps the user's own settings."""

import ctypes.util
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from trainer import allocator

ROOT = Path(__file__).resolve().parents[2]
JEMALLOC = platform.system() == "Linux" and ctypes.util.find_library("jemalloc")

# Restart with jemalloc where possible (as translator-train train does), then allocate,
# touch and free a 64 MB and a 12 MB tensor (above glibc's largest mmap threshold) again
# and again, as a training step does; print the allocator and the minor page faults of
# the last 6 rounds.
FAULTS = """
import resource, sys
sys.path.insert(0, {root!r})
from trainer.allocator import allocator_in_use, restart_with_jemalloc
restart_with_jemalloc([sys.argv[0]])
import torch
def round():
    logits = torch.empty(16 << 20, dtype=torch.float32)
    logits.fill_(1.0)
    grads = torch.empty(3 << 20, dtype=torch.float32)
    grads.fill_(2.0)
    del logits, grads
for _ in range(6):
    round()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(6):
    round()
print(allocator_in_use(), resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def run_rounds(script: Path, **env: str) -> tuple[str, int]:
    script.write_text(FAULTS.format(root=str(ROOT)))
    environ = {
        k: v for k, v in os.environ.items() if k not in (allocator.CHOICE, allocator.STARTED)
    }
    out = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        check=True,
        env={**environ, **env},
    )
    name, faults = out.stdout.split()[-2:]
    return name, int(faults)


@pytest.mark.slow
@pytest.mark.skipif(not JEMALLOC, reason="jemalloc is not installed (apt install libjemalloc2)")
def test_with_jemalloc_freed_memory_is_reused_not_faulted_in_again(tmp_path):
    pages = (64 << 20) // 4096  # the big tensor's pages
    name, faults = run_rounds(tmp_path / "rounds.py", **{allocator.CHOICE: "system"})
    assert name == "system" and faults > 3 * pages  # glibc: every round faults afresh
    name, faults = run_rounds(tmp_path / "rounds.py")
    assert name == "jemalloc" and faults < pages // 4  # later rounds reuse the memory


# With jemalloc and purging off (as the trainer restarts), allocate and free 400 MB, then
# release what jemalloc kept; print the resident MB after freeing and after releasing.
RELEASE = """
import sys
sys.path.insert(0, {root!r})
from trainer.allocator import allocator_in_use, release_freed_memory, restart_with_jemalloc
restart_with_jemalloc([sys.argv[0]])
import torch
def rss():
    return int(open("/proc/self/statm").read().split()[1]) * 4096 / 2**20
big = [torch.ones(25 << 20) for _ in range(4)]  # 4 x 100 MB, touched
del big
freed = rss()
print(allocator_in_use(), release_freed_memory(), round(freed), round(rss()))
"""


@pytest.mark.slow
@pytest.mark.skipif(not JEMALLOC, reason="jemalloc is not installed (apt install libjemalloc2)")
def test_the_trainer_gives_jemallocs_kept_pages_back(tmp_path):
    """Issue 47 §6: with purging off, freed pages stay resident until
    release_freed_memory (which the training loop calls every PURGE_EVERY steps)."""
    script = tmp_path / "release.py"
    script.write_text(RELEASE.format(root=str(ROOT)))
    environ = {
        k: v for k, v in os.environ.items() if k not in (allocator.CHOICE, allocator.STARTED)
    }
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=True, env=environ
    )
    name, released, freed_mb, after_mb = out.stdout.split()[-4:]
    assert (name, released) == ("jemalloc", "True")
    assert int(freed_mb) - int(after_mb) > 300, (freed_mb, after_mb)  # the 400 MB went back


def test_release_is_a_no_op_without_jemalloc(monkeypatch):
    monkeypatch.setattr(allocator, "allocator_in_use", lambda: "system")
    allocator._mallctl.cache_clear()
    try:
        assert allocator.release_freed_memory() is False
    finally:
        allocator._mallctl.cache_clear()


def test_preload_keeps_the_users_settings():
    env = allocator.preload_env(
        {"LD_PRELOAD": "/opt/mine.so", "MALLOC_CONF": "narenas:1"}, "libjemalloc.so.2"
    )
    assert env["LD_PRELOAD"] == "libjemalloc.so.2:/opt/mine.so"
    assert env["MALLOC_CONF"] == "narenas:1"
    assert env[allocator.STARTED] == "1"
    env = allocator.preload_env({}, "libjemalloc.so.2")
    assert env["LD_PRELOAD"] == "libjemalloc.so.2" and env["MALLOC_CONF"] == allocator.MALLOC_CONF


@pytest.mark.parametrize("env", [{allocator.CHOICE: "system"}, {allocator.STARTED: "1"}])
def test_no_restart_when_opted_out_or_done(monkeypatch, env):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(os, "execve", lambda *a: pytest.fail("restarted"))
    monkeypatch.setattr(platform, "system", lambda: "Linux")
    monkeypatch.setattr(ctypes.util, "find_library", lambda name: "libjemalloc.so.2")
    allocator.restart_with_jemalloc(["-m", "trainer", "train"])


def test_allocator_in_use_reads_the_process_maps(tmp_path):
    maps = tmp_path / "maps"
    maps.write_text("7f00-7f01 r-xp 0 08:01 1 /usr/lib/x86_64-linux-gnu/libjemalloc.so.2\n")
    assert allocator.allocator_in_use(maps) == "jemalloc"
    maps.write_text("7f00-7f01 r-xp 0 08:01 1 /usr/lib/x86_64-linux-gnu/libc.so.6\n")
    assert allocator.allocator_in_use(maps) == "system"
    assert allocator.allocator_in_use(tmp_path / "missing") == "system"

"""A memory allocator that reuses freed memory, for CPU training on Linux.

A training step on the CPU allocates and frees the same large tensors every step (the
logits of a 6,000-token batch over a 16 k vocabulary are 100-400 MB, their gradients as
much again). glibc's malloc serves every block above its mmap threshold (at most 32 MB)
with a fresh ``mmap`` and unmaps it on ``free``, so each step page-faults gigabytes of
new, zeroed memory: measured here, a third of the trainer's CPU time went to the kernel
(100,000 minor faults/s). Telling glibc itself to keep its memory (mallopt: no mmap, no
trimming) made steps 1.7x faster but let the heap fragment (19 GB resident after 400
steps, against 7 GB). jemalloc with purging turned off reuses freed memory by size class:
in ``bench/bench_train.py`` 1,757 target tokens/s against 897 with glibc (2-core EPYC,
bf16, d256 6+4), with less peak memory (4.5 GB against 5.6 GB).

So ``translator-train train`` and ``finetune`` (and the benchmark) restart themselves once
with jemalloc preloaded where the system has it (Debian/Ubuntu: ``apt install
libjemalloc2``); without it, or with ``TRANSLATOR_MALLOC=system``, nothing changes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
import platform
import sys
from pathlib import Path

# jemalloc: never give freed pages back to the system while the run lasts; a training
# run reaches its peak memory every few steps anyway.
MALLOC_CONF = "dirty_decay_ms:-1,muzzy_decay_ms:-1"
CHOICE = "TRANSLATOR_MALLOC"  # "system": keep the C library's malloc
STARTED = "TRANSLATOR_MALLOC_STARTED"  # set on the restart, so it happens once
KNOWN = ("jemalloc", "tcmalloc", "mimalloc")
# oneDNN's primitive cache and PyTorch's (ideep's) computation cache keep, per batch
# shape, primitives with their JIT code and reordered weights. Under bf16 autocast on the
# CPU every new batch shape added 1-2 MB in a small probe (bench/bench_bf16_memory.py) and
# a fine-tune of the base model was killed at 24 GB (issue 47 §6). Fine-tuning the v15
# bundle on 12,000 news pairs, bf16, 2,000-token batches, 2-core AMD EPYC, resident
# memory at step ~115: 7.8 GB with both caches at 1,024 entries and climbing, 2.8 GB at
# 64, 2.2 GB (flat from step 50) at 16; training tokens/s 1,103 / 1,205 / 1,262.
NATIVE_CACHE_ENTRIES = "16"
NATIVE_CACHES = ("ONEDNN_PRIMITIVE_CACHE_CAPACITY", "LRU_CACHE_CAPACITY")


# With purging off, jemalloc keeps every freed page, and batches of many shapes leave
# freed extents that later batches of other sizes cannot reuse: a 1,000-step bf16
# fine-tune on Ding phrases and news pairs (bench/bench_finetune_memory.py, 2-core EPYC)
# peaked at 3.09 GB, and one arena instead of eight at 4.97 GB; pages given back after
# 1 or 10 s of disuse (MALLOC_CONF decay) kept it at 1.7 GB but cost 36-39 % more time,
# every step faulting its buffers in again. Giving back everything freed once every
# PURGE_EVERY steps bounds what piles up for the price of one such step in PURGE_EVERY.
PURGE_EVERY = 50
_ARENAS_ALL = 4096  # jemalloc 5's MALLCTL_ARENAS_ALL: "arena.4096.purge" purges every arena


@functools.cache
def _mallctl():
    """jemalloc's mallctl where this process runs on jemalloc (preloaded), else None."""
    if allocator_in_use() != "jemalloc":
        return None
    try:
        mallctl = ctypes.CDLL(None).mallctl
    except (OSError, AttributeError):
        return None
    # int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen)
    void = ctypes.c_void_p
    mallctl.argtypes = [ctypes.c_char_p, void, void, void, ctypes.c_size_t]
    mallctl.restype = ctypes.c_int
    return mallctl


def release_freed_memory() -> bool:
    """Give the pages jemalloc keeps for reuse back to the system, in every arena; False
    (and nothing done) where the process does not run on jemalloc."""
    mallctl = _mallctl()
    if mallctl is None:
        return False
    return mallctl(f"arena.{_ARENAS_ALL}.purge".encode(), None, None, None, 0) == 0


def bound_native_caches() -> None:
    """Bound oneDNN's and ideep's per-shape caches (unless the user set them); call
    before the first tensor operation: both are read when first used."""
    for name in NATIVE_CACHES:
        os.environ.setdefault(name, NATIVE_CACHE_ENTRIES)


def allocator_in_use(maps: Path = Path("/proc/self/maps")) -> str:
    """The malloc this process runs with: a preloaded allocator's name, else "system"."""
    try:
        text = maps.read_text(errors="replace")
    except OSError:
        return "system"
    for name in KNOWN:
        if f"lib{name}" in text:
            return name
    return "system"


def preload_env(environ: dict[str, str], library: str) -> dict[str, str]:
    """The environment for the restart: ``library`` preloaded before anything the user
    preloads, jemalloc's purging off unless the user configured jemalloc."""
    env = dict(environ)
    env["LD_PRELOAD"] = ":".join(p for p in (library, environ.get("LD_PRELOAD", "")) if p)
    env.setdefault("MALLOC_CONF", MALLOC_CONF)
    env[STARTED] = "1"
    return env


def restart_with_jemalloc(command: list[str]) -> None:
    """Replace this process by ``python *command`` (e.g. ``["-m", "trainer", "train",
    ...]``) with jemalloc preloaded, where that is possible and not done yet; otherwise
    return and let the caller go on as it is."""
    if (
        platform.system() != "Linux"
        or getattr(sys, "frozen", False)  # a packaged app has no `python -m`
        or os.environ.get(CHOICE, "").lower() == "system"
        or os.environ.get(STARTED)
        or allocator_in_use() != "system"
    ):
        return
    library = ctypes.util.find_library("jemalloc")
    if not library:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(
            sys.executable, [sys.executable, *command], preload_env(dict(os.environ), library)
        )
    except OSError:
        return  # could not restart: train with the system's malloc

"""A training run stops itself before the machine runs out of memory (issue 47 §6).

A fine-tune that outgrew the machine's memory was killed by the kernel at 24 GB with no
model written and no message. After every step the loop reads how much memory the system
still has (``/proc/meminfo``'s MemAvailable, which counts what the kernel can reclaim) and
this process's resident size; below a floor it writes its checkpoint and stops with a
message saying so and how to go on. Where ``/proc`` is not there (macOS, Windows), the
guard does nothing. Every PURGE_EVERY steps it also gives back the pages jemalloc kept
(trainer/allocator.py), which bounds a bf16 run's memory.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from trainer.allocator import PURGE_EVERY, release_freed_memory

MIN_AVAILABLE_MB = 512  # room to write the checkpoint and for the rest of the desktop
MIN_AVAILABLE_SHARE = 0.05  # of the machine's memory, where that is more


@dataclass(frozen=True)
class Memory:
    available_mb: float  # what the system can still give (MemAvailable)
    total_mb: float
    resident_mb: float  # this process


class MemoryLow(ValueError):
    """The run stopped itself: too little memory left (a message for the user)."""


def read_memory(
    meminfo: Path = Path("/proc/meminfo"), statm: Path = Path("/proc/self/statm")
) -> Memory | None:
    """The system's available and total memory and this process's resident size (MB),
    or None where /proc does not tell."""
    try:
        fields = dict(
            line.split(":", 1) for line in meminfo.read_text().splitlines() if ":" in line
        )
        available = int(fields["MemAvailable"].split()[0]) / 1024  # kB
        total = int(fields["MemTotal"].split()[0]) / 1024
        resident = int(statm.read_text().split()[1]) * 4096 / 2**20  # pages
    except (OSError, KeyError, ValueError, IndexError):
        return None
    return Memory(available, total, resident)


def too_little_left(memory: Memory | None) -> bool:
    if memory is None:
        return False
    return memory.available_mb < max(MIN_AVAILABLE_MB, MIN_AVAILABLE_SHARE * memory.total_mb)


def stop_message(memory: Memory | None, step: int, checkpoint: Path) -> str:
    """``memory``: this process's reading (None: another process of a torchrun run ran
    short)."""
    left = (
        f"the machine has only {memory.available_mb:,.0f} MB of memory left (this run uses "
        f"{memory.resident_mb / 1024:.1f} GB of {memory.total_mb / 1024:.1f} GB)"
        if memory is not None and too_little_left(memory)
        else "another process of this run had too little memory left"
    )
    return (
        f"stopped at step {step}: {left}; the checkpoint {checkpoint} is written. Close "
        "other programs, or lower batch_tokens, and continue with --resume"
    )


def after_step(
    step: int, checkpoint: Path, agree: Callable[[bool], bool], save: Callable[[], object]
) -> None:
    """The training loop's memory care after each step: jemalloc's kept pages back every
    PURGE_EVERY steps; and where too little memory is left (on any process of the run:
    ``agree``), ``save`` the checkpoint and stop with :class:`MemoryLow`."""
    if step % PURGE_EVERY == 0:
        release_freed_memory()  # nothing without jemalloc
    memory = read_memory()
    if agree(too_little_left(memory)):  # before the kernel kills the run
        save()
        raise MemoryLow(stop_message(memory, step, checkpoint))

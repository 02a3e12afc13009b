"""Does bf16 training keep memory per batch shape? (issue 47 §6)

    .venv/bin/python bench/bench_bf16_memory.py [--shapes 400] [--steps 400]

Runs a small MLP (128-512-128, Adam) for ``--steps`` steps of bf16 autocast on the CPU,
each on a batch of a new shape (as length-bucketed training batches are), in fresh
processes: with PyTorch's default oneDNN and ideep caches, and with the bound the trainer
sets (trainer/allocator.bound_native_caches); then fp32, and bf16 over only 40 shapes.
Prints resident memory after step 50 and at the end, and the seconds, with the CPU.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from trainer.allocator import NATIVE_CACHE_ENTRIES, NATIVE_CACHES  # noqa: E402
from translator_app.core.platform.hardware import describe_machine, has_fast_bf16_training  # noqa: E402

RUN = """
import os, random, sys, time
import torch
torch.set_num_threads(1)
def rss():
    return int(open("/proc/self/statm").read().split()[1]) * 4096 / 2**20
mode, steps, distinct = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
model = torch.nn.Sequential(torch.nn.Linear(128, 512), torch.nn.ReLU(), torch.nn.Linear(512, 128))
opt = torch.optim.Adam(model.parameters())
rng = random.Random(0)
pool = [(rng.randint(8, 200), rng.randint(5, 128)) for _ in range(distinct)]
t0, start = time.time(), 0.0
for k in range(steps):
    b, s = pool[k % distinct]
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=mode == "bf16"):
        y = model(torch.randn(b, s, 128))
    y.float().sum().backward(); opt.step(); opt.zero_grad()
    if k == 50:
        start = rss()
print(f"{start:.0f} {rss():.0f} {time.time() - t0:.1f}")
"""


def run(mode: str, steps: int, shapes: int, bounded: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k not in NATIVE_CACHES}
    if bounded:
        env |= {name: NATIVE_CACHE_ENTRIES for name in NATIVE_CACHES}
    env["OMP_NUM_THREADS"] = "1"
    cmd = [sys.executable, "-c", RUN, mode, str(steps), str(shapes)]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    start, end, seconds = out.stdout.split()
    return f"{start:>6} -> {end:>6} MB  ({seconds} s)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shapes", type=int, default=400)
    ap.add_argument("--steps", type=int, default=400)
    args = ap.parse_args(argv)
    print(describe_machine(), "; fast bf16:", has_fast_bf16_training())
    n, k = args.steps, args.shapes
    for label, mode, shapes, bounded in (
        (f"bf16, {k} shapes, default caches", "bf16", k, False),
        (f"bf16, {k} shapes, caches bounded to {NATIVE_CACHE_ENTRIES}", "bf16", k, True),
        (f"fp32, {k} shapes", "fp32", k, False),
        ("bf16, 40 shapes, default caches", "bf16", 40, False),
    ):
        print(f"  {label:<44} {run(mode, n, shapes, bounded)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

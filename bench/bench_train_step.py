"""Where a training step's time goes, for a config's model (issue 63: the first GPU lease
trained the 35.5 M teacher at 0.35 s a step of 32k tokens on an H100, far below what the
card computes).

    python bench/bench_train_step.py CONFIG [--device cuda] [--steps 20] [--profile]
                                            [--cudnn-attention] [--precision fp32]

Synthetic batches (random ids, lengths 5-60, as the base mix) of the config's
batch_tokens: per step, the median milliseconds of building the batch on the CPU
(collate), of forward, backward and the optimiser's step on the device (synchronised
each), and the target tokens per second of the whole. ``--profile`` adds PyTorch's
table of the device operations that took longest. ``--cudnn-attention`` turns cuDNN's
fused attention back on (the model's module turns it off: it builds a graph for every
new shape), to measure the difference on the same machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from trainer.config import load_config  # noqa: E402
from trainer.dataset import Encoded, collate, make_batches  # noqa: E402
from trainer.step import batch_loss, optimiser_step  # noqa: E402
from trainer.train import make_optimizer  # noqa: E402
from translator_app.core.models.model import build_model  # noqa: E402


def synthetic(n: int, vocab: int, seed: int = 0) -> Encoded:
    rng = random.Random(seed)
    rows = [[rng.randrange(4, vocab) for _ in range(rng.randint(5, 60))] for _ in range(2 * n)]
    return Encoded(rows[:n], rows[n:])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("config", type=Path)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--cudnn-attention", action="store_true")
    ap.add_argument(
        "--precision",
        choices=("bf16", "fp32"),
        default="bf16",
        help="bf16 autocast (as on a GPU and on CPUs with fast bf16) or fp32",
    )
    args = ap.parse_args()
    if args.cudnn_attention:
        torch.backends.cuda.enable_cudnn_sdp(True)
    cfg = load_config(args.config)
    device = torch.device(args.device)
    model = build_model(cfg.model).to(device).train()
    optimizer = make_optimizer(model, 1e-4, 0.01)
    data = synthetic(60 * cfg.train.batch_tokens // 32, cfg.model.vocab_size)
    batches = make_batches(data, cfg.train.batch_tokens)
    pad, bos = cfg.model.pad_id, cfg.model.start_id
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    times: dict[str, list[float]] = {"collate": [], "forward": [], "backward": [], "optimiser": []}
    tokens = 0

    def step(idx) -> None:
        """The trainer's step (trainer/train.py: Run.step) in its phases, each timed."""
        nonlocal tokens
        t0 = time.perf_counter()
        src, tgt_in, tgt_out = (t.to(device) for t in collate(data, idx, pad, bos))
        sync()
        t1 = time.perf_counter()
        autocast = torch.autocast(
            device.type, dtype=torch.bfloat16, enabled=args.precision == "bf16"
        )
        loss, n_tokens = batch_loss(model, src, tgt_in, tgt_out, pad, 0.1, autocast)
        sync()
        t2 = time.perf_counter()
        loss.backward()
        sync()
        t3 = time.perf_counter()
        optimiser_step(model, optimizer, 1.0)
        sync()
        t4 = time.perf_counter()
        for name, dt in zip(times, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
            times[name].append(dt * 1000)
        tokens += n_tokens

    for idx in batches[:3]:  # warm-up: allocator, kernels chosen
        step(idx)
    times = {k: [] for k in times}
    tokens = 0
    start = time.perf_counter()
    for i in range(args.steps):
        step(batches[(3 + i) % len(batches)])
    wall = time.perf_counter() - start
    params = sum(p.numel() for p in model.parameters()) / 1e6
    print(
        f"{args.config.name}: {params:.1f} M parameters, batch_tokens {cfg.train.batch_tokens}, "
        f"{device}, {args.precision}"
    )
    for name, values in times.items():
        print(f"  {name:<10} {statistics.median(values):8.1f} ms (median of {len(values)})")
    print(f"  whole step {wall / args.steps * 1000:8.1f} ms; {tokens / wall:,.0f} target tokens/s")
    if args.profile:
        from torch.profiler import ProfilerActivity, profile

        activities = [ProfilerActivity.CPU] + (
            [ProfilerActivity.CUDA] if device.type == "cuda" else []
        )
        with profile(activities=activities) as prof:
            for idx in batches[:5]:
                step(idx)
        key = "cuda_time_total" if device.type == "cuda" else "cpu_time_total"
        print(prof.key_averages().table(sort_by=key, row_limit=15))
    return 0


if __name__ == "__main__":
    sys.exit(main())

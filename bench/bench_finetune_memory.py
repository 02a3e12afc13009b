"""A long bf16 fine-tune's memory (issue 47 §6 floor: 1,000 steps on 64 k pairs, peak
under 3 GB where the CPU has avx512_bf16).

    .venv/bin/python bench/bench_finetune_memory.py [--steps 1000] [--pairs 32000]

Writes ``--pairs`` Ding phrase pairs as the user's data and as many WMT news pairs as the
replay (the mix whose varied batch shapes grew bf16 memory without bound before the
trainer bounded the native caches), from ``data/prepared/corpora`` (scripts/prepare_data.py),
runs ``translator-train finetune --bf16 on`` on them, and prints the trainer's peak
resident memory as the kernel counted it (``ru_maxrss`` on reaping: exact, where a sample
can fall between two peaks), the sum over the trainer and its direct children sampled once
a second (for children the trainer may start), the last progress line, the minutes, the
exit status, the command and the CPU. The floor is judged on the larger of the two.
"""

from __future__ import annotations

import argparse
import lzma
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from peak_memory import PeakPopen, peak_mb  # noqa: E402 - bench/: the script's folder

from translator_app.core.platform.hardware import describe_machine  # noqa: E402

CORPORA = ROOT / "data" / "prepared" / "corpora"
TRAIN = ROOT / ".venv" / "bin" / "translator-train"


def sample_pairs(path: Path, count: int, seed: int) -> list[str]:
    """``count`` lines of a prepared corpus, drawn at random (the same for a seed)."""
    with lzma.open(path, "rt", encoding="utf-8") as f:
        lines = [line for line in f if line.count("\t") == 1]
    return random.Random(seed).sample(lines, min(count, len(lines)))


def tree_rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and its children (MB), from /proc."""
    out = subprocess.run(
        ["ps", "-o", "rss=", "--ppid", str(pid), "-p", str(pid)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    return sum(int(x) for x in out.split()) / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--pairs", type=int, default=32000, help="Ding pairs; as many news pairs")
    ap.add_argument("--model", type=Path, default=ROOT / "resources" / "model")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="ft-memory-") as tmp:
        work = Path(tmp)
        data, replay = work / "ding.tsv", work / "news.tsv"
        data.write_text("".join(sample_pairs(CORPORA / "ding-phrases.tsv.xz", args.pairs, 1)))
        replay.write_text("".join(sample_pairs(CORPORA / "wmt-news.tsv.xz", args.pairs, 2)))
        cmd = [
            str(TRAIN), "finetune", "--model", str(args.model), "--data", str(data),
            "--replay", str(replay), "--terms", "off", "--steps", str(args.steps),
            "--lr", "1e-4", "--patience", "0", "--bf16", "on", "--device", "cpu",
            "--out", str(work / "model"), "--work-dir", str(work / "ckpt"),
        ]  # fmt: skip
        log = (work / "log.txt").open("w")
        start, sampled = time.time(), 0.0
        proc = PeakPopen(cmd, stdout=log, stderr=subprocess.STDOUT)
        while True:  # wait(timeout), not poll(): only wait reaps through PeakPopen's wait4
            sampled = max(sampled, tree_rss_mb(proc.pid))
            try:
                proc.wait(timeout=1.0)
                break
            except subprocess.TimeoutExpired:
                continue
        log.close()
        exact = peak_mb(proc)
        text = (work / "log.txt").read_text("utf-8", errors="replace")
        steps = [line for line in text.splitlines() if line.startswith("step ")]
        print(f"bench_finetune_memory: {describe_machine()}")
        shown = " ".join(cmd).replace(str(work), "$TMP").replace(str(ROOT) + "/", "")
        print(f"  {shown}")
        print(f"  {args.pairs} Ding + {args.pairs} news pairs, {args.steps} steps, bf16 on")
        print(f"  exit status {proc.returncode}, {(time.time() - start) / 60:.1f} min")
        print(f"  last progress: {steps[-1] if steps else '(none)'}")
        peak = max(exact, sampled)
        print(
            f"  peak resident memory {peak / 1024:.2f} GB (floor: under 3 GB): the trainer's "
            f"own {exact / 1024:.2f} GB (kernel), with its children sampled 1/s "
            f"{sampled / 1024:.2f} GB"
        )
        if proc.returncode:
            print(text[-2000:])
        return proc.returncode


if __name__ == "__main__":
    raise SystemExit(main())

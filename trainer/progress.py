"""A one-line progress display: step, loss, tokens/s, learning rate and ETA.

Written here rather than taken from tqdm because the GPU machines the trainer runs on
have only torch, sentencepiece, sacrebleu and safetensors; it is a few lines.
"""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, total: int, start_step: int = 0, enabled: bool = True, stream=None) -> None:
        self.total, self.enabled = total, enabled
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.step = start_step
        self.losses: list[float] = []
        self.window: list[tuple[int, float]] = []  # (tokens, seconds) of recent steps
        self.last_print = 0.0

    def update(self, step: int, loss: float, tokens: int, seconds: float, lr: float) -> None:
        self.step = step
        self.losses.append(loss)
        self.window = (self.window + [(tokens, seconds)])[-50:]
        now = time.monotonic()
        if not self.enabled or (
            now - self.last_print < (0.5 if self.tty else 30) and step != self.total
        ):
            return
        self.last_print = now
        secs_per_step = sum(s for _, s in self.window) / len(self.window)
        eta = secs_per_step * (self.total - step)
        recent = self.losses[-50:]
        line = (
            f"step {step}/{self.total} | loss {sum(recent) / len(recent):.3f} | "
            f"{self.tokens_per_s():,.0f} tok/s | lr {lr:.2e} | ETA {_clock(eta)}"
        )
        self.stream.write(("\r" + line.ljust(90)) if self.tty else line + "\n")
        self.stream.flush()

    def tokens_per_s(self) -> float:
        seconds = sum(s for _, s in self.window)
        return sum(t for t, _ in self.window) / seconds if seconds else 0.0

    def mean_loss(self) -> float | None:
        """Mean training loss since the last call (then reset)."""
        if not self.losses:
            return None
        mean = round(sum(self.losses) / len(self.losses), 4)
        self.losses = []
        return mean

    def note(self, message: str) -> None:
        if self.enabled:
            self.stream.write(
                ("\r" if self.tty else "") + message.ljust(90 if self.tty else 0) + "\n"
            )
            self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.tty:
            self.stream.write("\n")


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"

"""A one-line progress display: step, loss, tokens/s, learning rate and ETA.

With ``json_lines`` it writes the messages of translator_app/core/ipc/progress_lines.py
instead, several times a second: the app reads them from a fine-tune it runs as a
separate process to drive its progress bar.

Written here rather than taken from tqdm because the GPU machines the trainer runs on
have only torch, sentencepiece, sacrebleu and safetensors; it is a few lines.
"""

from __future__ import annotations

import sys
import time

from translator_app.core.ipc.progress_lines import Note, StepProgress, encode


class Progress:
    def __init__(
        self,
        total: int,
        start_step: int = 0,
        enabled: bool = True,
        stream=None,
        json_lines: bool = False,
    ) -> None:
        self.total, self.enabled, self.json_lines = total, enabled, json_lines
        self.stream = stream or (sys.stdout if json_lines else sys.stderr)
        self.tty = self.stream.isatty() and not json_lines
        self.step = start_step
        self.losses: list[float] = []
        self.window: list[tuple[int, float]] = []  # (tokens, seconds) of recent steps
        self.last_print = 0.0

    def update(self, step: int, loss: float, tokens: int, seconds: float, lr: float) -> None:
        self.step = step
        self.losses.append(loss)
        self.window = (self.window + [(tokens, seconds)])[-50:]
        now = time.monotonic()
        interval = 0.25 if self.json_lines else 0.5 if self.tty else 30
        if not self.enabled or (now - self.last_print < interval and step != self.total):
            return
        self.last_print = now
        secs_per_step = sum(s for _, s in self.window) / len(self.window)
        eta = secs_per_step * (self.total - step)
        recent = self.losses[-50:]
        loss_now = sum(recent) / len(recent)
        if self.json_lines:
            line = encode(StepProgress(step, self.total, loss_now, self.tokens_per_s(), lr, eta))
        else:
            text = (
                f"step {step}/{self.total} | loss {loss_now:.3f} | "
                f"{self.tokens_per_s():,.0f} tok/s | lr {lr:.2e} | ETA {_clock(eta)}"
            )
            line = ("\r" + text.ljust(90)) if self.tty else text + "\n"
        self.stream.write(line)
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
        if self.enabled and self.json_lines:
            self.stream.write(encode(Note(message)))
            self.stream.flush()
        elif self.enabled:
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

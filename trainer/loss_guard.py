"""A run stops at the first loss that is NaN or infinite (issue 64 §4): a damaged
checkpoint or corrupt data otherwise trained on with loss NaN until early stopping ended
the run "with no improvement", exit 0, and a model was written from it."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path


class NonFiniteLoss(ValueError):
    """The loss became NaN or infinite: the run stops before the step is applied."""


def check_loss(
    value: float, step: int, last_checkpoint: Path, agree: Callable[[bool], bool]
) -> None:
    """Raise NonFiniteLoss on every process where ``value`` is not finite on any
    (``agree``: the processes' vote, so that no torchrun process waits for the others)."""
    if agree(not math.isfinite(value)):
        raise NonFiniteLoss(
            f"the training loss became {value} at step {step}: the weights or the data "
            f"are damaged; stopped without writing a model (the last checkpoint, "
            f"{last_checkpoint}, is from before it)"
        )

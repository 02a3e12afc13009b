"""The trainer's progress protocol: what ``translator-train finetune --progress json``
writes on stdout, one JSON object per line, and what the app reads back.

Three kinds of message, told apart by their key:

    {"step": 40, "total": 120, "loss": 2.31, "tokens_per_s": 1800, "lr": 1e-4, "eta_s": 95.0}
    {"note": "stopping early: no improvement in 2 evaluations"}
    {"done": "/path/to/new/bundle", "heldout": {"pairs": 200, "base": {...}, "finetuned": {...}}}

Both sides use this module, so the format is written and parsed in one place. Any other
line (a library's warning, a traceback) is not a message: :func:`decode` returns None and
the app shows it as plain output.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class StepProgress:
    step: int
    total: int
    loss: float
    tokens_per_s: float
    lr: float
    eta_s: float


@dataclass(frozen=True)
class Note:
    text: str


@dataclass(frozen=True)
class Done:
    """A fine-tune finished: the new bundle and the held-out scores of both models
    ({"pairs": n, "base": {"bleu", "chrf"}, "finetuned": {...}}; empty if none)."""

    bundle: str
    heldout: dict[str, Any] = field(default_factory=dict)
    translations: str = ""  # the file of held-out translations (see translation_file)


Message = StepProgress | Note | Done


def encode(message: Message) -> str:
    """One line (newline included) for ``message``."""
    if isinstance(message, StepProgress):
        record: dict[str, Any] = {
            "step": message.step,
            "total": message.total,
            "loss": round(message.loss, 4),
            "tokens_per_s": round(message.tokens_per_s),
            "lr": message.lr,
            "eta_s": round(message.eta_s, 1),
        }
    elif isinstance(message, Note):
        record = {"note": message.text}
    else:
        record = {
            "done": message.bundle,
            "heldout": message.heldout,
            "translations": message.translations,
        }
    return json.dumps(record, ensure_ascii=False) + "\n"


def decode(line: str) -> Message | None:
    """The message on ``line``, or None when it is not one (any other output)."""
    line = line.strip()
    if not line.startswith("{"):
        return None
    try:
        record = json.loads(line)
    except json.JSONDecodeError:
        return None
    if not isinstance(record, dict):
        return None
    try:
        if "done" in record:
            heldout = record.get("heldout")
            return Done(
                str(record["done"]),
                heldout if isinstance(heldout, dict) else {},
                str(record.get("translations") or ""),
            )
        if "note" in record:
            return Note(str(record["note"]))
        if "step" in record:
            return StepProgress(
                step=int(record["step"]),
                total=int(record["total"]),
                loss=float(record.get("loss", 0.0)),
                tokens_per_s=float(record.get("tokens_per_s", 0.0)),
                lr=float(record.get("lr", 0.0)),
                eta_s=float(record.get("eta_s", 0.0)),
            )
    except (KeyError, TypeError, ValueError):
        return None
    return None

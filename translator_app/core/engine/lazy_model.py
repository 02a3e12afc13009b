"""A model that PyTorch builds on first use.

A Transformer bundle translates with CTranslate2 from its converted model, so the first
translation needs neither PyTorch nor the PyTorch model (importing PyTorch alone took
1.1-1.5 s of a 2-core laptop's start-up, issue 49). The model is built when something
needs it: the alignment panel's other layers, the dropped-words check, a word's
alternatives by the PyTorch search, converting the model for CTranslate2, Teach.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from translator_app.core.models.config import ModelConfig


class LazyModel:
    """``config`` and the device it will be on (``device``: "cpu", "cuda:0") now; the
    model itself (an ``EncoderDecoder`` in eval mode) from :meth:`get`, built once by
    ``build`` (thread-safe: the worker and a test may both ask)."""

    def __init__(self, config: ModelConfig, device: str, build: Callable[[], Any]) -> None:
        self.config = config
        self.device = device
        self._build = build
        self._model: Any = None
        self._lock = threading.Lock()

    @classmethod
    def of(cls, model: Any, device: str) -> LazyModel:
        """One already built."""
        lazy = cls(model.config, device, lambda: model)
        lazy._model = model
        return lazy

    @property
    def built(self) -> bool:
        return self._model is not None

    def get(self) -> Any:
        with self._lock:
            if self._model is None:
                self._model = self._build()
            return self._model


def materialised(model: Any) -> Any:
    """The model itself, where ``model`` may be a :class:`LazyModel`."""
    return model.get() if isinstance(model, LazyModel) else model


def device_name(model: Any) -> str:
    """Where a model (or a :class:`LazyModel`) runs: "cpu", "cuda:0"."""
    if isinstance(model, LazyModel):
        return model.device
    return str(next(model.parameters()).device)


@dataclass(frozen=True, eq=False)
class Device:
    """Where a translator runs, without PyTorch: ``type`` "cpu" or "cuda", ``index`` for
    CUDA; ``str()`` gives "cpu" or "cuda:0", which PyTorch and CTranslate2 both accept."""

    type: str
    index: int | None = None

    @classmethod
    def parse(cls, name: str) -> Device:
        kind, _, index = str(name).partition(":")
        return cls(kind, int(index) if index else None)

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other: object) -> bool:  # equal to the torch.device of that name too
        return (
            str(self) == str(other)
            if isinstance(other, Device) or hasattr(other, "type")
            else NotImplemented
        )

    def __hash__(self) -> int:
        return hash(str(self))

"""What decodes a batch of sentences: PyTorch or CTranslate2, behind one protocol.

A :class:`Backend` searches a batch of :class:`Job` s (n-best hypotheses with their
attention) and offers the alternatives of one position of a decode (the word menu).
:class:`TorchBackend` is the reference: RNN bundles, every layer's attention, and the
fallback of :class:`Ct2Backend` wherever CTranslate2's output cannot be used as it is.
The Translator (translator.py) chooses one and never asks which it has.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from translator_app.core.engine.lazy_model import Device
from translator_app.core.engine.search_types import (
    Hypothesis,
    SearchCancelled,
    SearchOptions,
    output_limit,
)

if TYPE_CHECKING:
    from translator_app.core.engine.ct2 import Ct2Engine

StopCheck = Callable[[], bool] | None


@dataclass(frozen=True)
class Job:
    """One piece of work for a backend: ``src`` ids (ending with EOS) of chunk ``chunk``
    of text ``item``, with the target ``prefix`` it must begin with."""

    item: int
    chunk: int
    src: list[int]
    prefix: tuple[int, ...]


class Backend(Protocol):
    def search(
        self, batch: Sequence[Job], options: SearchOptions, should_stop: StopCheck
    ) -> list[list[Hypothesis]]: ...

    def alternatives(
        self, src: list[int], prefix: list[int], k: int, limit: int, options: SearchOptions,
        min_prob: float,
    ) -> list[Hypothesis]: ...  # fmt: skip


@dataclass
class TorchBackend:
    """The project's PyTorch search (greedy or beam) on the model ``model()`` returns
    (built on first use where the bundle was loaded lazily)."""

    model: Callable[[], Any]
    pad_id: int
    device: Device
    precision: str
    max_positions: int

    def search(self, batch, options: SearchOptions, should_stop: StopCheck = None):
        import torch

        from translator_app.core.engine.batching import pad_rows
        from translator_app.core.engine.search import beam_search, greedy_search

        src, mask = pad_rows([j.src for j in batch], self.pad_id)
        src, mask = src.to(str(self.device)), mask.to(str(self.device))
        kwargs = dict(
            max_len_cap=self.max_positions,
            prefixes=[j.prefix for j in batch] if any(j.prefix for j in batch) else None,
            should_stop=should_stop,
        )
        autocast = torch.autocast(
            self.device.type, dtype=torch.bfloat16, enabled=self.precision == "bf16"
        )
        with autocast:
            if options.beam == 1:
                return greedy_search(self.model(), src, mask, options, **kwargs)
            return beam_search(self.model(), src, mask, options, **kwargs)

    def alternatives(self, src, prefix, k, limit, options: SearchOptions, min_prob: float):
        """The ``k`` likeliest next pieces after ``prefix`` (one teacher-forced pass),
        each decoded greedily to the end."""
        from translator_app.core.engine.forced import likeliest_next

        choices = likeliest_next(self.model(), src, prefix, k, min_prob)
        jobs = [Job(0, 0, src, (*prefix, token)) for token in choices]
        return [row[0] for row in self.search(jobs, options)] if jobs else []

    def with_layers(self, batch, hyps: list[list[Hypothesis]]) -> list[list[Hypothesis]]:
        """Every layer's and head's cross-attention of each sentence's best decode, from
        one teacher-forced pass; its alignment is taken from the same pass, so it is the
        model's own."""
        from translator_app.core.engine.forced import attention_layers

        model = self.model()
        layers = attention_layers(model, [j.src for j in batch], [row[0].tokens for row in hyps])
        out = []
        for mine, row in zip(layers, hyps, strict=True):
            align = model.alignment_of(mine[:, model.align_layer])  # [T, S]
            out.append([replace(row[0], layers=mine, attention=align), *row[1:]])
        return out


@dataclass
class Ct2Backend:
    """CTranslate2 decodes; the PyTorch ``reference`` redoes what it cannot be trusted
    with and adds every layer's attention where the options ask for it."""

    engine: Ct2Engine
    reference: TorchBackend
    arch: str

    def search(self, batch, options: SearchOptions, should_stop: StopCheck = None):
        if should_stop is not None and should_stop():
            raise SearchCancelled()
        max_positions = self.reference.max_positions
        limits = [
            output_limit(len(j.src), options.max_len_a, options.max_len_b, max_positions)
            for j in batch
        ]
        prefixes = [j.prefix for j in batch] if any(j.prefix for j in batch) else None
        hyps = self.engine.search([j.src for j in batch], options, limits, prefixes)
        if prefixes:
            hyps = self._keep_prefixes(batch, hyps, options, should_stop)
        if options.all_layers and self.arch == "transformer":
            hyps = self.reference.with_layers(batch, hyps)
        # A sentence with words never becomes nothing without a word said: where
        # CTranslate2 wrote only the end of the sentence (a damaged converted model did),
        # the PyTorch model, the reference, decodes that sentence again.
        empty = [k for k, h in enumerate(hyps) if len(batch[k].src) > 1 and _only_eos(h)]
        if empty:
            redone = self.reference.search([batch[k] for k in empty], options, should_stop)
            for k, h in zip(empty, redone, strict=True):
                hyps[k] = h
        return hyps

    def _keep_prefixes(self, batch, hyps, options: SearchOptions, should_stop: StopCheck):
        """Only hypotheses that begin with their job's forced prefix: a word the user
        chose must never come back as another (CTranslate2 with its vocabulary
        shortlist once garbled forced words). Where none does, the PyTorch model decodes
        that sentence."""
        out = []
        for job, row in zip(batch, hyps, strict=True):
            n = len(job.prefix)
            kept = [h for h in row if tuple(h.tokens[:n]) == job.prefix]
            if not kept:
                kept = self.reference.search([job], options, should_stop)[0]
            out.append(kept)
        return out

    def alternatives(self, src, prefix, k, limit, options: SearchOptions, min_prob: float):
        """One call (``return_alternatives``, made for interactive translation)."""
        return self.engine.alternatives(src, prefix, k, limit, options, min_prob)


def _only_eos(hyps: Sequence[Hypothesis]) -> bool:
    return all(len(h.tokens) <= 1 for h in hyps)

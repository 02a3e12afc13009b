"""What a search is asked and what it returns, without PyTorch: the options, a
hypothesis (its attention a NumPy array from CTranslate2 or a tensor from the PyTorch
search), the length limits. The translator's CTranslate2 path needs only these, so that
the first translation does not wait for PyTorch to import (issue 49)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from translator_app.core.limits import check_search


class SearchCancelled(Exception):
    """Raised when ``should_stop()`` returned True during decoding."""


@dataclass(frozen=True)
class SearchOptions:
    """How to decode. beam: hypotheses kept per step (1: greedy search); nbest: how many
    to return (at most ``beam``); length_penalty: GNMT alpha that beam search ranks by;
    the output stops at min(max_len_a * source length + max_len_b, the model's cap)
    tokens; all_layers: keep every layer's and head's cross-attention (the app's panel)."""

    beam: int = 1
    nbest: int = 1
    length_penalty: float = 0.6
    max_len_a: float = 1.5
    max_len_b: int = 10
    all_layers: bool = False

    def __post_init__(self) -> None:
        check_search(
            beam=self.beam,
            nbest=self.nbest,
            length_penalty=self.length_penalty,
            max_len_a=self.max_len_a,
            max_len_b=self.max_len_b,
        )
        if self.nbest > self.beam:
            raise ValueError(f"need nbest ({self.nbest}) <= beam ({self.beam})")


GREEDY = SearchOptions()


def with_choices(defaults: SearchOptions, **choices) -> SearchOptions:
    """The one rule for what a translation searches with: ``defaults`` (a bundle's
    :class:`~translator_app.core.engine.bundle_format.SearchDefaults`) changed by the caller's
    ``choices`` (fields of :class:`SearchOptions`; None keeps the default). The n-best
    never exceeds the beam: a beam chosen alone narrows the default n-best to it (beam=1
    is greedy with one candidate); an n-best chosen wider than the beam widens the beam.
    The app, the command line, the trainer's eval and the benches all come through here."""
    chosen = {k: v for k, v in choices.items() if v is not None}
    check_search(beam=chosen.get("beam"), nbest=chosen.get("nbest"))
    merged = {**asdict(defaults), **chosen}
    if "nbest" not in chosen:
        merged["nbest"] = min(merged["nbest"], merged["beam"])
    merged["beam"] = max(merged["beam"], merged["nbest"])
    return SearchOptions(**merged)


@dataclass(frozen=True)
class Hypothesis:
    """One decoded target sequence.

    tokens: ids, ending with EOS; logprob: sum of token log-probabilities;
    score: logprob / length penalty (what beam search ranks by);
    attention: [len(tokens), S] float32 on CPU (S = the sentence's source length), a
    tensor (PyTorch search) or a NumPy array (CTranslate2);
    layers: [len(tokens), L, H, S] cross-attention of all layers and heads, if requested.
    """

    tokens: tuple[int, ...]
    logprob: float
    score: float
    attention: Any
    layers: Any = None


def length_penalty(length: int, alpha: float) -> float:
    """GNMT length penalty ((5 + |Y|) / 6) ** alpha (Wu et al., 2016); 1 when alpha = 0."""
    return ((5.0 + length) / 6.0) ** alpha


def output_limit(source_length: int, a: float, b: int, cap: int) -> int:
    """The limit on output tokens (EOS included) for a source of ``source_length``
    tokens: min(a * length + b, cap), at least 1 (as :func:`search.max_lengths`)."""
    return max(1, min(int(source_length * a + b), cap))

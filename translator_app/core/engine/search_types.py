"""What a search is asked and what it returns, without PyTorch: the options, a
hypothesis (its attention a NumPy array from CTranslate2 or a tensor from the PyTorch
search), the length limits. The translator's CTranslate2 path needs only these, so that
the first translation does not wait for PyTorch to import (issue 49)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np

from translator_app.core.limits import check_search


class SearchCancelled(Exception):
    """Raised when ``should_stop()`` returned True during decoding."""


@dataclass(frozen=True)
class SearchOptions:
    """How to decode. beam: hypotheses kept per step (1: greedy search); nbest: how many
    to return (at most ``beam``); length_penalty: GNMT alpha that beam search ranks by;
    coverage_penalty: GNMT beta, how much a beam search hypothesis loses for source
    tokens its attention left uncovered (:func:`with_coverage`); the output stops at
    min(max_len_a * source length + max_len_b, the model's cap) tokens; all_layers: keep
    every layer's and head's cross-attention (the app's panel)."""

    beam: int = 1
    nbest: int = 1
    length_penalty: float = 0.6
    coverage_penalty: float = 0.0
    max_len_a: float = 1.5
    max_len_b: int = 10
    all_layers: bool = False

    def __post_init__(self) -> None:
        check_search(
            beam=self.beam,
            nbest=self.nbest,
            length_penalty=self.length_penalty,
            coverage_penalty=self.coverage_penalty,
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
    score: logprob / length penalty (what beam search ranks by; with a coverage penalty,
    (logprob + the penalty) / length penalty: :func:`with_coverage`);
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


def coverage_penalty(attention, beta: float) -> float:
    """GNMT's coverage penalty (Wu et al., 2016): beta * the sum over source tokens j of
    log(min(sum over target steps t of attention[t, j], 1)), 0 where every source token
    was attended to in all; a token no step attended to costs log(1e-9), not minus
    infinity. ``attention``: [T, S] (NumPy, or a tensor on the CPU)."""
    if not beta:
        return 0.0
    covered = np.asarray(attention, dtype=np.float64).sum(0)
    return float(beta * np.log(np.clip(covered, 1e-9, 1.0)).sum())


def searched_options(options: SearchOptions) -> SearchOptions:
    """What to ask an engine for: with a coverage penalty, every hypothesis of the beam,
    for :func:`with_coverage` to rank."""
    if options.coverage_penalty and options.beam > 1 and options.nbest < options.beam:
        return replace(options, nbest=options.beam)
    return options


def with_coverage(rows: list[list[Hypothesis]], options: SearchOptions) -> list[list[Hypothesis]]:
    """Each sentence's beam-search hypotheses scored (logprob + :func:`coverage_penalty`)
    / length penalty and ranked so, best first, ``options.nbest`` of them: GNMT's
    rescoring, done here for both engines alike (CTranslate2's own coverage penalty
    weighs another attention than the one it returns). Greedy search is left as it is."""
    beta = options.coverage_penalty
    if not beta or options.beam == 1:
        return rows
    out = []
    for row in rows:
        scored = [
            replace(
                h,
                score=(h.logprob + coverage_penalty(h.attention, beta))
                / length_penalty(len(h.tokens), options.length_penalty),
            )
            for h in row
        ]
        out.append(sorted(scored, key=lambda h: -h.score)[: options.nbest])
    return out


def output_limit(source_length: int, a: float, b: int, cap: int) -> int:
    """The limit on output tokens (EOS included) for a source of ``source_length``
    tokens: min(a * length + b, cap), at least 1 (as :func:`search.max_lengths`)."""
    return max(1, min(int(source_length * a + b), cap))

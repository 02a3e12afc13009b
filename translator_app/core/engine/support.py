"""How much does an English translation need each German word? (issue 48, section 3)

``forced.word_supports`` leaves each given word out of the source in turn and scores
the same English under every variant, in one teacher-forced pass of the PyTorch model
over a batch of the sentence and its variants. A word's support is how many nats of
log-probability the English loses without it: high where the English carries the word,
near zero where it does not (core/faithful/dropped.py decides).
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from translator_app.core.engine.forced import word_supports
from translator_app.core.faithful.dropped import content_words, not_carried
from translator_app.core.text.tokenizer import Span
from translator_app.core.values import SourceWord


def content_supports(
    model: torch.nn.Module,
    source: str,
    source_ids: Sequence[int],
    source_spans: Sequence[Span],
    target_ids: Sequence[int],
) -> list[tuple[SourceWord, float]]:
    """Each content word of ``source`` with its support. (Leaving neighbouring words
    out together as well found no more dropped words on bench/bench_dropped.py's set
    and marked more kept ones.)"""
    words = content_words(source, source_spans)
    supports = word_supports(model, source_ids, target_ids, [w.pieces for w in words])
    return list(zip(words, supports, strict=True))


def words_not_carried(
    model: torch.nn.Module,
    source: str,
    source_ids: Sequence[int],
    source_spans: Sequence[Span],
    target_ids: Sequence[int],
) -> list[SourceWord]:
    """The content words of ``source`` that the target does not seem to carry."""
    scored = content_supports(model, source, source_ids, source_spans, target_ids)
    return not_carried([w for w, _ in scored], [s for _, s in scored])

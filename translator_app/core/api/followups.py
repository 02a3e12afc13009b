"""What follows a translation, on the Translator's model: every layer's attention for
the alignment panel, the dropped-words check and the word menu's alternatives (the
window asks for them after the English shows; core/api/translator.py keeps one method
each). ``translator`` is a core/api/translator.Translator (not imported: it imports
this module).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from translator_app.core.engine.batching import frozen_array
from translator_app.core.engine.candidates import candidate, text_of
from translator_app.core.engine.closing_stop import as_read, stop_added, without_stop
from translator_app.core.engine.search_types import output_limit
from translator_app.core.engine.symbols import (
    Run,
    symbol_tail,
    tail_added,
    with_runs,
    with_tail,
    without_inserted,
    without_symbol_runs,
)
from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.postedit.pipeline import rewritten

# Word alternatives offered for one position of a translation (the word menu), and the
# least probability a piece needs there to be offered: less likely ones are noise ("we" +
# "ce" + "ce" made "wecece" beside "celebrate").
ALTERNATIVES = 8
ALTERNATIVE_MIN_PROB = 0.01


def explain(translator, translation: Translation) -> Translation:
    """``translation`` with every layer's and head's attention of its best candidate
    (what the alignment panel shows when the user picks another layer or head), from
    one teacher-forced pass; the alignment stays the one decoded. Unchanged where it
    has them already, for an RNN (one attention: the alignment) and for a sentence
    longer than the model's positions (translated in parts)."""
    best = translation.best
    if (
        best is None
        or best.layers is not None
        or translator.config.arch != "transformer"
        or len(translation.source_ids) > translator.max_source_tokens
        or not best.target_ids
        or best.attention.shape != (len(best.target_ids), len(translation.source_ids))
    ):
        return translation
    from translator_app.core.engine.forced import attention_layers

    target, stop_row = as_read(translation)
    (layers,) = attention_layers(translator.model, [translation.source_ids], [target])
    layers = frozen_array(layers)
    if stop_row is not None:  # the English the user sees has no row for it
        layers = frozen_array(np.delete(layers, stop_row, axis=0))
    explained = replace(best, layers=layers)
    return replace(translation, nbest=(explained, *translation.nbest[1:]))


def check_dropped(translator, translations: Sequence[Translation]) -> list[Translation]:
    """``translations`` with the content words of each source that its best
    candidate does not seem to carry (``not_carried``; core/engine/support.py), from
    one teacher-forced pass per sentence. Left unchecked (None) where the sentence
    was translated in parts or its text is not the decode of its ids."""
    from translator_app.core.engine.support import words_not_carried

    out = []
    for t in translations:
        best = t.best
        if (
            t.not_carried is not None
            or best is None
            or not best.target_ids
            or len(t.source_ids) > translator.max_source_tokens
            or text_of(translator.tokenizer, best.target_ids) != best.text
        ):
            out.append(t)
            continue
        target, _ = as_read(t)
        words = words_not_carried(translator.model, t.source, t.source_ids, t.source_spans, target)
        out.append(replace(t, not_carried=tuple(words)))
    return out


def alternatives(
    translator, translation: Translation, piece: int, k: int = ALTERNATIVES
) -> tuple[Candidate, ...]:
    """Up to ``k`` other translations of ``translation``'s sentence that keep its best
    candidate up to target position ``piece`` and choose another piece there, each
    decoded greedily to the end: the word menu's alternatives, likeliest piece first,
    each rewritten by the pipeline's rewrites as the translation was (a term's article,
    the first capital) and given the emoji the German closed with. CTranslate2 finds
    them in one call (``return_alternatives``, made for interactive translation); the
    PyTorch model ranks the pieces in one teacher-forced pass over the prefix and
    decodes each choice. Pieces under :data:`ALTERNATIVE_MIN_PROB` and the end of the
    sentence (the choice that drops words) are not offered. Empty where the sentence
    was translated in parts or its best text is not the decode of its ids (written back
    from placeholders): alternatives of another text mislead."""
    best = translation.best
    src = list(translation.source_ids)
    tail, runs = _symbols(translation.source) if "symbols" in translator.steps else ("", ())
    if (
        best is None
        or not 0 <= piece < len(best.target_ids)
        or not src
        or len(src) > translator.max_source_tokens
        or tail_added(text_of(translator.tokenizer, best.target_ids), tail)
        != without_inserted(best.text, runs)
    ):
        return ()
    prefix = best.target_ids[:piece]
    options = translator.search_options(beam=1, nbest=1, all_layers=False)
    limit = max(
        output_limit(len(src), options.max_len_a, options.max_len_b, translator.max_positions),
        piece + 2,
    )
    hyps = translator.backend.alternatives(src, prefix, k + 1, limit, options, ALTERNATIVE_MIN_PROB)
    out, seen = [], {best.target_ids[piece], translator.tokenizer.eos_id}
    texts = {best.text}
    stopped = stop_added(translation)
    for h in hyps:
        if len(h.tokens) <= piece or h.tokens[:piece] != prefix:
            continue
        found = candidate(translator.tokenizer, h)
        found = without_stop(translator.tokenizer, found) if stopped else found
        # offered as the translation shows it (core/postedit/pipeline.py)
        found = rewritten(translator.tokenizer, translation, found, translator.steps)
        found = with_tail(found, tail) if tail else found
        found = with_runs(found, runs, translation.source_spans)
        if (
            len(found.target_ids) > piece
            and found.target_ids[piece] not in seen
            and found.text not in texts
        ):
            seen.add(found.target_ids[piece])
            texts.add(found.text)
            out.append(found)
    return tuple(out[:k])


def _symbols(source: str) -> tuple[str, tuple[Run, ...]]:
    """The emoji and symbols ``source`` closes with, and the runs of them inside it
    (engine/symbols.py), as the decode kept them from the model."""
    cut = symbol_tail(source)
    return source[cut:], without_symbol_runs(source[:cut])[2]

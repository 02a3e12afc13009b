"""What follows a translation, on the Translator's model: every layer's attention for
the alignment panel, the dropped-words check and the word menu's alternatives (the
window asks for them after the English shows; core/api/translator.py keeps one method
each). ``translator`` is a core/api/translator.Translator (not imported: it imports
this module).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from translator_app.core.dictionary.index import DictionaryError
from translator_app.core.engine.batching import frozen_array
from translator_app.core.engine.candidates import candidate, text_of
from translator_app.core.engine.closing_stop import as_read, stop_added, without_stop
from translator_app.core.engine.search_types import output_limit
from translator_app.core.engine.symbols import (
    Run,
    symbol_rows,
    symbol_tail,
    tail_added,
    with_runs,
    with_tail,
    without_inserted,
    without_symbol_runs,
)
from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.language.words import german_function_words
from translator_app.core.postedit import judge
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
    translator,
    translation: Translation,
    piece: int,
    k: int = ALTERNATIVES,
    steps: frozenset[str] | None = None,
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
    steps = translator.steps if steps is None else steps
    best = translation.best
    src = list(translation.source_ids)
    tail, runs = _symbols(translation.source) if "symbols" in steps else ("", ())
    tokenizer = translator.tokenizer
    if (
        best is None
        or not 0 <= piece < len(best.target_ids)
        # at the end marker: CTranslate2 ends the process there (SIGFPE)
        or best.target_ids[piece] == tokenizer.eos_id
        or not src
        or len(src) > translator.max_source_tokens
        or not _decodes_as_shown(tokenizer, best, tail, runs)
    ):
        return ()
    # the model's own ids: the emoji the step "symbols" wrote in are read out, and put
    # back in each alternative as in the translation (none is offered for an emoji)
    symbols = symbol_rows(tokenizer, best.target_ids) if tail or runs else frozenset()
    if piece in symbols:
        return ()
    prefix = tuple(i for k, i in enumerate(best.target_ids[:piece]) if k not in symbols)
    at = len(prefix)  # ``piece`` in the model's ids
    options = translator.search_options(beam=1, nbest=1, all_layers=False)
    limit = max(
        output_limit(len(src), options.max_len_a, options.max_len_b, translator.max_positions),
        at + 2,
    )
    hyps = translator.backend.alternatives(src, prefix, k + 1, limit, options, ALTERNATIVE_MIN_PROB)
    made_up = _made_up_words(translator, translation.source)
    out, seen = [], {best.target_ids[piece], tokenizer.eos_id}
    texts = {best.text}
    stopped = stop_added(translation)
    for h in hyps:
        if len(h.tokens) <= at or tuple(h.tokens[:at]) != prefix or h.tokens[at] in seen:
            continue
        found = candidate(tokenizer, h)
        found = without_stop(tokenizer, found) if stopped else found
        # offered as the translation shows it (core/postedit/pipeline.py)
        found = rewritten(tokenizer, translation, found, steps)
        found = with_tail(found, tail, tokenizer) if tail else found
        found = with_runs(found, runs, translation.source_spans, tokenizer)
        if found.text not in texts and not made_up(found, _shown_piece(tokenizer, found, at)):
            seen.add(h.tokens[at])
            texts.add(found.text)
            out.append(found)
    return tuple(out[:k])


def _shown_piece(tokenizer, cand: Candidate, at: int) -> int:
    """Where the model's piece ``at`` stands in ``cand``'s ids, the symbols written into
    them counted."""
    symbols = symbol_rows(tokenizer, cand.target_ids)
    return [k for k in range(len(cand.target_ids)) if k not in symbols][at]


def _decodes_as_shown(tokenizer, best: Candidate, tail: str, runs) -> bool:
    """Whether ``best``'s text is the decode of its ids, the emoji the step "symbols"
    wrote in them included, or (a tokenizer that cannot spell them) with them taken out
    of the text."""
    decoded = text_of(tokenizer, best.target_ids)
    return decoded == best.text or tail_added(decoded, tail) == without_inserted(best.text, runs)


def word_around(text: str, span: tuple[int, int]) -> str:
    """The run of letters that ``text[span]`` (a piece, maybe with the space before its
    word) is part of: word_around("The landlady", (3, 8)) -> "landlady"."""
    start, end = span
    while start < end and text[start].isspace():  # a word's first piece
        start += 1
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    while end < len(text) and text[end].isalpha():
        end += 1
    return text[start:end].strip()


def _made_up_words(translator, source: str):
    """``made_up(cand, piece)``: whether the word that ``cand``'s piece ``piece`` is part
    of is no English word the dictionary knows (nor inflects) and not in ``source``
    either (a name the English copies): "landingter" for "landlady", "scrooms" for
    "screws", the model's choice of a piece inside a word. Never where the dictionary is
    not ready (the model's alternatives as they are). bench/bench_made_up_words.py."""
    dictionary = translator.dictionary
    try:
        usable = dictionary is not None and dictionary.ready(wait=False)
    except DictionaryError:
        usable = False
    if not usable:
        return lambda cand, piece: False
    folded = source.casefold()

    def made_up(cand: Candidate, piece: int) -> bool:
        word = word_around(cand.text, cand.target_spans[piece])
        if len(word) < 3 or not word.isalpha() or word.casefold() in folded:
            return False
        try:
            return not dictionary.is_english_form(word)
        except DictionaryError:
            return False

    return made_up


def _symbols(source: str) -> tuple[str, tuple[Run, ...]]:
    """The emoji and symbols ``source`` closes with, and the runs of them inside it
    (engine/symbols.py), as the decode kept them from the model."""
    cut = symbol_tail(source)
    return source[cut:], without_symbol_runs(source[:cut])[2]


def _words_of_the_rest(translation: Translation, fact) -> Counter:
    """The words of ``translation``'s English (of four letters or more) whose pieces all
    attend most to German outside ``fact``, to a word that is not a function word
    (language/words.german_function_words: "were" for „wurden“ may become "have been"):
    what a fix of that fact must still say. A word the model wrote for the fact's German
    ("withworms" for „mittwochs“) may go."""
    best, source = translation.best, translation.source
    att = np.asarray(best.attention)
    function_words = german_function_words()
    words: Counter = Counter()
    for m in judge.KEPT_WORD.finditer(best.text):
        pieces = [
            k
            for k, (a, b) in enumerate(best.target_spans[: len(att)])
            if a < m.end() and m.start() < b
        ]
        said = [translation.source_spans[int(np.argmax(att[k]))] for k in pieces]
        if not said or any(a < fact.end and fact.start < b for a, b in said):
            continue
        german = set().union(*(_words_within(source, a, b) for a, b in said))
        if german - function_words:
            words[m.group().casefold()] += 1
    return words


def _words_within(text: str, start: int, end: int) -> set[str]:
    """The words of ``text`` (case-folded) that overlap ``start``-``end`` (a piece's
    span, its space included)."""
    return {
        m.group().casefold()
        for m in re.finditer(r"\w+", text)
        if m.start() < end and start < m.end()
    }


# The most places a lost fact's English is tried at (the words nearest the one most
# aligned with the fact's German), all decoded in one batch.
FIX_PLACES = 12


def _word_starts(cand: Candidate) -> list[int]:
    """The target positions of ``cand`` where a word begins (not the end)."""
    pieces = cand.target_pieces[:-1] if cand.target_pieces else ()
    return [k for k, p in enumerate(pieces) if p.startswith("▁") or k == 0]


def _fix_places(translation: Translation, fact) -> list[int]:
    """The word starts of the best candidate at which to force ``fact``'s English,
    nearest first to the word whose pieces attend most to the fact's German."""
    best = translation.best
    cols = [
        j for j, (a, b) in enumerate(translation.source_spans) if a < fact.end and fact.start < b
    ]
    end = before_stop = len(best.target_pieces) - 1
    while before_stop > 0 and not any(ch.isalnum() for ch in best.target_pieces[before_stop - 1]):
        before_stop -= 1  # before the closing stop ("… at noon on Saturdays."), or after
    starts = sorted(set(_word_starts(best) + [before_stop, end]))  # it ("6 p.m. on …")
    if not cols:
        return []
    weight = np.asarray(best.attention)[: len(best.target_pieces) - 1, cols].sum(axis=1)
    aligned = int(np.argmax(weight)) if weight.size else 0
    return sorted(starts, key=lambda k: (abs(k - aligned), k))[:FIX_PLACES]


def fact_fix(translator, translation: Translation, fact) -> Translation | None:
    """``translation``'s sentence with the English of ``fact`` (one of its
    ``issues``, e.g. "1,249.90" for „1.249,90 €“) forced in: the forced-prefix
    decode (the model's words up to a word, the fact's English, then the model's own
    continuation) tried before each word near the one aligned with the fact's German, in
    one batch; of those that keep the fact and lose fewer facts than ``translation``,
    the likeliest (the model's score of the whole English, the forced words included:
    „Die Stadtbücherei ist montags und mittwochs geschlossen.“ "… on Mondays and
    withworms." is fixed as "… on Mondays and on Wednesdays.", where the English closest
    to the shown one kept the garbled word: "… on Mondays on Wednesdays and withworms.").
    None where the fact has no English to force, or no decode keeps it: the mark then
    offers no fix. A decode that drops a word of the shown English that said another
    German word than the fact's keeps nothing of it („samstags nur bis mittags“: "… only
    open until on Saturdays" dropped "noon", the likeliest for being shortest)."""
    best = translation.best
    if best is None or not fact.english or not translation.source_ids:
        return None
    forced = tuple(translator.tokenizer.encode_ids([fact.english], side="target")[0])
    places = _fix_places(translation, fact)
    if not forced or not places:
        return None
    prefixes = [tuple(best.target_ids[:k]) + forced for k in places]
    rest = _words_of_the_rest(translation, fact)
    tries = translator.translate([translation.source] * len(prefixes), prefixes=prefixes)
    return judge.fact_fixed(tries, translation, fact, rest)

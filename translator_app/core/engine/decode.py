"""One decode of a list of sentences: each cleaned, read (the post-editing steps of stage
"read" where asked), encoded with its glossary terms and facts annotated, cut into
chunks the model's positions hold, searched in batches of similar length, and put
together as a :class:`Translation` whose n-best is in the search's order.

``decode_sentences(decoder, texts, ...)`` -> one :class:`Decoded` per text: its
translation and the terms, names and places its candidates are to be checked for (the
judge of core/postedit orders the n-best by them).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from translator_app.core.engine.backends import Backend, Job
from translator_app.core.engine.batching import length_batches
from translator_app.core.engine.candidates import (
    candidate,
    has_words,
    in_another_script,
    merge_chunks,
    verbatim,
)
from translator_app.core.engine.closing_stop import encode_with_stop, needs_stop, without_stop
from translator_app.core.engine.search_types import (
    Hypothesis,
    SearchOptions,
    searched_options,
    with_coverage,
)
from translator_app.core.engine.symbols import (
    Run,
    model_ids,
    symbol_tail,
    with_runs,
    with_tail,
    without_symbol_runs,
)
from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.faithful.glossary import Glossary, annotate, check_uses, map_spans
from translator_app.core.faithful.protect import entity_uses, merge_uses, protected_uses
from translator_app.core.faithful.terms import mask_markers
from translator_app.core.faithful.umlauts import spans_in, spelled_as_german, uses_in
from translator_app.core.language.amounts import in_figures
from translator_app.core.language.identify import other_language
from translator_app.core.language.numbers import with_digits
from translator_app.core.limits import MAX_SENTENCE_TOKENS
from translator_app.core.text.clean import through, without_lone_surrogates
from translator_app.core.text.tokenizer import EOS_PIECE, Pieces, Tokenizer
from translator_app.core.values import TermUse

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class InvalidTextWarning(UserWarning):
    """A text held characters that are not valid Unicode; they were replaced."""


@dataclass(frozen=True)
class Reading:
    """How the German is given to the model (the post-editing steps of stage "read"):
    ``umlauts``, typed without umlauts, in capitals or without any, read as German
    writes it (faithful/umlauts.py); ``stop``, a sentence that closes without
    punctuation read with a full stop (closing_stop.py); ``symbols``, emoji and symbols
    kept from the model and put back in the English (symbols.py); ``numbers``, German
    numbers in words from thirteen up given in digits (language/numbers.py); ``amounts``,
    fractions, prices and clock times in words, ranges and dates without a year given
    in the figures the model keeps (language/amounts.py); ``languages``, a sentence sure
    to be in another language than German kept as written (language/identify.py)."""

    umlauts: bool = True
    stop: bool = True
    symbols: bool = True
    numbers: bool = True
    amounts: bool = True
    languages: bool = True


@dataclass(frozen=True)
class SentenceDecoder:
    """What one decode needs of the translator: its tokenizer and backend, the source
    tokens one chunk may hold, and whether the model follows term annotations (the
    user's text then must not carry any)."""

    tokenizer: Tokenizer
    backend: Backend
    max_source_tokens: int
    follows_glossary: bool


@dataclass(frozen=True)
class Decoded:
    """A text's translation, its n-best in the search's order, and the glossary terms,
    names and places (where protected) its candidates are to be checked for."""

    translation: Translation
    checked: tuple[TermUse, ...]


@dataclass
class _Sentence:
    """One text on its way through :func:`decode_sentences`."""

    text: str
    encoded: Pieces | None
    term_uses: list  # the glossary's terms in it
    checked: list  # those and, where protected, its names and places
    as_is: Candidate | None = None  # a text without words, kept as it is
    jobs: list[Job] = field(default_factory=list)
    tail: str = ""  # closing emoji and symbols, carried to the English (symbol_tail)
    runs: tuple[Run, ...] = ()  # symbols inside it, written back into the English
    stop: bool = False  # read with a full stop it does not close with (closing_stop.py)
    facts_annotated: bool = False  # protected facts annotated for the model
    language: str = ""  # another language it is written in, kept as written (identify.py)


def decode_sentences(
    decoder: SentenceDecoder,
    texts: Sequence[str],
    options: SearchOptions,
    prefixes: Sequence[Sequence[int]] | None = None,
    should_stop: Callable[[], bool] | None = None,
    batch_tokens: int = 3000,
    glossary: Glossary | None = None,
    protect: bool = False,
    reading: Reading = Reading(),
) -> list[Decoded]:
    """One decode of ``texts``: each encoded (annotated where ``protect`` or the
    glossary asks), cut into chunks the model's positions hold, searched in batches of
    ``batch_tokens`` source tokens of similar length, and put together.

    >>> [d.translation.text for d in decode_sentences(decoder, ["Guten Morgen"], options)]
    ['Good morning']
    """
    sentences = [
        _sentence(
            decoder, i, text, glossary, protect, tuple(prefixes[i]) if prefixes else (), reading
        )
        for i, text in enumerate(texts)
    ]
    jobs = [job for s in sentences for job in s.jobs]
    results: dict[tuple[int, int], list[Hypothesis]] = {}
    searched = searched_options(options)
    for indices in length_batches([len(j.src) for j in jobs], batch_tokens, max_items=64):
        batch = [jobs[i] for i in indices]
        hyps = with_coverage(decoder.backend.search(batch, searched, should_stop), options)
        for job, h in zip(batch, hyps, strict=True):
            results[(job.item, job.chunk)] = h
    return [
        _assemble(decoder.tokenizer, s, [results[(i, c)] for c in range(len(s.jobs))])
        for i, s in enumerate(sentences)
    ]


def _sentence(
    decoder: SentenceDecoder, i: int, text: str, glossary, protect: bool, prefix, reading: Reading
) -> _Sentence:
    """``text`` cleaned and encoded, the terms and facts its candidates are checked
    for, and its jobs (none where it is empty or kept as it is)."""
    clean, repaired = without_lone_surrogates(_CONTROL.sub(" ", text))
    if repaired:
        warnings.warn(
            f"text {i + 1} holds lone surrogates (not valid Unicode); they were replaced by U+FFFD",
            InvalidTextWarning,
            stacklevel=5,
        )
    if decoder.follows_glossary:  # the user's text must not carry annotations
        clean = mask_markers(clean)
    cut = symbol_tail(clean) if reading.symbols else len(clean)
    if reading.symbols and prefix:  # a shown English's beginning, as the model wrote it
        prefix = model_ids(decoder.tokenizer, prefix)
    clean, tail = clean[:cut], clean[cut:]  # a prefix: spans stay valid in ``text``
    bare, origins, runs = without_symbol_runs(clean) if reading.symbols else (clean, None, ())
    # Typed without umlauts, in capitals or without any: read as German writes it.
    read, within = spelled_as_german(bare) if reading.umlauts else (bare, None)
    origins = through(origins, within)  # where each character stands in ``clean``
    if reading.amounts:  # „anderthalb Liter“ given as 1,5 Liter
        read, within = in_figures(read)
        origins = through(origins, within)
    if reading.numbers:  # „vierhundertzwanzig“ given as 420
        read, within = with_digits(read)
        origins = through(origins, within)
    uses = glossary.find(read) if glossary else []
    # Protected names and places are checked in the n-best like the user's terms
    # (beam search may prefer a shorter candidate that drops „in Wien“).
    checked = merge_uses(uses, entity_uses(read)) if protect else uses
    marked = merge_uses(uses, protected_uses(read)) if protect else uses
    stop = reading.stop and needs_stop(read)
    enc = _encode(decoder.tokenizer, read, marked, stop)
    if origins is not None and enc is not None:  # spans in the user's text
        enc = Pieces(clean, enc.ids, enc.pieces, spans_in(origins, enc.spans))
        uses, checked = uses_in(origins, uses), uses_in(origins, checked)
    annotated = len(marked) > len(uses)
    sentence = _Sentence(
        text, enc, uses, checked, tail=tail, stop=stop, runs=runs, facts_annotated=annotated
    )
    if enc is None or not enc.ids:
        return sentence
    if len(enc.ids) > MAX_SENTENCE_TOKENS:
        # The merged attention of one text grows with the square of its length.
        raise ValueError(
            f"text {i + 1} is {len(enc.ids)} tokens long, more than the "
            f"{MAX_SENTENCE_TOKENS} one sentence may have; use translate_document, "
            "which splits long text"
        )
    language = (reading.languages and not prefix and other_language(clean)) or ""
    if (not has_words(clean) or in_another_script(clean) or language) and not prefix:
        sentence.as_is = verbatim(decoder.tokenizer, clean, enc.spans + ((len(clean),) * 2,))
        if sentence.as_is is not None:
            sentence.language = language
            return sentence
    step = decoder.max_source_tokens - 1
    eos = decoder.tokenizer.eos_id
    for c, start in enumerate(range(0, len(enc.ids), step)):
        chunk_ids = list(enc.ids[start : start + step]) + [eos]
        sentence.jobs.append(Job(i, c, chunk_ids, prefix if c == 0 else ()))
    return sentence


def _encode(tokenizer: Tokenizer, clean: str, marked: list, stop: bool) -> Pieces | None:
    """The pieces of ``clean`` with its ``marked`` terms and facts annotated, read with
    a full stop after it where ``stop`` says it closes without punctuation
    (closing_stop.needs_stop); None where it is blank."""
    if not clean.strip():
        return None

    def encode(seen: str) -> Pieces:
        if not marked:
            return tokenizer.encode(seen)
        annotated, inserted = annotate(seen, marked)
        a = tokenizer.encode(annotated)
        return Pieces(seen, a.ids, a.pieces, map_spans(a.spans, inserted, len(seen)))

    return encode_with_stop(encode, clean) if stop else encode(clean)


def _assemble(tokenizer: Tokenizer, s: _Sentence, chunks: list[list[Hypothesis]]) -> Decoded:
    """The Translation of one sentence from its chunks' hypotheses, in the search's
    order, with the terms it is checked for."""
    text, enc, eos = s.text, s.encoded, tokenizer.eos_id
    checked = tuple(s.checked)
    if enc is None or not enc.ids:
        empty = Translation(text, (eos,), (EOS_PIECE,), ((len(text), len(text)),), ())
        return Decoded(empty, checked)
    if s.as_is is not None:
        cands = (s.as_is,)
    elif len(chunks) == 1:
        # A search may return one decode twice (two beams cut at the length limit on
        # the same pieces): the n-best lists each translation once.
        unique: dict[tuple[int, ...], Hypothesis] = {}
        for h in chunks[0]:
            unique.setdefault(tuple(h.tokens), h)
        cands = tuple(candidate(tokenizer, h) for h in unique.values())
    else:
        cands = (merge_chunks(tokenizer, [c[0] for c in chunks], len(enc.ids) + 1),)
    if s.stop:
        cands = tuple(without_stop(tokenizer, c) for c in cands)
    if s.tail:
        cands = tuple(with_tail(c, s.tail, tokenizer) for c in cands)
    if s.runs and s.as_is is None:
        spans = enc.spans + ((len(text), len(text)),)
        cands = tuple(with_runs(c, s.runs, spans, tokenizer) for c in cands)
    translation = Translation(
        source=text,
        source_ids=enc.ids + (eos,),
        source_pieces=enc.pieces + (EOS_PIECE,),
        source_spans=enc.spans + ((len(text), len(text)),),
        nbest=cands,
        terms=check_uses(s.term_uses, cands[0].text) if cands else (),
        facts_annotated=s.facts_annotated,
        language=s.language,
    )
    return Decoded(translation, checked)

"""What a translation is: immutable values that cross threads (worker -> GUI) and
processes (translation files) unchanged.

A :class:`Translation` holds a source sentence's pieces and spans and its n-best
:class:`Candidate` list (best first); attention matrices are read-only NumPy arrays over
immutable bytes, so no receiver can change what another one sees. :meth:`Translation.words`
gives the reader's view: German and English words with the attention between them (the
alignment panel's), the model pieces behind each.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from translator_app.core.text.piece_words import piece_words
from translator_app.core.text.tokenizer import Span
from translator_app.core.values import Fact, SourceWord, TermUse


@dataclass(frozen=True)
class Candidate:
    """One translation of a sentence (an entry of the n-best list).

    target_pieces ends with "</s>"; attention: [len(target_pieces), len(source_pieces)];
    layers (when requested): [len(target_pieces), layers, heads, len(source_pieces)].
    """

    text: str
    target_ids: tuple[int, ...]
    target_pieces: tuple[str, ...]
    target_spans: tuple[Span, ...]
    attention: np.ndarray
    score: float
    logprob: float
    layers: np.ndarray | None = None


@dataclass(frozen=True)
class WordAlignment:
    """German and English words and the attention between them: ``attention[e, g]`` is
    how much English word ``e`` attended to German word ``g`` (a German word's column adds
    up its pieces', an English word's row averages its pieces', so a row still sums to
    at most 1). ``german_pieces[g]`` and ``english_pieces[e]`` are the model pieces of each
    word (a glossary's or a protected fact's annotation belongs to its German word)."""

    german: tuple[str, ...]
    english: tuple[str, ...]
    attention: np.ndarray  # [len(english), len(german)]
    german_pieces: tuple[tuple[int, ...], ...]
    english_pieces: tuple[tuple[int, ...], ...]


def word_alignment(
    source: str, source_pieces, source_spans, cand: Candidate, matrix: np.ndarray
) -> WordAlignment:
    """``matrix`` ([target pieces, source pieces], the candidate's attention or one
    layer's and head's) merged into words of ``source`` and of ``cand.text``."""
    src = piece_words(source_pieces, source_spans, source)
    tgt = piece_words(cand.target_pieces, cand.target_spans, cand.text)
    if src and tgt:
        cols = np.stack([matrix[:, list(m)].sum(axis=1) for _, m in src], axis=1)
        merged = np.stack([cols[list(m)].mean(axis=0) for _, m in tgt])
    else:
        merged = np.zeros((len(tgt), len(src)), dtype=np.float32)
    merged.setflags(write=False)
    return WordAlignment(
        tuple(source[a:b] for (a, b), _ in src),
        tuple(cand.text[a:b] for (a, b), _ in tgt),
        merged,
        tuple(m for _, m in src),
        tuple(m for _, m in tgt),
    )


@dataclass(frozen=True)
class Translation:
    """A source sentence and its n-best translations (best first).

    source_pieces ends with "</s>"; source_spans are character offsets into ``source``
    (the EOS gets an empty span at the end; with a glossary the pieces are those of the
    annotated source, and the annotation's pieces point at their term). ``issues``: what
    the first candidate does wrong with the source's facts, each a
    :class:`~translator_app.core.values.Fact` whose ``kind`` says which (one of
    ``FACT_KINDS``): a number, time, date, unit, negation, limit … of the source it does
    not keep, or (``Fact.added``) a number or negation it writes that the source does not
    hold (core/faithful/fact_check.py); the first candidate is the best-scored one among
    those that lose the fewest.
    """

    source: str
    source_ids: tuple[int, ...]
    source_pieces: tuple[str, ...]
    source_spans: tuple[Span, ...]
    nbest: tuple[Candidate, ...]
    issues: tuple[Fact, ...] = ()
    terms: tuple[TermUse, ...] = ()  # glossary terms of the source, and whether kept
    # Content words of the source the first candidate does not seem to carry
    # (Translator.check_dropped, core/faithful/dropped.py); None: not checked yet.
    not_carried: tuple[SourceWord, ...] | None = None
    # Why the sentence could not be translated, where it could not: it is given back as
    # it came (text_document.each_or_as_it_came); "" for a translation.
    failed: str = ""
    # Whether the model was given the source's facts annotated (protect.py): a step
    # that decodes the sentence again starts the same way (postedit/facts.py).
    facts_annotated: bool = False
    # The language the source is written in where it is sure not to be German
    # (core/language/identify.py: "en", "fr"): kept as written, not translated.
    language: str = ""

    @property
    def best(self) -> Candidate | None:
        return self.nbest[0] if self.nbest else None

    @property
    def text(self) -> str:
        return self.nbest[0].text if self.nbest else ""

    @property
    def target_pieces(self) -> tuple[str, ...]:
        return self.nbest[0].target_pieces if self.nbest else ()

    @property
    def attention(self) -> np.ndarray:
        if self.nbest:
            return self.nbest[0].attention
        return np.zeros((0, len(self.source_pieces)), dtype=np.float32)

    @property
    def score(self) -> float:
        return self.nbest[0].score if self.nbest else 0.0

    def words(self) -> WordAlignment:
        """The best candidate as words: the German and English words and the attention
        between them, as the window's alignment panel shows them."""
        cand = self.best or Candidate("", (), (), (), self.attention, 0.0, 0.0)
        return word_alignment(
            self.source, self.source_pieces, self.source_spans, cand, self.attention
        )

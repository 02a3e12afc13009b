"""Which German content words does a translation not carry? (issue 48, section 3)

The check leaves each content word out of the source in turn and asks the model how
much less likely the English becomes (one teacher-forced pass over a batch of the
sentence and its variants: ``core/engine/forced.word_supports``). An English that carries a
word needs it: without it the model finds the English far less likely. An English that
dropped the word hardly needs it, and its support is low.

This module holds the parts without a model: which words are content words, the word
groups of a sentence's pieces, and the decision on the supports. bench/bench_dropped.py
measures the decision on a labelled set and sets :data:`SUPPORT_THRESHOLD`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from translator_app.core.language.words import german_function_words
from translator_app.core.text.tokenizer import Span
from translator_app.core.values import SourceWord

# Articles, pronouns, prepositions, conjunctions, auxiliaries, modal verbs and particles:
# a translation may rightly carry them in word order or grammar alone.
GERMAN_FUNCTION_WORDS = german_function_words()
WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
# Leave-one-out supports below this (in nats of the English's log-probability) mark a
# word as not carried: an English that drops a word is often likelier without it (a
# negative support). Set on the labelled set of bench/bench_dropped.py, which reports
# precision and recall at it.
SUPPORT_THRESHOLD = -1.5
MAX_WORDS = 24  # longer sentences check their first content words only (one batch)


def is_content_word(word: str) -> bool:
    """A German word a translation must carry: letters, three or more of them, not a
    function word."""
    return (
        len(word) >= 3
        and WORD.fullmatch(word) is not None
        and (word.lower() not in GERMAN_FUNCTION_WORDS)
    )


def content_words(source: str, piece_spans: Sequence[Span]) -> list[SourceWord]:
    """The content words of ``source`` with the pieces whose spans fall inside each
    (pieces of one word are left out together); words without pieces are skipped."""
    out = []
    for m in WORD.finditer(source):
        if not is_content_word(m.group()):
            continue
        start, end = m.span()
        pieces = tuple(i for i, (a, b) in enumerate(piece_spans) if b > a and a < end and b > start)
        if pieces:
            out.append(SourceWord(m.group(), (start, end), pieces))
    return out[:MAX_WORDS]


def not_carried(
    words: Sequence[SourceWord],
    supports: Sequence[float],
    threshold: float = SUPPORT_THRESHOLD,
) -> list[SourceWord]:
    """The words whose support is below ``threshold``: those the English does not
    seem to carry."""
    return [w for w, s in zip(words, supports, strict=True) if s < threshold]

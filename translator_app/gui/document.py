"""The text being translated, sentence by sentence, with a cache (no Qt here).

Typing changes one sentence at a time; only sentences whose translation is not cached are
sent to the worker, so the output of the others never changes (no flicker) and a long
text costs one sentence per keystroke. A sentence's entry is keyed by everything that
decides its translation: model, beam, n-best and the sentence text.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from translator_app.core import Segment, Translation, split_sentences
from translator_app.core.segment import join_with_spans

CacheKey = tuple[str, int, int, str]  # model id, beam, nbest, sentence


class TranslationCache:
    """Least-recently-used cache of finished sentence translations."""

    def __init__(self, capacity: int = 5000) -> None:
        self.capacity = capacity
        self._items: OrderedDict[CacheKey, Translation] = OrderedDict()

    def get(self, key: CacheKey) -> Translation | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: CacheKey, value: Translation) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.capacity:
            self._items.popitem(last=False)

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


@dataclass(frozen=True)
class Rendered:
    """A whole text's translation as shown: the output text and, per sentence, its
    segment, translation (None while missing) and span in the output."""

    source: str
    output: str
    segments: tuple[Segment, ...]
    translations: tuple[Translation | None, ...]
    output_spans: tuple[tuple[int, int], ...]

    @property
    def complete(self) -> bool:
        return all(t is not None for t in self.translations)

    def sentence_at_source(self, pos: int) -> int | None:
        for i, seg in enumerate(self.segments):
            if seg.start <= pos <= seg.end:
                return i
        return None

    def sentence_at_output(self, pos: int) -> int | None:
        for i, (start, end) in enumerate(self.output_spans):
            if start <= pos <= end and self.translations[i] is not None:
                return i
        return None


# Qt counts text positions in UTF-16 code units, Python in code points: a character
# outside the Basic Multilingual Plane (an emoji, 😀) is one Python character and two
# Qt positions. Every position that crosses between the text boxes and the spans of the
# rendered translation goes through these two functions.
@lru_cache(maxsize=8)
def _astral(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(Python index, Qt position) of each character outside the BMP (cached per text:
    one scan per translation, not per mouse move)."""
    where = [i for i, c in enumerate(text) if ord(c) > 0xFFFF] if not text.isascii() else []
    return tuple(where), tuple(i + k for k, i in enumerate(where))


def to_qt(text: str, index: int) -> int:
    """The Qt position of Python index ``index`` in ``text``."""
    return index + bisect_left(_astral(text)[0], index)


def from_qt(text: str, pos: int) -> int:
    """The Python index of Qt position ``pos`` in ``text`` (the middle of a surrogate
    pair maps to the end of its character)."""
    return pos - bisect_right(_astral(text)[1], pos - 2)


def piece_at(spans, offset: int) -> int | None:
    """The index of the piece whose character span holds ``offset`` (or ends at it)."""
    best = None
    for i, (start, end) in enumerate(spans):
        if start == end:
            continue
        if start <= offset < end:
            return i
        if end == offset:
            best = i
    return best


def render(text: str, segments: list[Segment], translations: list[Translation | None]) -> Rendered:
    """Join the known translations (missing ones leave a gap) into the output text;
    ``segments`` are ``text``'s sentences, as :meth:`Document.lookup` returned them."""
    outs = [t.text if t is not None else "" for t in translations]
    output, spans = join_with_spans(text, segments, outs)
    return Rendered(text, output, tuple(segments), tuple(translations), tuple(spans))


def coverage(translation: Translation) -> np.ndarray:
    """Attention each source piece received over the whole output (EOS excluded)."""
    att = translation.attention
    if att.size == 0:
        return np.zeros(len(translation.source_pieces), dtype=np.float32)
    return att[:-1].sum(axis=0) if att.shape[0] > 1 else att.sum(axis=0)


class Document:
    """Splits text into sentences and looks each one up in the cache."""

    def __init__(self, cache: TranslationCache | None = None) -> None:
        self.cache = cache or TranslationCache()

    def lookup(
        self, text: str, model_id: str, beam: int, nbest: int
    ) -> tuple[list[Segment], list[Translation | None], list[str]]:
        """(segments, cached translations or None, the distinct sentences still missing)."""
        segments = split_sentences(text)
        found: list[Translation | None] = []
        missing: list[str] = []
        for seg in segments:
            t = self.cache.get((model_id, beam, nbest, seg.text))
            found.append(t)
            if t is None and seg.text not in missing:
                missing.append(seg.text)
        return segments, found, missing

    def store(self, model_id: str, beam: int, nbest: int, translations) -> None:
        for t in translations:
            self.cache.put((model_id, beam, nbest, t.source), t)

"""One document pipeline, for the command line and the app alike.

A text is split into sentences once (line breaks and blank lines kept), the distinct
sentences without a translation are found, and the translations are joined back into
the text with the span of each sentence's English. :class:`IncrementalDocument` holds
that state: the command line gives it every missing sentence's translation at once; the
app keeps translations in a :class:`TranslationCache` across edits, asks only for the
missing sentences, and shows the text with gaps while some are still on their way.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from translator_app.core.engine.search_types import SearchCancelled
from translator_app.core.engine.translation import Translation
from translator_app.core.language.english import find_target
from translator_app.core.text.segment import Segment, join_with_spans, split_sentences
from translator_app.core.values import Fact, TermUse


@dataclass(frozen=True)
class DocumentTranslation:
    """A text's translation: per sentence its segment of the source, its translation
    (None while it is missing) and the span of its English in ``output``."""

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

    def issues(self) -> list[tuple[int, int, Fact]]:
        """(start, end) in ``source`` and the issue (:class:`~translator_app.core.values.Fact`)
        for each fact its sentence's translation does not keep (a number, time, date, unit,
        negation, limit …) or number or negation it adds that the German does not hold
        (spanning the sentence: ``Fact.added``; core/faithful/fact_check.py)."""
        return [
            (seg.start + f.start, seg.start + f.end, f)
            for seg, t in zip(self.segments, self.translations, strict=True)
            if t is not None
            for f in t.issues
        ]

    def not_carried(self) -> list[tuple[int, int, str]]:
        """(start, end, word) in ``source`` of each content word its sentence's
        translation does not seem to carry (core/faithful/dropped.py)."""
        return [
            (seg.start + w.span[0], seg.start + w.span[1], w.text)
            for seg, t in zip(self.segments, self.translations, strict=True)
            if t is not None and t.not_carried
            for w in t.not_carried
        ]

    def kept_languages(self) -> list[tuple[tuple[int, int], tuple[int, int], str]]:
        """(span in ``source``, span in ``output``, language code) of each sentence kept
        as written because it is in another language than German
        (core/language/identify.py)."""
        return [
            ((seg.start, seg.end), span, t.language)
            for seg, t, span in zip(
                self.segments, self.translations, self.output_spans, strict=True
            )
            if t is not None and t.language
        ]

    def _term_places(self) -> Iterator[tuple[TermUse, tuple[int, int], tuple[int, int] | None]]:
        """Each term use of each translated sentence (the user's glossary and the
        dictionary's), its span in ``source`` and that of its English in ``output``
        (None where the English does not use it)."""
        for seg, t, (o_start, o_end) in zip(
            self.segments, self.translations, self.output_spans, strict=True
        ):
            if t is None:
                continue
            english = self.output[o_start:o_end]
            for u in t.terms:
                m = u.kept and (find_target(u.english, english) or find_target(u.target, english))
                out = (o_start + m.start(), o_start + m.end()) if m else None
                yield u, (seg.start + u.start, seg.start + u.end), out

    def glossary_marks(self) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """(spans in ``source`` of the user's glossary terms the English does not use,
        spans in ``output`` of the English of those it does)."""
        missed, used = [], []
        for u, source, output in self._term_places():
            if u.dictionary:
                continue  # not the user's: :meth:`dictionary_words`
            if not u.kept:
                missed.append(source)
            elif output is not None:
                used.append(output)
        return missed, used

    def dictionary_words(self) -> list[tuple[tuple[int, int], tuple[int, int], TermUse]]:
        """(span in ``source``, span in ``output``, term) of each German word the model
        copied that the English now says with the dictionary's English
        (core/faithful/copied_words.py)."""
        return [
            (source, output, u)
            for u, source, output in self._term_places()
            if u.dictionary and output is not None
        ]

    def sentence_at_output(self, pos: int) -> int | None:
        for i, (start, end) in enumerate(self.output_spans):
            if start <= pos <= end and self.translations[i] is not None:
                return i
        return None


def split_document(text: str) -> tuple[Segment, ...]:
    """The sentences of ``text`` with their spans (see :func:`split_sentences`)."""
    return tuple(split_sentences(text))


def find_missing(
    segments: Sequence[Segment], known: Callable[[str], Translation | None]
) -> tuple[list[Translation | None], list[str]]:
    """(each segment's known translation or None, the distinct sentences still missing,
    in text order). ``known`` looks a sentence up (a cache, or nothing)."""
    found: list[Translation | None] = []
    missing: dict[str, None] = {}
    for seg in segments:
        t = known(seg.text)
        found.append(t)
        if t is None:
            missing[seg.text] = None
    return found, list(missing)


def join_document(
    text: str, segments: Sequence[Segment], translations: Sequence[Translation | None]
) -> DocumentTranslation:
    """Join the translations (a missing one leaves a gap) into the output text."""
    outs = [t.text if t is not None else "" for t in translations]
    output, spans = join_with_spans(text, segments, outs)
    return DocumentTranslation(text, output, tuple(segments), tuple(translations), tuple(spans))


class TranslationCache:
    """Least-recently-used cache of finished sentence translations, keyed by the
    sentence and everything else that decides its translation (model, search, glossary:
    the document's ``context``)."""

    def __init__(self, capacity: int = 5000) -> None:
        self.capacity = capacity
        self._items: OrderedDict[tuple, Translation] = OrderedDict()

    def get(self, key: tuple) -> Translation | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: tuple, value: Translation) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.capacity:
            self._items.popitem(last=False)

    def clear(self) -> None:
        self._items.clear()

    def sentences(self, context: tuple) -> frozenset[str]:
        """The sentences held for ``context`` (keys are ``(*context, sentence)``): what a
        worker that splits a long text itself need not translate again."""
        n = len(context)
        return frozenset(k[n] for k in self._items if len(k) == n + 1 and k[:n] == context)

    def __len__(self) -> int:
        return len(self._items)


class IncrementalDocument:
    """A text translated sentence by sentence: its one split, each sentence's
    translation as known so far, and the text joined with gaps where some are missing.

    ``cache`` (optional) keeps translations across texts, keyed by ``context`` (what
    decides a translation besides the sentence: model, beam, n-best, glossary). The
    translations shown are kept with the text, so the cache may evict them meanwhile."""

    def __init__(self, cache: TranslationCache | None = None) -> None:
        self.cache = cache
        self.context: tuple = ()
        self.text = ""
        self.segments: tuple[Segment, ...] = ()
        self.found: list[Translation | None] = []

    def set_text(
        self, text: str, segments: tuple[Segment, ...] | None = None, context: tuple = ()
    ) -> list[str]:
        """Take ``text`` (split here unless its ``segments`` are given) and return the
        distinct sentences without a translation, in text order."""
        self.context = context
        self.text = text
        self.segments = split_document(text) if segments is None else segments
        self.found, missing = find_missing(self.segments, self.get)
        return missing

    def get(self, sentence: str) -> Translation | None:
        """The cached translation of ``sentence`` in this context, if any."""
        return self.cache.get((*self.context, sentence)) if self.cache is not None else None

    def add(self, pairs: Iterable[tuple[str, Translation]]) -> DocumentTranslation:
        """(sentence, its translation) pairs: cached, and shown for every segment of that
        sentence (also in place of an older translation: an alternative the user chose,
        or the one before it). Returns the text as it now reads."""
        new = {}
        for sentence, translation in pairs:
            if self.cache is not None:
                self.cache.put((*self.context, sentence), translation)
            new[sentence] = translation
        self.found = [new.get(s.text, t) for s, t in zip(self.segments, self.found, strict=True)]
        return self.view()

    def view(self) -> DocumentTranslation:
        return join_document(self.text, self.segments, self.found)

    def missing(self) -> list[str]:
        """The distinct sentences still without a translation, in text order."""
        gaps = (s.text for s, t in zip(self.segments, self.found, strict=True) if t is None)
        return list(dict.fromkeys(gaps))

    def clear(self) -> None:
        """Forget the text and its translations (and the cache, if any)."""
        self.text, self.segments, self.found = "", (), []
        if self.cache is not None:
            self.cache.clear()


# What stops a document's translation rather than one sentence's: a cancel, and a request
# the translator refuses as a whole (a setting out of range, a glossary it cannot follow).
_REFUSED = (SearchCancelled, ValueError, TypeError)


def translate_document(
    text: str,
    translate: Callable[[list[str]], list[Translation]],
    progress: Callable[[int, int], None] | None = None,
    part: int = 64,
) -> DocumentTranslation:
    """Translate every distinct sentence of ``text`` once, with ``translate``, and join:
    a sentence that cannot be translated is given back as it came
    (:func:`each_or_as_it_came`), every other is translated. ``progress(done, all)``:
    called after each ``part`` sentences (a document of 90,000 paragraphs takes many
    minutes), the sentences then translated a part at a time."""
    doc = IncrementalDocument()
    missing = doc.set_text(text)
    if progress is None:
        return doc.add(zip(missing, each_or_as_it_came(translate, missing), strict=True))
    for start in range(0, len(missing), part):
        some = missing[start : start + part]
        doc.add(zip(some, each_or_as_it_came(translate, some), strict=True))
        progress(start + len(some), len(missing))
    return doc.view()


def each_or_as_it_came(
    translate: Callable[[list[str]], list[Translation]], sentences: list[str]
) -> list[Translation]:
    """``translate(sentences)``; where that fails, each sentence alone, and a sentence
    that still fails is given back as it came, its Translation saying why (``failed``):
    one sentence in, one out, always. A cancelled search stops them all, and a request
    the translator refuses (ValueError, TypeError: a setting, a glossary) is refused.

    >>> [(t.text, t.failed) for t in each_or_as_it_came(lambda s: 1 / 0, ["Ⓕ"])]
    [('Ⓕ', 'ZeroDivisionError: division by zero')]
    """
    try:
        return list(translate(sentences))
    except _REFUSED:
        raise
    except Exception as e:
        if len(sentences) == 1:
            return [_as_it_came(sentences[0], e)]
    out = []
    for sentence in sentences:
        try:
            out.extend(translate([sentence]))
        except _REFUSED:
            raise
        except Exception as e:
            out.append(_as_it_came(sentence, e))
    return out


def _as_it_came(sentence: str, error: Exception) -> Translation:
    """``sentence`` as its own English, with why it could not be translated."""
    from translator_app.core.engine.translation import Candidate

    why = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    kept = Candidate(sentence, (), (), (), np.zeros((0, 0), dtype=np.float32), 0.0, 0.0)
    return Translation(sentence, (), (), (), (kept,), failed=why)

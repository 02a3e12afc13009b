"""One document pipeline, for the command line and the app alike.

A text is split into sentences once (line breaks and blank lines kept), the distinct
sentences without a translation are found, and the translations are joined back into
the text with the span of each sentence's English. The command line translates every
sentence at once; the app keeps translations in a cache and asks only for the missing
ones, and shows the text with gaps while some are still on their way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from translator_app.core.engine.translation import Translation
from translator_app.core.faithful.glossary import find_target
from translator_app.core.text.segment import Segment, join_with_spans, split_sentences


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

    def missing_numbers(self) -> list[tuple[int, int, str]]:
        """(start, end, text) in ``source`` of each number, time or date that its
        sentence's translation does not keep (see core/faithful/number_check.py)."""
        return [
            (seg.start + f.start, seg.start + f.end, f.text)
            for seg, t in zip(self.segments, self.translations, strict=True)
            if t is not None
            for f in t.missing_numbers
        ]

    def glossary_marks(self) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """(spans in ``source`` of glossary terms the English does not use, spans in
        ``output`` of the English of those it does)."""
        missed, used = [], []
        for seg, t, (o_start, o_end) in zip(
            self.segments, self.translations, self.output_spans, strict=True
        ):
            if t is None:
                continue
            english = self.output[o_start:o_end]
            for u in t.terms:
                if not u.kept:
                    missed.append((seg.start + u.start, seg.start + u.end))
                elif m := find_target(u.target, english):
                    used.append((o_start + m.start(), o_start + m.end()))
        return missed, used

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


def translate_document(
    text: str, translate: Callable[[list[str]], list[Translation]]
) -> DocumentTranslation:
    """Translate every distinct sentence of ``text`` once, with ``translate``, and join."""
    segments = split_document(text)
    _, missing = find_missing(segments, lambda _: None)
    done = dict(zip(missing, translate(missing), strict=True))
    return join_document(text, segments, [done[s.text] for s in segments])

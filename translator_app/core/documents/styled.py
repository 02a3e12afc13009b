"""Formatted text through the translator: the part of .docx and .odt that is no format's.

A document's paragraph becomes one or more :class:`Stretch` es: plain text with the
formatting of each character range given as a style number (what a style number stands
for, bold or a font or a link, is the file format's business; this module only carries
the numbers across). All stretches of a document are translated as one text, one line
each (:func:`stretches_text`), so each distinct sentence is decoded once and in batches;
the window shows that text as the German and keeps its translation.

The English has no formatting of its own: each English word takes the style of the
German characters that its pieces attended to most (the alignment the app's panel
shows), so „Das ist **sehr** wichtig“ becomes "This is **very** important". Spaces and
punctuation take the style of the words on both sides where those agree, else the
stretch's main style (a space between a bold and a plain word is not underlined).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from translator_app.core.engine.text_document import DocumentTranslation

# A word (with its inner apostrophes, hyphens and number separators: o'clock, 1,150.50)
# or one punctuation mark, which takes its own style ("him" bold, the full stop not).
WORD = re.compile(r"\w+(?:[-'’.,:/]\w+)*|[^\w\s]")
LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029\x0b\x0c]")


@dataclass(frozen=True)
class Stretch:
    """Text of one style run after another: ``styles`` are (start, end, style) ranges
    of ``text``, in order, covering it."""

    text: str
    styles: tuple[tuple[int, int, int], ...]

    @staticmethod
    def of(parts: Sequence[tuple[str, int]]) -> Stretch:
        """From (text, style) parts, in order (empty parts are skipped)."""
        text, styles, pos = [], [], 0
        for part, style in parts:
            if not part:
                continue
            text.append(part)
            styles.append((pos, pos + len(part), style))
            pos += len(part)
        return Stretch("".join(text), tuple(styles))

    def style_at(self, pos: int) -> int:
        for start, end, style in self.styles:
            if start <= pos < end:
                return style
        return self.main_style

    @property
    def main_style(self) -> int:
        """The style of most characters (the first such, on a tie)."""
        counts: Counter[int] = Counter()
        for start, end, style in self.styles:
            counts[style] += len(self.text[start:end].strip()) or 0
        return counts.most_common(1)[0][0] if counts else 0

    @property
    def needs_translation(self) -> bool:
        """Words, and numbers too: a table cell's „19,99 €“ becomes "€19.99"."""
        return any(c.isalnum() for c in self.text)


def stretches_text(stretches: Sequence[Stretch]) -> str:
    """The text to translate: one line per stretch (a line break inside a stretch
    becomes a space), in order; the window shows it as the German."""
    return "\n".join(_one_line(s.text) for s in stretches)


def styled_english(
    stretches: Sequence[Stretch], doc: DocumentTranslation, corrected: str | None = None
) -> list[list[tuple[str, int]]]:
    """Each stretch's English as (text, style) parts, from ``doc``: the translation of
    :func:`stretches_text` (or of an edited text with one line per stretch: a line that
    no longer reads as its stretch takes the stretch's main style throughout).
    ``corrected``: the English as the user corrected it, one line per stretch; a line
    that differs from the model's takes its stretch's main style. A stretch with neither
    a letter nor a digit (a dash, a bullet, blank) is kept as it is."""
    if not stretches:  # a document without text (pictures only): nothing to place
        return []
    sources = _aligned_sources(doc)
    starts = [start for start, _, _, _ in sources]
    src_line_start = _line_starts(doc.source)
    out_line_start = _line_starts(doc.output)
    german = doc.source.split("\n")
    english = doc.output.split("\n")
    if len(german) != len(stretches):
        raise ValueError(f"{len(german)} lines of text for {len(stretches)} stretches")
    final = english if corrected is None else corrected.rstrip("\n").split("\n")
    if len(final) != len(stretches):
        raise ValueError(f"{len(final)} lines of English for {len(stretches)} stretches")
    out: list[list[tuple[str, int]]] = []
    for line, stretch in enumerate(stretches):
        if not stretch.needs_translation:
            out.append([(stretch.text, stretch.main_style)] if stretch.text else [])
            continue
        if final[line] != english[line]:  # the user's own English
            out.append([(final[line].strip(), stretch.main_style)])
            continue
        if german[line] != _one_line(stretch.text):  # edited by the user
            stretch = Stretch.of([(german[line], stretch.main_style)])
        lead = len(stretch.text) - len(stretch.text.lstrip())
        trail = stretch.text[len(stretch.text.rstrip()) :]
        text = english[line].strip()
        begin = out_line_start[line] + len(english[line]) - len(english[line].lstrip())
        styles = _word_styles(stretch, text, begin, (sources, starts), src_line_start[line])
        parts = _join_parts(stretch, text, styles)
        # The stretch's own leading and trailing spaces (between it and a picture, a tab
        # or a link) stay where they were.
        if lead:
            parts.insert(0, (stretch.text[:lead], stretch.style_at(0)))
        if trail:
            parts.append((trail, stretch.style_at(len(stretch.text) - 1)))
        out.append(_merged(parts))
    return out


def _one_line(text: str) -> str:
    return LINE_BREAKS.sub(" ", text)


def _line_starts(text: str) -> list[int]:
    starts, pos = [], 0
    for line in text.split("\n"):
        starts.append(pos)
        pos += len(line) + 1
    return starts


def _aligned_sources(doc: DocumentTranslation) -> list[tuple[int, int, int, bool]]:
    """(start, end) in ``doc.output`` of every English piece with the position in
    ``doc.source`` of the German piece it attended to most (EOS excluded), and False;
    then, True, for every German piece, the English piece that attended to it most (the
    other direction of the alignment, as word aligners symmetrise: „Ich trinke gern
    Kaffee“ -> "coffee" looked at „trinke“ 0.48 and „Kaffee“ 0.47, and is the English
    that „Kaffee“ was looked at by most)."""
    found = []
    for seg, t, (o_start, _) in zip(doc.segments, doc.translations, doc.output_spans, strict=True):
        cand = t.best if t is not None else None
        if cand is None or cand.attention.size == 0:
            continue
        base = o_start - (len(cand.text) - len(cand.text.lstrip()))  # outputs are stripped
        att = np.asarray(cand.attention)
        n_src = max(len(t.source_spans) - 1, 1)  # not the EOS
        spans = cand.target_spans[: att.shape[0]]
        # the pieces of words; an emoji's look at the end alone (engine/symbols.py)
        words = [k for k, (start, end) in enumerate(spans) if end > start and att[k, :n_src].any()]
        for k in words:
            src = _word_start(t, int(att[k, :n_src].argmax()))
            found.append((base + spans[k][0], base + spans[k][1], seg.start + src, False))
        if words:
            for j in range(min(n_src, att.shape[1])):
                k = words[int(att[words, j].argmax())]
                src = _word_start(t, j)
                found.append((base + spans[k][0], base + spans[k][1], seg.start + src, True))
    return sorted(found)  # in output order, which _word_styles bisects


def _word_start(t, j: int) -> int:
    """Where German piece ``j`` starts in its sentence: a piece's span may begin with the
    space before its word ("▁Kaffee"), which belongs to the run before."""
    s_start, s_end = t.source_spans[j]
    piece = t.source[s_start:s_end]
    return s_start + len(piece) - len(piece.lstrip())


def _word_styles(
    stretch: Stretch,
    text: str,
    begin: int,
    aligned: tuple[list[tuple[int, int, int, bool]], list[int]],
    src_begin: int,
) -> list[tuple[int, int, int]]:
    """(start, end, style) of each word of ``text`` (the English of the stretch, which
    starts at ``begin`` in the document's output). ``aligned``: the document's
    :func:`_aligned_sources` and their start positions; a word looks only at the pieces
    around it (found by bisection), so a long document costs no more per word."""
    sources, starts = aligned
    main = stretch.main_style
    words = [(m.start(), m.end()) for m in WORD.finditer(text)]
    if len({s for _, _, s in stretch.styles}) <= 1:
        return [(a, b, main) for a, b in words]
    styled: list[tuple[int, int, int | None]] = []
    for a, b in words:
        if not any(c.isalnum() for c in text[a:b]):
            styled.append((a, b, None))  # punctuation: decided by its neighbours below
            continue
        votes: Counter[int] = Counter()
        pulled: Counter[int] = Counter()  # formatting of German words that chose this one
        # English pieces do not overlap: from the last one starting at or before the
        # word's start, up to the first one starting after its end.
        last = bisect.bisect_right(starts, begin + a) - 1
        first = bisect.bisect_left(starts, starts[last]) if last >= 0 else 0  # ties too
        for start, end, src, pull in sources[first : bisect.bisect_left(starts, begin + b)]:
            overlap = min(end, begin + b) - max(start, begin + a)
            if overlap <= 0:
                continue
            style = stretch.style_at(src - src_begin)
            if not pull:
                votes[style] += overlap
            elif style != main:  # a bold German word reaches the English it chose
                pulled[style] += overlap
        best = pulled or votes
        styled.append((a, b, best.most_common(1)[0][0] if best else main))
    # A punctuation mark's attention is no guide (the comma of "Frau Schneider, bitte"
    # looks at "bitte"): it takes the style of the words on both sides where they agree.
    # The marks that close the English take the style of the same marks closing the
    # German („… **spülmaschinenfest**.“: the full stop is plain, though bold is the
    # stretch's main style).
    known = [(n, s) for n, (_, _, s) in enumerate(styled) if s is not None]
    closing = _closing_styles(stretch)
    last_word = known[-1][0] if known else -1
    resolved = []
    for n, (a, b, style) in enumerate(styled):
        if style is None and n > last_word and text[a:b] in closing:
            style = closing[text[a:b]]
        if style is None:
            before = next((s for m, s in reversed(known) if m < n), main)
            after = next((s for m, s in known if m > n), main)
            style = before if before == after else main
        resolved.append((a, b, style))
    return resolved


def _closing_styles(stretch: Stretch) -> dict[str, int]:
    """The marks after the German's last word or number („.“, „!“, „)“), each with its
    style."""
    text = stretch.text.rstrip()
    start = len(text)
    while start > 0 and not text[start - 1].isalnum():
        start -= 1
    return {text[i]: stretch.style_at(i) for i in range(start, len(text)) if not text[i].isspace()}


def _join_parts(
    stretch: Stretch, text: str, words: list[tuple[int, int, int]]
) -> list[tuple[str, int]]:
    main = stretch.main_style
    parts: list[tuple[str, int]] = []
    pos = 0
    for n, (a, b, style) in enumerate(words):
        if a > pos:  # the space before this word
            before = words[n - 1][2] if n else main
            parts.append((text[pos:a], style if before == style else main))
        parts.append((text[a:b], style))
        pos = b
    if pos < len(text):
        parts.append((text[pos:], main))
    return parts


def _merged(parts: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Neighbouring parts of one style as one part."""
    out: list[tuple[str, int]] = []
    for text, style in parts:
        if out and out[-1][1] == style:
            out[-1] = (out[-1][0] + text, style)
        elif text:
            out.append((text, style))
    return out

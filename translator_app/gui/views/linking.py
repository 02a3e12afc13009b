"""Linked highlights between the two text boxes (no Qt here).

A cursor (or mouse) position in one box names a sentence and a piece; the attention row or
column of that piece gives a weight for every piece of the other side; those weights become
character ranges with an intensity, in the coordinates of the other box's whole text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from translator_app.core.engine.text_document import DocumentTranslation
from translator_app.core.engine.translation import Translation
from translator_app.core.faithful.fact_check import describe_fact
from translator_app.core.language import spelling
from translator_app.core.language.identify import language_name
from translator_app.core.text.piece_words import piece_words
from translator_app.core.text.tokenizer import EOS_ID, PIECE_MARK
from translator_app.core.values import TermUse
from translator_app.gui.views.positions import piece_at

# Weights below this share of the row's maximum are not highlighted: attention is never
# exactly zero, and faint highlights everywhere would hide the ones that matter.
MIN_SHARE = 0.15


@dataclass(frozen=True)
class Link:
    sentence: int
    piece: int  # index in the side the cursor is in
    side: str  # "source" | "output": where the cursor is
    ranges: tuple[tuple[int, int, float], ...]  # words (start, end, 0..1) in the other box
    own: tuple[int, int]  # the range of the piece's word in its box


def coverage(translation: Translation) -> np.ndarray:
    """Attention each source piece received over the whole output (EOS excluded)."""
    att = translation.attention
    if att.size == 0:
        return np.zeros(len(translation.source_pieces), dtype=np.float32)
    return att[:-1].sum(axis=0) if att.shape[0] > 1 else att.sum(axis=0)


def _word_of(pieces, spans, text: str, piece: int) -> tuple[tuple[int, int], tuple[int, ...]]:
    """The word ``piece`` belongs to: its bounds in ``text`` and its pieces (hovering
    „spätestens“ underlines the word, not its piece „est“; issue 61 §5)."""
    for bounds, members in piece_words(_pieces(pieces, spans), spans, text):
        if piece in members:
            return bounds, members
    return tuple(spans[piece]), (piece,)


def _pieces(pieces, spans) -> tuple[str, ...]:
    """The pieces, or a stand-in where a translation carries spans without them (made
    by hand, as in the fact-mark tests): each span is then a word of its own."""
    return tuple(pieces) if len(pieces) == len(spans) else ("",) * len(spans)


def _word_ranges(weights: np.ndarray, pieces, spans, text: str, offset: int) -> list:
    """Each word of the other side with the summed weight of its pieces, as (start, end,
    share of the strongest word) from :data:`MIN_SHARE` on: whole words light up, never
    the "y" of "delivery". The end marker is no word."""
    words = [
        (bounds, float(weights[[k for k in members if k < len(weights)]].sum()))
        for bounds, members in piece_words(_pieces(pieces, spans), spans, text)
    ]
    top = max((w for _, w in words), default=0.0)
    if top <= 0:
        return []
    return [
        (offset + a, offset + b, w / top)
        for (a, b), w in words
        if w / top >= MIN_SHARE and any(c.isalnum() for c in text[a:b])  # never a lone "."
    ]


def link_from_source(rendered: DocumentTranslation, pos: int) -> Link | None:
    i = rendered.sentence_at_source(pos)
    if i is None or rendered.translations[i] is None:
        return None
    t, seg = rendered.translations[i], rendered.segments[i]
    cand = t.best
    if cand is None:
        return None
    piece = piece_at(t.source_spans, pos - seg.start)
    if piece is None:
        return None
    out_start = rendered.output_spans[i][0] - _lead(cand.text)
    (s, e), members = _word_of(t.source_pieces, t.source_spans, t.source, piece)
    column = np.asarray(cand.attention)[:, list(members)].sum(axis=1)
    ranges = _word_ranges(column, cand.target_pieces, cand.target_spans, cand.text, out_start)
    return Link(i, piece, "source", tuple(ranges), (seg.start + s, seg.start + e))


def link_from_output(rendered: DocumentTranslation, pos: int) -> Link | None:
    i = rendered.sentence_at_output(pos)
    if i is None:
        return None
    t, seg = rendered.translations[i], rendered.segments[i]
    cand = t.best
    if cand is None:
        return None
    out_start = rendered.output_spans[i][0] - _lead(cand.text)
    piece = piece_at(cand.target_spans, pos - out_start)
    if piece is None:
        return None
    (s, e), members = _word_of(cand.target_pieces, cand.target_spans, cand.text, piece)
    row = np.asarray(cand.attention)[list(members)].sum(axis=0)
    ranges = _word_ranges(row, t.source_pieces, t.source_spans, t.source, seg.start)
    return Link(i, piece, "output", tuple(ranges), (out_start + s, out_start + e))


def weak_coverage(rendered: DocumentTranslation, threshold: float = 0.3) -> list[tuple[int, int]]:
    """Source ranges of words that got little attention overall: possibly untranslated.
    Punctuation-only pieces are left out; they are often legitimately dropped."""
    out = []
    for t, seg in zip(rendered.translations, rendered.segments, strict=True):
        if t is None or t.best is None:
            continue
        cov = coverage(t)
        for k, (start, end) in enumerate(t.source_spans[:-1]):
            word = t.source[start:end]
            if end > start and any(c.isalnum() for c in word) and cov[k] < threshold:
                out.append((seg.start + start, seg.start + end))
    return out


def alignment_pairs(rendered: DocumentTranslation, sentence: int, piece: int, top: int = 5):
    """For the English piece ``piece``: the German words it attended to, ranked, as
    (word, weight); a word's weight is the sum of its pieces' ("Bürostühle", never "ühl";
    issue 48 §5). The end marker is no word; weights that round to 0.00 say nothing."""
    t = rendered.translations[sentence]
    if t is None or t.best is None:
        return []
    row = np.asarray(t.best.attention)[piece]
    words = [
        (t.source[a:b], float(row[[k for k in members if k < len(row)]].sum()))
        for (a, b), members in piece_words(t.source_pieces, t.source_spans, t.source)
    ]
    ranked = sorted(words, key=lambda kv: -kv[1])[:top]
    return [(word, w) for word, w in ranked if round(w, 2) > 0.0]


def _lead(text: str) -> int:
    """Outputs are placed stripped; spans index the unstripped candidate text."""
    return len(text) - len(text.lstrip())


@dataclass(frozen=True)
class Alternative:
    label: str  # the word the alternative piece begins or continues, as the reader sees it
    example: str  # the sentence with it, from a little before it (see excerpt)
    prefix: tuple[int, ...]  # target ids to force: a whole candidate, or the best prefix
    # and the word chosen (then the example ends in "…" after the word)


def word_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The character range of the whole word that ``text[start:end]`` belongs to: a piece
    such as "ki", a byte of "é", a lone word-start mark (the word after it) or an
    apostrophe inside a word ("we're") stands for the word it makes. Other punctuation
    is its own word; (start, start) where there is none."""
    end = max(end, start + 1) if start < len(text) else end
    if not text[start:end].strip():  # a word-start mark alone: the word after it
        while start < len(text) and text[start].isspace():
            start += 1
        end = min(len(text), start + 1)
    while start < end and text[start].isspace():
        start += 1
    piece = text[start:end]
    inside = piece and all(c in "'-" for c in piece.strip()) and _joins(text, start, end)
    if not any(c.isalnum() for c in piece) and not inside:
        return start, start + len(piece.rstrip())  # punctuation is its own choice
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "'-"):
        start -= 1
    while end < len(text) and (text[end].isalnum() or text[end] in "'-"):
        end += 1
    return start, end


def _joins(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` sits between two letters or digits ("we're")."""
    return start > 0 and end < len(text) and text[start - 1].isalnum() and text[end].isalnum()


def excerpt(text: str, start: int, before: int = 16, width: int = 52) -> str:
    """``text`` from a little before ``start`` (at a word boundary), at most ``width``
    characters, with "…" where it was cut: the menu shows the part of the sentence that
    a choice changes, and stays narrower than the screen."""
    if start > before:
        cut = text.find(" ", start - before, start)
        text, start = "…" + text[(cut if cut >= 0 else start - before) + 1 :], 1
    if len(text) > width:
        cut = text.rfind(" ", start, width)
        text = text[: cut if cut > start else width].rstrip() + "…"
    return text


def word_at(text: str, start: int, end: int) -> str:
    """The whole word that the characters ``text[start:end]`` belong to (see
    :func:`word_bounds`), never a piece. Empty where there is no word."""
    s, e = word_bounds(text, start, end)
    return text[s:e].strip()


def _label(cand, piece: int) -> str:
    """What a reader calls a candidate's piece: the word it makes, else the piece in
    plain words (never "▁", "<0xE2>" or "</s>")."""
    word = word_at(cand.text, *cand.target_spans[piece])
    if word:
        return word
    raw = cand.target_pieces[piece].replace(PIECE_MARK, " ").strip()
    if not raw:
        return "(a space)"
    if raw.startswith("<") and raw.endswith(">"):
        return "(end of the sentence)" if raw == "</s>" else "(part of a character)"
    return raw


def _through_word(cand, piece: int) -> tuple[int, ...]:
    """The candidate's ids up to the end of the word that its piece ``piece`` begins or
    continues: choosing "celebrating" forces all its pieces, so the sentence goes on
    from the word the menu showed, not from its first piece."""
    _, end = word_bounds(cand.text, *cand.target_spans[piece])
    last = len(cand.target_ids) - 1  # the EOS is never forced
    j = piece + 1
    while j < last and cand.target_spans[j][0] < end:
        j += 1
    return tuple(cand.target_ids[:j])


def alternatives(
    translation, piece: int, candidates=None, eos_id: int = EOS_ID
) -> list[Alternative]:
    """Other choices for the best translation's target position ``piece``, one per word.
    ``candidates``: the model's alternatives for exactly that position
    (:meth:`Translator.alternatives`, asked for when the menu opens); without them, the
    n-best list's entries that share the prefix, then the others, which still show what
    else was likely."""
    if translation is None or translation.best is None:
        return []
    best = translation.best
    if piece >= len(best.target_ids):
        return []
    prefix = best.target_ids[:piece]
    pool = translation.nbest[1:] if candidates is None else candidates
    sharing, other = [], []
    seen_tokens = {best.target_ids[piece], eos_id}
    seen_words = {_label(best, piece)}
    for cand in pool:
        if len(cand.target_ids) <= piece or cand.target_ids[piece] in seen_tokens:
            continue
        seen_tokens.add(cand.target_ids[piece])
        label = _label(cand, piece)
        if label in seen_words:
            continue
        seen_words.add(label)
        if cand.target_ids[:piece] == prefix:
            # the whole candidate is forced: choosing gives the sentence the menu showed
            shown = excerpt(cand.text, word_bounds(cand.text, *cand.target_spans[piece])[0])
            sharing.append(Alternative(label, shown, _whole(cand, eos_id)))
        else:
            # another beginning: the best one's words, then this word, then a decode
            # nobody has seen yet, so the menu shows only what is forced (issue 61 §5: it
            # showed the other candidate's sentence, and the choice gave another)
            word = _through_word(cand, piece)[piece:]
            start = word_bounds(best.text, *best.target_spans[piece])[0]
            shown = excerpt(f"{best.text[:start]}{label} …", start)
            other.append(Alternative(label, shown, prefix + word))
    return sharing + other


def _whole(cand, eos_id: int) -> tuple[int, ...]:
    """A candidate's ids without its end marker."""
    ids = tuple(cand.target_ids)
    return ids[:-1] if ids and ids[-1] == eos_id else ids


@dataclass(frozen=True)
class FactMark:
    """A fact of the German that the English may have lost (issue 48 §4): where it is in
    the German, the English word the model wrote for it (by attention; None where
    nothing is aligned) and what to tell the user."""

    source: tuple[int, int]
    output: tuple[int, int] | None
    message: str
    # or "dropped": a content word no English word seems to carry; or "dictionary": a
    # word the model copied, said with the dictionary's English
    kind: str = "fact"


def _added_in_output(
    rendered: DocumentTranslation, source_pos: int, text: str
) -> tuple[int, int] | None:
    """Where the English of the sentence at ``source_pos`` writes ``text`` (a number or
    a negation the German does not hold), as a span of ``rendered.output``."""
    i = rendered.sentence_at_source(source_pos)
    if i is None:
        return None
    o_start, o_end = rendered.output_spans[i]
    found = re.search(rf"(?<!\w){re.escape(text)}(?!\w)", rendered.output[o_start:o_end])
    return (o_start + found.start(), o_start + found.end()) if found else None


def fact_marks(rendered: DocumentTranslation) -> list[FactMark]:
    """A mark for every lost fact of the shown translation, both sides, and for every
    German word its English does not seem to carry (German side: nothing in the
    English stands for it)."""
    marks = []
    for start, end, fact in rendered.issues():
        if fact.added:  # the English's own word, not the German's
            out = _added_in_output(rendered, start, fact.text)
            marks.append(FactMark((start, end), out, f"Check the English: {describe_fact(fact)}"))
            continue
        link = link_from_source(rendered, start)
        out = None
        # the English the model wrote for it: the strongest aligned word, never a comma
        words = [
            r for r in (link.ranges if link else ()) if _has_word(rendered.output[r[0] : r[1]])
        ]
        if words:
            s, e, _ = max(words, key=lambda r: r[2])
            out = (s, e)
        marks.append(
            FactMark((start, end), out, f"May be lost in the English: {describe_fact(fact)}")
        )
    facts = [m.source for m in marks]
    for start, end, word in rendered.not_carried():
        if any(s < end and start < e for s, e in facts):
            continue  # a lost fact says more
        marks.append(FactMark((start, end), None, dropped_message(word), kind="dropped"))
    for source, output, use in rendered.dictionary_words():
        marks.append(FactMark(source, output, dictionary_message(use), kind="dictionary"))
    for source, output, language in rendered.kept_languages():
        marks.append(FactMark(source, output, language_message(language), kind="language"))
    return marks


def spelling_marks(rendered: DocumentTranslation, known=None) -> list[FactMark]:
    """A mark on every German word that looks typed wrong (core/language/spelling.py;
    ``known``: words another vocabulary holds), not inside a sentence kept as written
    because it is in another language."""
    kept = [source for source, _, _ in rendered.kept_languages()]
    return [
        FactMark((m.start, m.end), None, spelling_message(m), kind="spelling")
        for m in spelling.misspellings(rendered.source, known=known)
        if not any(s <= m.start < e for s, e in kept)
    ]


def spelling_message(m: spelling.Misspelling) -> str:
    """What a mark on a slip says: "Typed wrong? … did you mean „morgen“ …"."""
    meant = " or ".join(f"„{s}“" for s in m.suggestions)
    return (
        f"Typed wrong? „{m.word}“ is no German word the app knows: did you mean {meant}? "
        "(right-click the word to correct it)"
    )


def shown_message(doc: DocumentTranslation) -> str | None:
    """What the status bar says of a translation as it shows (short: every mark's
    tooltip says the rest): its first lost fact, else the sentences kept as written
    because they are in another language; None where there is nothing to say."""
    lost = doc.issues()
    if lost:
        more = f" and {len(lost) - 1} more" if len(lost) > 1 else ""
        return (
            f"Check: the English may not keep {describe_fact(lost[0][2])}{more} "
            "(marked in amber; point at a mark for details)"
        )
    kept = doc.kept_languages()
    if kept:
        names = " and ".join(sorted({language_name(code) for _, _, code in kept}))
        which = "a sentence" if len(kept) == 1 else f"{len(kept)} sentences"
        return f"Kept as written: {which} in {names}, not German (grey marks)"
    return None


def language_message(language: str) -> str:
    """What a mark on a sentence kept as written says: "Looks like French: kept as
    written, not translated …"."""
    return (
        f"Looks like {language_name(language)}: kept as written, not translated (to "
        "translate such sentences too: Settings, Keep sentences in another language)"
    )


def _has_word(text: str) -> bool:
    return any(c.isalnum() for c in text)


def dictionary_message(use: TermUse) -> str:
    return (
        f"From the dictionary: „{use.source}“ → {use.english} (the model did not know the "
        "word and copied it; of the dictionary's senses, the one its training texts use "
        "most, else the first)"
    )


def dropped_message(word: str) -> str:
    return (
        f"May be missing from the English: „{word}“ (no word of the English seems to translate it)"
    )

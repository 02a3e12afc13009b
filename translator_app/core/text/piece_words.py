"""Words of a sentence from its model pieces, as a reader names them (issue 48 §5).

The alignment panel labels its rows and columns by word and the "attended to" list
names German words: "Bürostühle", never "ühl"; "1.249,90 €" once, never its pieces and
its protected annotation's pieces one by one. A piece belongs to the run of non-spaces
around its span without punctuation at its edges; punctuation alone is a word of its
own; a piece whose span holds a space (a protected fact's annotation) makes one word of
everything inside it; pieces with no text of their own (byte pieces, a lone space mark)
join the word that follows them.
"""

from __future__ import annotations

from collections.abc import Sequence

from translator_app.core.text.tokenizer import EOS_PIECE

Span = tuple[int, int]
EDGE_PUNCTUATION = ".,;:!?\"'„“”‚‘’()[]«»"


def word_of_span(text: str, start: int, end: int) -> Span:
    """The bounds of the word a piece at ``text[start:end]`` belongs to ("1.249,90"
    whole, "Eingang" without its full stop); empty where the span holds only spaces or
    lies past the text's end (a closing space piece of a decode whose text was stripped:
    "frewnage ppli:" and its "▁" at 14-15)."""
    start, end = min(start, len(text)), min(end, len(text))
    while start < end and text[start].isspace():  # a piece's span holds its word-start space
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start == end or " " in text[start:end]:
        return start, end
    a, b = start, end
    while a > 0 and not text[a - 1].isspace():
        a -= 1
    while b < len(text) and not text[b].isspace():
        b += 1
    while a < b and text[a] in EDGE_PUNCTUATION:
        a += 1
    while b > a and text[b - 1] in EDGE_PUNCTUATION:
        b -= 1
    if a >= b or not (a <= start < b or a < end <= b):
        return start, end  # punctuation: its own word
    return a, b


def piece_words(
    pieces: Sequence[str], spans: Sequence[Span], text: str
) -> list[tuple[Span, tuple[int, ...]]]:
    """(word bounds in ``text``, its piece indices) for each word, in text order; the
    end marker is no word."""
    members: dict[Span, list[int]] = {}
    pending: list[int] = []
    for i, (piece, (start, end)) in enumerate(zip(pieces, spans, strict=True)):
        if piece == EOS_PIECE:
            continue
        bounds = word_of_span(text, start, end)
        if bounds[0] >= bounds[1]:
            pending.append(i)
            continue
        members.setdefault(bounds, []).extend([*pending, i])
        pending = []
    if pending and members:
        members[max(members)].extend(pending)
    # A word inside a longer one (a protected fact's annotation spans "1.249,90 €"; the
    # number's own pieces "1.249,90") is that one.
    for inner in sorted(members, key=lambda b: b[1] - b[0]):
        outer = [b for b in members if b != inner and b[0] <= inner[0] and inner[1] <= b[1]]
        if outer:
            members[min(outer, key=lambda b: b[1] - b[0])].extend(members.pop(inner))
    return [(b, tuple(sorted(members[b]))) for b in sorted(members)]

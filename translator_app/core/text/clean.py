"""Text that is not valid Unicode made so, one character for one (spans stay valid); and
text changed before the model reads it, with where each of its characters stands in the
user's (``origins``: one per character and one for the end), so that spans map back.

Lone surrogates come from bytes that were not UTF-8 (Python's surrogateescape, on a
command line or standard input) or from a broken API caller; the tokenizer cannot take
them. The command line and the translator both repair them here, and each says so in
its own words.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

LONE_SURROGATES = re.compile(r"[\ud800-\udfff]")


def without_lone_surrogates(text: str) -> tuple[str, bool]:
    """``text`` with each lone surrogate replaced by U+FFFD, and whether it held any."""
    if not LONE_SURROGATES.search(text):
        return text, False
    return LONE_SURROGATES.sub("\ufffd", text), True


# The zero-width joiner is of Unicode's format class too, but it joins an emoji's parts.
_JOINER = "\u200d"


def _invisible(ch: str) -> bool:
    """Whether ``ch`` shows nothing: Unicode's format class (zero-width space, soft
    hyphen, word joiner, byte-order mark, bidi marks, embeddings, overrides, isolates)."""
    return ch != _JOINER and unicodedata.category(ch) == "Cf"


def without_invisible(text: str) -> tuple[str, tuple[int, ...]] | None:
    """``text`` without its invisible format characters (a soft hyphen kept „Hun\u00adger“
    from being read as a word; a right-to-left override in the German reversed the
    English after it), and for each character left (and the end) where it stands in
    ``text``; None where there are none.

    >>> without_invisible("Hun\u00adger")
    ('Hunger', (0, 1, 2, 4, 5, 6, 7))
    """
    kept = [i for i, ch in enumerate(text) if not _invisible(ch)]
    if len(kept) == len(text):
        return None
    return "".join(text[i] for i in kept), (*kept, len(text))


def replaced(
    text: str, edits: Iterable[tuple[int, int, str, Sequence[int]]]
) -> tuple[str, tuple[int, ...]] | None:
    """``text`` with each edit (start, end, the new text, where each of its characters
    stands in ``text``) made, the edits left to right and apart, and where each
    character of the result (and its end) stands in ``text``; None where there are no
    edits.

    >>> replaced("um siebzehn Uhr", [(3, 11, "17", (3, 7))])
    ('um 17 Uhr', (0, 1, 2, 3, 7, 11, 12, 13, 14, 15))
    """
    parts: list[str] = []
    origins: list[int] = []
    pos = 0
    for start, end, new, where in edits:
        parts.append(text[pos:start])
        origins.extend(range(pos, start))
        parts.append(new)
        origins.extend(where)
        pos = end
    if not parts:
        return None
    parts.append(text[pos:])
    origins.extend(range(pos, len(text) + 1))
    return "".join(parts), tuple(origins)


def through(origins: Sequence[int] | None, within: Sequence[int] | None):
    """Where each character of a text read from another (``within``: its origins there)
    stands in the text that one was read from (``origins``); None stands for each where
    it is."""
    if within is None:
        return origins
    return tuple(within) if origins is None else tuple(origins[i] for i in within)

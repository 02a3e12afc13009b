"""Text that is not valid Unicode made so, one character for one (spans stay valid).

Lone surrogates come from bytes that were not UTF-8 (Python's surrogateescape, on a
command line or standard input) or from a broken API caller; the tokenizer cannot take
them. The command line and the translator both repair them here, and each says so in
its own words.
"""

from __future__ import annotations

import re
import unicodedata

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

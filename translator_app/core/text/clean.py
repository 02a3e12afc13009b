"""Text that is not valid Unicode made so, one character for one (spans stay valid).

Lone surrogates come from bytes that were not UTF-8 (Python's surrogateescape, on a
command line or standard input) or from a broken API caller; the tokenizer cannot take
them. The command line and the translator both repair them here, and each says so in
its own words.
"""

from __future__ import annotations

import re

LONE_SURROGATES = re.compile(r"[\ud800-\udfff]")


def without_lone_surrogates(text: str) -> tuple[str, bool]:
    """``text`` with each lone surrogate replaced by U+FFFD, and whether it held any."""
    if not LONE_SURROGATES.search(text):
        return text, False
    return LONE_SURROGATES.sub("\ufffd", text), True

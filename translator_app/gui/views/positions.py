"""Text positions between Qt and Python (no Qt imports here).

Qt counts text positions in UTF-16 code units, Python in code points: a character
outside the Basic Multilingual Plane (an emoji, 😀) is one Python character and two Qt
positions. Every position that crosses between the text boxes and the spans of a
translation goes through :func:`to_qt` and :func:`from_qt`.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left, bisect_right
from functools import lru_cache


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


def compose_in_place(edit) -> bool:
    """Compose (NFC) the text of ``edit`` (a QPlainTextEdit) where it holds decomposed
    letters (macOS and some PDFs give „ü“ as "u" + a combining mark; issue 64 §3): the
    model, the fact checks and the dictionary then see the letters they know. One undo
    step; the cursor stays after the same letter. Returns whether the text changed (the
    change reaches ``textChanged`` again, composed)."""
    text = edit.toPlainText()
    composed = unicodedata.normalize("NFC", text)
    if composed == text:
        return False
    cursor = edit.textCursor()
    before = from_qt(text, cursor.position())
    position = to_qt(composed, len(unicodedata.normalize("NFC", text[:before])))
    cursor.beginEditBlock()
    cursor.select(cursor.SelectionType.Document)
    cursor.insertText(composed)
    cursor.endEditBlock()
    cursor.setPosition(min(position, len(composed.encode("utf-16-le")) // 2))
    edit.setTextCursor(cursor)
    return True

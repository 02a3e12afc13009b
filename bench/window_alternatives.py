"""Choosing word alternatives in the real window, end to end (issue 48 §1): shared by
tests/gui/test_window_real_model.py and bench/bench_alternatives.py.

For a word of the shown English, the word menu is opened as a click opens it, every
alternative it offers is chosen in turn, and each result must be the model's words up to
that word, then the chosen word, then a decode, and the part of the sentence the menu
showed for it (issue 61 §5); each choice is then undone.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QEventLoop
from PySide6.QtWidgets import QApplication

from translator_app.gui.views.linking import link_from_output
from translator_app.gui.window.word_menu import LOOKING, NONE_HERE

TIMEOUT_S = 60.0


def wait_until(done: Callable[[], bool], timeout_s: float = TIMEOUT_S) -> None:
    """Run Qt's events until ``done()``; TimeoutError after ``timeout_s``."""
    app, end = QApplication.instance(), time.monotonic() + timeout_s
    while not done():
        if time.monotonic() > end:
            raise TimeoutError(f"still waiting after {timeout_s:.0f} s")
        app.processEvents(QEventLoop.AllEvents, 20)


def shown_after(window, act: Callable[[], object]) -> str:
    """``act()``, then the next translation the window shows."""
    got: list[str] = []
    window.translation_shown.connect(got.append)
    try:
        act()
        wait_until(lambda: bool(got))
    finally:
        window.translation_shown.disconnect(got.append)
    return got[-1]


def menu_items(window, pos: int):
    """The word menu at output position ``pos`` once the model's alternatives are in
    (at once where the window kept them), and its alternative items."""
    menu = window.words.menu_at(pos)
    wait_until(lambda: LOOKING not in [a.text() for a in menu.actions()])
    return menu, [a for a in menu.actions() if a.data() == "alternative"]


@dataclass
class WordCheck:
    """What choosing each alternative of one word gave."""

    word: str
    tried: int = 0
    wrong: list[str] = field(default_factory=list)  # "label: the English it gave"
    says_none: bool = False  # no alternative, and the menu says so


def check_word(window, german: str, pos: int) -> WordCheck:
    """Choose every alternative the menu offers for the English word at ``pos`` of the
    shown translation of ``german`` (one sentence), check each and undo it."""
    d = window.highlighter.shown
    before = d.translations[0].best
    piece = link_from_output(d, pos).piece
    start = before.target_spans[piece][0]
    check = WordCheck(before.text[start : before.target_spans[piece][1]])
    menu, items = menu_items(window, pos)
    if not items:
        check.says_none = NONE_HERE in [a.text() for a in menu.actions()]
        return check
    for i in range(len(items)):
        if i:
            menu, items = menu_items(window, pos)
        label, _, example = items[i].text().partition("    — ")
        shown_after(window, items[i].trigger)
        new = window.highlighter.shown.translations[0].best
        check.tried += 1
        if not (
            new.target_ids[:piece] == before.target_ids[:piece]
            and new.target_ids[piece] != before.target_ids[piece]
            and label in new.text
            and new.text.startswith(before.text[:start].rstrip())
            # what the menu showed is what the choice gave (issue 61 §5)
            and all(part.strip() in new.text for part in example.split("…") if part.strip())
        ):
            check.wrong.append(f"{label}: {new.text}")
        shown_after(window, lambda: window.session.undo_choice(german))
        if window.highlighter.shown.translations[0].best.target_ids != before.target_ids:
            check.wrong.append(f"{label}: undo did not bring back {before.text!r}")
    return check

"""The word menu's alternatives in the window with the real bundled model (issue 48 §1):
choosing one must give the model's words up to that word, then the chosen word, then a
decode; never a garbled sentence. (Stand-in models passed while the bundled one garbled:
CTranslate2's vocabulary shortlist turned forced words into others.)"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from conftest import translate_in  # noqa: E402
from translator_app.core.faithful.fact_check import missing_facts  # noqa: E402
from translator_app.gui.window.word_menu import MENU_ALTERNATIVES  # noqa: E402

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
from window_alternatives import check_word  # noqa: E402

TIMEOUT = 60_000

# (German, what to click): a first word, a middle word, the first English word of several
# pieces, the first piece after an apostrophe, and a sentence with protected facts. A
# word is clicked where the model wrote it; the others are found in what it wrote.
CASES = [
    ("Ich habe gestern einen alten Freund im Park getroffen.", "met"),
    ("Vielleicht kommt er morgen.", "Maybe"),  # the first word (v22 is sure of "I" above)
    ("Wir müssen die Besprechung leider auf nächste Woche verschieben.", "postpone"),
    ("Die Sonnenschirme stehen im Keller neben den Gartenstühlen.", MULTI_PIECE := "<pieces>"),
    ("Ich weiß nicht, ob er heute noch kommt.", AFTER_APOSTROPHE := "<apostrophe>"),
    # its first word "The" has none: the model's only other first word was "the"
    ("Der Termin am 3. Mai um 14 Uhr kostet 49,90 €.", "appointment"),
]


def _click_at(shown: str, best, what: str) -> int:
    """The character position in ``shown`` to click for ``what``."""
    if what == MULTI_PIECE:  # a piece that starts a word the next piece continues
        pieces = best.target_pieces
        i = next(
            i
            for i in range(len(pieces) - 1)
            if pieces[i].startswith("▁") and len(pieces[i]) > 2 and pieces[i + 1][:1].isalpha()
        )
        return best.target_spans[i][0]
    if what == AFTER_APOSTROPHE:
        return shown.index("'") + 1
    assert what in shown, (what, shown)  # the model's words, or update CASES
    return shown.index(what)


# The dictionary's index is built in the background meanwhile (about ten seconds): the
# menus are those of the model's own English, before the dictionary's words follow it.
# With the index there, the follow-up replaced the English between two menus, and its
# " umbrella" offered no alternative (the English changing under the user: issue 87).
@pytest.mark.empty_cache
def test_every_offered_alternative_gives_the_chosen_word_after_the_models(qtbot, real_window):
    w = real_window
    for german, what in CASES:
        shown = translate_in(qtbot, w, german, TIMEOUT)
        pos = _click_at(shown, w.highlighter.shown.translations[0].best, what)
        check = check_word(w, german, pos)
        assert not check.wrong, (german, check)
        if what == AFTER_APOSTROPHE and not check.tried:  # "don'" is followed by "t" alone
            assert check.says_none, (german, check)
        else:
            assert 1 <= check.tried <= MENU_ALTERNATIVES, (german, check)
    # History keeps what the user kept, once: each sentence with the model's own
    # translation (every choice was undone), no chosen alternative, no copies.
    entries = w.history.search("")
    for german, _ in CASES:
        kept = [e.output for e in entries if e.source == german]
        assert len(kept) == 1, (german, kept)


# Sentences of the hand-written fact set (testsets/facts/) whose English the bundled
# model v23 loses a fact of, each marked (under the tests' int8 kind, on Intel and AMD).
LOST_FACTS = [
    "Die Wohnung kostet 1.150 € kalt im Monat.",
    "Die Stadtbücherei ist montags und mittwochs geschlossen.",
    "Das Angebot gilt bis zum 30. Juni.",
]


def test_every_mark_of_a_lost_fact_offers_its_fix_in_the_word_menu(qtbot, real_window):
    """Issue 88 §2 with the real model: once a sentence is followed up (the dictionary's
    words, then the marks), every fact its English still loses is offered kept in the
    word menu, filled in by the worker, and the item's English says the fact; one click
    shows it and the mark is gone. A model that keeps them all leaves nothing to test:
    the test says so instead of passing."""
    w = real_window
    marks = 0
    for german in LOST_FACTS:
        translate_in(qtbot, w, german, TIMEOUT)
        qtbot.waitUntil(lambda g=german: g in w.session._followed, timeout=TIMEOUT)
        t = w.highlighter.shown.translations[0]
        if not t.issues:
            continue
        marks += len(t.issues)
        with qtbot.waitSignal(w.session.fixes_found, timeout=TIMEOUT) as found:
            menu = w.words.menu_at(w.highlighter.shown.output_spans[0][0])
        _, fixes = found.args
        items = [a for a in menu.actions() if a.data() == "fix"]
        assert len(items) == len(t.issues), (german, t.text, fixes)
        for fact, fixed in fixes:
            assert fixed is not None, (german, t.text, fact.text)
            assert not any(f.keys == fact.keys for f in missing_facts(german, fixed.text)), (
                fixed.text
            )
        with qtbot.waitSignal(w.translation_shown, timeout=TIMEOUT):
            items[0].trigger()
        shown = w.highlighter.shown.translations[0]
        assert not any(f.keys == fixes[0][0].keys for f in shown.issues), shown.text
    if not marks:
        pytest.skip("the model kept every fact of LOST_FACTS: choose sentences it loses")

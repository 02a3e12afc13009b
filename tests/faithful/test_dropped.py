"""Dropped content (issue 48 §3): German content words that no English word carries are
found by leaving each out and scoring the same English with the bundled model, and the
window marks them in the German (lilac, with a tooltip and a status message)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from translator_app.core.engine.translation import Candidate
from translator_app.core.faithful.dropped import (
    SUPPORT_THRESHOLD,
    SourceWord,
    content_words,
    is_content_word,
    not_carried,
)
from translator_app.core.text.tokenizer import EOS_PIECE

BUNDLE = Path(__file__).parents[2] / "resources" / "model"
TIMEOUT = 60_000

VAT = "Der Preis versteht sich zuzüglich Mehrwertsteuer."
ROOF = "Morgen montieren wir das neue Dach über dem Eingang."


def test_content_words_leave_function_words_out_and_group_pieces():
    assert is_content_word("Mehrwertsteuer") and is_content_word("montieren")
    assert not any(is_content_word(w) for w in ("der", "sich", "über", "wir", "zu", "12"))
    # three pieces make one word; "Der" and "sich" are function words
    spans = [(0, 3), (4, 9), (10, 18), (19, 23), (24, 27), (27, 30), (30, 33), (34, 48), (48, 49)]
    words = content_words(VAT[:49], spans)
    assert [w.text for w in words] == ["Preis", "versteht", "zuzüglich", "Mehrwertsteuer"]
    assert words[2].pieces == (4, 5, 6) and words[3].pieces == (7,)


def test_words_below_the_threshold_are_not_carried():
    words = [SourceWord("Preis", (4, 9), (1,)), SourceWord("zuzüglich", (19, 28), (3,))]
    assert not_carried(words, [6.0, SUPPORT_THRESHOLD - 0.5]) == [words[1]]
    assert not_carried(words, [6.0, SUPPORT_THRESHOLD + 0.5]) == []


@pytest.fixture(scope="module")
def translator():
    from translator_app.core import Translator

    return Translator.load(BUNDLE)


def _with_english(translator, translation, english: str):
    """``translation`` as if the model had written ``english``: a candidate of the real
    tokenizer's ids (its attention is not used by the check)."""
    tok = translator.tokenizer
    ids = (*tok.encode(english).ids, tok.eos_id)
    dec = tok.decode(ids)
    cand = Candidate(
        text=dec.text,
        target_ids=ids,
        target_pieces=(*dec.pieces, EOS_PIECE),
        target_spans=(*dec.spans, (len(dec.text), len(dec.text))),
        attention=np.zeros((len(ids), len(translation.source_ids)), np.float32),
        score=0.0,
        logprob=0.0,
    )
    return replace(translation, nbest=(cand,), not_carried=None)


# (German, its whole English, an English that drops a word or phrase, what is dropped).
# A phrase dropped whole: leaving out either word alone, the other still asks for the
# phrase, so at least one of them is marked.
DROPS = [
    (VAT, "The price is exclusive of VAT.", "The price is.", {"zuzüglich"}),
    (
        ROOF,
        "Tomorrow we are installing the new roof over the entrance.",
        "Tomorrow the new roof over the entrance.",
        {"montieren"},
    ),
    (
        "Bitte schicken Sie mir die Rechnung bis Freitag.",
        "Please send me the invoice by Friday.",
        "Please send me the invoice.",
        {"Freitag"},
    ),
    (
        "Der Techniker repariert morgen die Heizung im Keller.",
        "The technician will repair the heating in the cellar tomorrow.",
        "The technician will repair the heating tomorrow.",
        {"Keller"},
    ),
    (
        "Wir haben leider keine freien Zimmer mehr.",
        "Unfortunately we have no free rooms left.",
        "We have no free rooms left.",
        {"leider"},
    ),
    (
        "Die Kinder spielen im Garten mit dem Hund.",
        "The children are playing in the garden with the dog.",
        "The children are playing in the garden.",
        {"Hund"},
    ),
]


def test_the_bundled_model_finds_the_dropped_words_and_leaves_kept_ones(translator):
    """Every whole English keeps every word; the drops are found as often as
    bench/bench_dropped.py's recall says (84 % with v20): 5 of these 6 at least. The whole
    roof sentence is v21's own phrasing ("are installing": v21 does not tie "will
    install" to „montieren“); v20 and v21 miss the roof's drop, v19 found it."""
    found = 0
    for german, whole, dropping, dropped in DROPS:
        (t,) = translator.translate([german])
        kept, lost = translator.check_dropped(
            [_with_english(translator, t, whole), _with_english(translator, t, dropping)]
        )
        assert kept.not_carried == (), (german, kept.not_carried)
        found += dropped <= {w.text for w in lost.not_carried}
        for w in lost.not_carried:
            assert german[w.span[0] : w.span[1]] == w.text
    assert found >= len(DROPS) - 1


def test_the_models_own_translation_is_checked_once(translator):
    (t,) = translator.translate([ROOF])
    (checked,) = translator.check_dropped([t])
    assert checked.not_carried is not None
    assert translator.check_dropped([checked])[0] is checked


# ----------------------------------------------------------------- the window
def test_the_window_checks_what_it_shows_and_marks_a_dropped_word(qtbot, real_window, translator):
    from translator_app.gui.views.linking import fact_marks
    from translator_app.gui.views.positions import to_qt

    w = real_window
    # The model's own English of a plain sentence: checked after it shows, nothing to
    # mark (so the shown translation is left as it is: no mark, the same object).
    with qtbot.waitSignal(
        w.session.worker.revised, timeout=TIMEOUT, check_params_cb=lambda r: r.stage == "marks"
    ) as blocker:
        w.source_edit.setPlainText(VAT)
    (checked,) = blocker.args[0].translations
    assert checked.not_carried == ()
    qtbot.wait(50)  # the session has handled the result
    doc = w.highlighter.shown
    assert doc.output == w.output_edit.toPlainText() == checked.text
    assert not [m for m in fact_marks(doc) if m.kind == "dropped"], doc.not_carried()
    # The same German with an English that drops „zuzüglich Mehrwertsteuer“ (as the
    # model once did): the check of the bundled model marks the German word, the
    # tooltip says what may be missing, and the status bar tells the user.
    (bad,) = translator.check_dropped(
        [_with_english(translator, doc.translations[0], "The price is.")]
    )
    shown = w.session.document.add([(VAT, bad)])
    w.session.checked.emit(shown)
    marks = [m for m in fact_marks(w.highlighter.shown) if m.kind == "dropped"]
    assert "zuzüglich" in {VAT[m.source[0] : m.source[1]] for m in marks}
    start = VAT.index("zuzüglich")
    tip = w.highlighter.fact_tip("source", to_qt(VAT, start + 2))
    assert "zuzüglich" in tip and "missing" in tip
    assert "May be missing in the English: „zuzüglich“" in w.statusBar().currentMessage()
    assert w.output_edit.toPlainText() == "The price is."


def test_a_long_check_yields_to_a_word_menu(qtbot):
    """The check runs last, a sentence at a time: a word menu asked for meanwhile is
    answered after the sentence being checked, and the rest of the check is done
    afterwards (a stand-in translator whose check takes 0.05 s a sentence)."""
    pytest.importorskip("PySide6")
    import time

    from translator_app.gui.translating.worker import TranslationWorker
    from translator_app.gui.translating.worker_messages import AlternativesRequest, CheckRequest

    events = []

    class SlowChecker:
        model_ready = True  # its PyTorch model is built (a lazy one is built first)

        def check_dropped(self, translations):
            time.sleep(0.05)
            events.append(("checked", len(translations)))
            return [replace(t, not_carried=()) for t in translations]

        def alternatives(self, translation, piece, **_options):
            events.append(("alternatives", piece))
            return ()

    from translator_app.core.engine.translation import Translation

    worker = TranslationWorker()
    worker._translator, worker._model_path = SlowChecker(), "stand-in"
    worker._latest_translate_id = 7
    sentences = tuple(f"Satz {i}." for i in range(20))
    translations = tuple(Translation(s, (3,), ("</s>",), ((0, 0),), ()) for s in sentences)
    results = []
    worker.revised.connect(results.append)
    worker._queue_check(CheckRequest(7, sentences, translations))
    qtbot.waitUntil(lambda: bool(events), timeout=5000)  # the first sentence is checked
    worker.alternatives(AlternativesRequest(8, translations[0], 0))
    qtbot.waitUntil(lambda: sum(len(r.sentences) for r in results) == 20, timeout=10_000)
    worker.shutdown()
    assert events.index(("alternatives", 0)) <= 3  # not after the whole check
    assert [s for r in results for s in r.sentences] == list(sentences)
    assert all(t.not_carried == () for r in results for t in r.translations)


def test_the_check_waits_for_a_lazy_model_built_on_its_own_thread(qtbot):
    """A lazily loaded bundle has no PyTorch model at the first check: the worker builds
    it on another thread (a stand-in that takes 0.3 s), keeps serving requests, and
    runs the latest check once the model is there."""
    pytest.importorskip("PySide6")
    import threading
    import time

    from translator_app.core.engine.translation import Translation
    from translator_app.gui.translating.worker import TranslationWorker
    from translator_app.gui.translating.worker_messages import AlternativesRequest, CheckRequest

    events = []

    class LazyChecker:
        model_ready = False

        def prepare_model(self):
            events.append(("building", threading.current_thread().name))
            time.sleep(0.3)
            self.model_ready = True

        def check_dropped(self, translations):
            assert self.model_ready
            events.append(("checked", translations[0].source))
            return [replace(t, not_carried=()) for t in translations]

        def alternatives(self, translation, piece, **_options):
            events.append(("alternatives", self.model_ready))
            return ()

    worker = TranslationWorker()
    worker._translator, worker._model_path = LazyChecker(), "stand-in"
    results = []
    worker.revised.connect(results.append)
    old, new = (Translation(s, (3,), ("</s>",), ((0, 0),), ()) for s in ("Alt.", "Neu."))
    worker._latest_translate_id = 1
    worker._queue_check(CheckRequest(1, ("Alt.",), (old,)))
    qtbot.waitUntil(lambda: bool(events), timeout=5000)
    worker.alternatives(AlternativesRequest(2, old, 0))  # served while the model builds
    worker._latest_translate_id = 3
    worker._queue_check(CheckRequest(3, ("Neu.",), (new,)))  # a newer text's check replaces it
    qtbot.waitUntil(lambda: bool(results), timeout=5000)
    worker.shutdown()
    assert events[0] == ("building", "model-build")
    assert ("alternatives", False) in events  # answered before the model was built
    assert [e for e in events if e[0] == "checked"] == [("checked", "Neu.")]
    assert [r.sentences for r in results] == [("Neu.",)]

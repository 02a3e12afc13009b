"""Model → Compare models (issue 51 §3), driven in the window with the two real bundled
models: the same sentence translated by the Transformer and by the RNN, each with its
heat-map; the latest request wins; a damaged model folder is said in its pane."""

from __future__ import annotations

import time

import numpy as np
import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

import shiboken6  # noqa: E402

from conftest import translate_in  # noqa: E402
from translator_app.core.platform.paths import bundled_rnn_model_dir  # noqa: E402
from translator_app.gui.dialogs.compare_dialog import default_panes, sentence_at  # noqa: E402
from translator_app.gui.shared.model_list import ModelEntry, discover  # noqa: E402

TIMEOUT = 60_000


def _menu_action(window, text: str):
    return next(a for a in window.menus.all_actions if a.text().replace("&", "") == text)


def _answered(dialog) -> bool:
    return all(p.english.text() for p in dialog.panes)


def _heatmap(pane) -> np.ndarray:
    (image,) = pane.figure.axes[0].get_images()
    return np.asarray(image.get_array())


def test_compare_models_shows_both_bundled_models_with_their_heatmaps(qtbot, real_window):
    german = "Ich habe heute keine Zeit. Wo ist der Bahnhof?"
    translate_in(qtbot, real_window, german, TIMEOUT)
    cursor = real_window.source_edit.textCursor()
    cursor.setPosition(len(german) - 3)  # inside the second sentence
    real_window.source_edit.setTextCursor(cursor)
    _menu_action(real_window, "Compare models…").trigger()
    dialog = real_window.dialogs.compare
    qtbot.waitUntil(lambda: _answered(dialog), timeout=TIMEOUT)
    assert dialog.sentence.text() == "Wo ist der Bahnhof?"
    left, right = dialog.panes
    assert left.models.currentText() == "Bundled model"
    assert right.models.currentText() == "Bundled RNN (bi-GRU + attention)"
    assert left.architecture.text().startswith("Transformer, 6+4 layers")
    assert right.architecture.text().startswith("RNN: bi-GRU encoder, additive attention")
    for pane in dialog.panes:  # both real models know this one
        assert "station" in pane.english.text(), pane.english.text()
        matrix = _heatmap(pane)
        labels = pane.figure.axes[0].get_xticklabels()
        assert [t.get_text() for t in labels] == ["Wo", "ist", "der", "Bahnhof", "?"]
        # each English word's attention over the German words (the rest went to the
        # end-of-sentence mark, which is not drawn): a share of a distribution
        assert matrix.shape[1] == 5 and (matrix.sum(axis=1) <= 1.001).all()
        assert matrix.max() > 0.3, "attention that looks at no word in particular"
    assert not np.allclose(_heatmap(left)[:3], _heatmap(right)[:3])  # two ways to align
    dialog.close()
    assert not dialog.thread.isRunning()


def test_the_latest_sentence_wins_and_a_damaged_model_is_said_in_its_pane(
    qtbot, real_window, tmp_path
):
    _menu_action(real_window, "Compare models…").trigger()
    dialog = real_window.dialogs.compare
    assert dialog.status.text() == "Type a German sentence to compare the models on."
    shown = []
    for pane in dialog.panes:
        pane.show_result = lambda r, show=pane.show_result: (shown.append(r), show(r))
    for sentence in ("Guten Morgen!", "Das Wetter ist schön.", "Wo ist der Bahnhof?"):
        dialog.sentence.setText(sentence)
        dialog.translate()
    qtbot.waitUntil(lambda: _answered(dialog), timeout=TIMEOUT)
    qtbot.wait(500)  # answers to the older requests, had any been sent, would come now
    assert all("station" in p.english.text() for p in dialog.panes)
    assert len(shown) == 2, [r.translation.text for r in shown]  # the last sentence only
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "config.json").write_text("{not json", "utf-8")
    (broken / "model.safetensors").write_bytes(b"\0" * 64)
    right = dialog.panes[1]
    right.models.addItem("broken", str(broken))
    right.models.setCurrentIndex(right.models.count() - 1)  # translates again
    qtbot.waitUntil(lambda: "Could not translate" in right.english.text(), timeout=TIMEOUT)
    assert "station" in dialog.panes[0].english.text()  # the other pane still answers
    assert right.figure.axes == []  # no stale heat-map under the message


def test_the_bundled_rnn_is_offered_and_opens_on_the_right(tmp_path, monkeypatch):
    monkeypatch.setenv("TRANSLATOR_DATA_DIR", str(tmp_path))  # no user models
    monkeypatch.delenv("TRANSLATOR_MODEL", raising=False)
    entries = discover()
    assert [e.origin for e in entries][:2] == ["bundled", "bundled-rnn"]
    assert entries[1].path == str(bundled_rnn_model_dir())
    assert default_panes(entries) == (0, 1)
    one = [ModelEntry("only", "/x", "user")]
    assert default_panes(one) == (0, 0)


@pytest.mark.parametrize(
    ("cursor", "expected"),
    [(0, "Guten Tag."), (12, "Wie geht es?"), (999, "Guten Tag.")],
)
def test_sentence_at_the_cursor(cursor, expected):
    assert sentence_at("Guten Tag. Wie geht es?", cursor) == expected
    assert sentence_at("", 0) == ""


def test_the_bundled_rnn_translates_in_the_window_with_its_alignment(qtbot, real_window):
    rnn = next(a for a in real_window.models.actions if a.data() == str(bundled_rnn_model_dir()))
    rnn.trigger()
    qtbot.waitUntil(
        lambda: real_window.model_info is not None and real_window.model_info.arch == "rnn",
        timeout=TIMEOUT,
    )
    assert real_window.model_label.text() == "Model: de-en-rnn"
    assert real_window.settings.model == str(bundled_rnn_model_dir())  # kept for next start
    shown = translate_in(qtbot, real_window, "Wo ist der Bahnhof?", TIMEOUT)
    assert "station" in shown
    panel = real_window.alignment
    qtbot.waitUntil(lambda: panel.view is not None, timeout=TIMEOUT)
    assert panel.view.cols == ("Wo", "ist", "der", "Bahnhof", "?")
    assert panel.view.matrix.shape[0] == len(panel.view.rows) > 0


def test_a_model_that_writes_nothing_is_said_not_shown_blank(qtbot, real_window):
    """A weak model can stop at once: its pane says so instead of an empty line."""
    import dataclasses

    from translator_app.gui.dialogs.compare_dialog import ModelResult

    _menu_action(real_window, "Compare models…").trigger()
    dialog = real_window.dialogs.compare
    pane = dialog.panes[1]
    shown = []
    pane.show_result = lambda r, show=pane.show_result: (shown.append(r), show(r))
    dialog.sentence.setText("Wo ist der Bahnhof?")
    dialog.translate()
    qtbot.waitUntil(lambda: _answered(dialog), timeout=TIMEOUT)
    t = shown[-1].translation
    eos_only = dataclasses.replace(
        t.best, text="", target_ids=t.best.target_ids[-1:], target_pieces=("</s>",),
        target_spans=((0, 0),), attention=t.best.attention[-1:],
    )  # fmt: skip
    empty = dataclasses.replace(t, nbest=(eos_only,))
    pane.show_result(ModelResult(pane.path, "RNN", "PyTorch int8", empty, 0.1))
    assert pane.english.text() == "This model wrote no English for this sentence."
    assert pane.figure.axes == []  # no heat-map of no words


@pytest.mark.parametrize("screen", [(1024, 640), (512, 320)])  # (512, 320): 1024x640 at scale 2
def test_compare_models_fits_a_small_screen(qtbot, real_window, monkeypatch, screen):
    """At 1100x640 on a 1024x640 screen at scale 2, its Translate button and right pane
    were cut off (issue 61 §5): it fits, the sentence row in sight, the panes scroll."""
    from translator_app.gui.dialogs import compare_dialog
    from translator_app.gui.shared import screen as screen_module

    monkeypatch.setattr(compare_dialog, "available_size", lambda widget: screen)
    monkeypatch.setattr(screen_module, "available_size", lambda widget: screen)
    _menu_action(real_window, "Compare models…").trigger()
    dialog = real_window.dialogs.compare
    qtbot.waitExposed(dialog)
    assert dialog.width() <= screen[0] and dialog.height() <= screen[1]
    inside = dialog.rect()
    for widget in (dialog.sentence, dialog.translate_button):
        where = widget.mapTo(dialog, widget.rect().bottomRight())
        assert inside.contains(where), (widget, where, inside)
    side_by_side = dialog.panes[0].y() == dialog.panes[1].y()
    assert side_by_side == (screen[0] >= 1024)
    dialog.close()


def test_closing_the_dialog_while_a_model_loads_does_not_freeze_the_window(
    qtbot, open_window, monkeypatch
):
    """A model's first load can take seconds (a conversion, the dictionary's index): the
    dialog closes at once, its thread ends after that load on its own, and the window's
    close still waits for it (no thread is destroyed while running)."""
    import threading

    from translator_app.gui.dialogs import compare_dialog

    loading, release = threading.Event(), threading.Event()
    calls = []

    def slow_load(worker, path, sentence):
        calls.append(path)
        loading.set()
        release.wait(10)
        return compare_dialog.ModelResult(path, "", "", None, 0.0, "stand-in")

    monkeypatch.setattr(compare_dialog.CompareWorker, "_one", slow_load)
    w = open_window()
    w.source_edit.setPlainText("Guten Morgen.")
    _menu_action(w, "Compare models…").trigger()
    first = w.dialogs.compare
    assert loading.wait(10)
    started = time.perf_counter()
    first.close()
    assert time.perf_counter() - started < 1.0  # was: blocked until the load ended
    assert first.thread.isRunning()
    _menu_action(w, "Compare models…").trigger()  # a new dialog; the old one goes later
    assert w.dialogs.compare is not first
    release.set()
    qtbot.waitUntil(lambda: not shiboken6.isValid(first), timeout=10_000)
    assert len(calls) == 3  # the closed dialog's other model was not loaded
    w.dialogs.shutdown()
    assert not w.dialogs.compare.thread.isRunning()

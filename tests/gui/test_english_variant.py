"""Settings → English (issue 89 §4): British or American, applied to what the window
shows and to the word menu's alternatives, with the real model."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from conftest import translate_in  # noqa: E402
from translator_app.core.language.variants import AMERICAN, BRITISH, edits  # noqa: E402

LETTER = "Liebe Nachbarn, die Farbe im Zentrum ist grau. Frau Dr. Kowalczyk kommt am 14. Juni."


@pytest.mark.parametrize("variant", [BRITISH, AMERICAN])
def test_the_english_chosen_in_settings_is_written_throughout(qtbot, real_window, variant):
    from translator_app.gui.dialogs.secondary_dialogs import SettingsDialog
    from translator_app.gui.shared.settings import Settings

    w = real_window
    dialog = SettingsDialog(w.settings, w)
    assert dialog.english.currentData() == ""  # as the model writes, unless asked
    dialog.english.setCurrentIndex(dialog.english.findData(variant))
    dialog.apply(w.settings)
    assert w.settings.steps == f"all,{variant}"
    with qtbot.waitSignal(  # the dictionary's follow-up and the marks: the last English
        w.session.worker.revised, timeout=30_000, check_params_cb=lambda r: r.stage == "marks"
    ):
        translate_in(qtbot, w, LETTER)
    qtbot.wait(100)
    shown = w.output_edit.toPlainText()
    assert edits(shown, variant) == [], shown  # nothing left of the other variant
    # the word menu offers alternatives written the same way
    t = w.highlighter.shown.translations[0]
    translator = w.session.worker._translator
    found = [
        c
        for piece in range(len(t.best.target_ids))
        for c in translator.alternatives(t, piece, steps=w.settings.steps)
    ]
    assert found and all(edits(c.text, variant) == [] for c in found)
    w.settings.save()
    assert Settings.load().steps == f"all,{variant}"

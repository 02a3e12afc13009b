"""The Settings dialog and a settings file allow the same values (issue 62 §5: the dialog's
pause went to 2,000 ms while a file could hold 5,000, so opening Settings and pressing OK
silently lowered a valid setting)."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from translator_app.gui.dialogs.secondary_dialogs import SettingsDialog  # noqa: E402
from translator_app.gui.shared.settings import (  # noqa: E402
    BEAM_RANGE,
    DEBOUNCE_RANGE_MS,
    FONT_SIZE_RANGE,
    Settings,
)


def test_ok_in_settings_keeps_every_value_a_settings_file_may_hold(qtbot):
    top = Settings(
        beam=BEAM_RANGE[1],
        nbest=BEAM_RANGE[1],
        debounce_ms=DEBOUNCE_RANGE_MS[1],
        font_size=FONT_SIZE_RANGE[1],
    )
    top.sanitise()  # what Settings.load leaves of a file holding the largest values
    dialog = SettingsDialog(top, None)
    qtbot.addWidget(dialog)
    kept = Settings()
    dialog.apply(kept)
    assert (kept.beam, kept.nbest, kept.debounce_ms, kept.font_size) == (
        top.beam,
        top.nbest,
        top.debounce_ms,
        top.font_size,
    )


def test_a_settings_file_beyond_the_ranges_is_brought_inside_them():
    wild = Settings(beam=500, nbest=0, debounce_ms=99_999, font_size=1)
    wild.sanitise()
    assert (wild.beam, wild.nbest, wild.debounce_ms, wild.font_size) == (
        BEAM_RANGE[1],
        BEAM_RANGE[0],
        DEBOUNCE_RANGE_MS[1],
        FONT_SIZE_RANGE[0],
    )

"""Settings → Appearance: the app's own light, dark or system colours, and marks that stay
readable in each (issue 61 §5: white text on a pale amber or lilac mark in a dark theme)."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QColor, QPalette  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from translator_app.gui.dialogs.secondary_dialogs import SettingsDialog  # noqa: E402
from translator_app.gui.shared.settings import Settings  # noqa: E402
from translator_app.gui.shared.theme import apply_theme  # noqa: E402
from translator_app.gui.views.highlighter import CHECK_STYLES, _selection  # noqa: E402


def _lightness(colour: QColor) -> float:
    return colour.lightnessF()


def test_the_appearance_setting_switches_the_palette_and_is_kept(qtbot, open_window):
    w = open_window()
    before = QApplication.instance().palette().color(QPalette.ColorRole.Base)
    dialog = SettingsDialog(w.settings, w)
    dialog.theme_box.setCurrentIndex(dialog.theme_box.findData("dark"))
    dialog.apply(w.settings)
    w.apply_settings()
    base = QApplication.instance().palette().color(QPalette.ColorRole.Base)
    assert (
        _lightness(base) < 0.25 and w.output_edit.palette().color(QPalette.ColorRole.Base) == base
    )
    w.save_settings()
    assert Settings.load().theme == "dark"
    w.settings.theme = "system"
    w.apply_settings()
    assert QApplication.instance().palette().color(QPalette.ColorRole.Base) == before


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("kind", sorted(CHECK_STYLES))
def test_a_mark_has_dark_text_on_its_pale_background_in_every_theme(qtbot, theme, kind):
    from PySide6.QtWidgets import QPlainTextEdit

    apply_theme(theme)
    try:
        edit = QPlainTextEdit("Der Termin ist am Freitag.")
        qtbot.addWidget(edit)
        selection = _selection(edit, edit.toPlainText(), 4, 10, fact=kind)
        fmt = selection.format
        back = fmt.background().color()
        # unset, the text is drawn in the palette's text colour: light in a dark theme
        drawn = fmt.foreground().style() != Qt.BrushStyle.NoBrush
        text = fmt.foreground().color() if drawn else edit.palette().color(QPalette.ColorRole.Text)
        assert _lightness(back) - _lightness(text) > 0.6  # dark on pale, whatever the palette
    finally:
        apply_theme("system")


def test_an_unknown_theme_in_the_settings_file_is_the_systems(tmp_path, monkeypatch):
    monkeypatch.setenv("TRANSLATOR_CONFIG_DIR", str(tmp_path))
    (tmp_path / "settings.json").write_text('{"theme": "purple"}', encoding="utf-8")
    assert Settings.load().theme == "system"


def _frame_contrast(qtbot, style) -> float:
    """The WCAG contrast of the lightest pixel of an unticked check box's indicator
    against the window colour, drawn with ``style`` on the dark palette."""
    from PySide6.QtWidgets import QCheckBox

    from translator_app.gui.shared.theme import palette_for

    box = QCheckBox("Show model pieces")
    qtbot.addWidget(box)
    box.setStyle(style)
    box.setPalette(palette_for("dark", QApplication.instance()))
    box.resize(box.sizeHint())
    image = box.grab().toImage()
    side = image.height()
    window = box.palette().color(QPalette.ColorRole.Window)

    def luminance(c: QColor) -> float:
        def channel(v: float) -> float:
            return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

        return (
            0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())
        )

    lightest = max(
        (QColor(image.pixel(x, y)) for x in range(side) for y in range(side)), key=luminance
    )
    a, b = sorted((luminance(lightest), luminance(window)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def test_a_check_box_frame_shows_on_the_dark_palette(qtbot):
    """Issue 89 §5: in dark mode a check box ("Show model pieces") was a dark square on
    a dark window; WCAG asks 3:1 for the parts of a control that say what it is."""
    from PySide6.QtWidgets import QStyleFactory

    from translator_app.gui.shared.theme import OutlinedStyle

    assert _frame_contrast(qtbot, QStyleFactory.create("Fusion")) < 3  # as it was
    assert _frame_contrast(qtbot, OutlinedStyle()) >= 3


def test_the_docks_title_bar_icons_show_on_the_dark_palette(qtbot, open_window):
    """The alignment panel's float and close icons were dark grey on the dark window:
    on a dark palette they are drawn in the text colour, and dark again on a light one."""
    from PySide6.QtWidgets import QStyleFactory

    from translator_app.gui.shared.theme import OutlinedStyle

    app = QApplication.instance()
    before = app.style().name()
    app.setStyle(OutlinedStyle())  # the app's style (gui/window/app.py)
    try:
        _dock_icons_follow_the_theme(qtbot, open_window())
    finally:
        app.setStyle(QStyleFactory.create(before))


def _dock_icons_follow_the_theme(qtbot, w) -> None:
    from PySide6.QtWidgets import QAbstractButton

    button = w.alignment_dock.findChild(QAbstractButton, "qt_dockwidget_closebutton")

    def brightest() -> int:
        image = button.icon().pixmap(16, 16).toImage()
        return max(
            QColor(image.pixel(x, y)).lightness()
            for x in range(image.width())
            for y in range(image.height())
            if QColor.fromRgba(image.pixel(x, y)).alpha() > 128
        )

    w.settings.theme = "dark"
    w.apply_settings()
    qtbot.waitUntil(lambda: brightest() > 180, timeout=2_000)  # was about 100
    w.settings.theme = "light"
    w.apply_settings()
    qtbot.waitUntil(lambda: brightest() < 140, timeout=2_000)

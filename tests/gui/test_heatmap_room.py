"""The heat-map's room (issue 89 §1): at 1400×900 the panel showed 3 English rows of a
sentence while the text boxes kept 25 empty lines, the colour bar was cut by the
scrolled map, "Fit" squeezed the labels over each other and blurred the cells, and an
export's title said "Layer 1 of 4, 2"."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from conftest import translate_in  # noqa: E402
from translator_app.gui.views.heatmap import (  # noqa: E402
    DPI,
    MAX_CELL,
    MIN_CELL,
    HeatmapView,
    fit_cell,
    font_for,
    map_size,
)
from translator_app.gui.window.panel_room import MIN_TEXT_LINES, lines_in  # noqa: E402

LONG = (
    "Die Apotheke hat am Samstag nur bis zwölf Uhr geöffnet, aber am Sonntag bleibt sie "
    "den ganzen Tag geschlossen."
)


def _view(rows: int, cols: int, label: str = "word") -> HeatmapView:
    return HeatmapView(
        np.zeros((rows, cols), dtype=np.float32),
        (label,) * rows,
        (label,) * cols,
        tuple(range(rows)),
        tuple(range(cols)),
    )


def test_fit_takes_the_largest_cell_that_fits_and_never_a_cell_below_its_labels():
    view = _view(20, 12)
    w, h = map_size(view, 16)
    assert fit_cell(view, w, h) >= 16
    assert fit_cell(view, w, h - 1) < 16  # one pixel less: a smaller cell
    assert fit_cell(view, 10_000, 10_000) == MAX_CELL
    assert fit_cell(view, 50, 50) == MIN_CELL  # too small for any: the map scrolls
    for cell in range(MIN_CELL, MAX_CELL + 1):
        assert font_for(cell) * DPI / 72 <= cell  # a label is never taller than its row


def test_longer_labels_take_more_room_around_the_same_cells():
    short, long = _view(5, 5, "ab"), _view(5, 5, "Donaudampfschifffahrt")
    assert all(b > a for a, b in zip(map_size(short, 16), map_size(long, 16), strict=True))


def _rows_drawn(panel) -> tuple[float, float]:
    """(pixels per row of the drawn map, the labels' font height in pixels)."""
    panel.flush()
    panel.canvas.draw()
    ax = panel.figure.axes[0]
    rows = panel.view.matrix.shape[0]
    label = ax.get_yticklabels()[0].get_fontsize() * DPI / 72
    return ax.get_window_extent().height / rows, label


def test_the_panel_grows_to_show_every_row_and_the_text_keeps_its_lines(qtbot, real_window):
    w = real_window
    w.resize(1400, 900)
    qtbot.waitUntil(lambda: w.height() == 900)
    translate_in(qtbot, w, LONG)
    panel = w.alignment
    qtbot.waitUntil(lambda: panel.view is not None and panel.view.matrix.shape[0] > 15)
    panel.flush()
    bar = panel.scroll.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() == 0, timeout=5_000)  # every English row in view
    row, label = _rows_drawn(panel)
    assert row >= 15 and label <= row
    for edit in (w.source_edit, w.output_edit):
        line = edit.fontMetrics().lineSpacing()
        assert edit.viewport().height() >= MIN_TEXT_LINES * line
        assert edit.viewport().height() >= (lines_in(edit) + 1) * line
    # The colour scale beside the map, whole, and not on the scrolled map.
    assert panel.legend.isVisible() and len(panel.figure.axes) == 1
    assert panel.legend.height() <= panel.scroll.height()
    assert panel.rect().contains(panel.legend.geometry())


def test_a_users_drag_sizes_the_panel_for_good_until_fitting_is_asked_again(qtbot, real_window):
    from PySide6.QtCore import QEvent, QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    from translator_app.gui.shared.settings import Settings

    w = real_window
    w.resize(1400, 900)
    qtbot.waitUntil(lambda: w.height() == 900)

    def mouse(kind, y: float) -> None:
        point = QPointF(w.width() / 2, y)
        button = Qt.MouseButton.LeftButton
        event = QMouseEvent(kind, point, point, button, button, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(w, event)

    # A drag of the line between the text and the panel (QMainWindow's separator).
    line = (w.centralWidget().geometry().bottom() + w.alignment_dock.y()) / 2
    before = w.alignment_dock.height()
    mouse(QEvent.Type.MouseButtonPress, line)
    mouse(QEvent.Type.MouseMove, line + 100)
    qtbot.waitUntil(lambda: w.alignment_dock.height() < before - 50)  # moved on a timer
    mouse(QEvent.Type.MouseButtonRelease, line + 100)
    assert not w.panel_room.fits and not w.menus.fits_action.isChecked()
    assert Settings.load().alignment_fits is False  # remembered
    translate_in(qtbot, w, LONG)
    w.alignment.flush()
    qtbot.wait(100)
    assert w.alignment_dock.height() < before - 50  # the user's height stays
    assert w.alignment.scroll.verticalScrollBar().maximum() > 0
    w.menus.fits_action.trigger()  # View → Alignment panel fits the sentence
    w.alignment.flush()
    qtbot.waitUntil(lambda: w.alignment_dock.height() > 300, timeout=5_000)
    assert Settings.load().alignment_fits is True


def test_fit_shows_the_whole_map_in_a_low_panel_with_labels_apart(qtbot, real_window):
    w = real_window
    translate_in(qtbot, w, LONG)
    panel = w.alignment
    panel.zoom_box.setCurrentIndex(0)  # Fit
    w.panel_room.set_fits(False)
    w.resize(1000, 700)
    qtbot.waitUntil(lambda: w.height() == 700)
    panel.flush()
    row, label = _rows_drawn(panel)
    assert label <= row  # no English label over its neighbour
    image = panel.figure.axes[0].images[0]
    assert image.get_interpolation() == "nearest"  # squeezed cells stay sharp


def test_an_export_names_the_head_it_shows(qtbot, real_window, tmp_path):
    w = real_window
    translate_in(qtbot, w, "Das Haus ist groß.")
    panel = w.alignment
    panel.head_box.setCurrentIndex(panel.head_box.findData(1))
    assert panel.shown_view().endswith(", head 2")
    panel.head_box.setCurrentIndex(0)
    assert panel.shown_view().endswith(", all heads (highlights)")


@pytest.mark.parametrize("shape", [(0, 3), (3, 0)])
def test_a_map_without_rows_or_columns_draws_nothing_and_warns_nothing(shape):
    import warnings

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from translator_app.gui.views.heatmap import plot_heatmap

    figure = Figure(figsize=(2, 1), dpi=DPI, layout="constrained")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "identical low and high ylims" in the test logs
        plot_heatmap(figure, _view(*shape), (None, None), bg="white", fg="black")
        FigureCanvasAgg(figure).draw()
    assert not figure.axes

"""The alignment panel: the attention heatmap of the sentence under the cursor.

Rows are English words, columns German words (the subword pieces of a word merged:
"Bundes" + "tag" is one column, its attention the sum of theirs; a row is the mean of
its pieces' rows), with a colour bar; "Show model pieces" shows the model's own units. For a
Transformer a layer/head selector picks what is shown (default: the engine's alignment
layer, heads averaged, which is also what the search returns as "the" attention). The
word under the cursor is outlined (a row for English, a column for German), so the
alignment can be followed from the keyboard. Long sentences scroll at a zoom that keeps
the labels readable. The picture can be exported as PNG or SVG.
"""

from __future__ import annotations

import textwrap
from collections import OrderedDict
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
from matplotlib.figure import Figure
from PySide6.QtCore import QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QBoxLayout,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from translator_app.core import Translation
from translator_app.gui.shared.places import documents_dir
from translator_app.gui.views.heatmap import (
    AVERAGE,
    DPI,
    HeatmapView,
    attention_matrix,
    fit_cell,
    font_for,
    heatmap_view,
    index_of,
    map_size,
    plot_colorbar,
    plot_heatmap,
)

DRAW_DELAY_MS = 40
PLACEHOLDER = "Type German text to see which words each English word attended to."
# One sentence for someone who has never heard of attention.
EXPLANATION = (
    "Each row is an English word, each column a German word: the brighter a cell, the more "
    "the model looked at that German word while writing that English word."
)
# Marks the layer and head the text boxes' highlights use (short: the box shows it whole;
# the tooltips say it in full).
USED = "highlights"


ZOOMS = (("Fit", 0), ("100 %", 16), ("150 %", 24), ("200 %", 32))  # pixels per cell


# Sentences whose per-layer attention the panel keeps (a few MB for long sentences).
EXPLAINED_KEPT = 32


class AlignmentPanel(QWidget):
    """Shows one :class:`Translation`'s attention. ``exported(path)`` after an export."""

    exported = Signal(str)
    problem = Signal(str)
    # The user picked a layer or head that the shown translation lacks (translations come
    # with the alignment only): answer with add_explained().
    layers_wanted = Signal(object)
    # A right-click on a German column (or its label): look the word up (the dictionary).
    word_lookup = Signal(str)
    # The panel's height that would show the drawn map whole at its zoom, when that is
    # more than it has: the window may give it the room (see MainWindow).
    room_wanted = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Alignment panel")
        self.translation: Translation | None = None
        self.corrected = False  # the user corrected the shown English (see set_corrected)
        self.matrix = np.zeros((0, 0), dtype=np.float32)  # pieces, the chosen layer/head
        self.view: HeatmapView | None = None  # what is drawn
        self.current_row: int | None = None  # English piece under the cursor
        self.current_col: int | None = None  # German piece under the cursor
        self._default_view: tuple[int | None, int] = (None, AVERAGE)  # the alignment's
        # Translations with every layer's attention, by the id of the one shown without.
        self._explained: OrderedDict[int, tuple[Translation, Translation]] = OrderedDict()
        self._asked: OrderedDict[int, Translation] = OrderedDict()  # asked, not answered
        self._build_canvas()
        self._build_controls()
        self._lay_out()
        self.set_model_shape(0, 0, 0)

    def _build_canvas(self) -> None:
        """The title, the explanation and the scrolled matplotlib canvas."""
        self._draw_timer = QTimer(self)
        self._draw_timer.setSingleShot(True)
        self._draw_timer.timeout.connect(self._draw)
        self.figure = Figure(figsize=(5, 4), dpi=DPI, layout="constrained")
        self.canvas = FigureCanvasQTAgg(self.figure)
        self.canvas.setAccessibleName("Attention heatmap")
        self.canvas.setMinimumSize(160, 80)  # the panel may shrink: the text comes first
        self.canvas.mpl_connect("button_press_event", self._on_press)
        self.scroll = QScrollArea()
        self.scroll.setAccessibleName("Heatmap area")
        self.scroll.setWidgetResizable(True)
        # Always there: a bar that came and went with the sentence narrowed the map and
        # drew it once more each time.
        self.scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.scroll.setWidget(self.canvas)
        # Matplotlib's canvas takes the mouse wheel for itself; here it scrolls the map.
        self.canvas.installEventFilter(self)
        # The colour scale beside the scrolled map, not on it: on a tall map it was cut.
        self.legend = FigureCanvasQTAgg(Figure(figsize=(0.7, 2.2), dpi=DPI))
        self.legend.setAccessibleName("Colour scale of the heatmap")
        self.legend.setFixedWidth(70)
        self.legend.setMinimumHeight(60)
        self.legend.setMaximumHeight(220)  # as tall as the view, to this
        self.legend.setToolTip("Attention from 0 (dark) to 1 (bright)")
        self._legend_colours: tuple[str, str] | None = None
        self.legend.hide()
        self.title = QLabel(PLACEHOLDER)
        self.title.setWordWrap(True)
        self._title = PLACEHOLDER  # whole; a low panel shows it on one line, elided
        self.explanation = QLabel(EXPLANATION)
        self.explanation.setWordWrap(True)
        self.explanation.setAccessibleName("What the heatmap shows")

    def _build_controls(self) -> None:
        """Layer, head, pieces, zoom and export; each redraws the map when changed."""
        self.layer_box = QComboBox()
        self.layer_box.setAccessibleName("Attention layer")
        self.layer_box.setToolTip(
            "The model reads the German in several layers, one after another; each has its "
            "own picture. The one marked (highlights) is what the text boxes' highlights use."
        )
        self.head_box = QComboBox()
        self.head_box.setAccessibleName("Attention head")
        self.head_box.setSizeAdjustPolicy(QComboBox.AdjustToContents)
        self.layer_box.setSizeAdjustPolicy(QComboBox.AdjustToContents)
        self.head_box.setToolTip(
            "Each layer looks at the German in several ways at once (heads); 'all heads' "
            "shows them together. The one marked (highlights) is what the text boxes' highlights "
            "use."
        )
        self.pieces_box = QCheckBox("Show model pieces")
        self.pieces_box.setAccessibleName("Show subword pieces instead of words")
        self.pieces_box.setToolTip(
            "Show the pieces the model splits words into (▁ marks a word start, </s> the "
            "end of the sentence) instead of whole words"
        )
        self.zoom_box = QComboBox()
        self.zoom_box.setAccessibleName("Heatmap zoom")
        self.zoom_box.setToolTip("Size of the cells; 'Fit' fits the whole sentence in the panel")
        for label, cell in ZOOMS:
            self.zoom_box.addItem(label, cell)
        self.zoom_box.setCurrentIndex(1)  # readable labels; long sentences scroll
        self.export_button = QPushButton("Export…")
        self.export_button.setEnabled(False)  # until a heatmap is drawn
        self.export_button.setAccessibleName("Export heatmap as PNG or SVG")
        self.export_button.setToolTip("Save this picture as PNG or SVG")
        self.export_button.clicked.connect(self.export_dialog)
        self.layer_box.currentIndexChanged.connect(lambda _: self.redraw())
        self.head_box.currentIndexChanged.connect(lambda _: self.redraw())
        self.pieces_box.toggled.connect(lambda _: self.redraw())
        self.zoom_box.currentIndexChanged.connect(lambda _: self.redraw())

    def _lay_out(self) -> None:
        # One row where the panel is wide enough, else two short rows: two panels side
        # by side (the Teach dialog's comparison) must still fit an 800-pixel screen, and
        # on a low screen every row given to controls is taken from the map.
        which = QHBoxLayout()
        for text, box in (("Layer", self.layer_box), ("Head", self.head_box)):
            label = QLabel(text)
            label.setBuddy(box)
            label.setToolTip(box.toolTip())  # the words say what a layer and a head are
            which.addWidget(label)
            which.addWidget(box)
        which.addStretch(1)
        look = QHBoxLayout()
        look.addWidget(self.pieces_box)
        look.addWidget(QLabel("Zoom"))
        look.addWidget(self.zoom_box)
        look.addStretch(1)
        look.addWidget(self.export_button)
        self.controls = QBoxLayout(QBoxLayout.TopToBottom)
        self.controls.addLayout(which)
        self.controls.addLayout(look)
        self._rows = (which, look)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.explanation)
        layout.addLayout(self.controls)
        beside = QHBoxLayout()
        beside.addWidget(self.scroll, 1)
        beside.addWidget(self.legend, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(beside, 1)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        """Controls in one row where they fit; on a low panel the explanation moves
        into the tooltips of the title and the map, so that the map keeps its rows."""
        wide = sum(r.sizeHint().width() for r in self._rows) + 40 <= event.size().width()
        direction = QBoxLayout.LeftToRight if wide else QBoxLayout.TopToBottom
        if self.controls.direction() != direction:
            self.controls.setDirection(direction)
        low = event.size().height() < LOW_PANEL_PX
        self.explanation.setVisible(not low)
        for widget in (self.title, self.scroll):
            widget.setToolTip(EXPLANATION if low else "")
        self.title.setWordWrap(not low)
        self._show_title(event.size().width())
        super().resizeEvent(event)
        if not self.zoom_box.currentData() and self.view is not None:
            self._draw_timer.start(DRAW_DELAY_MS)  # "Fit" fits the new size

    def _show_title(self, width: int) -> None:
        """The title whole where it may wrap, else on one line elided to ``width``."""
        text = self._title
        if not self.title.wordWrap():
            margins = self.layout().contentsMargins()
            room = width - margins.left() - margins.right()
            text = self.title.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, room)
        self.title.setText(text)
        if text != self._title:
            self.title.setToolTip(f"{self._title}\n\n{EXPLANATION}")

    @property
    def title_text(self) -> str:
        """The title whole, however much of it the panel shows."""
        return self._title

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if obj is self.canvas and event.type() == QEvent.Type.Wheel:
            horizontal = event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            bar = (
                self.scroll.horizontalScrollBar() if horizontal else self.scroll.verticalScrollBar()
            )
            steps = event.angleDelta().y() / 120 or event.angleDelta().x() / 120
            bar.setValue(bar.value() - int(steps * bar.singleStep() * 3))
            return True
        return super().eventFilter(obj, event)

    # ------------------------------------------------------------ model shape
    def set_model_shape(
        self, layers: int, heads: int, alignment_layer: int, alignment_head: int = AVERAGE
    ) -> None:
        """Fill the selectors for a model (layers == 0: an RNN, one attention); the model's
        alignment layer and head (AVERAGE: the heads' mean) are selected and marked."""
        self._default_view = (alignment_layer, alignment_head) if layers else (None, AVERAGE)
        self._explained.clear()
        self._asked.clear()
        for box in (self.layer_box, self.head_box):
            box.blockSignals(True)
            box.clear()
        if layers:
            mark = f" ({USED})"
            for i in range(layers):
                suffix = mark if i == alignment_layer else ""
                self.layer_box.addItem(f"{i + 1} of {layers}{suffix}", i)
            self.layer_box.setCurrentIndex(alignment_layer)
            self.head_box.addItem(
                "all heads" + (mark if alignment_head == AVERAGE else ""), AVERAGE
            )
            for h in range(heads):
                self.head_box.addItem(f"{h + 1}{mark if h == alignment_head else ''}", h)
            self.head_box.setCurrentIndex(max(0, self.head_box.findData(alignment_head)))
        else:
            self.layer_box.addItem("decoder attention", None)
            self.head_box.addItem("—", AVERAGE)
        for box in (self.layer_box, self.head_box):
            box.setEnabled(bool(layers))
            box.blockSignals(False)
        self.redraw()

    # ------------------------------------------------------------------ data
    def show_translation(
        self, translation: Translation | None, row: int | None = None, col: int | None = None
    ) -> None:
        """Show ``translation`` with English piece ``row`` or German piece ``col``
        outlined. The matrix is ready at once; the picture is drawn when the mouse rests
        (see :meth:`redraw`)."""
        if translation is not None and id(translation) in self._explained:
            translation = self._explained[id(translation)][1]
        if translation is self.translation and (row, col) == (self.current_row, self.current_col):
            return  # nothing changed: no redraw
        if translation is not self.translation:
            self.corrected = False  # a new translation is the model's own again
        self.translation, self.current_row, self.current_col = translation, row, col
        self.redraw()

    def set_corrected(self, corrected: bool) -> None:
        """The user corrected the shown sentence's English: the title says that the map
        is of the model's translation (the model never attended for the user's words)."""
        self.corrected = corrected
        self.redraw()

    def redraw(self) -> None:
        """Update the matrix now and draw it after ``DRAW_DELAY_MS`` without a newer
        change: drawing a heatmap costs the GUI thread 50 ms to most of a second, and a
        mouse sweeping over the text must not pay it at every move."""
        t = self.translation
        if t is None or t.best is None:
            self.matrix, self.view = np.zeros((0, 0), dtype=np.float32), None
        else:
            layer, head = self.layer_box.currentData(), self._head()
            if t.best.layers is None and (layer, head) != self._default_view:
                if id(t) not in self._asked:  # once: the answer comes in milliseconds
                    self._asked[id(t)] = t
                    while len(self._asked) > EXPLAINED_KEPT:
                        self._asked.popitem(last=False)
                    self.layers_wanted.emit(t)
                return
            self.matrix = attention_matrix(t, layer, head)
            self.view = heatmap_view(t, self.matrix, words=not self.pieces_box.isChecked())
        self._draw_timer.start(DRAW_DELAY_MS)

    def add_explained(self, original: Translation, explained: Translation) -> None:
        """Keep ``explained`` (``original`` with every layer's attention) to show in its
        place from now on; redraw if ``original`` is the one shown."""
        self._explained[id(original)] = (original, explained)  # holds original: ids stay
        while len(self._explained) > EXPLAINED_KEPT:
            self._explained.popitem(last=False)
        self._asked.pop(id(original), None)
        if self.translation is original:
            self.translation = explained
            self.redraw()

    def flush(self) -> None:
        """Draw a pending change now (before an export, in tests)."""
        if self._draw_timer.isActive():
            self._draw_timer.stop()
            self._draw()

    @property
    def has_heatmap(self) -> bool:
        return self.translation is not None and self.translation.best is not None

    def marks(self) -> tuple[int | None, int | None]:
        """The (row, column) of the drawn matrix that the cursor's word is in."""
        v = self.view
        if v is None:
            return None, None
        row = index_of(v.row_of_piece, self.current_row)
        return row, index_of(v.col_of_piece, self.current_col)

    def _draw(self) -> None:
        pal = self.palette()
        t = self.translation
        shown = self.has_heatmap
        self.export_button.setEnabled(shown)
        title = f"“{_shorten(t.source)}” → “{_shorten(t.text)}”" if shown else PLACEHOLDER
        if shown and self.corrected:
            title += " (the model's translation: you corrected it in the English box)"
        self._title = title
        self._show_title(self.width())
        zoom = self.zoom_box.currentData() or 0
        view = self.view
        if view is None:
            size, cell = QSize(160, 80), 16
        else:
            viewport = self.scroll.viewport().size()
            cell = zoom or fit_cell(view, viewport.width(), viewport.height())
            size = QSize(*map_size(view, cell))
        if self.canvas.minimumSize() != size:  # a resize redraws: only when it changes
            self.canvas.setMinimumSize(size)
        bg = pal.color(QPalette.ColorRole.Window).name()
        fg = pal.color(QPalette.ColorRole.WindowText).name()
        plot_heatmap(
            self.figure, view, self.marks(), bg=bg, fg=fg, fontsize=font_for(cell), colorbar=False
        )
        self.canvas.draw_idle()
        self._draw_legend(shown, bg, fg)
        if view is not None and zoom:
            wanted = self._height_for(size)
            # Not for a few pixels: each resize draws the map again, and a scroll bar
            # shown and hidden drew it four times.
            if wanted - self.height() >= cell // 2:
                self.room_wanted.emit(wanted)

    def _draw_legend(self, shown: bool, bg: str, fg: str) -> None:
        """The colour scale, drawn again only when the theme's colours change."""
        self.legend.setVisible(shown)
        if shown and self._legend_colours != (bg, fg):
            self._legend_colours = (bg, fg)
            plot_colorbar(self.legend.figure, bg, fg)
            self.legend.draw_idle()

    def _height_for(self, canvas: QSize) -> int:
        """The panel's height at which the scroll area shows a canvas of ``canvas`` whole
        (with the horizontal scroll bar, where the canvas is wider than the view)."""
        viewport = self.scroll.viewport().size()
        bar = self.scroll.horizontalScrollBar().sizeHint().height()
        wide = canvas.width() > viewport.width()
        return self.height() - viewport.height() + canvas.height() + (bar if wide else 0)

    def column_at(self, x: float, y: float) -> int | None:
        """The German column under display point (x, y) of the canvas, on the map or on
        its label above it; None elsewhere."""
        if self.view is None or not self.figure.axes or not self.view.cols:
            return None
        ax = self.figure.axes[0]
        col_x, _ = ax.transData.inverted().transform((x, y))
        col = round(col_x)
        _, top = ax.transAxes.transform((0, 1))
        _, bottom = ax.transAxes.transform((0, 0))
        if not 0 <= col < len(self.view.cols) or y < bottom:
            return None
        return col if y <= top + 0.4 * self.figure.bbox.height else None

    def _on_press(self, event) -> None:
        if event.button != 3:  # the right button
            return
        col = self.column_at(event.x, event.y)
        if col is not None and any(ch.isalpha() for ch in self.view.cols[col]):
            self.word_lookup.emit(self.view.cols[col])

    def shown_view(self) -> str:
        """Which attention the map shows, in the panel's words: "Layer 3 of 4
        (highlights), all heads (highlights)"."""
        head = self.head_box.currentText()
        if head[:1].isdigit():
            head = f"head {head}"
        return f"Layer {self.layer_box.currentText()}, {head}"

    def _head(self) -> int:
        data = self.head_box.currentData()
        return AVERAGE if data is None else int(data)

    # ---------------------------------------------------------------- export
    def export(self, path: str) -> None:
        """Save the heatmap as an image (PNG or SVG by the suffix): drawn afresh on its own
        figure, with the sentence as its title and without the cursor's marks, so the
        panel's own figure is never touched by the export."""
        self.flush()
        if not self.has_heatmap or self.view is None:
            raise ValueError("there is no heatmap to export yet")
        t = self.translation
        rows, cols = self.view.matrix.shape
        width = max(5.0, 2 + 0.3 * cols)
        figure = Figure(figsize=(width, max(4.0, 2.5 + 0.3 * rows)))
        figure.set_layout_engine("constrained")
        plot_heatmap(figure, self.view, (None, None), bg="white", fg="black")
        shown = self.shown_view()
        # The whole sentence pair, wrapped to the figure's width (about 11 characters an
        # inch at 9 pt), and which layer and head the picture is of.
        wrap = max(40, int(width * 11))
        lines = [
            *textwrap.wrap(f"“{t.source}”", wrap),
            *textwrap.wrap(f"→ “{t.text}”", wrap),
            shown,
        ]
        figure.suptitle("\n".join(lines), fontsize=9)
        metadata = {
            "Title": f"Attention: {t.source} -> {t.text}",
            "Description": f"German -> English alignment heatmap; {shown}",
        }
        if Path(path).suffix.lower() != ".svg":  # a PNG key that SVG's metadata lacks
            metadata["Software"] = "translator-app"
        figure.savefig(path, facecolor="white", metadata=metadata)
        self.exported.emit(path)

    def export_dialog(self) -> None:
        if not self.has_heatmap:
            self.problem.emit("There is no heatmap to export yet: type some German first")
            return
        path, _ = QFileDialog.getSaveFileName(
            self,
            "Export heatmap",
            str(Path(documents_dir()) / "alignment.png"),
            "PNG image (*.png);;SVG image (*.svg)",
        )
        if path:
            try:
                self.export(path)
            except (OSError, ValueError) as e:
                self.problem.emit(f"Could not export the heatmap to {path}: {e}")


# Below this height the panel shows the explanation as a tooltip, not a line of its own.
LOW_PANEL_PX = 260


def _shorten(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"

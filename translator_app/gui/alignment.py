"""The alignment panel: the attention heatmap of the sentence under the cursor.

Rows are English pieces, columns German pieces, with a colour bar. For a Transformer a
layer/head selector picks what is shown (default: the engine's alignment layer, heads
averaged, which is also what the search returns as "the" attention). The picture can be
exported as PNG or SVG; the row of the English piece under the cursor is outlined, so the
alignment can be followed from the keyboard.
"""

from __future__ import annotations

import numpy as np
from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
from matplotlib.figure import Figure
from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from translator_app.core import Translation

AVERAGE = -1
DRAW_DELAY_MS = 40
PLACEHOLDER = "Type German text to see which words each English word attended to."


def display_piece(piece: str) -> str:
    return piece.replace("\u2581", "\u2423") if piece != "</s>" else "</s>"


def attention_matrix(translation: Translation, layer: int | None, head: int) -> np.ndarray:
    """[target pieces, source pieces] for the chosen layer/head (None: the default)."""
    cand = translation.best
    if cand is None:
        return np.zeros((0, len(translation.source_pieces)), dtype=np.float32)
    if layer is None or cand.layers is None:
        return np.asarray(cand.attention)
    per_layer = cand.layers[:, layer]  # [T, H, S]
    return per_layer.mean(axis=1) if head == AVERAGE else per_layer[:, head]


class AlignmentPanel(QWidget):
    """Shows one :class:`Translation`'s attention. ``exported(path)`` after an export."""

    exported = Signal(str)
    problem = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Alignment panel")
        self.translation: Translation | None = None
        self.matrix = np.zeros((0, 0), dtype=np.float32)
        self.current_row: int | None = None
        self._default_layer = 0

        self._draw_timer = QTimer(self)
        self._draw_timer.setSingleShot(True)
        self._draw_timer.timeout.connect(self._draw)
        self.figure = Figure(figsize=(5, 4), layout="constrained")
        self.canvas = FigureCanvasQTAgg(self.figure)
        self.canvas.setAccessibleName("Attention heatmap")
        self.canvas.setMinimumSize(160, 80)  # the panel may shrink: the text comes first
        self.title = QLabel(PLACEHOLDER)
        self.title.setWordWrap(True)
        self.layer_box = QComboBox()
        self.layer_box.setAccessibleName("Attention layer")
        self.head_box = QComboBox()
        self.head_box.setAccessibleName("Attention head")
        self.head_box.setSizeAdjustPolicy(QComboBox.AdjustToContents)
        self.export_button = QPushButton("Export…")
        self.export_button.setAccessibleName("Export heatmap as PNG or SVG")
        self.export_button.clicked.connect(self.export_dialog)
        self.layer_box.currentIndexChanged.connect(lambda _: self.redraw())
        self.head_box.currentIndexChanged.connect(lambda _: self.redraw())

        controls = QHBoxLayout()
        controls.addWidget(QLabel("Layer"))
        controls.addWidget(self.layer_box)
        controls.addWidget(QLabel("Head"))
        controls.addWidget(self.head_box)
        controls.addStretch(1)
        controls.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addLayout(controls)
        layout.addWidget(self.canvas, 1)
        self.set_model_shape(0, 0, 0)

    # ------------------------------------------------------------ model shape
    def set_model_shape(self, layers: int, heads: int, alignment_layer: int) -> None:
        """Fill the selectors for a model (layers == 0: an RNN, one attention)."""
        self._default_layer = alignment_layer
        for box in (self.layer_box, self.head_box):
            box.blockSignals(True)
            box.clear()
        if layers:
            for i in range(layers):
                suffix = " (alignment)" if i == alignment_layer else ""
                self.layer_box.addItem(f"{i + 1}{suffix}", i)
            self.layer_box.setCurrentIndex(alignment_layer)
            self.head_box.addItem("average", AVERAGE)
            for h in range(heads):
                self.head_box.addItem(str(h + 1), h)
        else:
            self.layer_box.addItem("decoder attention", None)
            self.head_box.addItem("—", AVERAGE)
        for box in (self.layer_box, self.head_box):
            box.setEnabled(bool(layers))
            box.blockSignals(False)
        self.redraw()

    # ------------------------------------------------------------------ data
    def show_translation(self, translation: Translation | None, row: int | None = None) -> None:
        """Show ``translation`` with English piece ``row`` outlined. The matrix is ready at
        once; the picture is drawn when the mouse rests (see :meth:`redraw`)."""
        if translation is self.translation and row == self.current_row:
            return  # nothing changed: no redraw
        self.translation, self.current_row = translation, row
        self.redraw()

    def redraw(self) -> None:
        """Update the matrix now and draw it after ``DRAW_DELAY_MS`` without a newer
        change: drawing a heatmap costs the GUI thread 50 ms to most of a second, and a
        mouse sweeping over the text must not pay it at every move."""
        t = self.translation
        if t is None or t.best is None:
            self.matrix = np.zeros((0, 0), dtype=np.float32)
        else:
            self.matrix = attention_matrix(t, self.layer_box.currentData(), self._head())
        self._draw_timer.start(DRAW_DELAY_MS)

    def flush(self) -> None:
        """Draw a pending change now (before an export, in tests)."""
        if self._draw_timer.isActive():
            self._draw_timer.stop()
            self._draw()

    @property
    def has_heatmap(self) -> bool:
        return self.translation is not None and self.translation.best is not None

    def _draw(self) -> None:
        pal = self.palette()
        t = self.translation
        shown = self.has_heatmap
        self.export_button.setEnabled(shown)
        self.title.setText(
            f"“{_shorten(t.source)}” → “{_shorten(t.text)}”" if shown else PLACEHOLDER
        )
        plot_heatmap(
            self.figure,
            t,
            self.matrix,
            self.current_row,
            bg=pal.color(QPalette.ColorRole.Window).name(),
            fg=pal.color(QPalette.ColorRole.WindowText).name(),
        )
        self.canvas.draw_idle()

    def _head(self) -> int:
        data = self.head_box.currentData()
        return AVERAGE if data is None else int(data)

    # ---------------------------------------------------------------- export
    def export(self, path: str) -> None:
        """Save the heatmap as an image (PNG or SVG by the suffix): drawn afresh on its own
        figure, with the sentence as its title and without the cursor's row marks, so the
        panel's own figure is never touched by the export."""
        self.flush()
        if not self.has_heatmap:
            raise ValueError("there is no heatmap to export yet")
        t = self.translation
        rows, cols = self.matrix.shape
        figure = Figure(figsize=(max(5.0, 2 + 0.25 * cols), max(4.0, 2 + 0.25 * rows)))
        figure.set_layout_engine("constrained")
        plot_heatmap(figure, t, self.matrix, None, bg="white", fg="black")
        figure.suptitle(f"“{_shorten(t.source, 90)}” → “{_shorten(t.text, 90)}”", fontsize=9)
        figure.savefig(path, facecolor="white")
        self.exported.emit(path)

    def export_dialog(self) -> None:
        if not self.has_heatmap:
            self.problem.emit("There is no heatmap to export yet: type some German first")
            return
        path, _ = QFileDialog.getSaveFileName(
            self, "Export heatmap", "alignment.png", "PNG image (*.png);;SVG image (*.svg)"
        )
        if path:
            try:
                self.export(path)
            except (OSError, ValueError) as e:
                self.problem.emit(f"Could not export the heatmap to {path}: {e}")


def plot_heatmap(
    fig: Figure, t: Translation | None, matrix: np.ndarray, row: int | None, bg: str, fg: str
) -> None:
    """Draw ``matrix`` ([English pieces, German pieces]) of ``t`` on ``fig`` (cleared
    first; nothing but the background when there is no translation), with English piece
    ``row`` marked."""
    fig.clear()
    fig.set_facecolor(bg)
    if t is None or t.best is None:
        return
    ax = fig.add_subplot(111)
    ax.set_facecolor(bg)
    image = ax.imshow(matrix, aspect="auto", cmap="viridis", vmin=0.0, vmax=1.0)
    src = [display_piece(p) for p in t.source_pieces]
    tgt = [display_piece(p) for p in t.best.target_pieces]
    ax.set_xticks(range(len(src)), src, rotation=60, ha="right", fontsize=8, color=fg)
    ax.set_yticks(range(len(tgt)), tgt, fontsize=8, color=fg)
    ax.tick_params(colors=fg)
    for spine in ax.spines.values():
        spine.set_color(fg)
    if row is not None and 0 <= row < len(tgt):
        ax.axhline(row - 0.5, color="#ff5555", linewidth=1.5)
        ax.axhline(row + 0.5, color="#ff5555", linewidth=1.5)
    bar = fig.colorbar(image, ax=ax, fraction=0.05)
    bar.ax.tick_params(colors=fg, labelsize=8)
    ax.set_xlabel("German pieces", color=fg)
    ax.set_ylabel("English pieces", color=fg)


def _shorten(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"

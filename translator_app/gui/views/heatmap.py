"""The alignment heatmap without its widget: which matrix is shown (a layer and head, or
the alignment), merged from model pieces into words, and drawn with matplotlib on any
figure (the panel's canvas, or a PNG/SVG export). No Qt here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize
from matplotlib.figure import Figure

from translator_app.core.engine.translation import Translation, word_alignment
from translator_app.core.text.tokenizer import EOS_PIECE, PIECE_MARK

AVERAGE = -1  # the heads' mean, as a head
CMAP = "viridis"
DPI = 100  # a figure's dots per inch: its pixels are the widget's logical pixels
# Cells in pixels: "Fit" chooses between these, so that a label is never taller than its
# row (a label's font is half its cell, in points) and the cells stay sharp.
MIN_CELL, MAX_CELL = 10, 32
LABEL_ANGLE = 60  # the German labels' slant, in degrees
CHAR_EM = 0.62  # a label character's width in ems (DejaVu Sans, the widest in use)


def display_piece(piece: str) -> str:
    return piece.replace(PIECE_MARK, "\u2423") if piece != EOS_PIECE else EOS_PIECE


@dataclass(frozen=True)
class HeatmapView:
    """What is drawn: a matrix with its row and column labels, and for each target and
    source piece the row or column it is drawn in (-1: not drawn)."""

    matrix: np.ndarray
    rows: tuple[str, ...]
    cols: tuple[str, ...]
    row_of_piece: tuple[int, ...]
    col_of_piece: tuple[int, ...]


def heatmap_view(t: Translation, matrix: np.ndarray, words: bool = True) -> HeatmapView:
    """``matrix`` ([target pieces, source pieces]) as drawn: by words or by pieces."""
    cand = t.best
    if not words:
        n_t, n_s = len(cand.target_pieces), len(t.source_pieces)
        return HeatmapView(
            matrix,
            tuple(display_piece(p) for p in cand.target_pieces),
            tuple(display_piece(p) for p in t.source_pieces),
            tuple(range(n_t)),
            tuple(range(n_s)),
        )
    words = word_alignment(t.source, t.source_pieces, t.source_spans, cand, matrix)
    return HeatmapView(
        words.attention,
        words.english,
        words.german,
        _owner(words.english_pieces, len(cand.target_pieces)),
        _owner(words.german_pieces, len(t.source_pieces)),
    )


def _owner(groups: tuple[tuple[int, ...], ...], n: int) -> tuple[int, ...]:
    owner = [-1] * n
    for g, members in enumerate(groups):
        for i in members:
            owner[i] = g
    return tuple(owner)


def attention_matrix(translation: Translation, layer: int | None, head: int) -> np.ndarray:
    """[target pieces, source pieces] for the chosen layer/head (None: the default)."""
    cand = translation.best
    if cand is None:
        return np.zeros((0, len(translation.source_pieces)), dtype=np.float32)
    if layer is None or cand.layers is None:
        return np.asarray(cand.attention)
    per_layer = cand.layers[:, layer]  # [T, H, S]
    return per_layer.mean(axis=1) if head == AVERAGE else per_layer[:, head]


def font_for(cell: int) -> int:
    """The labels' font size in points for cells of ``cell`` pixels: 16 → 8."""
    return max(5, min(16, cell // 2))


def map_size(view: HeatmapView, cell: int) -> tuple[int, int]:
    """(width, height) in pixels of a figure that draws ``view`` with cells of ``cell``
    pixels and its labels whole: the German labels slanted above, the English ones on
    the left, the corner label above those. An estimate from the longest labels (a
    character is ``CHAR_EM`` wide); the layout engine places them within it."""
    em = font_for(cell) * DPI / 72  # pixels
    slant = math.radians(LABEL_ANGLE)
    german = CHAR_EM * em * max((len(c) for c in view.cols), default=0)
    english = CHAR_EM * em * max((len(r) for r in view.rows), default=0)
    corner = 2.6 * (em + 1.4)  # two lines, one point larger, bold
    top = max(german * math.sin(slant) + em * math.cos(slant), corner) + 12
    left = max(english, CHAR_EM * (em + 1.4) * len("English ↓")) + 16
    right = german * math.cos(slant) + 8  # the last German label leans out to the right
    rows, cols = view.matrix.shape
    return math.ceil(left + cols * cell + right), math.ceil(top + rows * cell + 8)


def fit_cell(view: HeatmapView, width: int, height: int) -> int:
    """The largest cell (``MIN_CELL``..``MAX_CELL`` pixels) whose map fits ``width`` ×
    ``height`` pixels; ``MIN_CELL`` where none does (the map then scrolls)."""
    for cell in range(MAX_CELL, MIN_CELL, -1):
        w, h = map_size(view, cell)
        if w <= width and h <= height:
            return cell
    return MIN_CELL


def plot_colorbar(fig: Figure, bg: str, fg: str) -> None:
    """The colour scale alone (0 to 1, the map's colours) on ``fig``: the panel shows it
    beside the scrolled map, so it is whole however the map is scrolled."""
    fig.clear()
    fig.set_facecolor(bg)
    ax = fig.add_axes((0.12, 0.04, 0.28, 0.92))
    bar = fig.colorbar(ScalarMappable(Normalize(0.0, 1.0), cmap=CMAP), cax=ax)
    bar.ax.tick_params(colors=fg, labelcolor=fg, labelsize=8)
    bar.outline.set_edgecolor(fg)


def plot_heatmap(
    fig: Figure,
    view: HeatmapView | None,
    marks: tuple[int | None, int | None],
    bg: str,
    fg: str,
    fontsize: int = 8,
    colorbar: bool = True,
) -> None:
    """Draw ``view`` on ``fig`` (cleared first; nothing but the background without a
    view or without rows or columns), with the cursor's row and column (``marks``) outlined and, where ``colorbar``,
    the colour scale beside it."""
    fig.clear()
    fig.set_facecolor(bg)
    if view is None or 0 in view.matrix.shape:  # no words on a side: nothing to draw
        return
    ax = fig.add_subplot(111)
    ax.set_facecolor(bg)
    # "nearest": a cell squeezed or stretched stays one colour, not a blur of its own
    # and its neighbours'.
    image = ax.imshow(
        view.matrix, aspect="auto", cmap=CMAP, vmin=0.0, vmax=1.0, interpolation="nearest"
    )
    # The German labels along the top: a long sentence's map is taller than the panel,
    # and labels at its foot were out of sight until the user scrolled.
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.set_xticks(
        range(len(view.cols)),
        view.cols,
        rotation=LABEL_ANGLE,
        ha="left",
        rotation_mode="anchor",
        fontsize=fontsize,
    )
    ax.set_yticks(range(len(view.rows)), view.rows, fontsize=fontsize)
    ax.tick_params(colors=fg, labelcolor=fg)
    for spine in ax.spines.values():
        spine.set_color(fg)
    row, col = marks
    if row is not None:
        ax.axhline(row - 0.5, color="#ff5555", linewidth=1.5)
        ax.axhline(row + 0.5, color="#ff5555", linewidth=1.5)
    if col is not None:
        ax.axvline(col - 0.5, color="#ff5555", linewidth=1.5)
        ax.axvline(col + 0.5, color="#ff5555", linewidth=1.5)
    if colorbar:
        bar = fig.colorbar(image, ax=ax, fraction=0.05)
        bar.ax.tick_params(colors=fg, labelsize=8)
    # One corner label for both axes, where neither the German labels (above) nor the
    # English ones (left) are: at the top of the map it is seen however the map is
    # scrolled; axis titles centred on a tall map were cut off ("lish").
    ax.text(
        -0.01,
        1.01,
        "English ↓\nGerman →",
        transform=ax.transAxes,
        ha="right",
        va="bottom",
        color=fg,
        fontsize=fontsize + 1,
        fontweight="bold",
    )


def index_of(owner: tuple[int, ...], piece: int | None) -> int | None:
    if piece is None or not 0 <= piece < len(owner) or owner[piece] < 0:
        return None
    return owner[piece]

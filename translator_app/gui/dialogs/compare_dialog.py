"""Model → Compare models (issue 51 §3): one German sentence translated by two models side
by side, each with its alignment heat-map. With the two bundled models it shows how the
RNN's one attention distribution per English word (Bahdanau et al.) aligns against the
Transformer's alignment layer, whose heads are averaged.

The models load and translate on one long-lived thread of the dialog's own (the main
window's worker keeps its model); the latest request wins and older answers are dropped
by request id. Each model is loaded once per dialog and used on that thread alone.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
from matplotlib.figure import Figure
from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from translator_app.core.text.segment import split_sentences
from translator_app.gui.shared.model_list import ModelEntry
from translator_app.gui.shared.screen import available_size, fit_resize, scrolling
from translator_app.gui.views.heatmap import attention_matrix, heatmap_view, plot_heatmap

if TYPE_CHECKING:  # the engine (PyTorch, CTranslate2) loads on the dialog's thread, on use
    from translator_app.core import Translation, Translator
    from translator_app.core.models.config import ModelConfig


@dataclass(frozen=True)
class ModelResult:
    """One model's answer: its translation of the sentence, or why there is none."""

    path: str
    architecture: str  # e.g. "RNN: bi-GRU encoder, additive attention"
    engine: str
    translation: Translation | None
    seconds: float
    error: str = ""


def architecture_of(cfg: ModelConfig) -> str:
    """What the heat-map shows, in a few words, from the model's configuration."""
    if cfg.arch == "transformer":
        _, heads, layer, head = cfg.attention_shape
        which = f"{heads} heads averaged" if head < 0 else f"head {head + 1} of {heads}"
        return (
            f"Transformer, {cfg.enc_layers}+{cfg.dec_layers} layers: cross-attention of "
            f"decoder layer {layer + 1}, {which}"
        )
    where = "" if cfg.locality == "global" else f", {cfg.locality} (window {cfg.window})"
    return (
        f"RNN: bi-{cfg.rnn_type.upper()} encoder, {cfg.attention} attention{where}: "
        "one distribution per English word"
    )


def sentence_at(text: str, cursor: int) -> str:
    """The sentence of ``text`` that holds ``cursor`` (else the first one)."""
    segments = split_sentences(text)
    for seg in segments:
        if seg.start <= cursor <= seg.end:
            return seg.text.strip()
    return segments[0].text.strip() if segments else ""


class CompareWorker(QObject):
    """Lives on the dialog's thread: loads each model once and translates with it."""

    done = Signal(int, object)  # request id, tuple[ModelResult, ...]

    def __init__(self, device: str) -> None:
        super().__init__()
        self.device = device
        self.loaded: dict[str, tuple[Translator, str]] = {}  # path: (translator, architecture)
        self.latest = 0  # set from the GUI thread; an int store is atomic under the GIL

    @Slot(int, str, object)
    def compare(self, request_id: int, sentence: str, paths: tuple[str, ...]) -> None:
        results = []
        for path in paths:
            if request_id != self.latest:
                return  # a newer request is queued: its answer is the one shown
            results.append(self._one(path, sentence))
        self.done.emit(request_id, tuple(results))

    def _one(self, path: str, sentence: str) -> ModelResult:
        start = time.perf_counter()
        try:
            if path not in self.loaded:
                from translator_app.core import Translator
                from translator_app.core.engine.bundle import load_bundle

                bundle = load_bundle(path, self.device, lazy=True)
                # "auto": the precision the main window loads with (int8 on the CPU)
                translator = Translator.from_bundle(bundle, "auto")
                self.loaded[path] = (translator, architecture_of(bundle.config))
            translator, architecture = self.loaded[path]
            (t,) = translator.translate([sentence])
            seconds = time.perf_counter() - start
            return ModelResult(path, architecture, translator.engine_name, t, seconds)
        except Exception as e:  # a damaged or foreign folder: said in its pane, not raised
            return ModelResult(path, "", "", None, 0.0, f"{type(e).__name__}: {e}")


PANE_MIN_WIDTH = 300  # a heat-map narrower than this is unreadable


class ModelPane(QWidget):
    """One side: a model chooser, what the model is, its English, its heat-map."""

    def __init__(self, entries: list[ModelEntry], chosen: int, name: str) -> None:
        super().__init__()
        self.setObjectName(name)
        self.models = QComboBox()
        for e in entries:
            self.models.addItem(e.label, e.path)
        self.models.setCurrentIndex(chosen)
        self.architecture = QLabel("")
        self.architecture.setWordWrap(True)
        self.english = QLabel("")
        self.english.setWordWrap(True)
        self.english.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.english.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        self.english.setFont(font)
        self.figure = Figure(figsize=(5, 4), layout="constrained")
        self.canvas = FigureCanvasQTAgg(self.figure)
        self.canvas.setMinimumSize(PANE_MIN_WIDTH, 220)
        box = QVBoxLayout(self)
        for w in (self.models, self.architecture, self.english):
            box.addWidget(w)
        box.addWidget(self.canvas, 1)

    @property
    def path(self) -> str:
        return self.models.currentData()

    def show_result(self, r: ModelResult) -> None:
        pal = self.palette()
        bg, fg = pal.color(QPalette.ColorRole.Window).name(), pal.color(QPalette.ColorRole.Text)
        if r.translation is None:
            self.architecture.setText("")
            self.english.setText(f"Could not translate with this model: {r.error}")
            plot_heatmap(self.figure, None, (None, None), bg, fg.name())
        else:
            t = r.translation
            self.architecture.setText(
                f"{r.architecture}. {r.engine}, {r.seconds * 1000:.0f} ms"
                " (the first sentence includes loading the model)"
            )
            # An empty English for a German sentence is said, never shown as a blank
            # (and has no words to draw a heat-map of).
            self.english.setText(t.text or "This model wrote no English for this sentence.")
            view = heatmap_view(t, attention_matrix(t, None, 0)) if t.text else None
            plot_heatmap(self.figure, view, (None, None), bg, fg.name())
        self.canvas.draw_idle()


def default_panes(entries: list[ModelEntry]) -> tuple[int, int]:
    """The bundled Transformer on the left and the bundled RNN on the right where both
    are there; else the first two models (or the one model twice)."""
    origins = [e.origin for e in entries]
    if "bundled" in origins and "bundled-rnn" in origins:
        return origins.index("bundled"), origins.index("bundled-rnn")
    return 0, min(1, len(entries) - 1)


class CompareDialog(QDialog):
    """A sentence, two model panes side by side, and a status line."""

    request = Signal(int, str, object)  # request id, sentence, model paths

    def __init__(
        self, sentence: str, entries: list[ModelEntry], device: str, parent: QWidget | None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Compare models")
        self.setObjectName("compare_dialog")
        fit_resize(self, 1100, 640)
        self.sentence = QLineEdit(sentence)
        self.sentence.setPlaceholderText("A German sentence")
        self.sentence.setAccessibleName("German sentence")
        self.translate_button = QPushButton("&Translate")
        left, right = default_panes(entries)
        self.panes = (ModelPane(entries, left, "left"), ModelPane(entries, right, "right"))
        self.status = QLabel("")
        top = QHBoxLayout()
        top.addWidget(QLabel("German:"))
        top.addWidget(self.sentence, 1)
        top.addWidget(self.translate_button)
        # Side by side where the screen is wide enough for two heat-maps, else one above
        # the other; the panes scroll, so the sentence and Translate stay in sight on a
        # 1024x640 screen at scale 2 (issue 61 §5: they were cut off).
        grid = QGridLayout()
        available = available_size(self)
        side_by_side = available is None or available[0] >= 2 * PANE_MIN_WIDTH + 120
        for i, pane in enumerate(self.panes):
            grid.addWidget(pane, 0 if side_by_side else i, i if side_by_side else 0)
        scroll = scrolling(grid)
        self.status.setWordWrap(True)
        box = QVBoxLayout(self)
        box.addLayout(top)
        box.addWidget(scroll, 1)
        box.addWidget(self.status)
        self.request_id = 0
        self.thread = QThread(self)
        self.worker = CompareWorker(device)
        self.worker.moveToThread(self.thread)
        self.request.connect(self.worker.compare)
        self.worker.done.connect(self._show)
        self.thread.start()
        self.sentence.returnPressed.connect(self.translate)
        self.translate_button.clicked.connect(self.translate)
        for pane in self.panes:
            pane.models.currentIndexChanged.connect(self.translate)
        self.translate()  # or, with no sentence yet, say what to do

    def set_sentence(self, sentence: str) -> None:
        if sentence.strip():
            self.sentence.setText(sentence)
            self.translate()

    def translate(self) -> None:
        sentence = self.sentence.text().strip()
        if not sentence:
            self.status.setText("Type a German sentence to compare the models on.")
            return
        self.request_id += 1
        self.worker.latest = self.request_id
        self.status.setText("Translating… (a model's first sentence also loads it)")
        self.request.emit(self.request_id, sentence, tuple(p.path for p in self.panes))

    @Slot(int, object)
    def _show(self, request_id: int, results: tuple[ModelResult, ...]) -> None:
        if request_id != self.request_id:
            return  # an answer to an older sentence or choice
        for pane, result in zip(self.panes, results, strict=True):
            pane.show_result(result)
        self.status.setText(
            "Brighter cells: where the model looked in the German sentence while it wrote "
            "each English word."
        )

    def stop(self, wait: bool = True) -> None:
        """End the dialog's thread after the model it is loading or translating with, if
        any; no answer is shown after this. ``wait``: block until it has ended (the main
        window's close), else return at once (closing the dialog: a first load of a
        model can take seconds, and the window must not freeze for it)."""
        self.worker.latest = -1  # a queued request, or the other model, returns at once
        if self.thread.isRunning():
            self.thread.quit()
            if wait:
                self.thread.wait()

    def dispose(self) -> None:
        """Delete the closed dialog once its thread has ended (at once where it has)."""
        self.thread.finished.connect(self.deleteLater)
        if not self.thread.isRunning():
            self.deleteLater()  # safe to call twice

    def done(self, result: int) -> None:  # Qt's: closing the dialog
        self.stop(wait=False)
        super().done(result)

"""The "Teach the model" dialog: choose data, fine-tune in a separate process with
progress and Cancel, then compare the base and the new model and keep, rename or delete
the new one. Three pages: data -> training -> result.
"""

from __future__ import annotations

import contextlib
import html
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from translator_app.core.data.corpus import finetune_split, heldout_size
from translator_app.core.data.corrections import CorrectionsStore
from translator_app.core.ipc.progress_lines import StepProgress
from translator_app.core.platform.paths import safe_name, user_cache_dir, user_models_dir
from translator_app.gui.shared.places import documents_dir
from translator_app.gui.shared.screen import fit_resize, scrolling_page
from translator_app.gui.teach.finetune_process import (
    DataPreview,
    FinetuneJob,
    FinetuneProcess,
    preview_data,
    remove_leftovers,
    rename_bundle,
)
from translator_app.gui.teach.teach_messages import progress_text, verdict
from translator_app.gui.teach.teach_options import TeachOptions
from translator_app.gui.teach.typed_pairs import TypedPairs
from translator_app.gui.views.alignment import AlignmentPanel

DATA_FILTER = "Parallel text (*.tsv *.de *.tmx *.gz *.xz);;All files (*)"


class TeachDialog(QDialog):
    model_added = Signal(str)  # a finished fine-tune's bundle path
    model_removed = Signal(str)
    use_model = Signal(str)
    preview_ready = Signal()  # what was read is shown (after each change of the files)
    _previewed = Signal(int, object)  # from the reading thread: request id, its result

    def __init__(self, base: str, base_name: str, corrections: CorrectionsStore, parent=None):
        super().__init__(parent)
        self.base, self.corrections = base, corrections
        self.preview: DataPreview | None = None
        # The files are read and filtered off the GUI thread (a large TMX must not freeze
        # the window); the newest request wins, older results are dropped by id.
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="teach-read")
        self._preview_id = 0
        self._previewed.connect(self._show_preview)
        self.run: FinetuneProcess | None = None
        self.new_path: Path | None = None
        self.heldout: list[tuple[str, str]] = []
        self.comparison: tuple = ()
        self.started_at = 0.0
        self.setWindowTitle("Teach the model")
        self.setAccessibleName("Teach the model")
        fit_resize(self, 900, 640)
        self.pages = QStackedWidget()
        self.pages.addWidget(self._data_page(base_name))
        self.pages.addWidget(self._training_page())
        self.pages.addWidget(self._result_page())
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages)
        self.refresh_preview()

    # ------------------------------------------------------------- page 1: data
    def _data_page(self, base_name: str) -> QWidget:
        page = QWidget()
        self.files = QListWidget()
        self.files.setAccessibleName("Data files")
        add = QPushButton("&Add files…")
        add.clicked.connect(self.add_files_dialog)
        remove = QPushButton("&Remove")
        remove.clicked.connect(self.remove_selected_files)
        self.use_corrections = QCheckBox(
            f"Use my corrections ({len(self.corrections.pairs)} pairs)"
        )
        self.use_corrections.setChecked(bool(self.corrections.pairs))
        self.use_corrections.setEnabled(bool(self.corrections.pairs))
        self.use_corrections.toggled.connect(lambda _: self.refresh_preview())
        self.typed = TypedPairs()
        self.typed.changed.connect(self.refresh_preview)
        self.summary = QPlainTextEdit()
        self.summary.setReadOnly(True)
        self.summary.setAccessibleName("What was read")
        form = self._options_form(base_name)
        self.start_button = QPushButton("&Start")
        self.start_button.clicked.connect(self.start)
        close = QPushButton("Close")
        close.clicked.connect(self.reject)

        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        bottom = QHBoxLayout()
        bottom.addStretch(1)
        bottom.addWidget(self.start_button)
        bottom.addWidget(close)
        layout = QVBoxLayout()
        intro = QLabel(
            "Parallel German–English text: TSV (German<TAB>English), a .de file with "
            "its .en partner, or TMX. A tenth of the pairs (at most 200) is kept apart "
            "to compare the base and the new model, and another tenth decides when "
            "training stops."
        )
        intro.setWordWrap(True)  # one long line forced the dialog wider than a screen
        layout.addWidget(intro)
        layout.addWidget(self.files, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.typed, 2)
        layout.addWidget(self.use_corrections)
        layout.addWidget(QLabel("What was read:"))
        layout.addWidget(self.summary, 1)
        layout.addLayout(form)
        return scrolling_page(page, layout, bottom)

    def _options_form(self, base_name: str) -> QFormLayout:
        """The options (teach_options.py), their widgets kept as the dialog's own."""
        form = TeachOptions(self.base, base_name)
        self.start_box, self.name_edit, self.effort = form.start_box, form.name_edit, form.effort
        self.epochs, self.learning_rate, self.device = form.epochs, form.learning_rate, form.device
        self.start_box.currentIndexChanged.connect(
            lambda _: setattr(self, "base", self.start_box.currentData())
        )
        self.base = self.start_box.currentData()
        return form

    def add_files(self, paths: list[str]) -> None:
        present = {self.files.item(i).text() for i in range(self.files.count())}
        for p in paths:
            if p not in present:
                self.files.addItem(p)
        self.refresh_preview()

    def add_files_dialog(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Parallel text", documents_dir(), DATA_FILTER)
        if paths:
            self.add_files(paths)

    def remove_selected_files(self) -> None:
        for item in self.files.selectedItems():
            self.files.takeItem(self.files.row(item))
        self.refresh_preview()

    def refresh_preview(self) -> None:
        """Read the chosen files again, in the reading thread; Start waits for it."""
        paths = [self.files.item(i).text() for i in range(self.files.count())]
        corrections = self.corrections.pairs if self.use_corrections.isChecked() else []
        self._preview_id += 1
        request = self._preview_id
        self.preview = None
        self.start_button.setEnabled(False)
        self.summary.setPlainText("Reading your files…")
        future = self._reader.submit(preview_data, paths, list(corrections), self.typed.pairs())
        future.add_done_callback(lambda f: self._hand_over(request, f))

    def _hand_over(self, request: int, future: Future) -> None:
        """In the reading thread: pass the result (or the error) to the GUI thread."""
        try:
            result = future.result()
        except Exception as e:  # noqa: BLE001 - shown in the dialog, never a traceback
            result = e
        with contextlib.suppress(RuntimeError):  # the dialog is gone
            self._previewed.emit(request, result)

    def _show_preview(self, request: int, result) -> None:
        if request != self._preview_id:
            return  # a newer choice of files is being read
        if isinstance(result, Exception):
            self.summary.setPlainText(f"Could not read the files: {result}")
            self.preview_ready.emit()
            return
        self.preview = result
        notes = "".join(f"\nTyped {p}" for p in self.typed.problems())
        problem = result.problem
        self.summary.setPlainText(result.summary() + notes + (f"\n\n{problem}" if problem else ""))
        self.start_button.setEnabled(not problem)
        self.preview_ready.emit()

    # --------------------------------------------------------- page 2: training
    def _training_page(self) -> QWidget:
        page = QWidget()
        self.bar = QProgressBar()
        self.bar.setAccessibleName("Fine-tuning progress")
        self.status = QLabel("Starting…")
        self.status.setWordWrap(True)
        self.status.setAccessibleName("Fine-tuning status")
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setAccessibleName("Trainer output")
        self.log.hide()  # the trainer's own words (steps, loss): for the curious only
        details = QCheckBox("Show the trainer's details")
        details.toggled.connect(self.log.setVisible)
        self.cancel_button = QPushButton("&Cancel")
        self.cancel_button.clicked.connect(self.cancel)
        layout = QVBoxLayout()
        layout.addWidget(self.bar)
        layout.addWidget(self.status)
        layout.addWidget(details)
        layout.addWidget(self.log, 1)
        layout.addStretch(0)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.cancel_button)
        return scrolling_page(page, layout, row)

    def start(self) -> None:
        if self.preview is None or self.preview.problem:
            return
        name = self.name_edit.text().strip() or "finetuned"
        safe = safe_name(name)
        out = user_models_dir() / safe
        if out.exists():
            self.summary.appendPlainText(f"\nA model named {safe} exists; choose another name.")
            return
        pairs = list(self.preview.pairs)
        train, stop, held = finetune_split(pairs, heldout_size(len(pairs)), seed=1)
        self.heldout = held
        job = FinetuneJob(
            base=self.base,
            out=out,
            work=user_cache_dir() / "teach" / safe,
            name=name,
            effort=self.effort.currentData(),
            epochs=self.epochs.value(),
            lr=self.learning_rate.currentData(),
            device=self.device.currentText(),
            train_pairs=tuple(train),
            heldout_pairs=tuple(held),
            stop_pairs=tuple(stop),
            origin=self.preview.origin() if self.preview else "",
        )
        self.run = FinetuneProcess(job, self)
        self.run.progress.connect(self._on_progress)
        self.run.output.connect(self.log.appendPlainText)
        self.run.finished.connect(self._on_finished)
        self.log.clear()
        self.status.setText(
            f"Teaching {Path(self.base).name} with {len(train)} sentence pairs; "
            f"{len(stop)} more decide when to stop and {len(held)} others, kept apart, "
            "check the result."
        )
        self.bar.setRange(0, 0)  # busy until the first step is reported
        self.started_at = time.monotonic()
        self.pages.setCurrentIndex(1)
        try:
            self.run.start()
        except OSError as e:
            self._on_finished(False, f"Could not start: {e}")

    def _on_progress(self, p: StepProgress) -> None:
        self.bar.setRange(0, p.total)
        self.bar.setValue(p.step)
        self.status.setText(progress_text(p.step, p.total, p.eta_s))

    def cancel(self) -> None:
        if self.run is not None:
            self.run.cancel()

    def _on_finished(self, ok: bool, text: str) -> None:
        if not ok:
            self.bar.setRange(0, 1)
            self.bar.setValue(0)
            self.status.setText(text)
            self.log.appendPlainText(text)
            self.cancel_button.setText("Back")
            self.cancel_button.clicked.disconnect()
            self.cancel_button.clicked.connect(self._back_to_data)
            return
        self.new_path = Path(text)
        self.model_added.emit(text)
        self._show_result()

    def _back_to_data(self) -> None:
        self.cancel_button.setText("&Cancel")
        self.cancel_button.clicked.disconnect()
        self.cancel_button.clicked.connect(self.cancel)
        self.pages.setCurrentIndex(0)

    # ----------------------------------------------------------- page 3: result
    def _result_page(self) -> QWidget:
        page = QWidget()
        self.result_label = QLabel()
        self.result_label.setWordWrap(True)
        self.scores = QTableWidget(2, 3)
        self.scores.setAccessibleName("Scores before and after")
        self.scores.setHorizontalHeaderLabels(["Model", "Score (BLEU)", "Score (chrF)"])
        self.scores.verticalHeader().setVisible(False)
        self.scores.setFixedHeight(104)
        self.sentence_box = QComboBox()
        self.sentence_box.setAccessibleName("Held-out sentence")
        self.sentence_box.currentIndexChanged.connect(self._show_sentence)
        self.base_text, self.new_text = QLabel(), QLabel()
        self.base_panel, self.new_panel = AlignmentPanel(), AlignmentPanel()
        self.base_panel.setAccessibleName("Base model heatmap")
        self.new_panel.setAccessibleName("New model heatmap")
        grid = QGridLayout()
        for col, (title, label, panel) in enumerate(
            (
                ("Base model", self.base_text, self.base_panel),
                ("New model", self.new_text, self.new_panel),
            )
        ):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextSelectableByMouse)
            grid.addWidget(QLabel(f"<b>{title}</b>"), 0, col)
            grid.addWidget(label, 1, col)
            grid.addWidget(panel, 2, col)
        self.rename_edit = QLineEdit()
        self.rename_edit.setAccessibleName("Rename the new model")
        rename = QPushButton("&Rename")
        rename.clicked.connect(lambda: self.rename(self.rename_edit.text()))
        delete = QPushButton("&Delete")
        delete.clicked.connect(self.delete_dialog)
        use = QPushButton("&Use this model")
        use.clicked.connect(self._use)
        keep = QPushButton("&Keep and close")
        keep.clicked.connect(self.accept)
        self.folder_buttons = (rename, delete, use)
        row = QHBoxLayout()
        row.addWidget(self.rename_edit, 1)
        row.addWidget(rename)
        row.addWidget(delete)
        row.addStretch(1)
        row.addWidget(use)
        row.addWidget(keep)
        layout = QVBoxLayout()
        layout.addWidget(self.result_label)
        layout.addWidget(self.scores)
        layout.addWidget(QLabel("Held-out sentences, translated by both models:"))
        layout.addWidget(self.sentence_box)
        layout.addLayout(grid, 1)
        return scrolling_page(page, layout, row)

    def _show_result(self) -> None:
        held = self.run.result.heldout if self.run and self.run.result else {}
        rows = (("Base", held.get("base", {})), ("New", held.get("finetuned", {})))
        for r, (label, s) in enumerate(rows):
            for c, text in enumerate(
                (label, f"{s.get('bleu', 0.0):.2f}", f"{s.get('chrf', 0.0):.2f}")
            ):
                self.scores.setItem(r, c, QTableWidgetItem(text))
        minutes = (time.monotonic() - self.started_at) / 60
        self.result_label.setText(
            f"New model <b>{html.escape(self.new_path.name)}</b> ({minutes:.1f} min). "
            f"Both models translated {held.get('pairs', len(self.heldout))} of your sentences "
            "that the new one did not learn from; the scores say how close each came to your "
            "English (higher is better). The new model is in the Model menu; the base model "
            "is unchanged.<br>"
            + verdict(
                held.get("base", {}).get("bleu"),
                held.get("finetuned", {}).get("bleu"),
                self.epochs.value(),
                held.get("summary", ""),
                held.get("sentences"),
            )
        )
        self.rename_edit.setText(self.new_path.name)
        self.sentence_box.clear()
        self.pages.setCurrentIndex(2)
        # The fine-tune translated the held-out sentences with both models already and
        # handed them over: no model is loaded again for the comparison.
        comparison = self.run.comparison if self.run else None
        if isinstance(comparison, str):
            self.result_label.setText(self.result_label.text() + f"<br>Comparison: {comparison}")
        elif comparison is not None:
            self.show_comparison(*comparison)

    def show_comparison(self, columns: dict, extra: dict) -> None:
        """Both models' translations of the held-out sentences, with their references."""
        shape = tuple(extra.get("shape") or (0, 0, 0, -1))
        for panel in (self.base_panel, self.new_panel):
            panel.set_model_shape(*shape)
        self.comparison = tuple(
            zip(columns["base"], columns["finetuned"], extra.get("references", []), strict=False)
        )
        self.sentence_box.clear()
        self.sentence_box.addItems([base.source for base, _, _ in self.comparison])

    def _show_sentence(self, index: int) -> None:
        if not 0 <= index < len(self.comparison):
            return
        *translations, reference = self.comparison[index]
        for (label, panel), t in zip(
            ((self.base_text, self.base_panel), (self.new_text, self.new_panel)),
            translations,
            strict=True,
        ):
            label.setText(f"{html.escape(t.text)}<br><i>reference: {html.escape(reference)}</i>")
            panel.show_translation(t)

    def rename(self, new_name: str) -> str:
        """Rename the new model's folder; returns a message for the user."""
        if self.new_path is None:
            return ""
        try:
            target = rename_bundle(self.new_path, new_name)
        except (OSError, ValueError) as e:
            message = f"Could not rename: {e}"
        else:
            old, self.new_path = self.new_path, target
            self.model_removed.emit(str(old))
            self.model_added.emit(str(target))
            message = f"Renamed to {target.name}"
        self.result_label.setText(message)
        return message

    def delete_dialog(self) -> None:
        answer = QMessageBox.question(
            self, "Delete the new model", f"Delete {self.new_path.name}? This cannot be undone."
        )
        if answer == QMessageBox.Yes:
            self.delete()

    def delete(self) -> None:
        if self.new_path is None:
            return
        remove_leftovers(self.new_path)
        self.model_removed.emit(str(self.new_path))
        self.new_path = None
        self.accept()

    def _use(self) -> None:
        if self.new_path is not None:
            self.use_model.emit(str(self.new_path))
        self.accept()

    def reject(self) -> None:
        if self.run is not None and self.pages.currentIndex() == 1:
            self.run.cancel()  # closing the dialog mid-run cancels it
        super().reject()

"""The main window: German in, English out, as you type; alignment panel; menus.

Everything slow happens in :class:`TranslationWorker`; this class only decides what to ask
for and shows what comes back. Each request gets a new id; a result whose id is not the
latest one is dropped, so a burst of typing shows only the last edit's translation.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from PySide6.QtCore import QByteArray, QEvent, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QColor,
    QFont,
    QGuiApplication,
    QKeySequence,
    QPalette,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from translator_app.core import bundled_model_dir
from translator_app.core.corrections import CorrectionsStore, describe_pairs, pairs_from_edit
from translator_app.core.paths import remove_orphans, user_cache_dir, user_data_dir, user_models_dir
from translator_app.core.tokenizer import PIECE_MARK
from translator_app.gui.alignment import AlignmentPanel
from translator_app.gui.corrections import CorrectionsDialog
from translator_app.gui.dialogs import (
    AboutDialog,
    HistoryDialog,
    ModelCardDialog,
    SettingsDialog,
    ShortcutsDialog,
    documents_dir,
)
from translator_app.gui.document import Document, Rendered, from_qt, render, to_qt
from translator_app.gui.history import History
from translator_app.gui.importer import FILE_FILTER, ModelImporter
from translator_app.gui.linking import (
    Link,
    alignment_pairs,
    alternatives,
    link_from_output,
    link_from_source,
    weak_coverage,
)
from translator_app.gui.models import ModelEntry, discover, is_bundle
from translator_app.gui.settings import Settings
from translator_app.gui.teach import TeachDialog
from translator_app.gui.worker import (
    GROUP_SIZES,
    LoadRequest,
    ModelInfo,
    TranslateRequest,
    TranslateResult,
    TranslationWorker,
    release_memory,
)

MAX_OPEN_BYTES = 5_000_000


class MainWindow(QMainWindow):
    translation_shown = Signal(str)  # the output text, each time a full translation shows

    def __init__(self, settings: Settings | None = None, model: str | None = None) -> None:
        super().__init__()
        self.settings = settings or Settings.load()
        self.setWindowTitle("German → English Translator")
        self.setAccessibleName("Translator main window")
        self.resize(1100, 700)
        self.document = Document()
        self.worker = TranslationWorker(self)
        self.worker.model_loaded.connect(self._on_model_loaded)
        self.worker.load_failed.connect(self._on_load_failed)
        self.worker.translated.connect(self._on_translated)
        self.worker.progressed.connect(self._on_progressed)
        self.worker.failed.connect(self._on_failed)
        self.history = History(user_data_dir() / "history.sqlite3")
        self.corrections = CorrectionsStore(user_data_dir() / "corrections.tsv")
        self.correcting = False  # the user is editing the English output
        self.correction_source = self.correction_original = ""
        self.teach: TeachDialog | None = None
        self.model_info: ModelInfo | None = None
        self.loading_path: str | None = None
        self.rendered: Rendered | None = None
        self.stale = False
        self.next_id = 0
        self.pending_id = -1
        self.load_id = -1
        self._shown_errors: set[str] = set()
        self.importer = ModelImporter(self)
        self.importer.finished.connect(self._on_imported)
        self.importer.failed.connect(self.show_error)
        self.last_error = ""
        self._notices: list[str] = []
        # What the highlights and the panel show now: a mouse move that changes none of
        # it costs no Qt call and no redraw.
        self._shown_link: tuple | None = None
        self._coverage: tuple[Rendered | None, list] = (None, [])
        self._focus_side = "source"
        self._setting_output = False

        self._build_editors()
        self._build_alignment()
        self._build_status()
        self._build_menus()
        self.debounce = QTimer(self)
        self.debounce.setSingleShot(True)
        self.debounce.timeout.connect(self.translate_now)
        self.apply_settings()
        if self.settings.geometry:
            self.restoreGeometry(QByteArray.fromBase64(self.settings.geometry.encode()))
        # The user's own split between text and panel comes back with the window state;
        # the first time, the text gets about two thirds of the height (see showEvent).
        self._first_layout = not (
            self.settings.window_state
            and self.restoreState(QByteArray.fromBase64(self.settings.window_state.encode()))
        )
        self.alignment_dock.setVisible(self.settings.show_alignment)
        for problem in (self.settings.problem, self.history.problem, self.corrections.problem):
            if problem:
                self.show_notice(problem)
        # What killed runs left behind: export temporaries and Teach work folders.
        for folder in (user_models_dir(), user_cache_dir() / "teach"):
            remove_orphans(folder)
        self.load_model(model or self.settings.model or str(bundled_model_dir()))

    # ------------------------------------------------------------------ build
    def _build_editors(self) -> None:
        self.source_edit = QPlainTextEdit()
        self.source_edit.setAccessibleName("German text")
        self.source_edit.setPlaceholderText("Deutschen Text hier eingeben…")
        self.output_edit = QPlainTextEdit()
        self.output_edit.setAccessibleName("English translation")
        self.output_edit.setPlaceholderText("The English translation appears here as you type.")
        self.output_edit.setReadOnly(True)
        self.output_edit.setTextInteractionFlags(
            Qt.TextSelectableByMouse | Qt.TextSelectableByKeyboard
        )
        self.source_edit.textChanged.connect(self._on_text_changed)
        self.output_edit.textChanged.connect(self._on_correction_edited)
        self.source_edit.cursorPositionChanged.connect(lambda: self._on_cursor("source"))
        self.output_edit.cursorPositionChanged.connect(lambda: self._on_cursor("output"))
        for edit in (self.source_edit, self.output_edit):
            edit.viewport().setMouseTracking(True)
            edit.viewport().installEventFilter(self)
            # Tab moves on to the next control (a tab in German text is never wanted);
            # the read-only English takes focus too, so arrows walk its words and the
            # panel follows them.
            edit.setTabChangesFocus(True)
            edit.setFocusPolicy(Qt.StrongFocus)
            edit.setStyleSheet(
                "QPlainTextEdit { border: 1px solid palette(mid); }"
                "QPlainTextEdit:focus { border: 2px solid palette(highlight); }"
            )
        self.source_edit.installEventFilter(self)
        self.copy_button = QPushButton("Copy")
        self.copy_button.setAccessibleName("Copy the translation")
        self.copy_button.setToolTip("Copy the English translation (Ctrl+Shift+C)")
        self.copy_button.clicked.connect(self.copy_translation)
        self.splitter = QSplitter()
        self.splitter.setAccessibleName("Input and output")
        self.splitter.addWidget(_labelled("German", self.source_edit))
        self.splitter.addWidget(_labelled("English", self.output_edit, self.copy_button))
        self._build_notice()
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.notice)
        column.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        self.setAcceptDrops(True)

    def _build_notice(self) -> None:
        # Problems with the user's files stay in view until dismissed (an info bar above
        # the text): a status message would be replaced by the next "Loaded …" at once.
        self.notice = QFrame()
        self.notice.setAccessibleName("Notice")
        self.notice.setFrameShape(QFrame.StyledPanel)
        self.notice.setAutoFillBackground(True)
        self.notice.setBackgroundRole(QPalette.ColorRole.AlternateBase)
        row = QHBoxLayout(self.notice)
        row.setContentsMargins(8, 4, 8, 4)
        self.notice_label = QLabel()
        self.notice_label.setWordWrap(True)
        self.notice_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.notice_label.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        dismiss = QPushButton("Dismiss")
        dismiss.setAccessibleName("Dismiss the notice")
        dismiss.clicked.connect(self.dismiss_notices)
        row.addWidget(self.notice_label, 1)
        row.addWidget(dismiss, 0, Qt.AlignTop)
        self.notice.hide()

    def _build_alignment(self) -> None:
        self.alignment = AlignmentPanel()
        self.alignment.problem.connect(self.show_error)
        self.alignment.exported.connect(lambda p: self.show_message(f"Heatmap saved to {p}"))
        self.alignment_dock = QDockWidget("Alignment", self)
        self.alignment_dock.setObjectName("alignment-dock")
        self.alignment_dock.setAccessibleName("Alignment dock")
        self.alignment_dock.setWidget(self.alignment)
        self.addDockWidget(Qt.BottomDockWidgetArea, self.alignment_dock)

    def _build_status(self) -> None:
        self.model_label = QLabel("No model")
        self.model_label.setAccessibleName("Model in use")
        self.device_label = QLabel("")
        self.device_label.setAccessibleName("Device in use")
        self.time_label = QLabel("")
        self.time_label.setAccessibleName("Last translation time")
        # Long texts: "sentences done of total" while the English fills in.
        self.progress = QProgressBar()
        self.progress.setAccessibleName("Translation progress")
        self.progress.setFormat("%v of %m sentences")
        self.progress.setMaximumWidth(220)
        self.progress.hide()
        self.statusBar().addPermanentWidget(self.progress)
        for label in (self.model_label, self.device_label, self.time_label):
            self.statusBar().addPermanentWidget(label)
        self.correction_label = QLabel(
            "Correcting the translation: Ctrl+Shift+S keeps it for the next fine-tune, "
            "Esc discards it"
        )
        self.correction_label.setAccessibleName("Correction mode")
        self.statusBar().addWidget(self.correction_label)
        self.correction_label.hide()

    def _action(self, menu: QMenu, text: str, slot, shortcut=None, checkable=False) -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.setCheckable(checkable)
        action.triggered.connect(slot)
        menu.addAction(action)
        self.all_actions.append(action)
        return action

    def _build_menus(self) -> None:
        self.all_actions: list[QAction] = []
        bar = self.menuBar()
        m = bar.addMenu("&File")
        self._action(m, "&Open text file…", self.open_file_dialog, QKeySequence.Open)
        self._action(m, "&Save translation…", self.save_file_dialog, QKeySequence.Save)
        m.addSeparator()
        self._action(m, "&Quit", self.close, QKeySequence.Quit)

        m = bar.addMenu("&Edit")
        # The usual editing commands act on the box that has the focus (the German box,
        # or the English while correcting it); Copy copies a selection from either box.
        for text, method, key in (
            ("&Undo", "undo", QKeySequence.Undo),
            ("&Redo", "redo", QKeySequence.Redo),
            ("Cu&t", "cut", QKeySequence.Cut),
            ("&Copy", "copy", QKeySequence.Copy),
            ("&Paste", "paste", QKeySequence.Paste),
            ("Select &all", "selectAll", QKeySequence.SelectAll),
        ):
            # In a box, the box's own key handling comes first (Qt's shortcut override).
            self._action(m, text, partial(self.edit_command, method), key)
        m.addSeparator()
        self._action(m, "&Translate now", self.translate_now, "Ctrl+Return")
        self._action(m, "Copy the &whole translation", self.copy_translation, "Ctrl+Shift+C")
        self._action(m, "C&lear", self.clear, "Ctrl+L")
        self._action(m, "&Word details and alternatives", self.word_menu_at_cursor, "Ctrl+D")
        m.addSeparator()
        self._action(m, "Co&rrect the translation", self.begin_correction, "F2")
        self.save_correction_action = self._action(
            m, "&Save the correction", self.save_correction, "Ctrl+Shift+S"
        )
        self.discard_correction_action = self._action(
            m, "&Discard the correction", self.discard_correction, "Esc"
        )
        self._action(m, "C&orrections…", self.corrections_dialog, "Ctrl+Shift+K")
        m.addSeparator()
        self._action(m, "Se&ttings…", self.settings_dialog, "Ctrl+,")

        m = bar.addMenu("&View")
        self.alignment_action = self.alignment_dock.toggleViewAction()
        self.alignment_action.setText("&Alignment panel")
        self.alignment_action.setShortcut(QKeySequence("F9"))
        m.addAction(self.alignment_action)
        self.all_actions.append(self.alignment_action)
        self.coverage_action = self._action(
            m, "&Coverage hint", self._toggle_coverage, "Ctrl+Shift+U", checkable=True
        )
        self._action(m, "Switch &layout", self._toggle_layout, "Ctrl+Shift+L")
        self._action(m, "&History…", self.history_dialog, "Ctrl+H")
        self._action(m, "&Export heatmap…", self.alignment.export_dialog, "Ctrl+E")

        # Model menu: the model list (rebuilt as models come and go), then fixed actions.
        m = self.model_menu = bar.addMenu("&Model")
        self.model_group = QActionGroup(self)
        self.model_actions: list[QAction] = []
        self.models_end = m.addSeparator()
        self._action(m, "Open model folder…", self.open_model_dialog, "Ctrl+Shift+O")
        self._action(m, "&Import OPUS-MT model…", self.import_model_dialog)
        self._action(m, "Model card…", self.model_card_dialog, "Ctrl+I")
        self._action(m, "&Teach the model…", self.teach_dialog, "Ctrl+T")
        m.addSeparator()
        device_menu = m.addMenu("&Device")
        self.device_group = QActionGroup(self)
        self.device_actions: dict[str, QAction] = {}
        for name, label in (
            ("auto", "Auto (CUDA when available)"),
            ("cpu", "CPU"),
            ("cuda", "CUDA"),
        ):
            a = self._action(
                device_menu, label, lambda _=False, n=name: self.choose_device(n), checkable=True
            )
            self.device_group.addAction(a)
            self.device_actions[name] = a

        m = bar.addMenu("&Help")
        self._action(m, "&Keyboard shortcuts", self.shortcuts_dialog, "F1")
        self._action(m, "&About", self.about_dialog)
        self.rebuild_model_menu()
        self._set_correcting(False)

    def rebuild_model_menu(self) -> None:
        for a in self.model_actions:
            self.model_group.removeAction(a)
            self.model_menu.removeAction(a)
        self.model_actions = []
        current = self.loading_path or (self.model_info.path if self.model_info else "")
        for entry in discover(self.settings.extra_models):
            a = QAction(entry.label, self, checkable=True)
            a.setData(entry.path)
            a.setToolTip(entry.path)  # the folder, for the curious: names are for people
            a.setStatusTip(entry.path)
            a.setChecked(_same(entry.path, current))
            a.triggered.connect(lambda _=False, e=entry: self.choose_model(e))
            self.model_group.addAction(a)
            self.model_menu.insertAction(self.models_end, a)
            self.model_actions.append(a)
        self.device_actions[self.settings.device].setChecked(True)

    # --------------------------------------------------------------- settings
    def apply_settings(self) -> None:
        s = self.settings
        font = QFont(self.source_edit.font())
        font.setPointSize(s.font_size)
        self.source_edit.setFont(font)
        self.output_edit.setFont(font)
        self.splitter.setOrientation(Qt.Vertical if s.layout == "stacked" else Qt.Horizontal)
        self.coverage_action.setChecked(s.coverage_hint)
        self.debounce_ms = s.debounce_ms

    def save_settings(self) -> None:
        s = self.settings
        s.geometry = bytes(self.saveGeometry().toBase64()).decode()
        s.window_state = bytes(self.saveState().toBase64()).decode()
        s.show_alignment = self.alignment_dock.isVisible() or (
            not self.isVisible() and s.show_alignment
        )
        try:
            s.save()
        except OSError as e:
            self.show_error(f"Could not save the settings: {e}")

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if self._first_layout:
            self._first_layout = False
            self.resizeDocks([self.alignment_dock], [max(120, self.height() // 3)], Qt.Vertical)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        self.save_settings()
        self.worker.shutdown()  # cancels a model load in progress; never blocks long
        self.history.close()
        super().closeEvent(event)

    # ----------------------------------------------------------------- models
    def load_model(self, path: str) -> None:
        if not is_bundle(Path(path)):
            self.model_label.setText("No model")
            self.show_error(f"No model at {path}. Use Model → Open model folder… to choose one.")
            return
        self.next_id += 1
        self.load_id = self.next_id
        self.loading_path = path
        self.model_label.setText(f"Loading {Path(path).name}…")
        self.worker.load(LoadRequest(self.load_id, path, self.settings.device))

    def choose_model(self, entry: ModelEntry) -> None:
        self.settings.model = "" if entry.origin == "bundled" else entry.path
        self.load_model(entry.path)

    def choose_device(self, device: str) -> None:
        self.settings.device = device
        path = self.loading_path or (self.model_info.path if self.model_info else None)
        if path:
            self.load_model(path)

    def _on_model_loaded(self, info: ModelInfo) -> None:
        if info.request_id != self.load_id:
            return
        self.model_info, self.loading_path = info, None
        self.model_label.setText(f"Model: {info.name}")
        self.device_label.setText(f"Device: {info.device}")
        self.alignment.set_model_shape(
            info.layers, info.heads, info.alignment_layer, info.alignment_head
        )
        for w in info.warnings:
            self.show_notice(w)  # stays until read: "Loaded … on cpu" would overwrite it
        if self.settings.device == "cuda" and not info.device.startswith("cuda"):
            # CUDA was asked for and is not usable here: tick (and save) what is really in
            # use. "auto" takes CUDA by itself once the machine has it.
            self.settings.device = "auto"
        self.rebuild_model_menu()
        self.show_message(f"Loaded {info.name} on {info.device} in {info.seconds:.1f} s")
        self.translate_now()

    def _on_load_failed(self, request_id: int, message: str) -> None:
        if request_id != self.load_id:
            return
        self.loading_path = None
        self.model_label.setText(
            f"Model: {self.model_info.name}" if self.model_info else "No model"
        )
        self.show_error(f"Could not load the model: {message}")
        self.rebuild_model_menu()

    def model_id(self) -> str:
        info = self.model_info
        return f"{info.path}|{info.device}" if info else ""

    # ------------------------------------------------------------ translating
    def _on_text_changed(self) -> None:
        self.stale = True
        self._clear_highlights()
        self.debounce.start(self.debounce_ms)

    def translate_now(self) -> None:
        self.debounce.stop()
        text = self.source_edit.toPlainText()
        if self.model_info is None:
            return
        s = self.settings
        segments, found, missing = self.document.lookup(text, self.model_id(), s.beam, s.nbest)
        if not missing:
            self.worker.cancel()
            self.pending_id = -1
            self.progress.hide()
            self._show(render(text, segments, found), seconds=None)
            return
        self.next_id += 1
        self.pending_id = self.next_id
        self.worker.translate(TranslateRequest(self.pending_id, tuple(missing), s.beam, s.nbest))
        if len(missing) > GROUP_SIZES[0]:
            # A long text (an opened file, a paste): the old English goes at once, what is
            # cached shows, and the rest fills in group by group with a count.
            self._show_progress(0, len(missing))
            self._show(render(text, segments, found), seconds=None, final=False)
        else:
            self.progress.hide()

    def _show_progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.progress.show()

    def _on_progressed(self, result: TranslateResult) -> None:
        if self._current(result):
            s = self.settings
            self.document.store(self.model_id(), s.beam, s.nbest, result.translations)
            self._show_progress(result.done, result.total)
            text = self.source_edit.toPlainText()
            segments, found, _ = self.document.lookup(text, self.model_id(), s.beam, s.nbest)
            self._show(render(text, segments, found), seconds=None, final=False)

    def _current(self, result: TranslateResult) -> bool:
        """Whether ``result`` answers the latest request, for the model in use."""
        return (
            result.request_id == self.pending_id
            and self.model_info is not None
            and result.model_path == self.model_info.path
        )

    def _on_translated(self, result: TranslateResult) -> None:
        if not self._current(result):
            return  # stale: a newer request is on its way
        s = self.settings
        self.document.store(self.model_id(), s.beam, s.nbest, result.translations)
        self.pending_id = -1
        self.progress.hide()
        text = self.source_edit.toPlainText()
        segments, found, missing = self.document.lookup(text, self.model_id(), s.beam, s.nbest)
        if missing:
            self.translate_now()
            return
        self._show(render(text, segments, found), seconds=result.seconds)

    def _on_failed(self, request_id: int, message: str) -> None:
        if request_id == self.pending_id:
            self.pending_id = -1
            self.progress.hide()
        self.show_error(f"Translation failed: {message}")
        if "CUDA" in message and self.model_info and self.model_info.device.startswith("cuda"):
            self.show_error("CUDA failed; falling back to the CPU.")
            self.settings.device = "cpu"
            self.load_model(self.model_info.path)

    def _show(self, rendered: Rendered, seconds: float | None, final: bool = True) -> None:
        """Show a translation; ``final`` is False while a long text is still filling in
        (not yet in the history, no ``translation_shown``)."""
        self.rendered, self.stale = rendered, False
        if self.correcting:
            return  # shown when the correction is saved or discarded
        if self.output_edit.toPlainText() != rendered.output:
            self._set_output(rendered.output)
        if seconds is not None:
            self.time_label.setText(f"{seconds * 1000:.0f} ms")
        self._update_links()
        self._keep_in_view()
        if not final:
            return
        if (
            rendered.source.strip()
            and self.settings.history_enabled
            and self.history.available
            and self.model_info
        ):
            try:
                self.history.record(rendered.source, rendered.output, self.model_info.name)
            except Exception as e:  # noqa: BLE001 - a history problem must not stop translating
                self.show_error(f"Could not write the history: {e}")
        self.translation_shown.emit(rendered.output)

    # ------------------------------------------------------------- alignment
    def _set_output(self, text: str) -> None:
        """Replace the output text, keeping its scroll position and cursor; the panel keeps
        following the side the user is on (setPlainText moves the output's cursor to 0,
        which is not the user's doing)."""
        edit = self.output_edit
        cursor, scroll = edit.textCursor().position(), edit.verticalScrollBar().value()
        self._setting_output = True
        try:
            edit.setPlainText(text)
            restored = edit.textCursor()
            restored.setPosition(min(cursor, to_qt(text, len(text))))
            edit.setTextCursor(restored)
        finally:
            self._setting_output = False
        edit.verticalScrollBar().setValue(scroll)

    def _cursor_index(self, side: str) -> int:
        """The Python index in the rendered text of ``side``'s cursor (Qt counts UTF-16)."""
        r = self.rendered
        if side == "source":
            return from_qt(r.source, self.source_edit.textCursor().position())
        return from_qt(r.output, self.output_edit.textCursor().position())

    def _on_cursor(self, side: str) -> None:
        if side == "output" and self._setting_output:
            return
        self._focus_side = side
        self._update_links()
        self._keep_in_view()

    def _keep_in_view(self) -> None:
        """Scroll the other box so that the sentence under the cursor shows on both sides
        (typing at the end of a long text must not leave the English at the top)."""
        r = self.rendered
        if r is None or self.stale or self.correcting:
            return
        if self._focus_side == "source":
            i = r.sentence_at_source(self._cursor_index("source"))
            if i is None:
                return
            other, text, (start, end) = self.output_edit, r.output, r.output_spans[i]
        else:
            i = r.sentence_at_output(self._cursor_index("output"))
            if i is None:
                return
            seg = r.segments[i]
            other, text, (start, end) = self.source_edit, r.source, (seg.start, seg.end)
        _scroll_into_view(other, to_qt(text, start), to_qt(text, end))

    def _update_links(self, side: str | None = None, pos: int | None = None) -> None:
        side = side or self._focus_side
        r = self.rendered
        if r is None or self.stale or self.correcting:
            self._clear_highlights()
            return
        if pos is None:
            pos = self._cursor_index(side)
        else:
            pos = from_qt(r.source if side == "source" else r.output, pos)
        link = link_from_source(r, pos) if side == "source" else link_from_output(r, pos)
        sentence = (
            link.sentence
            if link
            else (r.sentence_at_source(pos) if side == "source" else r.sentence_at_output(pos))
        )
        if sentence is None and r.translations:
            sentence = 0
        shown = (link, sentence, self.settings.coverage_hint)
        if (
            self._shown_link is not None
            and self._shown_link[0] is r
            and self._shown_link[1] == shown
        ):
            return  # the same word under the mouse: nothing to redo
        self._shown_link = (r, shown)
        self._apply_highlights(link)
        if sentence is not None and r.translations[sentence] is not None:
            row = link.piece if link and link.side == "output" else None
            col = link.piece if link and link.side == "source" else None
            self.alignment.show_translation(r.translations[sentence], row, col)
        else:
            self.alignment.show_translation(None)

    def _apply_highlights(self, link: Link | None) -> None:
        base = self.palette().color(QPalette.ColorRole.Highlight)
        src_sel, out_sel = [], []
        if link is not None:
            own_box = src_sel if link.side == "source" else out_sel
            other_box = out_sel if link.side == "source" else src_sel
            own_doc = self.source_edit if link.side == "source" else self.output_edit
            other_doc = self.output_edit if link.side == "source" else self.source_edit
            r = self.rendered
            own_text = r.source if link.side == "source" else r.output
            other_text = r.output if link.side == "source" else r.source
            own_box.append(_selection(own_doc, own_text, *link.own, underline=True))
            for start, end, share in link.ranges:
                color = QColor(base)
                color.setAlpha(int(40 + 180 * share))
                other_box.append(_selection(other_doc, other_text, start, end, background=color))
        if self.settings.coverage_hint and self.rendered is not None and not self.stale:
            if self._coverage[0] is not self.rendered:  # once per translation, not per move
                self._coverage = (self.rendered, weak_coverage(self.rendered))
            for start, end in self._coverage[1]:
                src_sel.append(
                    _selection(self.source_edit, self.rendered.source, start, end, wavy=True)
                )
        self.source_edit.setExtraSelections(src_sel)
        self.output_edit.setExtraSelections(out_sel)

    def _clear_highlights(self) -> None:
        if self._shown_link is None:
            return  # nothing is highlighted (only _update_links sets highlights)
        self._shown_link = None
        self.source_edit.setExtraSelections([])
        self.output_edit.setExtraSelections([])

    def highlighted_ranges(self, side: str) -> list[tuple[int, int]]:
        edit = self.source_edit if side == "source" else self.output_edit
        return [
            (s.cursor.selectionStart(), s.cursor.selectionEnd())
            for s in edit.extraSelections()
            if s.format.background().style() != Qt.NoBrush
        ]

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        kind = event.type()
        if obj is self.source_edit and kind in (QEvent.DragEnter, QEvent.Drop):
            return self._file_drop(event)
        for side, edit in (("source", self.source_edit), ("output", self.output_edit)):
            if obj is not edit.viewport():
                continue
            if kind == QEvent.MouseMove and not event.buttons():
                pos = edit.cursorForPosition(event.position().toPoint()).position()
                self._update_links(side, pos)
            elif kind == QEvent.Leave:
                self._update_links()
            elif (
                kind == QEvent.MouseButtonRelease
                and side == "output"
                and not self.correcting
                and event.button() == Qt.LeftButton
                and not edit.textCursor().hasSelection()
            ):
                QTimer.singleShot(0, partial(self._word_menu, event.position().toPoint()))
        return super().eventFilter(obj, event)

    # -------------------------------------------- word details, alternatives
    def word_menu_at_cursor(self) -> QMenu | None:
        """Ctrl+D: the details of the English word highlighted now. From the German side
        that is the word the German under the cursor attended to most."""
        r = self.rendered
        pos = self.output_edit.textCursor().position()
        if self._focus_side == "source" and r is not None and not self.stale:
            link = link_from_source(r, self._cursor_index("source"))
            if link is None or not link.ranges:
                self.show_message("No English word is linked to the German under the cursor")
                return None
            pos = to_qt(r.output, max(link.ranges, key=lambda x: x[2])[0])
        menu = self.word_menu(pos)
        if menu is not None:
            cursor = QTextCursor(self.output_edit.document())
            cursor.setPosition(pos)
            rect = self.output_edit.cursorRect(cursor)
            menu.popup(self.output_edit.viewport().mapToGlobal(rect.bottomLeft()))
        return menu

    def word_menu(self, pos: int) -> QMenu | None:
        """The menu for the English piece at output position ``pos`` (None: no word)."""
        r = self.rendered
        if r is None or self.stale:
            return None
        link = link_from_output(r, from_qt(r.output, pos))
        if link is None:
            return None
        t = r.translations[link.sentence]
        menu = QMenu(self)
        menu.setAccessibleName("Word details")
        piece = t.best.target_pieces[link.piece].replace(PIECE_MARK, "")
        menu.addSection(f"“{piece}” attended to")
        for label, weight in alignment_pairs(r, link.sentence, link.piece):
            menu.addAction(f"{label}   {weight:.2f}").setEnabled(False)
        alts = alternatives(t, link.piece, eos_id=self._eos_id())
        menu.addSection("Alternatives")
        if not alts:  # Qt hides an empty last section, so the hint is an item of its own
            menu.addAction("None here (raise n-best in Settings)").setEnabled(False)
        for alt in alts[:8]:
            a = menu.addAction(f"{alt.label}    — {alt.example}")
            a.triggered.connect(
                lambda _=False, s=link.sentence, p=alt.prefix: self.force_prefix(s, p)
            )
        return menu

    def _word_menu(self, point: QPoint) -> None:
        menu = self.word_menu(self.output_edit.textCursor().position())
        if menu is not None:
            # Below the clicked line, so the word stays readable beside its details.
            below = QPoint(point.x(), self.output_edit.cursorRect().bottom() + 4)
            menu.popup(self.output_edit.viewport().mapToGlobal(below))

    def _eos_id(self) -> int:
        return self.model_info.eos_id if self.model_info else 3

    def force_prefix(self, sentence: int, prefix: tuple[int, ...]) -> None:
        """Re-decode one sentence with the chosen beginning forced."""
        r = self.rendered
        if r is None or self.model_info is None:
            return
        s = self.settings
        self.next_id += 1
        self.pending_id = self.next_id
        text = r.segments[sentence].text
        self.worker.translate(
            TranslateRequest(self.pending_id, (text,), s.beam, s.nbest, tuple(prefix))
        )

    # ---------------------------------------------------------------- files
    def open_file(self, path: str) -> bool:
        try:
            p = Path(path)
            if p.stat().st_size > MAX_OPEN_BYTES:
                raise ValueError(f"larger than {MAX_OPEN_BYTES // 1_000_000} MB")
            text = p.read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError as e:
            self.show_notice(f"Could not open {path}: not UTF-8 text (byte {e.start})")
            return False
        except (OSError, ValueError) as e:
            self.show_notice(f"Could not open {path}: {e}")
            return False
        self.source_edit.setPlainText(text.replace("\r\n", "\n"))
        self.show_message(f"Opened {path}")
        self.translate_now()
        return True

    def save_file(self, path: str) -> bool:
        try:
            Path(path).write_text(self.output_edit.toPlainText() + "\n", encoding="utf-8")
        except OSError as e:
            self.show_notice(f"Could not save {path}: {e}")
            return False
        self.show_message(f"Saved the translation to {path}")
        return True

    def open_file_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Open German text", documents_dir(), "Text files (*.txt);;All files (*)"
        )
        if path:
            self.open_file(path)

    def save_file_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self,
            "Save translation",
            str(Path(documents_dir()) / "translation.txt"),
            "Text files (*.txt)",
        )
        if path:
            self.save_file(path)

    def _file_drop(self, event) -> bool:
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        files = [u.toLocalFile() for u in urls if u.isLocalFile()]
        if not files:
            return False  # plain text drops: the editor handles them
        event.acceptProposedAction()
        if event.type() == QEvent.Drop:
            self.open_file(files[0])
        return True

    def dragEnterEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802 - Qt's name
        files = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if files:
            self.open_file(files[0])

    def open_model_dialog(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Open a model folder", documents_dir())
        if path:
            self.open_model_folder(path)

    def import_model_dialog(self) -> None:
        if self.importer.busy:
            self.show_message("An import is already running.")
            return
        path, _ = QFileDialog.getOpenFileName(
            self, "Import a downloaded OPUS-MT model", documents_dir(), FILE_FILTER
        )
        if path:
            name = self.importer.start(path)
            self.show_message(f"Importing {name}… (this takes a few seconds)", 0)

    def _on_imported(self, path: str) -> None:
        self.rebuild_model_menu()
        self.use_model(path)
        self.show_message(f"Imported {Path(path).name}; it is now in use (Model menu).", 10000)

    def open_model_folder(self, path: str) -> None:
        if not is_bundle(Path(path)):
            self.show_error(f"{path} is not a model folder (no config.json and weights)")
            return
        if path not in self.settings.extra_models:
            self.settings.extra_models.append(path)
        self.settings.model = path
        self.load_model(path)
        self.rebuild_model_menu()

    # ------------------------------------------------------------- commands
    def copy_translation(self) -> None:
        QGuiApplication.clipboard().setText(self.output_edit.toPlainText())
        self.show_message("Translation copied")

    def clear(self) -> None:
        """Empty both boxes and forget the text's translations, giving their memory back
        (a 20,000-character text holds hundreds of MB of attention matrices)."""
        self.worker.cancel()
        self.pending_id = -1
        self.progress.hide()
        self.source_edit.clear()
        self.output_edit.clear()
        self.rendered = None
        self._shown_link, self._coverage = None, (None, [])
        self.alignment.show_translation(None)
        self.document.cache.clear()
        release_memory()

    def _toggle_coverage(self, checked: bool) -> None:
        self.settings.coverage_hint = checked
        self._update_links()

    def _toggle_layout(self) -> None:
        s = self.settings
        s.layout = "stacked" if s.layout == "side-by-side" else "side-by-side"
        self.apply_settings()

    def settings_dialog(self) -> None:
        dialog = SettingsDialog(self.settings, self)
        if dialog.exec():
            before = (self.settings.beam, self.settings.nbest)
            dialog.apply(self.settings)
            self.apply_settings()
            if (self.settings.beam, self.settings.nbest) != before:
                self.translate_now()
            self.save_settings()

    def history_dialog(self) -> None:
        if not self.history.available:
            self.show_notice(self.history.problem or "The history is not available")
            return
        dialog = HistoryDialog(self.history, self)
        dialog.reuse.connect(self.source_edit.setPlainText)
        dialog.exec()

    def edit_command(self, method: str) -> None:
        """Undo, Cut, Paste… on the focused box (Copy also works in the read-only
        English; the others need an editable box, which QPlainTextEdit checks itself)."""
        focused = self.focusWidget()
        edit = focused if focused in (self.source_edit, self.output_edit) else self.source_edit
        getattr(edit, method)()

    def about_dialog(self) -> AboutDialog:
        info = self.model_info
        dialog = AboutDialog(info.name if info else "none", info.device if info else "", self)
        dialog.show()
        return dialog

    def shortcuts_dialog(self) -> None:
        ShortcutsDialog(self.all_actions, self).exec()

    def model_card_dialog(self) -> None:
        if self.model_info is None:
            self.show_error("No model is loaded")
            return
        ModelCardDialog(self.model_info.name, self.model_info.card, self).exec()

    # ------------------------------------------------------------ corrections
    def begin_correction(self) -> None:
        """Let the user edit the English output; saving stores (German, corrected) pairs."""
        if self.correcting:
            return
        if self.rendered is None or self.stale or not self.rendered.output.strip():
            self.show_message("There is no translation to correct yet")
            return
        self.correction_source = self.rendered.source
        self.correction_original = self.rendered.output
        self._set_correcting(True)
        self._on_correction_edited()
        self.output_edit.setFocus()

    def _edited_pairs(self) -> list[tuple[str, str]]:
        return pairs_from_edit(
            self.correction_source, self.correction_original, self.output_edit.toPlainText()
        )

    def _on_correction_edited(self) -> None:
        """While correcting, the status bar says which pairs a save would keep."""
        if self.correcting:
            self.correction_label.setText(
                f"Correcting: Ctrl+Shift+S {describe_pairs(self._edited_pairs())}; Esc discards"
            )

    def save_correction(self) -> int:
        """Store the pairs whose English the user edited; returns how many were new."""
        if not self.correcting:
            return 0
        pairs = self._edited_pairs()
        if not pairs:
            self.discard_correction()
            self.show_message("Nothing was edited, so nothing was kept")
            return 0
        try:
            added = self.corrections.add(pairs)
        except OSError as e:
            self.show_error(f"Could not save the correction: {e}")
            return 0
        self._set_correcting(False)
        self.stale = True  # the output is the user's text now: no alignment links for it
        if self.rendered is not None and self.rendered.source != self.correction_source:
            self._show(self.rendered, None)
        self.show_message(
            f"Kept {len(pairs)} corrected pair(s) for the next fine-tune "
            f"({len(self.corrections.pairs)} in all; Edit → Corrections…)"
        )
        return added

    def discard_correction(self) -> None:
        if self.correcting:
            self._set_correcting(False)
            if self.rendered is not None:
                self._set_output("")  # force the re-render
                self._show(self.rendered, None)

    def _set_correcting(self, on: bool) -> None:
        self.correcting = on
        self.output_edit.setReadOnly(not on)
        self.output_edit.setTextInteractionFlags(
            Qt.TextEditorInteraction
            if on
            else Qt.TextSelectableByMouse | Qt.TextSelectableByKeyboard
        )
        self.correction_label.setVisible(on)
        self.save_correction_action.setEnabled(on)
        self.discard_correction_action.setEnabled(on)
        if on:
            self._clear_highlights()

    def corrections_dialog(self) -> None:
        CorrectionsDialog(self.corrections, self).exec()

    # ------------------------------------------------------------------ teach
    def teach_dialog(self) -> TeachDialog | None:
        """The fine-tune dialog for the current model (modeless: translating goes on)."""
        if self.model_info is None:
            self.show_error("Load a model first: fine-tuning starts from the current model")
            return None
        if self.teach is not None and self.teach.isVisible():
            self.teach.raise_()
            return self.teach
        dialog = TeachDialog(self.model_info.path, self.model_info.name, self.corrections, self)
        dialog.model_added.connect(lambda _: self.rebuild_model_menu())
        dialog.model_removed.connect(self._on_model_removed)
        dialog.use_model.connect(self.use_model)
        dialog.show()
        self.teach = dialog
        return dialog

    def use_model(self, path: str) -> None:
        """Switch to a model (Teach's "Use this model") and keep the choice for the next
        start; the text is retranslated once it has loaded."""
        self.settings.model = path
        self.save_settings()
        self.load_model(path)

    def _on_model_removed(self, path: str) -> None:
        if self.model_info is not None and _same(self.model_info.path, path):
            self.load_model(str(bundled_model_dir()))
        self.rebuild_model_menu()

    # -------------------------------------------------------------- messages
    def show_message(self, text: str, ms: int = 5000) -> None:
        self.statusBar().showMessage(text, ms)

    def show_error(self, text: str) -> None:
        """Each distinct problem is shown once, in the status bar (never a dialog storm)."""
        if text in self._shown_errors:
            return
        self._shown_errors.add(text)
        self.statusBar().showMessage(text, 15000)
        self.last_error = text

    def show_notice(self, text: str) -> None:
        """A problem the user must see (a damaged or unusable file of theirs): it stays in
        the info bar above the text until dismissed."""
        if text in self._notices:
            return
        self._notices.append(text)
        self.notice_label.setText("\n".join(self._notices))
        self.notice.show()
        self.last_error = text

    def dismiss_notices(self) -> None:
        self._notices.clear()
        self.notice.hide()


def _labelled(title: str, edit: QPlainTextEdit, *buttons: QWidget) -> QWidget:
    """``edit`` under a header naming its language (with ``buttons`` on the right)."""
    box = QWidget()
    column = QVBoxLayout(box)
    column.setContentsMargins(4, 4, 4, 0)
    column.setSpacing(2)
    header = QHBoxLayout()
    label = QLabel(f"<b>{title}</b>")
    label.setBuddy(edit)
    header.addWidget(label)
    header.addStretch(1)
    for button in buttons:
        header.addWidget(button)
    column.addLayout(header)
    column.addWidget(edit, 1)
    return box


def _selection(edit, text: str, start: int, end: int, background=None, underline=False, wavy=False):
    """A highlight of ``text[start:end]`` (Python indices) in ``edit``, which shows ``text``."""
    sel = QTextEdit.ExtraSelection()
    cursor = QTextCursor(edit.document())
    cursor.setPosition(to_qt(text, start))
    cursor.setPosition(to_qt(text, end), QTextCursor.KeepAnchor)
    sel.cursor = cursor
    fmt = QTextCharFormat()
    if background is not None:
        fmt.setBackground(background)
    if underline:
        fmt.setFontUnderline(True)
    if wavy:
        fmt.setUnderlineStyle(QTextCharFormat.WaveUnderline)
        fmt.setUnderlineColor(QColor("#d08000"))
    sel.format = fmt
    return sel


def _scroll_into_view(edit: QPlainTextEdit, start: int, end: int) -> None:
    """Scroll ``edit`` (not its cursor) until Qt positions start..end are visible, or at
    least their beginning. A QPlainTextEdit scrolls by lines of unknown height (wrapped
    lines), so the scroll value is found by bisection: top and bottom only fall as it grows."""
    last = edit.document().characterCount() - 1
    bar, height = edit.verticalScrollBar(), edit.viewport().height()

    def edges(value: int) -> tuple[int, int]:
        bar.setValue(value)
        cursor = QTextCursor(edit.document())
        cursor.setPosition(min(start, last))
        top = edit.cursorRect(cursor).top()
        cursor.setPosition(min(end, last))
        return top, edit.cursorRect(cursor).bottom()

    current = bar.value()
    top, bottom = edges(current)
    if top < 0:  # above: the largest value that shows the beginning
        lo, hi = bar.minimum(), current
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if edges(mid)[0] >= 0 else (lo, mid - 1)
        bar.setValue(lo)
    elif bottom > height:  # below: the smallest value that shows the end (or the top)
        lo, hi = current, bar.maximum()
        while lo < hi:
            mid = (lo + hi) // 2
            t, b = edges(mid)
            lo, hi = (lo, mid) if b <= height or t <= 0 else (mid + 1, hi)
        bar.setValue(lo)
    else:
        bar.setValue(current)


def _same(a: str, b: str) -> bool:
    try:
        return bool(a and b) and Path(a).resolve() == Path(b).resolve()
    except OSError:
        return a == b

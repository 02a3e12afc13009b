"""The main window: German in, English out, as you type; alignment panel; menus.

The window keeps layout, menus, files and messages. What to translate and when is the
:class:`TranslationSession`'s (worker thread, cache, request ids), the linked highlights
are the :class:`LinkHighlighter`'s, and correction mode is the
:class:`CorrectionController`'s; they talk to the window through signals.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from PySide6.QtCore import QByteArray, QEvent, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QFont,
    QGuiApplication,
    QKeySequence,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from translator_app.core import bundled_model_dir
from translator_app.core.corrections import CorrectionsStore
from translator_app.core.document import DocumentTranslation
from translator_app.core.glossary import Glossary
from translator_app.core.paths import (
    remove_orphans,
    user_cache_dir,
    user_data_dir,
    user_models_dir,
    write_atomic,
)
from translator_app.core.tokenizer import PIECE_MARK
from translator_app.gui.alignment import AlignmentPanel
from translator_app.gui.correcting import CorrectionController
from translator_app.gui.corrections import CorrectionsDialog
from translator_app.gui.dialogs import (
    AboutDialog,
    HistoryDialog,
    ModelCardDialog,
    SettingsDialog,
    ShortcutsDialog,
    documents_dir,
)
from translator_app.gui.glossary_dialog import GlossaryDialog, load_user_glossary
from translator_app.gui.highlighter import LinkHighlighter
from translator_app.gui.history import History
from translator_app.gui.importer import FILE_FILTER, ModelImporter
from translator_app.gui.linking import (
    alignment_pairs,
    alternatives,
    link_from_output,
    link_from_source,
    word_at,
)
from translator_app.gui.models import ModelEntry, discover, is_bundle
from translator_app.gui.notices import NoticeBar
from translator_app.gui.positions import from_qt, to_qt
from translator_app.gui.screen import fit_resize
from translator_app.gui.session import TranslationSession
from translator_app.gui.settings import Settings
from translator_app.gui.teach import TeachDialog
from translator_app.gui.worker import Failure, FailureKind, ModelInfo

MAX_OPEN_BYTES = 5_000_000


class MainWindow(QMainWindow):
    translation_shown = Signal(str)  # the output text, each time a full translation shows

    def __init__(self, settings: Settings | None = None, model: str | None = None) -> None:
        super().__init__()
        self.settings = settings or Settings.load()
        self.setWindowTitle("German → English Translator")
        self.setAccessibleName("Translator main window")
        fit_resize(self, 1100, 700)
        self.session = TranslationSession(self)
        self.session.model_loaded.connect(self._on_model_loaded)
        self.session.load_failed.connect(self._on_load_failed)
        self.session.updated.connect(self._show)
        self.session.progress.connect(self._show_progress)
        self.session.failed.connect(self._on_failed)
        self.history = History(user_data_dir() / "history.sqlite3")
        self.corrections = CorrectionsStore(user_data_dir() / "corrections.tsv")
        self.teach: TeachDialog | None = None
        self._shown_errors: set[str] = set()
        self.importer = ModelImporter(self)
        self.importer.finished.connect(self._on_imported)
        self.importer.failed.connect(self.show_error)
        self.last_error = ""

        self._build_editors()
        self._build_alignment()
        self._build_status()
        glossary, problem = load_user_glossary()  # Model → Glossary…
        self.session.glossary = glossary or None
        if problem:
            self.show_error(problem)
        self.highlighter = LinkHighlighter(
            self.source_edit, self.output_edit, self.alignment, parent=self
        )
        self.correction = CorrectionController(
            self.output_edit, self.correction_label, self.corrections, self
        )
        self.correction.message.connect(self.show_message)
        self.correction.error.connect(self.show_error)
        self.correction.ended.connect(self._on_correction_ended)
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
        self.output_edit.setPlaceholderText(READY_TEXT)
        self.output_edit.setReadOnly(True)
        self.output_edit.setTextInteractionFlags(
            Qt.TextSelectableByMouse | Qt.TextSelectableByKeyboard
        )
        self.source_edit.textChanged.connect(self._on_text_changed)
        self.output_edit.viewport().installEventFilter(self)  # a click opens the word menu
        for edit in (self.source_edit, self.output_edit):
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
        self.clear_button = QPushButton("Clear")
        self.clear_button.setAccessibleName("Clear both boxes")
        self.clear_button.setToolTip("Empty the German and the English box (Ctrl+L)")
        self.clear_button.clicked.connect(self.clear)
        self.count_label = QLabel("0 characters")
        self.count_label.setAccessibleName("Length of the German text")
        self.source_edit.textChanged.connect(self._count_characters)
        self.splitter = QSplitter()
        self.splitter.setAccessibleName("Input and output")
        self.splitter.addWidget(
            _labelled("German", self.source_edit, self.count_label, self.clear_button)
        )
        self.splitter.addWidget(_labelled("English", self.output_edit, self.copy_button))
        self.notice = NoticeBar()
        self.notice_label = self.notice.label
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.notice)
        column.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        self.setAcceptDrops(True)

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
        # Shown while a translation is on its way (a slow model, a long sentence).
        self.busy_label = QLabel("Translating…")
        self.busy_label.setAccessibleName("Translation pending")
        self.statusBar().addPermanentWidget(self.busy_label)
        self.busy_label.hide()
        self.session.busy.connect(self.busy_label.setVisible)

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
        self._action(m, "Translate &now", self.translate_now, "Ctrl+Return")
        self._action(m, "Copy the &whole translation", self.copy_translation, "Ctrl+Shift+C")
        self._action(m, "C&lear", self.clear, "Ctrl+L")
        self._action(m, "Word &details and alternatives", self.word_menu_at_cursor, "Ctrl+D")
        m.addSeparator()
        self._action(m, "Corr&ect the translation", self.begin_correction, "F2")
        self.correction.actions = [
            self._action(m, "&Save the correction", self.save_correction, "Ctrl+Shift+S"),
            self._action(m, "D&iscard the correction", self.discard_correction, "Esc"),
        ]
        self._action(m, "C&orrections…", self.corrections_dialog, "Ctrl+Shift+K")
        m.addSeparator()
        self._action(m, "Settin&gs…", self.settings_dialog, "Ctrl+,")

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
        self._action(m, "Open model &folder…", self.open_model_dialog, "Ctrl+Shift+O")
        self._action(m, "&Import OPUS-MT model…", self.import_model_dialog)
        self._action(m, "Model &card…", self.model_card_dialog, "Ctrl+I")
        self._action(m, "&Teach the model…", self.teach_dialog, "Ctrl+T")
        self._action(m, "&Glossary…", self.glossary_dialog, "Ctrl+G")
        m.addSeparator()
        device_menu = m.addMenu("&Device")
        self.device_group = QActionGroup(self)
        self.device_actions: dict[str, QAction] = {}
        for name, label in (
            ("auto", "&Auto (CUDA when available)"),
            ("cpu", "C&PU"),
            ("cuda", "C&UDA"),
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
        for action in self.correction.actions:
            action.setEnabled(False)

    def rebuild_model_menu(self) -> None:
        for a in self.model_actions:
            self.model_group.removeAction(a)
            self.model_menu.removeAction(a)
        self.model_actions = []
        current = self.session.model_path or ""
        for entry in discover(self.settings.extra_models):
            a = QAction(entry.label, self, checkable=True)
            a.setData(entry.path)
            a.setToolTip(entry.path)  # the folder, for the curious: names are for people
            a.setStatusTip(entry.path)
            a.setChecked(_same_folder(entry.path, current))
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
        self.highlighter.coverage_hint = s.coverage_hint
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
        self.session.shutdown()  # cancels a model load in progress; never blocks long
        self.history.close()
        super().closeEvent(event)

    # ----------------------------------------------------------------- models
    @property
    def model_info(self) -> ModelInfo | None:
        return self.session.model_info

    def load_model(self, path: str) -> None:
        if not is_bundle(Path(path)):
            self.model_label.setText("No model")
            self.show_error(f"No model at {path}. Use Model → Open model folder… to choose one.")
            return
        self.model_label.setText(f"Loading {Path(path).name}…")
        # What is typed meanwhile is kept and translated as soon as the model is ready.
        self.output_edit.setPlaceholderText(LOADING_TEXT)
        self.session.load(path, self.settings.device)

    def choose_model(self, entry: ModelEntry) -> None:
        self.settings.model = "" if entry.origin == "bundled" else entry.path
        self.load_model(entry.path)

    def choose_device(self, device: str) -> None:
        self.settings.device = device
        if self.session.model_path:
            self.load_model(self.session.model_path)

    def _on_model_loaded(self, info: ModelInfo) -> None:
        self.output_edit.setPlaceholderText(READY_TEXT)
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
        if self.session.glossary and not info.follows_glossary:
            self.show_notice(
                f"{info.name} was not trained to follow a glossary: your glossary is kept "
                "and applies with a model that was"
            )
        self.translate_now()

    def _on_load_failed(self, failure: Failure) -> None:
        self.output_edit.setPlaceholderText(
            READY_TEXT if self.model_info else "No model is loaded: choose one in the Model menu."
        )
        self.model_label.setText(
            f"Model: {self.model_info.name}" if self.model_info else "No model"
        )
        self.show_error(f"Could not load the model: {failure.message}")
        self.rebuild_model_menu()

    # ------------------------------------------------------------ translating
    def _on_text_changed(self) -> None:
        self.highlighter.mark_stale()
        self.debounce.start(self.debounce_ms)

    def translate_now(self) -> None:
        self.debounce.stop()
        s = self.settings
        self.session.translate(self.source_edit.toPlainText(), s.beam, s.nbest)

    def _show_progress(self, done: int, total: int) -> None:
        """Long texts: "sentences done of total" while the English fills in."""
        if total:
            self.progress.setRange(0, total)
            self.progress.setValue(done)
        self.progress.setVisible(bool(total))

    def _on_failed(self, failure: Failure) -> None:
        self.show_error(f"Translation failed: {failure.message}")
        info = self.model_info
        if failure.kind is FailureKind.DEVICE and info and info.device.startswith("cuda"):
            self.show_error("CUDA failed; falling back to the CPU.")
            self.settings.device = "cpu"
            self.load_model(info.path)

    def _show(self, doc: DocumentTranslation, seconds: float | None, final: bool = True) -> None:
        """Show a translation; ``final`` is False while a long text is still filling in
        (not yet in the history, no ``translation_shown``)."""
        if not self.highlighter.show(doc):
            return  # correcting: shown when the correction is saved or discarded
        if seconds is not None:
            self.time_label.setText(f"{seconds * 1000:.0f} ms")
        if not final:
            return
        lost = doc.missing_numbers()
        if lost:
            facts = ", ".join(text for _, _, text in lost[:3]) + (" …" if len(lost) > 3 else "")
            self.show_message(
                f"Check the translation: it may not keep {facts} (underlined in red)", 15000
            )
        if (
            doc.source.strip()
            and self.settings.history_enabled
            and self.history.available
            and self.model_info
        ):
            try:
                self.history.record(doc.source, doc.output, self.model_info.name)
            except Exception as e:  # noqa: BLE001 - a history problem must not stop translating
                self.show_error(f"Could not write the history: {e}")
        self.translation_shown.emit(doc.output)

    def highlighted_ranges(self, side: str) -> list[tuple[int, int]]:
        return self.highlighter.highlighted_ranges(side)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        kind = event.type()
        if obj is self.source_edit and kind in (QEvent.DragEnter, QEvent.Drop):
            return self._file_drop(event)
        if (
            obj is self.output_edit.viewport()
            and kind == QEvent.MouseButtonRelease
            and not self.correction.active
            and event.button() == Qt.LeftButton
            and not self.output_edit.textCursor().hasSelection()
        ):
            QTimer.singleShot(0, partial(self._word_menu, event.position().toPoint()))
        return super().eventFilter(obj, event)

    # -------------------------------------------- word details, alternatives
    def word_menu_at_cursor(self) -> QMenu | None:
        """Ctrl+D: the details of the English word highlighted now. From the German side
        that is the word the German under the cursor attended to most."""
        h = self.highlighter
        pos = self.output_edit.textCursor().position()
        if h.focus_side == "source" and h.shown is not None and not h.stale:
            link = link_from_source(h.shown, h.cursor_index("source"))
            if link is None or not link.ranges:
                self.show_message("No English word is linked to the German under the cursor")
                return None
            pos = to_qt(h.shown.output, max(link.ranges, key=lambda x: x[2])[0])
        menu = self.word_menu(pos)
        if menu is not None:
            cursor = QTextCursor(self.output_edit.document())
            cursor.setPosition(pos)
            rect = self.output_edit.cursorRect(cursor)
            menu.popup(self.output_edit.viewport().mapToGlobal(rect.bottomLeft()))
        return menu

    def word_menu(self, pos: int) -> QMenu | None:
        """The menu for the English piece at output position ``pos`` (None: no word)."""
        d = self.highlighter.shown
        if d is None or self.highlighter.stale:
            return None
        link = link_from_output(d, from_qt(d.output, pos))
        if link is None:
            return None
        t = d.translations[link.sentence]
        menu = QMenu(self)
        menu.setAccessibleName("Word details")
        piece = t.best.target_pieces[link.piece].replace(PIECE_MARK, "")
        word = word_at(t.best.text, *t.best.target_spans[link.piece]) or piece
        menu.addSection(f"“{word}” attended to")
        for label, weight in alignment_pairs(d, link.sentence, link.piece):
            menu.addAction(f"{label}   {weight:.2f}").setEnabled(False)
        alts = alternatives(t, link.piece, eos_id=self._eos_id())
        menu.addSection("Alternatives")
        sentence = d.segments[link.sentence].text
        if self.session.can_undo_choice(sentence):
            undo = menu.addAction("Undo my choice (back to the model's translation)")
            undo.triggered.connect(lambda _=False, s=sentence: self.session.undo_choice(s))
        if not alts and not self.session.can_undo_choice(sentence):
            # Qt hides an empty last section, so the hint is an item of its own
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
        d = self.highlighter.shown
        if d is not None:
            self.session.force_prefix(d.segments[sentence].text, tuple(prefix))

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
            # Atomic: a failed save never leaves the user's earlier file half-written.
            write_atomic(Path(path), self.output_edit.toPlainText() + "\n")
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
        self.session.cancel()
        self.source_edit.clear()
        self.output_edit.clear()
        self.highlighter.forget()
        self.session.clear()

    def _count_characters(self) -> None:
        n = len(self.source_edit.toPlainText())
        self.count_label.setText(f"{n:,} character{'' if n == 1 else 's'}")

    def _toggle_coverage(self, checked: bool) -> None:
        self.settings.coverage_hint = self.highlighter.coverage_hint = checked
        self.highlighter.update()

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
        h = self.highlighter
        if self.correction.active:
            return
        if h.shown is None or h.stale:
            self.show_message("There is no translation to correct yet")
            return
        if self.correction.begin(h.shown.source, h.shown.output):
            h.pause()

    def save_correction(self) -> int:
        """Store the pairs whose English the user edited; returns how many were new."""
        return self.correction.save()

    def discard_correction(self) -> None:
        self.correction.discard()

    def _on_correction_ended(self, kept: bool) -> None:
        h = self.highlighter
        if not kept:
            h.resume(reshow=True)
            return
        # The output is the user's text now: no alignment links for it, unless the German
        # changed meanwhile and its translation is waiting.
        h.resume(reshow=False)
        h.mark_stale()
        if h.shown is not None and h.shown.source != self.correction.source:
            self._show(h.shown, None)

    def corrections_dialog(self) -> None:
        CorrectionsDialog(self.corrections, self).exec()

    def glossary_dialog(self) -> GlossaryDialog:
        """Model → Glossary…: edit the terms; a saved change retranslates."""
        follows = bool(self.model_info and self.model_info.follows_glossary)
        dialog = GlossaryDialog(self.session.glossary or Glossary(), follows, self)
        if dialog.exec():
            self.session.glossary = dialog.glossary
            self.show_message(f"Glossary saved: {len(dialog.glossary.terms)} terms")
            self.translate_now()
        return dialog

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
        if self.model_info is not None and _same_folder(self.model_info.path, path):
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
        if self.notice.add(text):
            self.last_error = text

    def dismiss_notices(self) -> None:
        self.notice.dismiss()


READY_TEXT = "The English translation appears here as you type."
LOADING_TEXT = "Loading the model… What you type is translated as soon as it is ready."


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


def _same_folder(a: str, b: str) -> bool:
    try:
        return bool(a and b) and Path(a).resolve() == Path(b).resolve()
    except OSError:
        return a == b

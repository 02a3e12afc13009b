"""The main window: German in, English out, as you type; alignment panel; menus.

The window keeps layout, wiring and messages. Its parts are composed, each handed the
widgets and the session it uses: the menus (window_menus.py), the files and documents
(window_files.py), the word menu (word_menu.py), the dialogs (window_dialogs.py), the
choice of model and device (model_chooser.py). What to translate and when is the
:class:`TranslationSession`'s (worker thread, cache, request ids), the linked highlights
are the :class:`LinkHighlighter`'s, and correction mode is the
:class:`CorrectionController`'s; they talk to the window through signals.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QByteArray, QEvent, Qt, QTimer, Signal
from PySide6.QtGui import (
    QFont,
    QGuiApplication,
)
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMainWindow,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from translator_app.core import bundled_model_dir
from translator_app.core.data.corrections import CorrectionsStore
from translator_app.core.engine.model_features import missing_text
from translator_app.core.engine.text_document import DocumentTranslation
from translator_app.core.platform.paths import (
    remove_orphans,
    user_cache_dir,
    user_data_dir,
    user_models_dir,
)
from translator_app.core.text.tokenizer import EOS_ID
from translator_app.gui.dialogs.glossary_dialog import load_user_glossary
from translator_app.gui.dialogs.history import History
from translator_app.gui.shared.notices import ElidingStatusBar, Messages, NoticeBar
from translator_app.gui.shared.screen import fit_resize, labelled_box
from translator_app.gui.shared.settings import Settings
from translator_app.gui.shared.theme import apply_theme
from translator_app.gui.translating.session import TranslationSession
from translator_app.gui.translating.worker_messages import Failure, FailureKind, ModelInfo
from translator_app.gui.views.alignment import AlignmentPanel
from translator_app.gui.views.correction_mode import CorrectionController, correction_banner
from translator_app.gui.views.dictionary_view import DictionaryController
from translator_app.gui.views.highlighter import LinkHighlighter
from translator_app.gui.views.linking import shown_message
from translator_app.gui.views.positions import compose_in_place
from translator_app.gui.window.model_chooser import READY_TEXT, ModelChooser
from translator_app.gui.window.panel_room import PanelRoom
from translator_app.gui.window.window_dialogs import WindowCommands, WindowDialogs
from translator_app.gui.window.window_files import DocumentFiles
from translator_app.gui.window.window_menus import WindowMenus
from translator_app.gui.window.word_menu import WordMenu


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
        self.session.updated.connect(self._show)
        self.session.checked.connect(self._show_checked)
        self.session.outdated.connect(self.translate_now)
        self.session.progress.connect(self._show_progress)
        self.session.failed.connect(self._on_failed)
        self.history = History(user_data_dir() / "history.sqlite3")
        self.corrections = CorrectionsStore(user_data_dir() / "corrections.tsv")
        self.notice = NoticeBar()
        self.setStatusBar(ElidingStatusBar())
        self.messages = Messages(self.statusBar(), self.notice)

        self._build_editors()
        self._build_alignment()
        self._build_status()
        self._build_parts()
        self.menus = WindowMenus(self)
        self.models.rebuild_menu()  # the model list, now that the Model menu exists
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
                self.messages.lasting(problem)
        # What killed runs left behind: export temporaries and Teach work folders.
        for folder in (user_models_dir(), user_cache_dir() / "teach"):
            remove_orphans(folder)
        self.models.load(model or self.settings.model or str(bundled_model_dir()))

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
        # drags and drops reach the box's viewport, not the box: a dropped file was
        # inserted as "file:///…" and translated
        self.source_edit.viewport().installEventFilter(self)
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
            labelled_box("German", self.source_edit, self.count_label, self.clear_button)
        )
        self.correction_label = correction_banner()
        self.splitter.addWidget(
            labelled_box(
                "English", self.output_edit, self.copy_button, banner=self.correction_label
            )
        )
        self.notice_label = self.notice.label
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.notice)
        column.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        self.setAcceptDrops(True)

    def _build_parts(self) -> None:
        """The controllers, each handed the widgets, stores and session it uses."""
        self.models = ModelChooser(
            self,
            self.settings,
            self.session,
            self.messages,
            self.model_label,
            self._placeholder,
            self.save_settings,
        )
        self.session.load_failed.connect(self.models.load_failed)
        glossary, problem = load_user_glossary()  # Model → Glossary…
        self.session.glossary = glossary or None
        if problem:
            self.messages.error(problem)
        # The panel's other layers and heads are computed when the user picks one.
        self.alignment.layers_wanted.connect(self.session.explain)
        self.session.explained.connect(self.alignment.add_explained)
        self.highlighter = LinkHighlighter(
            self.source_edit, self.output_edit, self.alignment, parent=self
        )
        self.words = WordMenu(
            self.output_edit,
            self.highlighter,
            self.session,
            self.messages,
            lambda: self.model_info.eos_id if self.model_info else EOS_ID,
        )
        self.correction = CorrectionController(
            self.output_edit, self.correction_label, self.corrections, self
        )
        self.correction.message.connect(self.messages.show)
        self.dialogs = WindowDialogs(
            self,
            self.settings,
            self.session,
            (self.history, self.corrections),
            self.messages,
            self.models,
            self.source_edit,
            WindowCommands(
                self.translate_now,
                self.apply_settings,
                self.save_settings,
                lambda: self.menus.all_actions,
            ),
        )
        self.dictionary = DictionaryController(
            self.source_edit, self.dialogs.add_glossary_term, parent=self
        )
        self.alignment.word_lookup.connect(self.dictionary.look_up)
        self.highlighter.spelling_known = self.dictionary.known_word
        self.correction.error.connect(self.messages.error)
        self.correction.ended.connect(self._on_correction_ended)
        self.files = DocumentFiles(
            self, self.source_edit, self.output_edit, self.session, self.messages, self._opened
        )

    def _build_alignment(self) -> None:
        self.alignment = AlignmentPanel()
        self.alignment.problem.connect(self.messages.error)
        self.alignment.exported.connect(lambda p: self.messages.show(f"Heatmap saved to {p}"))
        self.alignment_dock = QDockWidget("Alignment", self)
        self.alignment_dock.setObjectName("alignment-dock")
        self.alignment_dock.setAccessibleName("Alignment dock")
        self.alignment_dock.setWidget(self.alignment)
        self.addDockWidget(Qt.BottomDockWidgetArea, self.alignment_dock)
        self.panel_room = PanelRoom(
            self,
            self.alignment_dock,
            self.alignment,
            (self.source_edit, self.output_edit),
            self.settings.alignment_fits,
        )

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
        # Shown while a translation is on its way (a slow model, a long sentence).
        self.busy_label = QLabel("Translating…")
        self.busy_label.setAccessibleName("Translation pending")
        self.statusBar().addPermanentWidget(self.busy_label)
        self.busy_label.hide()
        self.session.busy.connect(self.busy_label.setVisible)

    # --------------------------------------------------------------- settings
    def apply_settings(self) -> None:
        s = self.settings
        font = QFont(self.source_edit.font())
        font.setPointSize(s.font_size)
        self.source_edit.setFont(font)
        self.output_edit.setFont(font)
        self.splitter.setOrientation(Qt.Vertical if s.layout == "stacked" else Qt.Horizontal)
        apply_theme(s.theme)
        self.menus.coverage_action.setChecked(s.coverage_hint)
        self.highlighter.coverage_hint = s.coverage_hint
        self.debounce_ms = s.debounce_ms

    def save_settings(self) -> None:
        s = self.settings
        s.geometry = bytes(self.saveGeometry().toBase64()).decode()
        s.window_state = bytes(self.saveState().toBase64()).decode()
        s.alignment_fits = self.panel_room.fits
        s.show_alignment = self.alignment_dock.isVisible() or (
            not self.isVisible() and s.show_alignment
        )
        try:
            s.save()
        except OSError as e:
            self.messages.error(f"Could not save the settings: {e}")

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if self._first_layout:
            self._first_layout = False
            # Two fifths of the height (the text keeps the larger part): the map shows 7
            # English rows at 100 % zoom in a 700-pixel window; a third of a window lower
            # than 500 pixels (1400x900 at scale 2), where the text comes first.
            share = 2 / 5 if self.height() >= 500 else 1 / 3
            dock = max(120, int(self.height() * share))
            self.resizeDocks([self.alignment_dock], [dock], Qt.Vertical)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        self.save_settings()
        self.session.shutdown()  # cancels a model load in progress; never blocks long
        self.dialogs.shutdown()
        self.dictionary.close()
        self.history.close()
        super().closeEvent(event)

    # ----------------------------------------------------------------- models
    @property
    def model_info(self) -> ModelInfo | None:
        return self.session.model_info

    def _placeholder(self, text: str) -> None:
        self.output_edit.setPlaceholderText(text)
        # Qt repaints an empty box's placeholder only on its next paint event: without
        # this the box said "Loading the model…" after the model had loaded (seen on Xvfb).
        self.output_edit.viewport().update()

    def _on_model_loaded(self, info: ModelInfo) -> None:
        self.models.loaded(info)
        self.device_label.setText(f"Device: {info.device}")
        self.alignment.set_model_shape(
            info.layers, info.heads, info.alignment_layer, info.alignment_head
        )
        for w in info.warnings:
            self.messages.lasting(w)  # stays until read: "Loaded … on cpu" would overwrite it
        self.messages.show(f"Loaded {info.name} on {info.device} in {info.seconds:.1f} s")
        if (missing := missing_text(info.name, info.features)) and self.session.glossary:
            # A glossary that stops applying must not go unseen: a notice until dismissed.
            self.messages.lasting(f"{missing}; your glossary is kept for a model that follows it")
        elif missing:
            self.messages.show(missing, 15000)
        self.translate_now()

    # ------------------------------------------------------------ translating
    def _on_text_changed(self) -> None:
        if compose_in_place(self.source_edit):
            return  # composed: the box changed again, and that change is translated
        self.highlighter.mark_stale()
        self.messages.text_changed()  # „may not keep 1.249,90“ named the old text
        self.debounce.start(self.debounce_ms)

    def translate_now(self) -> None:
        self.debounce.stop()
        s = self.settings
        self.session.translate(self.source_edit.toPlainText(), s.beam, s.nbest, s.steps)

    def _show_progress(self, done: int, total: int) -> None:
        """Long texts: "sentences done of total" while the English fills in."""
        if total:
            self.progress.setRange(0, total)
            self.progress.setValue(done)
        self.progress.setVisible(bool(total))

    def _on_failed(self, failure: Failure) -> None:
        self.messages.error(f"Translation failed: {failure.message}")
        info = self.model_info
        if failure.kind is FailureKind.DEVICE and info and info.device.startswith("cuda"):
            self.messages.error("CUDA failed; falling back to the CPU.")
            self.settings.device = "cpu"
            self.models.load(info.path)

    def _show(self, doc: DocumentTranslation, seconds: float | None, final: bool = True) -> None:
        """Show a translation; ``final`` is False while a long text is still filling in
        (not yet in the history, no ``translation_shown``)."""
        if not self.highlighter.show(doc):
            return  # correcting: shown when the correction is saved or discarded
        if seconds is not None:
            self.time_label.setText(f"{seconds * 1000:.0f} ms")
        if not final:
            return
        if (message := shown_message(doc)) is not None:
            self.messages.about_text(message)
        if (
            doc.source.strip()
            and self.settings.history_enabled
            and self.history.available
            and self.model_info
        ):
            try:
                self.history.record(doc.source, doc.output, self.model_info.name)
            except Exception as e:  # noqa: BLE001 - a history problem must not stop translating
                self.messages.error(f"Could not write the history: {e}")
        self.translation_shown.emit(doc.output)

    def _show_checked(self, doc: DocumentTranslation) -> None:
        """The same English with marks on the German words it may drop (the check runs
        after the English shows); said in the status bar unless a lost fact is."""
        if not self.highlighter.show(doc):
            return
        dropped = doc.not_carried()
        if dropped and not doc.issues():
            words = ", ".join(f"„{w}“" for _, _, w in dropped[:3])
            more = f" and {len(dropped) - 3} more" if len(dropped) > 3 else ""
            # Short: the status bar shares its line with the model and the timing.
            self.messages.about_text(f"May be missing in the English: {words}{more} (lilac marks)")

    def highlighted_ranges(self, side: str) -> list[tuple[int, int]]:
        return self.highlighter.highlighted_ranges(side)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        kind = event.type()
        if obj in (self.source_edit, self.source_edit.viewport()) and kind in (
            QEvent.DragEnter,
            QEvent.DragMove,
            QEvent.Drop,
        ):
            return self.files.drop(event)
        if (
            obj is self.output_edit.viewport()
            and kind == QEvent.MouseButtonRelease
            and not self.correction.active
            and event.button() == Qt.LeftButton
            and not self.output_edit.textCursor().hasSelection()
        ):
            QTimer.singleShot(0, partial(self.words.popup_at, event.position().toPoint()))
        return super().eventFilter(obj, event)

    def dragEnterEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802 - Qt's name
        self.files.drop(event)

    def _opened(self, path: str) -> None:
        """A text or document is in the German box: remember it, translate it."""
        self.menus.recent.add(path)
        self.translate_now()

    # ------------------------------------------------------------ corrections
    def begin_correction(self) -> None:
        """Let the user edit the English output; saving stores (German, corrected) pairs."""
        h = self.highlighter
        if self.correction.active:
            return
        if h.shown is None or h.stale:
            self.messages.show("There is no translation to correct yet")
            return
        if self.correction.begin(h.shown.source, h.shown.output):
            h.pause()

    def _on_correction_ended(self, kept: bool) -> None:
        h = self.highlighter
        if not kept:
            h.resume(reshow=True)
            return
        # The output is the user's text now: no alignment links for it, unless the German
        # changed meanwhile and its translation is waiting. The panel still shows what
        # the model attended to, and says that its English is the model's, not the user's.
        self.alignment.set_corrected(True)
        h.resume(reshow=False)
        h.mark_stale()
        if h.shown is not None and h.shown.source != self.correction.source:
            self._show(h.shown, None)

    # ------------------------------------------------------------- commands
    def edit_command(self, method: str) -> None:
        """Undo, Cut, Paste… on the focused box (Copy also works in the read-only
        English; the others need an editable box, which QPlainTextEdit checks itself)."""
        focused = self.focusWidget()
        edit = focused if focused in (self.source_edit, self.output_edit) else self.source_edit
        getattr(edit, method)()

    def copy_translation(self) -> None:
        QGuiApplication.clipboard().setText(self.output_edit.toPlainText())
        self.messages.show("Translation copied")

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

    def toggle_coverage(self, checked: bool) -> None:
        self.settings.coverage_hint = self.highlighter.coverage_hint = checked
        self.highlighter.update()

    def toggle_layout(self) -> None:
        s = self.settings
        s.layout = "stacked" if s.layout == "side-by-side" else "side-by-side"
        self.apply_settings()

"""Secondary windows: settings, history, keyboard shortcuts, the model card, About."""

from __future__ import annotations

import html
import re
import sys
import time

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from translator_app.core.engine.model_card import for_users
from translator_app.core.engine.model_features import features_markdown
from translator_app.core.postedit.pipeline import english_of, parse_steps, with_english, with_step
from translator_app.gui.dialogs.history import History
from translator_app.gui.shared.screen import close_buttons, fit_resize
from translator_app.gui.shared.settings import (
    BEAM_RANGE,
    DEBOUNCE_RANGE_MS,
    FONT_SIZE_RANGE,
    LAYOUTS,
    THEMES,
    Settings,
)


class SettingsDialog(QDialog):
    """``model_search``: the loaded model's (beam, n-best), shown for "the model's"."""

    def __init__(
        self,
        settings: Settings,
        parent: QWidget | None = None,
        model_search: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.setAccessibleName("Settings")
        beam, nbest = model_search or (None, None)
        self.beam = _model_or_spin(settings.beam, beam, "Beam size")
        self.nbest = _model_or_spin(settings.nbest, nbest, "Alternatives (n-best)")
        self.beam.setToolTip(
            "How many partial translations the search keeps at each word: wider finds "
            "better English, slower. 1 is greedy, the fastest."
        )
        self.nbest.setToolTip(
            "How many whole translations of each sentence are weighed: the first that "
            "keeps every number, name and glossary term wins. More than the beam widens it."
        )
        self.debounce = _spin(
            *DEBOUNCE_RANGE_MS, settings.debounce_ms, "Pause before translating (ms)"
        )
        self.debounce.setSingleStep(50)
        self.font_size = _spin(*FONT_SIZE_RANGE, settings.font_size, "Font size")
        self.layout_box = QComboBox()
        self.layout_box.setAccessibleName("Layout")
        for name in LAYOUTS:
            self.layout_box.addItem(name.replace("-", " "), name)
        self.layout_box.setCurrentIndex(LAYOUTS.index(settings.layout))
        self.theme_box = QComboBox()
        self.theme_box.setAccessibleName("Appearance")
        for name in THEMES:
            self.theme_box.addItem({"system": "as the system"}.get(name, name), name)
        self.theme_box.setCurrentIndex(THEMES.index(settings.theme))
        self.coverage = QCheckBox("Underline German words that got little attention")
        self.coverage.setAccessibleName("Coverage hint")
        self.coverage.setChecked(settings.coverage_hint)
        self.other_languages = QCheckBox(
            "Keep sentences in another language than German as written (not translated)"
        )
        self.other_languages.setAccessibleName("Keep other languages")
        self.other_languages.setChecked("other-languages" in parse_steps(settings.steps))
        self.english = QComboBox()
        self.english.setAccessibleName("English spelling")
        self.english.setToolTip(
            "Spellings, titles and dates: 'colour', 'Ms Kowalczyk', '14 June' (British) or "
            "'color', 'Ms. Kowalczyk', 'June 14' (American); the model writes a mix of both"
        )
        for label, variant in (
            ("as the model writes", ""),
            ("British", "british"),
            ("American", "american"),
        ):
            self.english.addItem(label, variant)
        self.english.setCurrentIndex(self.english.findData(english_of(parse_steps(settings.steps))))
        self.history = QCheckBox("Keep a history of translations")
        self.history.setAccessibleName("Keep history")
        self.history.setChecked(settings.history_enabled)
        form = QFormLayout()
        form.addRow("Beam size (1 = greedy, fastest)", self.beam)
        form.addRow("Alternatives per sentence", self.nbest)
        form.addRow("Pause before translating (ms)", self.debounce)
        form.addRow("Layout", self.layout_box)
        form.addRow("Appearance", self.theme_box)
        form.addRow("Font size", self.font_size)
        form.addRow("English", self.english)
        form.addRow(self.coverage)
        form.addRow(self.other_languages)
        form.addRow(self.history)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def apply(self, settings: Settings) -> None:
        settings.beam = self.beam.value() or None  # 0: the model's
        settings.nbest = self.nbest.value() or None
        settings.debounce_ms = self.debounce.value()
        settings.layout = self.layout_box.currentData()
        settings.theme = self.theme_box.currentData()
        settings.font_size = self.font_size.value()
        settings.coverage_hint = self.coverage.isChecked()
        settings.history_enabled = self.history.isChecked()
        steps = with_step(settings.steps, "other-languages", self.other_languages.isChecked())
        settings.steps = with_english(steps, self.english.currentData())


def _model_or_spin(value: int | None, model: int | None, name: str) -> QSpinBox:
    """The window's beam range, or 0 shown as "the model's" (the bundle's default, with its
    value when a model is loaded)."""
    box = _spin(0, BEAM_RANGE[1], value or 0, name)
    box.setSpecialValueText(f"the model's ({model})" if model else "the model's")
    return box


def _spin(lo: int, hi: int, value: int, name: str) -> QSpinBox:
    box = QSpinBox()
    box.setRange(lo, hi)
    box.setValue(value)
    box.setAccessibleName(name)
    return box


class HitDelegate(QStyledItemDelegate):
    """Draws a cell with the search's hit in it marked (bold, on the highlight's colour
    made light); cells without a hit as usual."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.wanted = ""

    def html_for(self, text: str) -> str | None:
        """``text`` as HTML with each hit of :attr:`wanted` (any case) marked; None
        where there is none."""
        if not self.wanted or not text:
            return None
        parts = re.split(f"({re.escape(self.wanted)})", text, flags=re.IGNORECASE)
        if len(parts) == 1:
            return None
        return "".join(
            f"<b style='background-color:{HIT_BACKGROUND}; color:#000'>{html.escape(p)}</b>"
            if i % 2
            else html.escape(p)
            for i, p in enumerate(parts)
        )

    def paint(self, painter, option, index) -> None:
        marked = self.html_for(str(index.data() or ""))
        if marked is None:
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        doc = QTextDocument()
        doc.setDefaultFont(opt.font)
        doc.setDocumentMargin(2)
        doc.setHtml(f"<span style='color:{opt.palette.text().color().name()}'>{marked}</span>")
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, opt.widget)
        painter.save()
        painter.translate(rect.topLeft())
        painter.setClipRect(rect.translated(-rect.topLeft()))
        doc.drawContents(painter)
        painter.restore()


HIT_BACKGROUND = "#ffe37a"  # a search hit, readable in light and dark rows alike


class HistoryDialog(QDialog):
    """Search, reuse and delete past translations."""

    reuse = Signal(str)  # the source text to put back into the input box

    def __init__(self, history: History, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.history = history
        self.setWindowTitle("History")
        self.setAccessibleName("History")
        fit_resize(self, 760, 420)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search German or English…")
        self.search.setAccessibleName("Search history")
        self.search.textChanged.connect(self.refresh)
        self.table = QTableWidget(0, 4)
        self.table.setAccessibleName("History entries")
        self.table.setHorizontalHeaderLabels(["Time", "German", "English", "Model"])
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.Stretch)
        header.setSectionResizeMode(2, QHeaderView.Stretch)
        self.hits = HitDelegate(self.table)
        self.table.setItemDelegate(self.hits)
        self.table.doubleClicked.connect(lambda _: self._reuse())
        buttons = QHBoxLayout()
        for text, name, slot in (
            ("Reuse", "Put the selected German text into the input box", self._reuse),
            ("Delete", "Delete the selected entries", self._delete),
            ("Clear all", "Delete the whole history", self._clear),
            (None, None, None),
            ("Close", "Close history", self.accept),
        ):
            if text is None:
                buttons.addStretch(1)
                continue
            button = QPushButton(text)
            button.setAccessibleName(name)
            button.clicked.connect(slot)
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self.entries = []
        self.refresh()

    def refresh(self) -> None:
        self.hits.wanted = self.search.text().strip()
        self.entries = self.history.search(self.search.text())
        self.table.setRowCount(len(self.entries))
        for r, e in enumerate(self.entries):
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(e.created))
            for c, value in enumerate((when, e.source, e.output, e.model)):
                self.table.setItem(r, c, QTableWidgetItem(value))

    def selected_ids(self) -> list[int]:
        rows = sorted({i.row() for i in self.table.selectedIndexes()})
        return [self.entries[r].id for r in rows if r < len(self.entries)]

    def _reuse(self) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()})
        if rows:
            self.reuse.emit(self.entries[rows[0]].source)
            self.accept()

    def _delete(self) -> None:
        for entry_id in self.selected_ids():
            self.history.delete(entry_id)
        self.refresh()

    def _clear(self) -> None:
        self.history.clear()
        self.refresh()


class ShortcutsDialog(QDialog):
    """Every menu entry with a shortcut: its menu, its name and its keys, in the menus'
    order; the field above filters by any of the three ("undo", "Ctrl+D", "view")."""

    def __init__(self, actions: list[QAction], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.setAccessibleName("Keyboard shortcuts")
        rows = [
            (_menu_of(a), a.text().replace("&", "").rstrip("…"), a.shortcut().toString())
            for a in actions
        ]
        rows = [r for r in rows if r[2]]
        self.search = QLineEdit()
        self.search.setPlaceholderText("Find a command, a key or a menu…")
        self.search.setAccessibleName("Find a shortcut")
        table = QTableWidget(len(rows), 3)
        table.setAccessibleName("Shortcut list")
        table.setHorizontalHeaderLabels(["Menu", "Command", "Shortcut"])
        table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        table.verticalHeader().hide()
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                table.setItem(r, c, QTableWidgetItem(text))
        table.resizeColumnToContents(0)
        table.horizontalHeader().setSectionResizeMode(1, QHeaderView.Stretch)
        table.resizeColumnToContents(2)
        self.table = table
        self.search.textChanged.connect(self._filter)
        close = close_buttons(self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(table)
        layout.addWidget(close)
        fit_resize(self, 600, 560)

    def _filter(self, text: str) -> None:
        """Rows whose menu, command or keys hold ``text`` (any case); all where empty."""
        wanted = text.strip().casefold()
        for r in range(self.table.rowCount()):
            cells = " ".join(self.table.item(r, c).text() for c in range(3)).casefold()
            self.table.setRowHidden(r, bool(wanted) and wanted not in cells)


def _menu_of(action: QAction) -> str:
    """The title of the menu that holds ``action`` ('' where none does)."""
    for obj in action.associatedObjects():
        if isinstance(obj, QMenu) and obj.title():
            return obj.title().replace("&", "")
    return ""


class ModelCardDialog(QDialog):
    """The card's users' part, then what the app does with this model (``features``)."""

    def __init__(
        self, title: str, card: str, parent: QWidget | None = None, features: tuple = ()
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Model card — {title}")
        self.setAccessibleName("Model card")
        view = QTextBrowser()
        view.setAccessibleName("Model card text")
        view.setOpenExternalLinks(True)
        # The users' part: the developer details stay in the bundle's MODEL_CARD.md.
        text = for_users(card) if card else "This model has no model card."
        view.setMarkdown(text + ("\n\n" + features_markdown(features) if features else ""))
        close = close_buttons(self)
        layout = QVBoxLayout(self)
        layout.addWidget(view)
        layout.addWidget(close)
        fit_resize(self, 720, 560)


# What the app is built from, with each part's licence (shown in Help → About).
COMPONENTS = (
    ("PyTorch", "BSD-3-Clause"),
    ("Qt for Python (PySide6)", "LGPL-3.0"),
    ("SentencePiece", "Apache-2.0"),
    ("safetensors", "Apache-2.0"),
    ("Matplotlib", "Matplotlib licence (PSF-based)"),
    ("NumPy", "BSD-3-Clause"),
    ("platformdirs", "MIT"),
    ("CTranslate2", "MIT"),
    ("python-docx", "MIT"),
    ("lxml", "BSD-3-Clause"),
    ("odfpy", "Apache-2.0 (also offered under GPL and LGPL)"),
    ("defusedxml", "PSF-2.0"),
    ("pySBD", "MIT"),
    ("PyYAML", "MIT"),
    ("sacrebleu", "Apache-2.0"),
    ("simplemma (German lemmas for the dictionary)", "MIT"),
    ("text2num (German numbers in words)", "MIT"),
    ("num2words (English numbers in words)", "LGPL-2.1"),
    ("py3langid (which language a sentence is in)", "BSD-3-Clause"),
    ("pyspellchecker and its German word list from OpenSubtitles (words typed wrong)", "MIT"),
    ("breame (British and American spellings)", "Apache-2.0"),
    ("requests (Model → Get models)", "Apache-2.0"),
    ("protobuf", "BSD-3-Clause"),
    ("Ding German-English dictionary 1.9, Frank Richter, TU Chemnitz (data)", "GPL-2.0-or-later"),
)


class AboutDialog(QDialog):
    """Version, the model in use (its licence is in its card) and the parts' licences."""

    def __init__(self, model: str, device: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from translator_app import __version__

        self.setWindowTitle("About the translator")
        self.setAccessibleName("About")
        parts = "".join(f"<li>{name}: {licence}</li>" for name, licence in COMPONENTS)
        on = f" on {device}" if device else ""
        self.text = QLabel(
            f"<h3 style='margin-top: 0'>German → English Translator {__version__}</h3>"
            "<p>Translates German text offline, on this computer: nothing you type leaves "
            "it. The alignment panel shows which German words each English word was "
            "translated from.</p>"
            f"<p><b>Model:</b> {model}{on}. Its training data and their licences are in "
            "Model → Model card.</p>"
            "<p><b>Licence:</b> MIT. Built with:</p>"
            f"<ul>{parts}</ul>"
            f"<p>Python {sys.version.split()[0]}, Qt for Python {pyside_version}</p>"
        )
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextBrowserInteraction)
        # At the top: a label centres itself in spare height, which left an empty band
        # above the title.
        self.text.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        # Scrolled: the list of parts is longer than a small screen is high.
        scroll = QScrollArea()
        scroll.setAccessibleName("About the translator and its parts")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.text)
        close = close_buttons(self)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addWidget(close)
        fit_resize(self, 520, 560)

"""The main window's dialogs: settings, history, about, shortcuts, model card,
corrections, glossary, Teach and Compare models, and what their choices change.

:class:`WindowDialogs` is handed what the dialogs read and change (the settings, the
session with its glossary, the history, the corrections, the model chooser) and the
window's few commands they trigger (translate again, apply and save the settings)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from translator_app.core.data.corrections import CorrectionsStore
from translator_app.core.faithful.glossary import Glossary, Term, write_glossary
from translator_app.gui.dialogs.compare_dialog import CompareDialog, sentence_at
from translator_app.gui.dialogs.corrections_dialog import CorrectionsDialog
from translator_app.gui.dialogs.glossary_dialog import GlossaryDialog, glossary_path
from translator_app.gui.dialogs.history import History
from translator_app.gui.dialogs.secondary_dialogs import (
    AboutDialog,
    HistoryDialog,
    ModelCardDialog,
    SettingsDialog,
    ShortcutsDialog,
)
from translator_app.gui.shared.model_list import discover
from translator_app.gui.teach.teach_dialog import TeachDialog

if TYPE_CHECKING:
    from translator_app.gui.shared.notices import Messages
    from translator_app.gui.shared.settings import Settings
    from translator_app.gui.translating.session import TranslationSession
    from translator_app.gui.translating.worker_messages import ModelInfo
    from translator_app.gui.window.model_chooser import ModelChooser


@dataclass(frozen=True)
class WindowCommands:
    """What the dialogs ask of the window."""

    translate_now: Callable[[], None]
    apply_settings: Callable[[], None]
    save_settings: Callable[[], None]
    actions: Callable[[], list[QAction]]  # every menu action, for the shortcuts list


class WindowDialogs:
    def __init__(
        self,
        parent: QWidget,
        settings: Settings,
        session: TranslationSession,
        stores: tuple[History, CorrectionsStore],
        messages: Messages,
        models: ModelChooser,
        source_edit: QPlainTextEdit,
        commands: WindowCommands,
    ) -> None:
        self.parent, self.settings, self.session = parent, settings, session
        self.history, self.corrections = stores
        self.messages, self.models, self.source_edit = messages, models, source_edit
        self.commands = commands
        self.teach: TeachDialog | None = None  # modeless: one at a time
        self.compare: CompareDialog | None = None  # likewise
        self._closed_compares: list[CompareDialog] = []  # closed, their thread still busy

    @property
    def model_info(self) -> ModelInfo | None:
        return self.session.model_info

    def settings_dialog(self) -> None:
        info = self.model_info
        dialog = SettingsDialog(self.settings, self.parent, info and (info.beam, info.nbest))
        if dialog.exec():
            before = (self.settings.beam, self.settings.nbest, self.settings.steps)
            dialog.apply(self.settings)
            self.commands.apply_settings()
            if (self.settings.beam, self.settings.nbest, self.settings.steps) != before:
                self.commands.translate_now()
            self.commands.save_settings()

    def history_dialog(self) -> None:
        if not self.history.available:
            self.messages.lasting(self.history.problem or "The history is not available")
            return
        dialog = HistoryDialog(self.history, self.parent)
        dialog.reuse.connect(self.source_edit.setPlainText)
        dialog.exec()

    def about_dialog(self) -> AboutDialog:
        info = self.model_info
        dialog = AboutDialog(
            info.name if info else "none", info.device if info else "", self.parent
        )
        dialog.show()
        return dialog

    def shortcuts_dialog(self) -> None:
        ShortcutsDialog(self.commands.actions(), self.parent).exec()

    def model_card_dialog(self) -> None:
        if self.model_info is None:
            self.messages.error("No model is loaded")
            return
        info = self.model_info
        ModelCardDialog(info.name, info.card, self.parent, info.features).exec()

    def corrections_dialog(self) -> None:
        CorrectionsDialog(self.corrections, self.parent).exec()

    def glossary_dialog(self) -> GlossaryDialog:
        """Model → Glossary…: edit the terms; a saved change retranslates."""
        follows = bool(self.model_info and self.model_info.follows_glossary)
        dialog = GlossaryDialog(self.session.glossary or Glossary(), follows, self.parent)
        if dialog.exec():
            self.session.glossary = dialog.glossary
            self.messages.show(f"Glossary saved: {len(dialog.glossary.terms)} terms")
            self.commands.translate_now()
        return dialog

    def add_glossary_term(self, german: str, english: str) -> None:
        """From the dictionary: „german“ is always translated as ``english`` (an entry for
        the same German is replaced); saved at once, the text translated again."""
        glossary = self.session.glossary or Glossary()
        before = next((t.target for t in glossary.terms if t.source == german), None)
        terms = [t for t in glossary.terms if t.source != german] + [Term(german, english)]
        try:
            updated = Glossary(tuple(terms))
            write_glossary(glossary_path(), updated)
        except (OSError, ValueError) as e:
            self.messages.error(f"Could not save the glossary: {getattr(e, 'strerror', None) or e}")
            return
        self.session.glossary = updated
        change = f" (was “{before}”)" if before and before != english else ""
        if not (self.model_info and self.model_info.follows_glossary):
            change += "; this model does not follow a glossary"
        self.messages.show(f"Glossary: „{german}“ → “{english}” saved{change}", 10000)
        self.commands.translate_now()

    # ---------------------------------------------------------------- compare
    def compare_dialog(self) -> CompareDialog:
        """The sentence at the cursor translated by two models side by side, with both
        heat-maps (modeless: the user can go on typing and compare again)."""
        text = self.source_edit.toPlainText()
        sentence = sentence_at(text, self.source_edit.textCursor().position())
        if self.compare is not None and self.compare.isVisible():
            self.compare.set_sentence(sentence)
            self.compare.raise_()
            return self.compare
        if self.compare is not None:  # closed before
            self.compare.dispose()
            self._closed_compares = [
                d for d in [*self._closed_compares, self.compare] if shiboken6.isValid(d)
            ]
        entries = discover(self.settings.extra_models)
        self.compare = CompareDialog(sentence, entries, self.settings.device, self.parent)
        self.compare.show()
        return self.compare

    def shutdown(self) -> None:
        """The window closes: end the threads of the dialogs that have them."""
        for dialog in [*self._closed_compares, self.compare]:
            if dialog is not None and shiboken6.isValid(dialog):  # not deleted yet
                dialog.stop()

    # ------------------------------------------------------------------ teach
    def teach_dialog(self) -> TeachDialog | None:
        """The fine-tune dialog for the current model (modeless: translating goes on)."""
        if self.model_info is None:
            self.messages.error("Load a model first: fine-tuning starts from the current model")
            return None
        if self.teach is not None and self.teach.isVisible():
            self.teach.raise_()
            return self.teach
        dialog = TeachDialog(
            self.model_info.path, self.model_info.name, self.corrections, self.parent
        )
        dialog.model_added.connect(lambda _: self.models.rebuild_menu())
        dialog.model_removed.connect(self.models.removed)
        dialog.use_model.connect(self.models.use)
        dialog.show()
        self.teach = dialog
        return dialog

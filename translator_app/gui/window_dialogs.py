"""The main window's dialogs: settings, history, about, shortcuts, model card,
corrections, glossary and Teach, and what their choices change in the window."""

from __future__ import annotations

from translator_app.core import bundled_model_dir
from translator_app.core.faithful.glossary import Glossary, Term, write_glossary
from translator_app.gui.corrections_dialog import CorrectionsDialog
from translator_app.gui.glossary_dialog import GlossaryDialog, glossary_path
from translator_app.gui.secondary_dialogs import (
    AboutDialog,
    HistoryDialog,
    ModelCardDialog,
    SettingsDialog,
    ShortcutsDialog,
)
from translator_app.gui.teach_dialog import TeachDialog
from translator_app.gui.window_menus import same_folder


class DialogsMixin:
    """Methods of :class:`~translator_app.gui.window.MainWindow` (a mixin: ``self`` is the
    window)."""

    def settings_dialog(self) -> None:
        info = self.model_info
        dialog = SettingsDialog(self.settings, self, info and (info.beam, info.nbest))
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
        # changed meanwhile and its translation is waiting. The panel still shows what
        # the model attended to, and says that its English is the model's, not the user's.
        self.alignment.set_corrected(True)
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
            self.show_error(f"Could not save the glossary: {getattr(e, 'strerror', None) or e}")
            return
        self.session.glossary = updated
        change = f" (was “{before}”)" if before and before != english else ""
        if not (self.model_info and self.model_info.follows_glossary):
            change += "; this model does not follow a glossary"
        self.show_message(f"Glossary: „{german}“ → “{english}” saved{change}", 10000)
        self.translate_now()

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
        if self.model_info is not None and same_folder(self.model_info.path, path):
            self.load_model(str(bundled_model_dir()))
        self.rebuild_model_menu()

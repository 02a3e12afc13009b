"""The translation session: everything between the German box and the worker thread.

It loads models, splits the text into sentences once per change (on the worker thread
for large texts), asks the worker only for the sentences its cache lacks (the core's
IncrementalDocument, which the command line fills in at once), and reports what to show
through signals. Every text change gets one new id from one counter, and one method
decides whether a reply is still wanted, so a burst of typing shows only the last edit's
translation (translateLocally's "latest request wins"); a failure is shown only for what
the user still waits for.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from translator_app.core import Segment, Translation
from translator_app.core.engine.text_document import (
    IncrementalDocument,
    TranslationCache,
    split_document,
)
from translator_app.core.faithful.glossary import Glossary
from translator_app.gui.translating.worker import GROUP_SIZES, TranslationWorker, release_memory
from translator_app.gui.translating.worker_messages import (
    AlternativesRequest,
    AlternativesResult,
    CheckRequest,
    CheckResult,
    ExplainRequest,
    ExplainResult,
    Failure,
    LoadRequest,
    ModelInfo,
    SplitRequest,
    SplitResult,
    TranslateRequest,
    TranslateResult,
)

# Texts longer than this are split into sentences on the worker thread: splitting
# 20,000 characters takes about 40 ms here, too long for a keystroke on the GUI thread.
SPLIT_ON_WORKER = 5_000


class TranslationSession(QObject):
    """Owns the worker, the cache and the request ids; talks to the window by signals."""

    model_loaded = Signal(object)  # ModelInfo
    load_failed = Signal(object)  # Failure
    # What to show: the text's translation (gaps where sentences are missing), the
    # seconds the last request took (None: from the cache or partial), and whether it is
    # final (False while a long text fills in).
    updated = Signal(object, object, bool)
    progress = Signal(int, int)  # sentences done, of total (0, 0: no count to show)
    busy = Signal(bool)  # a translation is on its way
    failed = Signal(object)  # Failure of a translation
    # A translation and the same with every layer's and head's attention (explain()).
    explained = Signal(object, object)
    # A translation, a target position and the model's alternatives there (Candidates).
    alternatives_found = Signal(object, int, object)
    # The text's translation again, once the worker has checked its sentences for
    # content the English drops (issue 48 §3): marks only, the English is unchanged.
    checked = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.worker = TranslationWorker(self)
        self.worker.model_loaded.connect(self._on_model_loaded)
        self.worker.load_failed.connect(self._on_load_failed)
        self.worker.split_done.connect(self._on_split)
        self.worker.progressed.connect(self._on_progressed)
        self.worker.translated.connect(self._on_translated)
        self.worker.failed.connect(self._on_failed)
        self.worker.explained.connect(self._on_explained)
        self.worker.alternatives_found.connect(self._on_alternatives)
        self.worker.checked.connect(self._on_checked)
        self.cache = TranslationCache()
        # The text, its sentences and their translations as known so far (the same
        # incremental document the command line fills in at once).
        self.document = IncrementalDocument(self.cache)
        # The user's glossary (Model → Glossary…): part of every cache key, so a change
        # retranslates; applied only with a model that follows one.
        self.glossary: Glossary | None = None
        self.model_info: ModelInfo | None = None
        self.loading_path: str | None = None
        self.beam = self.nbest = 1
        self._last_id = 0
        # The load, the text request and the explanation still wanted. A text change
        # gets one id: its split (on the worker for a long text) and its translation
        # share it.
        self._load_id = self._wanted_id = self._explain_id = self._alternatives_id = -1
        # The translation whose check for dropped content is wanted, and its sentences
        # with the translations checked.
        self._check_id, self._checked = -1, {}
        self._asked: tuple[str, ...] = ()  # the sentences of the wanted request
        # A sentence's translation before the user chose an alternative word, so the
        # choice can be undone.
        self._before_choice: dict[str, Translation] = {}
        self._busy = False

    # ----------------------------------------------------------------- models
    @property
    def model_path(self) -> str | None:
        """The model loading or in use."""
        return self.loading_path or (self.model_info.path if self.model_info else None)

    def load(self, path: str, device: str) -> None:
        self._load_id = self._new_id()
        self.loading_path = path
        self.worker.load(LoadRequest(self._load_id, path, device))

    def _on_model_loaded(self, info: ModelInfo) -> None:
        if self._wanted(info.request_id):
            self.model_info, self.loading_path = info, None
            self.model_loaded.emit(info)

    def _on_load_failed(self, failure: Failure) -> None:
        if self._wanted(failure.request_id):
            self.loading_path = None
            self.load_failed.emit(failure)

    def _model_id(self) -> str:
        info = self.model_info
        return f"{info.path}|{info.device}" if info else ""

    # ------------------------------------------------------------ translating
    @property
    def pending(self) -> bool:
        return self._wanted_id != -1

    def translate(self, text: str, beam: int | None, nbest: int | None) -> None:
        """Show ``text``'s translation: at once from the cache, else once the worker has
        translated the missing sentences (with progress for a long text)."""
        if self.model_info is None:
            return
        self.beam, self.nbest = beam, nbest
        self._wanted_id = self._new_id()
        self._check_id = -1
        if len(text) > SPLIT_ON_WORKER:
            self._set_busy(True)
            self.worker.split(SplitRequest(self._wanted_id, text))
        else:
            self._plan(text, split_document(text))

    def _on_split(self, result: SplitResult) -> None:
        if self._wanted(result.request_id):
            self._plan(result.text, result.segments)

    def _plan(self, text: str, segments: tuple[Segment, ...]) -> None:
        """Ask for the sentences the cache lacks (the text's one split)."""
        missing = self.document.set_text(text, segments, self._context())
        if not missing:
            self.worker.cancel()
            self._finish()
            self.updated.emit(self.document.view(), None, True)
            return
        self._set_busy(True)
        self._ask(tuple(missing))
        if len(missing) > GROUP_SIZES[0]:
            # A long text (an opened file, a paste): the old English goes at once, what is
            # cached shows, and the rest fills in group by group with a count.
            self.progress.emit(0, len(missing))
            self.updated.emit(self.document.view(), None, False)
        else:
            self.progress.emit(0, 0)

    def _ask(self, sentences: tuple[str, ...], prefix: tuple[int, ...] = ()) -> None:
        self._asked = sentences
        self.worker.translate(
            TranslateRequest(
                self._wanted_id, sentences, self.beam, self.nbest, prefix, self._glossary()
            )
        )

    def force_prefix(self, sentence: str, prefix: tuple[int, ...]) -> None:
        """Re-decode one sentence of the text with the chosen beginning forced; its new
        translation replaces the cached one."""
        if self.model_info is None:
            return
        current = self.document.get(sentence)
        if current is not None and sentence not in self._before_choice:
            self._before_choice[sentence] = current
        self._wanted_id = self._new_id()
        self._set_busy(True)
        self._ask((sentence,), prefix)

    def can_undo_choice(self, sentence: str) -> bool:
        return sentence in self._before_choice

    def undo_choice(self, sentence: str) -> bool:
        """Show the sentence's translation from before the user chose an alternative."""
        old = self._before_choice.pop(sentence, None)
        if old is None or self.model_info is None:
            return False
        self.worker.cancel()
        self._finish()
        self.updated.emit(self.document.add([(sentence, old)]), None, True)
        return True

    def _on_progressed(self, result: TranslateResult) -> None:
        if self._wanted(result.request_id, result.model_path):
            self.progress.emit(result.done, result.total)
            self.updated.emit(self._add(result), None, False)

    def _on_translated(self, result: TranslateResult) -> None:
        if self._wanted(result.request_id, result.model_path):
            joined = self._add(result)
            self._finish()
            self.updated.emit(joined, result.seconds, True)
            self._check_id = result.request_id
            self._checked = dict(zip(self._asked, result.translations, strict=True))
            self.worker.check(CheckRequest(result.request_id, self._asked, result.translations))

    def _on_checked(self, result: CheckResult) -> None:
        """The checked translations go into the cache, and the text shows its marks;
        only where the sentence still shows what was checked (an undone word choice or
        a newer translation is never overwritten by a late check)."""
        info = self.model_info
        if result.request_id != self._check_id or not info or result.model_path != info.path:
            return
        # Only sentences with something to mark: the others keep their Translation object
        # (the panel's layers and the word menus are kept per object and per ids).
        pairs = [
            (sentence, checked)
            for sentence, checked in zip(result.sentences, result.translations, strict=True)
            if checked.not_carried and self.document.get(sentence) is self._checked.get(sentence)
        ]
        if pairs:
            self.checked.emit(self.document.add(pairs))

    def _add(self, result: TranslateResult):
        """The text with the result's translations (of the first sentences asked for: a
        progress report brings fewer)."""
        done = result.translations
        return self.document.add(zip(self._asked[: len(done)], done, strict=True))

    def explain(self, translation: Translation) -> None:
        """Ask for ``translation``'s per-layer attention; ``explained`` brings it."""
        if self.model_info is not None:
            self._explain_id = self._new_id()
            self.worker.explain(ExplainRequest(self._explain_id, translation))

    def _on_explained(self, result: ExplainResult) -> None:
        if self.model_info is not None and result.model_path == self.model_info.path:
            self.explained.emit(result.original, result.explained)

    def find_alternatives(self, translation: Translation, piece: int) -> None:
        """Ask for the model's alternatives at target position ``piece`` of
        ``translation``'s best candidate; ``alternatives_found`` brings them."""
        if self.model_info is not None:
            self._alternatives_id = self._new_id()
            self.worker.alternatives(AlternativesRequest(self._alternatives_id, translation, piece))

    def _on_alternatives(self, result: AlternativesResult) -> None:
        if self.model_info is not None and result.model_path == self.model_info.path:
            self.alternatives_found.emit(result.translation, result.piece, result.candidates)

    def _on_failed(self, failure: Failure) -> None:
        """Shown only where it answers what the user waits for: the current text or
        explanation (a stale request's failure is as stale as its result)."""
        if self._wanted(failure.request_id):
            self._finish()
            self.failed.emit(failure)
        elif failure.request_id in (self._explain_id, self._alternatives_id):
            self.failed.emit(failure)

    def cancel(self) -> None:
        self.worker.cancel()
        self._check_id = -1
        self._finish()

    def clear(self) -> None:
        """Forget the text and its translations, giving their memory back (a
        20,000-character text holds hundreds of MB of attention matrices)."""
        self.cancel()
        self.document.clear()
        self._before_choice.clear()
        release_memory()

    def shutdown(self) -> None:
        self.worker.shutdown()

    # ---------------------------------------------------------------- helpers
    def _wanted(self, request_id: int, model_path: str | None = None) -> bool:
        """Whether a reply answers the latest load, or the latest text request for the
        model in use: the one place that drops stale replies (ids come from one counter,
        so a load's and a text's never meet)."""
        if request_id == self._load_id:
            return True
        if request_id != self._wanted_id or self.model_info is None:
            return False
        return model_path is None or model_path == self.model_info.path

    def _new_id(self) -> int:
        self._last_id += 1
        return self._last_id

    def _glossary(self) -> Glossary | None:
        """The glossary to apply: the user's, when the model in use follows one."""
        info = self.model_info
        return self.glossary if self.glossary and info and info.follows_glossary else None

    def _context(self) -> tuple:
        """What decides a translation besides its sentence (the cache key's rest)."""
        g = self._glossary()
        return (self._model_id(), self.beam, self.nbest, g.key() if g else ())

    def _finish(self) -> None:
        self._wanted_id = -1
        self.progress.emit(0, 0)
        self._set_busy(False)

    def _set_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            self.busy.emit(busy)

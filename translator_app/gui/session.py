"""The translation session: everything between the German box and the worker thread.

It loads models, splits the text into sentences once per change (on the worker thread
for large texts), asks the worker only for the sentences its cache lacks, and reports
what to show through signals. Every request gets a new id from one counter, and one
method decides whether a reply is still wanted, so a burst of typing shows only the
last edit's translation (translateLocally's "latest request wins").
"""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QObject, Signal

from translator_app.core import Segment, Translation
from translator_app.core.engine.document import (
    DocumentTranslation,
    find_missing,
    join_document,
    split_document,
)
from translator_app.core.faithful.glossary import Glossary
from translator_app.gui.worker import (
    GROUP_SIZES,
    ExplainRequest,
    ExplainResult,
    Failure,
    LoadRequest,
    ModelInfo,
    SplitRequest,
    SplitResult,
    TranslateRequest,
    TranslateResult,
    TranslationWorker,
    release_memory,
)

# Texts longer than this are split into sentences on the worker thread: splitting
# 20,000 characters takes about 40 ms here, too long for a keystroke on the GUI thread.
SPLIT_ON_WORKER = 5_000

CacheKey = tuple[str, int, int, tuple, str]  # model id, beam, n-best, glossary, sentence


class TranslationCache:
    """Least-recently-used cache of finished sentence translations, keyed by everything
    that decides a translation: model, beam, n-best and the sentence."""

    def __init__(self, capacity: int = 5000) -> None:
        self.capacity = capacity
        self._items: OrderedDict[CacheKey, Translation] = OrderedDict()

    def get(self, key: CacheKey) -> Translation | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: CacheKey, value: Translation) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.capacity:
            self._items.popitem(last=False)

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


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
        self.cache = TranslationCache()
        # The user's glossary (Model → Glossary…): part of every cache key, so a change
        # retranslates; applied only with a model that follows one.
        self.glossary: Glossary | None = None
        self.model_info: ModelInfo | None = None
        self.loading_path: str | None = None
        self.beam = self.nbest = 1
        self._last_id = 0
        self._load_id = self._wanted_id = -1  # the load and the text request still wanted
        self._text = ""
        self._segments: tuple[Segment, ...] = ()
        self._found: list[Translation | None] = []  # per segment, as known so far
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
        found, missing = find_missing(segments, self._cached)
        # The translations are kept with the text, so the cache may evict them meanwhile.
        self._text, self._segments, self._found = text, segments, found
        if not missing:
            self.worker.cancel()
            self._finish()
            self.updated.emit(join_document(text, segments, found), None, True)
            return
        self._wanted_id = self._new_id()
        self._set_busy(True)
        self.worker.translate(
            TranslateRequest(
                self._wanted_id, tuple(missing), self.beam, self.nbest, glossary=self._glossary()
            )
        )
        if len(missing) > GROUP_SIZES[0]:
            # A long text (an opened file, a paste): the old English goes at once, what is
            # cached shows, and the rest fills in group by group with a count.
            self.progress.emit(0, len(missing))
            self.updated.emit(join_document(text, segments, found), None, False)
        else:
            self.progress.emit(0, 0)

    def force_prefix(self, sentence: str, prefix: tuple[int, ...]) -> None:
        """Re-decode one sentence of the text with the chosen beginning forced; its new
        translation replaces the cached one."""
        if self.model_info is None:
            return
        current = self._cached(sentence)
        if current is not None and sentence not in self._before_choice:
            self._before_choice[sentence] = current
        self._wanted_id = self._new_id()
        self._set_busy(True)
        request = TranslateRequest(
            self._wanted_id, (sentence,), self.beam, self.nbest, prefix, self._glossary()
        )
        self.worker.translate(request)

    def can_undo_choice(self, sentence: str) -> bool:
        return sentence in self._before_choice

    def undo_choice(self, sentence: str) -> bool:
        """Show the sentence's translation from before the user chose an alternative."""
        old = self._before_choice.pop(sentence, None)
        if old is None or self.model_info is None:
            return False
        self.worker.cancel()
        self._finish()
        self.cache.put(self._key(sentence), old)
        self._found = [
            old if seg.text == sentence else t
            for seg, t in zip(self._segments, self._found, strict=True)
        ]
        self.updated.emit(join_document(self._text, self._segments, self._found), None, True)
        return True

    def _on_progressed(self, result: TranslateResult) -> None:
        if self._wanted(result.request_id, result.model_path):
            self.progress.emit(result.done, result.total)
            self.updated.emit(self._joined(result), None, False)

    def _on_translated(self, result: TranslateResult) -> None:
        if self._wanted(result.request_id, result.model_path):
            joined = self._joined(result)
            self._found = list(joined.translations)
            self._finish()
            self.updated.emit(joined, result.seconds, True)

    def explain(self, translation: Translation) -> None:
        """Ask for ``translation``'s per-layer attention; ``explained`` brings it."""
        if self.model_info is not None:
            self.worker.explain(ExplainRequest(self._new_id(), translation))

    def _on_explained(self, result: ExplainResult) -> None:
        if self.model_info is not None and result.model_path == self.model_info.path:
            self.explained.emit(result.original, result.explained)

    def _on_failed(self, failure: Failure) -> None:
        if self._wanted(failure.request_id):
            self._finish()
        self.failed.emit(failure)

    def cancel(self) -> None:
        self.worker.cancel()
        self._finish()

    def clear(self) -> None:
        """Forget the text and its translations, giving their memory back (a
        20,000-character text holds hundreds of MB of attention matrices)."""
        self.cancel()
        self._text, self._segments, self._found = "", (), []
        self._before_choice.clear()
        self.cache.clear()
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

    def _key(self, sentence: str) -> CacheKey:
        g = self._glossary()
        return (self._model_id(), self.beam, self.nbest, g.key() if g else (), sentence)

    def _cached(self, sentence: str) -> Translation | None:
        return self.cache.get(self._key(sentence))

    def _joined(self, result: TranslateResult) -> DocumentTranslation:
        """The text with the result's translations (cached, and shown instead of older
        ones: a forced beginning replaces the sentence's translation)."""
        new = {}
        for t in result.translations:
            self.cache.put(self._key(t.source), t)
            new[t.source] = t
        found = [new.get(seg.text, t) for seg, t in zip(self._segments, self._found, strict=True)]
        return join_document(self._text, self._segments, found)

    def _finish(self) -> None:
        self._wanted_id = -1
        self.progress.emit(0, 0)
        self._set_busy(False)

    def _set_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            self.busy.emit(busy)

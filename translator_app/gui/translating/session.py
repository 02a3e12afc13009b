"""The translation session: everything between the German box and the worker thread.

It loads models, splits the text into sentences once per change (a large text on the
worker thread, which translates it next), asks the worker only for the sentences its
cache lacks (the core's IncrementalDocument, which the command line fills in at once),
and reports what to show through signals. Every request gets one new id from one
counter, and one method (:meth:`TranslationSession._current`) decides whether a reply is
still wanted, so a burst of typing shows only the last edit's translation
(translateLocally's "latest request wins"); a failure is shown only for what the user
still waits for.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from translator_app.core import Translation
from translator_app.core.engine.text_document import (
    IncrementalDocument,
    TranslationCache,
    split_document,
)
from translator_app.core.faithful.glossary import Glossary
from translator_app.core.text.segment import Segment
from translator_app.gui.translating.worker import GROUP_SIZES, TranslationWorker, release_memory
from translator_app.gui.translating.worker_messages import (
    STAGES,
    AlternativesRequest,
    AlternativesResult,
    CheckResult,
    ExplainRequest,
    ExplainResult,
    Failure,
    LoadRequest,
    ModelInfo,
    SplitResult,
    TranslateRequest,
    TranslateResult,
)

# Texts longer than this are split into sentences on the worker thread: splitting
# 20,000 characters takes about 40 ms here, too long for a keystroke on the GUI thread.
SPLIT_ON_WORKER = 5_000
# What a reply can answer: the latest request of each kind. A text's split, translation
# and check share the text's id.
CHANNELS = ("load", "text", "explain", "alternatives")


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
    # A translation and, for each fact it lost, (the fact, the best candidate of the
    # sentence decoded with the fact's English forced in, or None where none keeps it).
    fixes_found = Signal(object, object)
    # The text's translation again, once the worker has checked its sentences for
    # content the English drops (issue 48 §3): marks only, the English is unchanged.
    checked = Signal(object)
    # Translations made so far are out of date (the dictionary's index was built): the
    # window translates its text again.
    outdated = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.worker = TranslationWorker(self)
        self.worker.model_loaded.connect(self._on_model_loaded)
        self.worker.load_failed.connect(self._on_load_failed)
        self.worker.split_done.connect(self._on_split)
        self.worker.progressed.connect(self._on_progressed)
        self.worker.revised.connect(self._on_revised)
        self.worker.failed.connect(self._on_failed)
        self.worker.explained.connect(self._on_explained)
        self.worker.alternatives_found.connect(self._on_alternatives)
        self.worker.dictionary_ready.connect(self._on_dictionary_ready)
        self._dictionary_builds = 0  # part of the cache key: a new index retranslates
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
        self.steps = "all"  # the post-editing steps asked for (Settings.steps)
        self._last_id = 0
        # The latest request of each channel (-1: none wanted).
        self._ids = dict.fromkeys(CHANNELS, -1)
        self._pending = False  # the text's translation is on its way
        # Each sentence's translation as shown when the worker's check of it began: a
        # check is shown only where the sentence still shows that translation.
        self._checked: dict[str, Translation] = {}
        # Each sentence's translation once its follow-up was done: a cached one whose
        # follow-up a newer request abandoned is followed up with the next request
        # (``_asked_follow_up``: those the latest request carries).
        self._followed: dict[str, Translation] = {}
        self._asked_follow_up: dict[str, Translation] = {}
        # The stage (an index of worker_messages.STAGES) of each sentence's revision
        # shown, with the translation it revised: a sentence's revisions only go
        # forward, and a new translation of it starts again.
        self._stage: dict[str, tuple[Translation, int]] = {}
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
        self.loading_path = path
        self.worker.load(LoadRequest(self._new_id("load"), path, device))

    def _on_model_loaded(self, info: ModelInfo) -> None:
        if self._current(info.request_id) == "load":
            self.model_info, self.loading_path = info, None
            self.model_loaded.emit(info)

    def _on_load_failed(self, failure: Failure) -> None:
        if self._current(failure.request_id) == "load":
            self.loading_path = None
            self.load_failed.emit(failure)

    def _on_dictionary_ready(self, model_path: str) -> None:
        if self.model_info is not None and model_path == self.model_info.path:
            self._dictionary_builds += 1
            self.outdated.emit()

    def _model_id(self) -> str:
        info = self.model_info
        return f"{info.path}|{info.device}" if info else ""

    # ------------------------------------------------------------ translating
    @property
    def pending(self) -> bool:
        return self._pending

    def translate(self, text: str, beam: int | None, nbest: int | None, steps: str = "all") -> None:
        """Show ``text``'s translation: at once from the cache, else once the worker has
        translated the missing sentences (with progress for a long text); ``steps``: the
        post-editing steps (pipeline.parse_steps)."""
        if self.model_info is None:
            return
        self.beam, self.nbest, self.steps = beam, nbest, steps
        request_id = self._new_id("text")
        if len(text) > SPLIT_ON_WORKER:  # split and translated on the worker
            self._pending = True
            self._set_busy(True)
            self._asked_follow_up = {}
            cached = self.cache.sentences(self._context())
            self.worker.translate(
                TranslateRequest(
                    request_id, (), beam, nbest, (), self._glossary(), text, cached, steps=steps
                )
            )
        else:
            self._plan(text, split_document(text))

    def _on_split(self, result: SplitResult) -> None:
        """A long text's sentences: shown with what the cache has while the worker
        translates the rest."""
        if self._current(result.request_id) == "text" and self._pending:
            self.document.set_text(result.text, result.segments, self._context())
            self._show_waiting(len(result.sentences))

    def _plan(self, text: str, segments: tuple[Segment, ...]) -> None:
        """Ask for the sentences the cache lacks (the text's one split), and follow up
        the cached ones whose follow-up a newer request abandoned."""
        missing = self.document.set_text(text, segments, self._context())
        unfollowed = self._not_followed_up()
        if not missing:
            self.worker.cancel()
            self._finish()
            self.updated.emit(self.document.view(), None, True)
            if unfollowed:  # nothing to translate: a request for the follow-up alone
                self._asked_follow_up = self._checked = dict(unfollowed)
                self.worker.translate(self._request((), follow_up=unfollowed))
            return
        self._ask(tuple(missing), follow_up=unfollowed)
        self._show_waiting(len(missing))

    def _not_followed_up(self) -> tuple[tuple[str, Translation], ...]:
        """The text's sentences shown with a translation whose follow-up (the
        dictionary's words, the dropped-words check) was never done; those of other
        texts are forgotten."""
        shown = {
            segment.text: t
            for segment, t in zip(self.document.segments, self.document.found, strict=True)
            if t is not None
        }
        self._followed = {s: t for s, t in self._followed.items() if s in shown}
        self._stage = {s: v for s, v in self._stage.items() if s in shown}
        return tuple((s, t) for s, t in shown.items() if self._followed.get(s) is not t)

    def _show_waiting(self, missing: int) -> None:
        self._set_busy(True)
        if missing > GROUP_SIZES[0]:
            # A long text (an opened file, a paste): the old English goes at once, what is
            # cached shows, and the rest fills in group by group with a count.
            self.progress.emit(0, missing)
            self.updated.emit(self.document.view(), None, False)
        else:
            self.progress.emit(0, 0)

    def _ask(self, sentences: tuple[str, ...], prefix: tuple[int, ...] = (), follow_up=()) -> None:
        self._pending = True
        self._asked_follow_up = dict(follow_up)
        self.worker.translate(self._request(sentences, prefix, follow_up))

    def _request(self, sentences, prefix=(), follow_up=()) -> TranslateRequest:
        """The text's translation request (with the current search and glossary)."""
        return TranslateRequest(
            self._ids["text"],
            sentences,
            self.beam,
            self.nbest,
            prefix,
            self._glossary(),
            follow_up=follow_up,
            steps=self.steps,
        )

    def force_prefix(self, sentence: str, prefix: tuple[int, ...]) -> None:
        """Re-decode one sentence of the text with the chosen beginning forced; its new
        translation replaces the cached one."""
        if self.model_info is None:
            return
        current = self.document.get(sentence)
        if current is not None and sentence not in self._before_choice:
            self._before_choice[sentence] = current
        self._new_id("text")
        self._set_busy(True)
        self._ask((sentence,), prefix)

    def can_undo_choice(self, sentence: str) -> bool:
        return sentence in self._before_choice

    def before_choice(self, sentence: str) -> Translation | None:
        """The sentence's translation from before the user chose an alternative (None
        where no choice was made)."""
        return self._before_choice.get(sentence)

    def undo_choice(self, sentence: str) -> bool:
        """Show the sentence's translation from before the user chose an alternative."""
        old = self._before_choice.pop(sentence, None)
        if old is None or self.model_info is None:
            return False
        self.cancel()
        self.updated.emit(self.document.add([(sentence, old)]), None, True)
        return True

    def _on_progressed(self, result: TranslateResult) -> None:
        if self._current(result.request_id, result.model_path) == "text" and self._pending:
            self.progress.emit(result.done, result.total)
            self.updated.emit(self._add(result), None, False)

    def _on_revised(self, result: TranslateResult | CheckResult) -> None:
        """A revision of the text's translation (worker_messages.STAGES): its English,
        then the dictionary's words and the marks. Only the latest text request's are
        shown, and of each sentence only a revision no earlier than the one it shows."""
        if result.stage == "english":
            self._on_translated(result)
        else:
            self._on_checked(result)

    def _on_translated(self, result: TranslateResult) -> None:
        if self._current(result.request_id, result.model_path) != "text" or not self._pending:
            return
        joined = self._add(result)
        missing = self.document.missing()
        if missing:  # left out of a long text's request (the cache let them go meanwhile)
            self._ask(tuple(missing), follow_up=self._not_followed_up())
            return
        self._finish()
        self.updated.emit(joined, result.seconds, True)
        translated = zip(result.sentences, result.translations, strict=True)
        self._checked = {**self._asked_follow_up, **dict(translated)}

    def _on_checked(self, result: CheckResult) -> None:
        """The follow-up's translations go into the cache, and the text shows them: the
        dictionary's English for copied words (a new English, as a translation is shown),
        then marks on what may be dropped; only where the sentence still shows what was
        followed up (an undone word choice or a newer translation is never overwritten
        by a late follow-up)."""
        if self._current(result.request_id, result.model_path) != "text":
            return
        stage = STAGES.index(result.stage)
        current = [
            sentence
            for sentence in result.sentences
            if (shown := self._checked.get(sentence)) is not None
            and self.document.get(sentence) is shown
            and stage >= self._stage_of(sentence, shown)
        ]
        # Only sentences with something new: the others keep their Translation object
        # (the panel's layers and the word menus are kept per object and per ids).
        new_of = dict(zip(result.sentences, result.translations, strict=True))
        pairs = [
            (sentence, new_of[sentence])
            for sentence in current
            if (
                new_of[sentence].text != self._checked[sentence].text
                if result.worded
                else bool(new_of[sentence].not_carried)
            )
        ]
        if result.worded:
            self._checked.update(pairs)
        else:  # the follow-up's last step: these are followed up
            marked = dict(pairs)
            for sentence in current:
                self._followed[sentence] = marked.get(sentence, self._checked[sentence])
        for sentence in current:
            self._stage[sentence] = (self._checked[sentence], stage)
        if pairs and result.worded:
            self.updated.emit(self.document.add(pairs), None, True)
        elif pairs:
            self.checked.emit(self.document.add(pairs))

    def _stage_of(self, sentence: str, shown: Translation) -> int:
        """The stage of ``sentence``'s revision shown, where it revised ``shown`` (the
        translation the follow-up began from); 0 (its English) otherwise."""
        revised = self._stage.get(sentence)
        return revised[1] if revised is not None and revised[0] is shown else 0

    def _add(self, result: TranslateResult):
        """The text with the result's translations (a progress report brings fewer than
        were asked for)."""
        return self.document.add(zip(result.sentences, result.translations, strict=True))

    def explain(self, translation: Translation) -> None:
        """Ask for ``translation``'s per-layer attention; ``explained`` brings it."""
        if self.model_info is not None:
            self.worker.explain(ExplainRequest(self._new_id("explain"), translation))

    def _on_explained(self, result: ExplainResult) -> None:
        if self._current(result.request_id, result.model_path) == "explain":
            self.explained.emit(result.original, result.explained)

    def find_alternatives(self, translation: Translation, piece: int, fixes: bool = False) -> None:
        """Ask for the model's alternatives at target position ``piece`` of
        ``translation``'s best candidate, and with ``fixes`` the fix of each fact it
        lost; ``alternatives_found`` brings them."""
        if self.model_info is not None:
            request = AlternativesRequest(
                self._new_id("alternatives"), translation, piece, fixes, self.steps
            )
            self.worker.alternatives(request)

    def _on_alternatives(self, result: AlternativesResult) -> None:
        if self._current(result.request_id, result.model_path) == "alternatives":
            self.alternatives_found.emit(result.translation, result.piece, result.candidates)
            if result.fixes:
                self.fixes_found.emit(result.translation, result.fixes)

    def _on_failed(self, failure: Failure) -> None:
        """Shown only where it answers what the user waits for: the current text's
        translation, explanation or word menu (a stale request's failure is as stale as
        its result; a failed check leaves the English as shown)."""
        channel = self._current(failure.request_id)
        if channel == "text" and self._pending:
            self._finish()
            self.failed.emit(failure)
        elif channel in ("explain", "alternatives"):
            self.failed.emit(failure)

    def cancel(self) -> None:
        """Drop the text's request and whatever follows it (its check included)."""
        self.worker.cancel()
        self._ids["text"] = -1
        self._finish()

    def clear(self) -> None:
        """Forget the text and its translations, giving their memory back (a
        20,000-character text holds hundreds of MB of attention matrices)."""
        self.cancel()
        self.document.clear()
        self._before_choice.clear()
        self._stage.clear()
        release_memory()

    def shutdown(self) -> None:
        self.worker.shutdown()

    # ---------------------------------------------------------------- helpers
    def _current(self, request_id: int, model_path: str | None = None) -> str | None:
        """The channel whose latest request a reply answers, or None for a stale reply:
        the one place that decides. A load's reply is current while no newer load was
        asked for; any other reply only for the model in use (ids come from one counter,
        so two channels never share one)."""
        channel = next((c for c, i in self._ids.items() if i == request_id), None)
        if channel is None or channel == "load":
            return channel
        if self.model_info is None or model_path not in (None, self.model_info.path):
            return None
        return channel

    def _new_id(self, channel: str) -> int:
        """A new request on ``channel``: its replies are the ones wanted from now on."""
        self._last_id += 1
        self._ids[channel] = self._last_id
        return self._last_id

    def _glossary(self) -> Glossary | None:
        """The glossary to apply: the user's, when the model in use follows one."""
        info = self.model_info
        return self.glossary if self.glossary and info and info.follows_glossary else None

    def _context(self) -> tuple:
        """What decides a translation besides its sentence (the cache key's rest)."""
        g = self._glossary()
        key = (self._model_id(), self.beam, self.nbest, self.steps, g.key() if g else ())
        return (*key, self._dictionary_builds)

    def _finish(self) -> None:
        """The text's translation is done (its check may follow under the same id)."""
        self._pending = False
        self.progress.emit(0, 0)
        self._set_busy(False)

    def _set_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            self.busy.emit(busy)

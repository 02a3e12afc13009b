"""One long-lived worker thread per session: loading and translating off the GUI thread.

"Latest request wins" (as in translateLocally): a new translation request replaces any
queued one, and a decode that is running for an older request is abandoned through the
engine's ``should_stop`` callback. A translation's follow-ups are the worker's own: it
splits a long text before translating it and checks the new translations for dropped
content after reporting them, under the request's id. Every result carries its request
id so that the session can drop stale ones. Only immutable values (frozen dataclasses,
tuples, strings) cross the thread boundary; the engine objects live in the worker thread
alone.

The engine (PyTorch, CTranslate2) is imported by the worker thread when it loads the first
model, never by this module: the window shows itself at once and the 1-2 s that PyTorch
takes to import pass behind it, with "Loading the model…" in the English box.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import sys
import threading
import time
import traceback
import warnings
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

import translator_app.core as engine  # its names import PyTorch on first use
from translator_app.core.engine.text_document import find_missing, split_document
from translator_app.core.engine.translation import Translation
from translator_app.core.language import identify
from translator_app.gui.translating.worker_messages import (
    AlternativesRequest,
    AlternativesResult,
    CheckRequest,
    CheckResult,
    ExplainRequest,
    ExplainResult,
    Failure,
    FailureKind,
    LoadRequest,
    ModelInfo,
    SplitResult,
    TranslateRequest,
    TranslateResult,
)

if TYPE_CHECKING:
    from translator_app.core.api.translator import Translator


# Sentences per engine call. A long text is translated a group at a time so that the
# window can show progress and fill in the English as it comes; the first group is small,
# so the first sentences of an opened file show within a second.
GROUP_SIZES = (4, 8, 16, 32)
BUILD_GRACE_S = 10.0  # closing waits for a model build (1-3 s, not interruptible)


def sentence_groups(n: int) -> list[range]:
    """Consecutive index ranges covering ``range(n)``, sized by :data:`GROUP_SIZES`."""
    groups, start, k = [], 0, 0
    while start < n:
        size = GROUP_SIZES[min(k, len(GROUP_SIZES) - 1)]
        groups.append(range(start, min(n, start + size)))
        start, k = start + size, k + 1
    return groups


def release_memory() -> None:
    """Give freed memory back to the system: after a long text is cleared, Python and
    the C allocator keep the pages of its attention matrices otherwise (glibc's
    malloc_trim; elsewhere the collector alone)."""
    gc.collect()
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL("libc.so.6").malloc_trim(0)


class TranslationWorker(QObject):
    """Owns the model. Call :meth:`load`, :meth:`translate` and :meth:`shutdown` from the
    GUI thread; results arrive as queued signals in the GUI thread."""

    model_loaded = Signal(object)  # ModelInfo
    load_failed = Signal(object)  # Failure
    split_done = Signal(object)  # SplitResult, before a long text's translation
    # Every revision of a text's translation, in order (worker_messages.STAGES): its
    # English (TranslateResult), the dictionary's words and the marks (CheckResult).
    revised = Signal(object)
    progressed = Signal(object)  # TranslateResult of the sentences finished so far
    explained = Signal(object)  # ExplainResult
    alternatives_found = Signal(object)  # AlternativesResult
    failed = Signal(object)  # Failure
    # The dictionary's index was built (on first use, about 11 s): translations made
    # meanwhile went without the dictionary's English for words the model copied.
    dictionary_ready = Signal(str)  # the model's path

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cond = threading.Condition()
        self._load: LoadRequest | None = None
        self._translate: TranslateRequest | None = None
        self._explain: ExplainRequest | None = None
        self._alternatives: AlternativesRequest | None = None
        self._check: CheckRequest | None = None
        self._preparing: Translator | None = None  # whose PyTorch model is being built
        self._check_after_build: CheckRequest | None = None  # the check that waits for it
        self._builder: threading.Thread | None = None  # the thread that builds it
        self._latest_translate_id = -1
        self._closing = False
        self._translator: Translator | None = None
        self._model_path = ""
        self._thread = threading.Thread(target=self._run, name="translation-worker", daemon=True)
        self._thread.start()

    # -------------------------------------------------------------- GUI thread
    def load(self, request: LoadRequest) -> None:
        with self._cond:
            self._load = request
            self._cond.notify()

    def translate(self, request: TranslateRequest) -> None:
        """Translate (splitting a long text first); replaces any queued translation and
        the check of an older one."""
        with self._cond:
            self._translate = request
            self._check = None
            self._latest_translate_id = request.id
            self._cond.notify()

    def explain(self, request: ExplainRequest) -> None:
        """Compute one translation's per-layer attention (after any queued translation:
        the newest text comes first); replaces a queued explanation."""
        with self._cond:
            self._explain = request
            self._cond.notify()

    def alternatives(self, request: AlternativesRequest) -> None:
        """Find a word's alternatives (after any queued translation, before an
        explanation: the user waits on the open menu); replaces a queued request."""
        with self._cond:
            self._alternatives = request
            self._cond.notify()

    def cancel(self) -> None:
        """Drop the queued request and stop the running one."""
        with self._cond:
            self._translate = None
            self._check = None
            self._latest_translate_id = -1

    def shutdown(self, timeout: float = 3.0) -> None:
        """Stop the thread: a running decode or model load is abandoned at its next
        check (within a fraction of a second), so closing the window never hangs."""
        with self._cond:
            self._closing = True
            for slot in self._ORDER:
                setattr(self, slot, None)
            self._cond.notify()
            builder = self._builder
        deadline = time.monotonic() + timeout
        self._thread.join(timeout)
        if builder is not None:  # exit during a build: "terminate called …", exit 134
            builder.join(max(0.0, deadline - time.monotonic()) + BUILD_GRACE_S)

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    # ----------------------------------------------------------- worker thread
    def _run(self) -> None:
        while True:
            with self._cond:
                while not (self._closing or self._next_job_ready()):
                    self._cond.wait()
                if self._closing:
                    return
                job = self._take_job()
            try:
                if isinstance(job, LoadRequest):
                    self._do_load(job)
                elif isinstance(job, ExplainRequest):
                    self._do_explain(job)
                elif isinstance(job, AlternativesRequest):
                    self._do_alternatives(job)
                elif isinstance(job, CheckRequest):
                    self._do_check(job)
                else:
                    self._do_translate(job)
            except engine.LoadCancelled:
                continue
            except Exception as e:  # noqa: BLE001 - every failure becomes one signal
                failure = _failure(job.id, e, self._translator)
                if isinstance(job, LoadRequest):
                    self.load_failed.emit(failure)
                else:
                    self.failed.emit(failure)

    # The queued requests in the order they are served: loads first (the requests that
    # follow are for the new model), then the text's translation, a word menu's
    # alternatives, the panel's explanation and last the check for dropped content (the
    # English is already shown).
    _ORDER = ("_load", "_translate", "_alternatives", "_explain", "_check")

    def _next_job_ready(self) -> bool:
        return any(getattr(self, slot) is not None for slot in self._ORDER)

    def _take_job(self):
        """The next request to serve, taken off its slot (call with the lock held)."""
        for slot in self._ORDER:
            job = getattr(self, slot)
            if job is not None:
                setattr(self, slot, None)
                return job
        raise LookupError("no request is queued")

    def _do_load(self, job: LoadRequest) -> None:
        from translator_app.core.engine.bundle import load_bundle

        start = time.perf_counter()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")

            # Closing the window, or a newer load request, abandons this one.
            def should_stop() -> bool:
                return self._closing or self._load is not None

            identify.preload_in_background()  # the step other-languages', beside the model
            bundle = load_bundle(job.path, job.device, should_stop, lazy=True)
            translator = engine.Translator.from_bundle(bundle, job.precision)
        # Typing is translated at once; the dictionary's index (for words the model
        # copies) is built on a thread of its own the first time.
        translator.wait_for_dictionary = False
        self._build_dictionary_index(translator, str(job.path))
        cfg = bundle.config
        self._translator, self._model_path = translator, str(job.path)
        layers, heads, alignment_layer, alignment_head = cfg.attention_shape
        notes = [*bundle.warnings, *(str(w.message) for w in caught)]
        if translator.engine_repaired:
            notes.append(f"Repaired: {translator.engine_repaired}")
        if translator.engine_problem:  # slower, but it translates
            notes.append(f"{translator.engine_problem}; translating with PyTorch (slower)")
        notes = tuple(dict.fromkeys(notes))
        self.model_loaded.emit(
            ModelInfo(
                request_id=job.id,
                path=str(job.path),
                name=bundle.name,
                device=f"{translator.device} ({translator.engine_name})",
                arch=cfg.arch,
                layers=layers,
                heads=heads,
                alignment_layer=alignment_layer,
                alignment_head=alignment_head,
                eos_id=cfg.eos_id,
                card=bundle.card,
                beam=translator.options.beam,
                nbest=translator.options.nbest,
                warnings=notes,
                seconds=time.perf_counter() - start,
                follows_glossary=translator.follows_glossary,
            )
        )

    def _do_translate(self, job: TranslateRequest) -> None:
        translator = self._translator
        if translator is None:
            raise RuntimeError("no model is loaded")

        def stale() -> bool:
            return self._closing or self._latest_translate_id != job.id

        start = time.perf_counter()
        sentences = job.sentences
        if job.text:  # a long text: split here, off the GUI thread, and say what is asked
            segments = split_document(job.text)
            _, missing = find_missing(segments, lambda s: s if s in job.cached else None)
            sentences = tuple(missing)
            if stale():
                return
            self.split_done.emit(SplitResult(job.id, job.text, segments, sentences))
        results: list[Translation] = []
        glossary = job.glossary if translator.follows_glossary else None
        try:
            for group in sentence_groups(len(sentences)):
                results += translator.translate(
                    [sentences[i] for i in group],
                    beam=job.beam,
                    nbest=job.nbest,
                    prefixes=[job.prefix] if job.prefix else None,
                    should_stop=stale,
                    glossary=glossary,
                    # the English first, the dictionary's words as a follow-up; a word
                    # the user chose (a forced prefix) is decoded with them at once
                    dictionary_words=bool(job.prefix),
                    steps=job.steps,
                )
                if len(results) < len(sentences) and not stale():
                    self.progressed.emit(self._result(job, sentences, results, start))
        except engine.SearchCancelled:
            return  # a newer request is waiting; nothing to report
        if stale():
            return
        self.revised.emit(self._result(job, sentences, results, start))
        if results or job.follow_up:
            follow_up = CheckRequest(
                job.id,
                sentences + tuple(s for s, _ in job.follow_up),
                tuple(results) + tuple(t for _, t in job.follow_up),
                job.beam,
                job.nbest,
                glossary,
                worded=bool(job.prefix),  # a request with a prefix has no follow_up
                steps=job.steps,
            )
            self._queue_check(follow_up)

    def _queue_check(self, job: CheckRequest) -> None:
        """The translation's follow-up: its check for dropped content, served when
        nothing else waits (replaces a queued check; a newer translation drops it)."""
        with self._cond:
            if job.id == self._latest_translate_id:
                self._check = job
                self._cond.notify()

    def _do_explain(self, job: ExplainRequest) -> None:
        translator = self._translator
        if translator is None:
            raise RuntimeError("no model is loaded")
        explained = translator.explain(job.translation)
        self.explained.emit(ExplainResult(job.id, self._model_path, job.translation, explained))

    def _do_alternatives(self, job: AlternativesRequest) -> None:
        translator = self._translator
        if translator is None:
            raise RuntimeError("no model is loaded")
        found = translator.alternatives(job.translation, job.piece, steps=job.steps)
        fixes = ()
        if job.fixes:
            fixes = tuple(
                (fact, getattr(translator.fact_fix(job.translation, fact), "best", None))
                for fact in job.translation.issues
            )
        self.alternatives_found.emit(
            AlternativesResult(job.id, self._model_path, job.translation, job.piece, found, fixes)
        )

    def _do_check(self, job: CheckRequest) -> None:
        """Check one sentence at a time (a few tens of milliseconds each), so that the
        next keystroke's translation waits for one sentence at most. A newer text or
        closing stops it; any other request (a word menu, the panel) goes first: what is
        checked so far is reported and the rest queued again."""
        translator = self._translator
        if translator is None:
            raise RuntimeError("no model is loaded")
        if not job.worded:
            job = self._add_dictionary_words(translator, job)
            if job is None:
                return
        if not translator.model_ready:
            # The check scores with the PyTorch model, which a lazily loaded bundle has
            # not built yet: build it on a thread of its own (importing PyTorch takes
            # seconds on a laptop) so that typing is translated meanwhile, then check.
            self._prepare_then_check(translator, job)
            return
        checked: list[Translation] = []
        for t in job.translations:
            if self._closing or self._latest_translate_id != job.id:
                return
            if checked and self._requeue_rest(job, len(checked)):
                break
            checked += translator.check_dropped([t])
        done = len(checked)
        self.revised.emit(
            CheckResult(job.id, self._model_path, job.sentences[:done], tuple(checked))
        )

    def _add_dictionary_words(self, translator: Translator, job: CheckRequest):
        """``job`` with the dictionary's English for the words its translations copied
        (CTranslate2 alone: no wait for the PyTorch model), reported where any changed;
        None where a newer request made it stale."""

        def stale() -> bool:
            return self._closing or self._latest_translate_id != job.id

        try:
            worded = translator.add_dictionary_words(
                job.sentences,
                job.translations,
                beam=job.beam,
                nbest=job.nbest,
                should_stop=stale,
                glossary=job.glossary,
                steps=job.steps,
            )
        except engine.SearchCancelled:
            return None
        if stale():
            return None
        worded = tuple(worded)
        if any(new is not old for new, old in zip(worded, job.translations, strict=True)):
            self.revised.emit(
                CheckResult(job.id, self._model_path, job.sentences, worded, stage="words")
            )
        return replace(job, translations=worded, worded=True)

    def _build_dictionary_index(self, translator: Translator, path: str) -> None:
        """Build the dictionary's index in the background where it is missing or stale,
        and say so when a new one is there (a current index is only checked); a failed
        build sets the dictionary aside on the translator's next use."""
        if translator.dictionary is not None:

            def built(now: bool) -> None:
                if now and not self._closing:
                    self.dictionary_ready.emit(path)

            translator.dictionary.build_in_background(built)

    def _prepare_then_check(self, translator: Translator, job: CheckRequest) -> None:
        """Keep ``job`` (the latest check asked for) and build the model on a thread of
        its own, once; when it is built the kept check is queued again."""

        def build() -> None:
            try:
                translator.prepare_model()
            except Exception as e:  # noqa: BLE001 - reported like any failed request
                self.failed.emit(_failure(job.id, e, translator))
                return
            with self._cond:
                waiting, self._check_after_build = self._check_after_build, None
                if self._translator is translator and self._check is None and waiting:
                    self._check = waiting
                    self._cond.notify()

        with self._cond:
            self._check_after_build = job
            start = self._preparing is not translator
            self._preparing = translator
        if start:
            builder = threading.Thread(target=build, name="model-build", daemon=True)
            with self._cond:
                self._builder = builder
            builder.start()

    def _requeue_rest(self, job: CheckRequest, done: int) -> bool:
        """Queue the unchecked rest of ``job`` again where another request waits."""
        with self._cond:
            waiting = any(getattr(self, slot) is not None for slot in self._ORDER[:-1])
            if waiting and self._check is None:
                rest = replace(
                    job, sentences=job.sentences[done:], translations=job.translations[done:]
                )
                self._check = rest
            return waiting

    def _result(self, job: TranslateRequest, sentences: tuple[str, ...], results, start: float):
        return TranslateResult(
            job.id,
            self._model_path,
            tuple(results),
            time.perf_counter() - start,
            done=len(results),
            total=len(sentences),
            sentences=sentences[: len(results)],
        )


def _device_errors() -> tuple[type[Exception], ...]:
    """The device's own errors, as far as this PyTorch has them (pyproject allows
    torch>=2.2; torch.OutOfMemoryError and torch.AcceleratorError came later). Asked only
    once something failed, by when the worker has imported PyTorch."""
    import torch

    return tuple(
        t
        for t in (
            getattr(torch, "OutOfMemoryError", None),
            getattr(torch.cuda, "OutOfMemoryError", None),
            getattr(torch, "AcceleratorError", None),
        )
        if t is not None
    )


def _failure(request_id: int, e: Exception, translator: Translator | None) -> Failure:
    """The failure's kind and one line for the status bar; the traceback of an
    unexpected one goes to stderr for bug reports."""
    on_cuda = translator is not None and translator.device.type == "cuda"
    if isinstance(e, _device_errors()) or (
        on_cuda and isinstance(e, RuntimeError) and "cuda" in str(e).lower()
    ):
        return Failure(request_id, FailureKind.DEVICE, f"{type(e).__name__}: {e}")
    if isinstance(e, (engine.BundleError, OSError)):
        return Failure(request_id, FailureKind.MODEL, str(e))
    if isinstance(e, ValueError):
        return Failure(request_id, FailureKind.INPUT, str(e))
    traceback.print_exception(e)
    return Failure(request_id, FailureKind.INTERNAL, f"{type(e).__name__}: {e}")

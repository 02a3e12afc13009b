"""The translator API used by the app and the command line.

``Translator.load(path).translate(texts, ...)`` (or ``Translator.from_bundle(bundle)``,
or ``Translator(model, tokenizer, options)``) returns immutable :class:`Translation`
values (safe to hand from a worker thread to the GUI): text, pieces, character spans,
attention matrices (read-only NumPy arrays) and the n-best list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from translator_app.core.api import followups
from translator_app.core.dictionary.index import DictionaryError
from translator_app.core.dictionary.lookup import Dictionary
from translator_app.core.engine import ct2
from translator_app.core.engine.backends import Backend, Ct2Backend, TorchBackend
from translator_app.core.engine.bundle import Bundle, load_bundle
from translator_app.core.engine.bundle_format import SearchDefaults
from translator_app.core.engine.decode import (
    InvalidTextWarning,
    Reading,
    SentenceDecoder,
    decode_sentences,
)
from translator_app.core.engine.lazy_model import Device, LazyModel, device_name, materialised
from translator_app.core.engine.search_types import SearchOptions, with_choices
from translator_app.core.engine.text_document import DocumentTranslation, translate_document
from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.faithful.glossary import Glossary, merged
from translator_app.core.faithful.terms import has_term_markers
from translator_app.core.language import identify
from translator_app.core.limits import MAX_SOURCE_TOKENS, check_protect
from translator_app.core.platform.hardware import ENGINES, PRECISIONS
from translator_app.core.postedit import pipeline
from translator_app.core.postedit.judge import judged
from translator_app.core.postedit.request import PostEditRequest
from translator_app.core.text.tokenizer import Tokenizer

if TYPE_CHECKING:
    import torch

# PyTorch and the PyTorch model are loaded where they are needed (forced passes, the
# PyTorch search, int8 quantisation): a Transformer translated with CTranslate2 reaches
# its first translation without them (issue 49; core/engine/lazy_model.py).

# Source tokens decoded in one batch (sentences of similar length together).
BATCH_TOKENS = 3000
__all__ = ["BATCH_TOKENS", "InvalidTextWarning", "Translator"]


class Translator:
    """Translates with a model, its tokenizer and default search options. Not
    thread-safe: one worker thread per model."""

    def __init__(
        self,
        model: torch.nn.Module | LazyModel,
        tokenizer: Tokenizer,
        options: SearchOptions | None = None,
        *,
        precision: str = "fp32",
        max_source_tokens: int = SearchDefaults.max_source_tokens,
        engine: str = "auto",
        bundle_path: Path | None = None,
        protect: str = SearchDefaults.protect,
        taught: Glossary | None = None,
        shortlist: str = "",
        weights_key: str = "",
        dictionary: Dictionary | None = None,
        steps: str | Iterable[str] | None = None,
    ) -> None:
        if precision not in PRECISIONS:
            raise ValueError(f"unknown precision {precision!r}; use one of {', '.join(PRECISIONS)}")
        if engine not in ENGINES:
            raise ValueError(f"unknown engine {engine!r}; use one of {', '.join(ENGINES)}")
        self.config = cfg = model.config
        self.tokenizer = tokenizer
        self.options = options or SearchOptions()
        self.device = Device.parse(device_name(model))
        uses_ct2 = engine != "torch" and (engine == "ctranslate2" or ct2.supports(cfg))
        if precision == "auto":
            precision = self._auto_precision(uses_ct2 and isinstance(model, LazyModel))
        self.precision = precision
        self._model: Any = model  # a LazyModel until something needs the PyTorch model
        # Transformer models decode with CTranslate2 where it is installed (core/engine/ct2.py);
        # the PyTorch model stays for the alignment panel's per-layer view, RNN models,
        # and as the fallback (built on first use where the bundle was loaded lazily).
        self.engine: ct2.Ct2Engine | None = None
        self.engine_problem = ""  # why CTranslate2 is not used, for the model info
        self.engine_repaired = ""  # what was repaired in the converted-model cache, said once
        if uses_ct2:
            self._start_ct2(model, engine, bundle_path, shortlist, weights_key)
        if precision == "int8" and self.engine is None:
            if self.device.type != "cpu":
                raise ValueError("int8 quantisation runs on the CPU only; choose --device cpu")
            from translator_app.core.engine.precision import quantize_dynamic_int8

            self._model = quantize_dynamic_int8(self.model)
        # An RNN has no position table: its chunks are as long as a bundle may ask for.
        self.max_positions = cfg.max_positions if cfg.arch == "transformer" else MAX_SOURCE_TOKENS
        self.max_source_tokens = min(max_source_tokens, self.max_positions // 2)
        # Trained on inline term annotations (core/faithful/terms.py): it can follow a glossary, and
        # the translator annotates the numbers, dates, names and places of a sentence
        # (core/faithful/protect.py): always, or only to try again where a decode lost a number
        # (``protect``; the bundle's search settings say which suits its training).
        self.follows_glossary = has_term_markers(tokenizer)
        check_protect(protect)
        self.protect_facts = protect if self.follows_glossary else "off"
        # Terms a fine-tune taught (the bundle's terms.tsv): applied to every sentence,
        # under the user's glossary.
        self.taught = taught if taught and self.follows_glossary else Glossary()
        # The dictionary's English for a word it copies (core/faithful/copied_words.py);
        # the window never waits for its index (built on first use, in the background).
        self.dictionary = dictionary if self.follows_glossary else None
        self.wait_for_dictionary, self.dictionary_problem = True, ""
        # The post-editing steps a request gets where it names none (pipeline.py).
        self.steps = pipeline.parse_steps(steps)
        reference = TorchBackend(
            lambda: self.model, tokenizer.pad_id, self.device, precision, self.max_positions
        )
        self.backend: Backend = (
            reference if self.engine is None else Ct2Backend(self.engine, reference, cfg.arch)
        )

    def _start_ct2(self, model, engine: str, bundle_path, shortlist: str, weights_key: str):
        """CTranslate2's engine for ``model`` (its converted model cached by
        ``bundle_path`` and ``weights_key``); where it cannot run, why (an error where
        ``engine`` asked for it)."""
        try:
            self.engine = ct2.engine_for(
                model,
                self.tokenizer,
                self.precision,
                str(self.device),
                bundle_path,
                shortlist,
                weights_key,
            )
            self.engine_repaired = self.engine.repaired
        except ct2.Ct2Unavailable as e:
            if engine == "ctranslate2":
                raise ValueError(str(e)) from None
            self.engine_problem = str(e)

    @property
    def model(self) -> torch.nn.Module:
        """The PyTorch model (built now where the bundle was loaded lazily)."""
        self._model = materialised(self._model)
        return self._model

    @property
    def model_ready(self) -> bool:
        """Whether the PyTorch model is built (a lazily loaded bundle builds it on first
        use: seconds on a laptop, importing PyTorch; :meth:`prepare_model`)."""
        return not isinstance(self._model, LazyModel) or self._model.built

    def prepare_model(self) -> None:
        """Build the PyTorch model now; safe on another thread than the translating
        one (the app builds it in the background after the first translation)."""
        if isinstance(self._model, LazyModel):
            self._model.get()

    def _auto_precision(self, ct2_only: bool) -> str:
        """int8 on the CPU where the engine runs it (CTranslate2, or PyTorch's quantized
        kernels), else fp32; asked of CTranslate2 alone where PyTorch is not loaded."""
        if ct2_only and ct2.available():
            return "int8" if self.device.type == "cpu" and ct2.supports_int8("cpu") else "fp32"
        from translator_app.core.engine.precision import auto_precision

        return auto_precision(self.device)

    @classmethod
    def from_bundle(
        cls,
        bundle: Bundle,
        precision: str = "auto",
        engine: str = "auto",
        steps: str | Iterable[str] | None = None,
    ) -> Translator:
        """A translator with the bundle's model, tokenizer and stored search defaults;
        ``precision`` "auto" as the command line and the window use it (int8 on the CPU,
        fp32 on CUDA; issue 62 §4: one default)."""
        return cls(
            bundle.lazy_model,
            bundle.tokenizer,
            bundle.search.options(),
            precision=precision,
            max_source_tokens=bundle.search.max_source_tokens,
            engine=engine,
            bundle_path=bundle.path,
            protect=bundle.search.protect,
            taught=bundle.terms,
            shortlist=bundle.shortlist,
            weights_key=bundle.weights_key,
            dictionary=Dictionary.shipped() if bundle.search.dictionary_words else None,
            steps=steps,
        )

    @classmethod
    def load(
        cls,
        path: str | Path,
        device: str = "auto",
        precision: str = "auto",
        should_stop: Callable[[], bool] | None = None,
        engine: str = "auto",
    ) -> Translator:
        """Load a bundle; ``should_stop`` can abandon it (see :func:`load_bundle`)."""
        identify.preload_in_background()  # the step other-languages', beside the model
        lazy = engine != "torch"  # PyTorch's model, built where something needs it
        return cls.from_bundle(load_bundle(path, device, should_stop, lazy), precision, engine)

    @property
    def engine_name(self) -> str:
        """What decodes, in words: "CTranslate2 int8", "PyTorch fp32"."""
        if self.engine is not None:
            return f"CTranslate2 {self.engine.compute_type}"
        return f"PyTorch {self.precision}"

    def search_options(self, **choices) -> SearchOptions:
        """This translator's default options (its bundle's) changed by ``choices``, by
        the one rule of :func:`~translator_app.core.engine.search.with_choices`."""
        return with_choices(self.options, **choices)

    # ----------------------------------------------------------------- sentences
    def translate(
        self,
        texts: Sequence[str],
        options: SearchOptions | None = None,
        *,
        prefixes: Sequence[Sequence[int]] | None = None,
        should_stop: Callable[[], bool] | None = None,
        batch_tokens: int = BATCH_TOKENS,
        glossary: Glossary | None = None,
        dictionary_words: bool = True,
        steps: str | Iterable[str] | None = None,
        **choices,
    ) -> list[Translation]:
        """Translate each text as one sentence (use :meth:`translate_document` for
        paragraphs) with ``options``, or the defaults changed by ``choices`` (beam=4,
        nbest=2, ...: see :meth:`search_options`), then post-edit it with the steps of
        core/postedit/pipeline.py. ``prefixes`` forces the first target ids of each
        sentence; ``should_stop`` is polled every step and raises ``SearchCancelled``.
        ``glossary``: German terms and the English each must become (only for a model
        that :attr:`follows_glossary`). ``dictionary_words`` False leaves the steps of
        stage "words" for :meth:`add_dictionary_words` (the window shows the English
        first). ``steps``: the post-editing steps by name (pipeline.parse_steps: "none"
        gives the model's own search), this translator's :attr:`steps` where None."""
        request = self._request(
            texts, prefixes, options, choices, glossary, should_stop, steps, batch_tokens
        )
        if dictionary_words:
            return self._words_added(request, None)
        return pipeline.translate(request, words=False)

    def add_dictionary_words(
        self,
        texts: Sequence[str],
        translations: Sequence[Translation],
        options: SearchOptions | None = None,
        *,
        should_stop: Callable[[], bool] | None = None,
        glossary: Glossary | None = None,
        steps: str | Iterable[str] | None = None,
        **choices,
    ) -> list[Translation]:
        """``translations`` of ``texts`` (from :meth:`translate` with
        ``dictionary_words=False`` and the same options, glossary and steps) through the
        steps of stage "words": each decoded again where it copied a German word that
        the dictionary translates (core/postedit/dictionary_words.py); the others are
        returned as they are (the same objects)."""
        request = self._request(texts, None, options, choices, glossary, should_stop, steps)
        return self._words_added(request, list(translations))

    def _words_added(self, request: PostEditRequest, out: list[Translation] | None):
        """The request translated with the steps of stage "words" (``out`` the first
        stages' translations, or None to decode them now), the dictionary's steps once
        its index is built; where the index cannot be built, without them
        (:attr:`dictionary_problem` says why)."""

        def run(request: PostEditRequest) -> list[Translation]:
            if out is None:
                return pipeline.translate(request, words=True)
            return pipeline.add_words(request, out)

        dictionary = self.dictionary if pipeline.wants_dictionary(request.steps) else None
        try:
            if dictionary is not None and dictionary.ready(self.wait_for_dictionary):
                return run(replace(request, dictionary=dictionary))
            return run(request)
        except DictionaryError as e:  # its index cannot be built: the model's words
            self.dictionary, self.dictionary_problem = None, str(e)
            return run(replace(request, dictionary=None))

    def _request(
        self,
        texts,
        prefixes,
        options,
        choices,
        glossary,
        should_stop,
        steps,
        batch_tokens=BATCH_TOKENS,
    ):
        """The post-editing request of one call, its options, glossary (the taught terms
        under the user's) and steps checked."""
        if glossary and not self.follows_glossary:
            raise ValueError(
                "this model was not trained to follow a glossary; use a model trained with "
                "term annotations ([data] terms), or translate without the glossary"
            )
        if options is not None and choices:
            raise TypeError("give either options or changes of the defaults, not both")
        options = options or self.search_options(**choices)
        glossary = merged(self.taught, glossary) or None
        asked_for = self.steps if steps is None else pipeline.parse_steps(steps)
        return PostEditRequest(
            texts=tuple(texts),
            prefixes=tuple(tuple(p) for p in prefixes) if prefixes else None,
            decode=self._decoder(options, should_stop, asked_for, batch_tokens),
            tokenizer=self.tokenizer,
            glossary=glossary,
            protect=self.protect_facts if "facts" in asked_for else "off",
            steps=asked_for,
            workers=getattr(self.engine, "workers", 1),
        )

    def _decoder(self, options, should_stop, steps, batch_tokens):
        """One decode of a list of sentences with these settings: (texts, prefixes,
        annotate facts, glossary) -> translations (postedit/request.Decode)."""

        def decode(some: list[str], their_prefixes, protect: bool, terms) -> list[Translation]:
            return self._translate(
                some, options, their_prefixes, should_stop, batch_tokens, terms, protect, steps
            )

        return decode

    def _translate(
        self,
        texts,
        options,
        prefixes,
        should_stop,
        batch_tokens,
        glossary,
        protect=False,
        steps: frozenset[str] = pipeline.ALL,
    ) -> list[Translation]:
        """One decode of ``texts`` (engine/decode.py), read as ``steps`` ask, each
        n-best ordered by the judge where they ask for it (postedit/judge.py)."""
        decoder = SentenceDecoder(
            self.tokenizer, self.backend, self.max_source_tokens, self.follows_glossary
        )
        reading = Reading(
            umlauts=pipeline.asked(steps, "umlauts"),
            stop=pipeline.asked(steps, "closing-stop"),
            symbols=pipeline.asked(steps, "symbols"),
            numbers=pipeline.asked(steps, "number-words"),
            amounts=pipeline.asked(steps, "amounts"),
            languages=pipeline.asked(steps, "other-languages"),
        )
        decoded = decode_sentences(
            decoder, texts, options, prefixes, should_stop, batch_tokens, glossary, protect, reading
        )
        choose = pipeline.asked(steps, "judge")
        return [judged(d.translation, d.checked, choose) for d in decoded]

    def explain(self, translation: Translation) -> Translation:
        """``translation`` with every layer's and head's attention of its best candidate
        (the alignment panel's other layers; core/api/followups.py)."""
        return followups.explain(self, translation)

    def check_dropped(self, translations: Sequence[Translation]) -> list[Translation]:
        """``translations`` with the content words of each source that its best
        candidate does not seem to carry (``not_carried``; core/api/followups.py)."""
        return followups.check_dropped(self, translations)

    # ----------------------------------------------------------------- word choices
    def alternatives(
        self,
        translation: Translation,
        piece: int,
        k: int = followups.ALTERNATIVES,
        steps: str | Iterable[str] | None = None,
    ) -> tuple[Candidate, ...]:
        """Up to ``k`` other translations of ``translation``'s sentence that keep its best
        candidate up to target position ``piece`` and choose another piece there: the
        word menu's alternatives, likeliest piece first, post-edited as ``steps`` ask
        (this translator's :attr:`steps` where None; core/api/followups.py)."""
        chosen = self.steps if steps is None else pipeline.parse_steps(steps)
        return followups.alternatives(self, translation, piece, k, chosen)

    def fact_fix(self, translation: Translation, fact) -> Translation | None:
        """``translation``'s sentence with the English of ``fact``, a fact it lost,
        forced in where the fact's German is aligned; None where no such decode keeps it
        (core/api/followups.py): the fix a mark offers."""
        return followups.fact_fix(self, translation, fact)

    # ----------------------------------------------------------------- documents
    def translate_document(self, text: str, progress=None, **kwargs) -> DocumentTranslation:
        """Split into sentences (keeping line breaks and blank lines), translate each
        distinct sentence once (``kwargs`` as for :meth:`translate`), and join;
        ``progress(done, all)`` after each part of the sentences, where given."""
        return translate_document(
            text, lambda sentences: self.translate(sentences, **kwargs), progress
        )

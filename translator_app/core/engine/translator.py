"""The translator API used by the app and the command line.

``Translator.load(path).translate(texts, ...)`` (or ``Translator.from_bundle(bundle)``,
or ``Translator(model, tokenizer, options)``) returns immutable :class:`Translation`
values (safe to hand from a worker thread to the GUI): text, pieces, character spans,
attention matrices (read-only NumPy arrays) and the n-best list.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from translator_app.core.dictionary.index import DictionaryError
from translator_app.core.dictionary.lookup import Dictionary
from translator_app.core.engine import ct2, followups
from translator_app.core.engine.backends import Backend, Ct2Backend, Job, TorchBackend
from translator_app.core.engine.batching import length_batches
from translator_app.core.engine.bundle import Bundle, load_bundle
from translator_app.core.engine.bundle_format import SearchDefaults
from translator_app.core.engine.candidates import (
    candidate,
    has_words,
    merge_chunks,
    symbol_tail,
    verbatim,
    with_tail,
)
from translator_app.core.engine.closing_stop import encode_with_stop, needs_stop, without_stop
from translator_app.core.engine.dictionary_pass import with_dictionary_terms
from translator_app.core.engine.faithful_choice import prefer_faithful
from translator_app.core.engine.faithful_passes import retry_lost_facts, with_placeholders
from translator_app.core.engine.first_capital import with_first_capital
from translator_app.core.engine.lazy_model import Device, LazyModel, device_name, materialised
from translator_app.core.engine.search_types import (
    Hypothesis,
    SearchOptions,
    searched_options,
    with_choices,
    with_coverage,
)
from translator_app.core.engine.term_articles import with_term_articles
from translator_app.core.engine.term_context import with_words_around_terms
from translator_app.core.engine.text_document import DocumentTranslation, translate_document
from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.faithful.glossary import (
    Glossary,
    annotate,
    check_uses,
    map_spans,
    merged,
)
from translator_app.core.faithful.protect import (
    entity_uses,
    merge_uses,
    protected_uses,
)
from translator_app.core.faithful.terms import has_term_markers, mask_markers
from translator_app.core.faithful.umlauts import spans_in, spelled_as_german, uses_in
from translator_app.core.limits import MAX_SENTENCE_TOKENS, MAX_SOURCE_TOKENS, check_protect
from translator_app.core.platform.hardware import ENGINES, PRECISIONS
from translator_app.core.text.clean import without_lone_surrogates
from translator_app.core.text.tokenizer import EOS_PIECE, Pieces, Tokenizer

if TYPE_CHECKING:
    import torch

# PyTorch and the PyTorch model are loaded where they are needed (forced passes, the
# PyTorch search, int8 quantisation): a Transformer translated with CTranslate2 reaches
# its first translation without them (issue 49; core/engine/lazy_model.py).

# Source tokens decoded in one batch (sentences of similar length together).
BATCH_TOKENS = 3000
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class InvalidTextWarning(UserWarning):
    """A text held characters that are not valid Unicode; they were replaced."""


@dataclass
class _Sentence:
    """One text on its way through :meth:`Translator._translate`."""

    text: str
    encoded: Pieces | None
    term_uses: list  # the glossary's terms in it
    checked: list  # those and, where protected, its names and places
    as_is: Candidate | None = None  # a text without words, kept as it is
    jobs: list[Job] = field(default_factory=list)
    tail: str = ""  # closing emoji and symbols, carried to the English (symbol_tail)
    stop: bool = False  # read with a full stop it does not close with (closing_stop.py)


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
            try:
                self.engine = ct2.engine_for(
                    model,
                    tokenizer,
                    precision,
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
        reference = TorchBackend(
            lambda: self.model, tokenizer.pad_id, self.device, precision, self.max_positions
        )
        self.backend: Backend = (
            reference if self.engine is None else Ct2Backend(self.engine, reference, cfg.arch)
        )

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
        cls, bundle: Bundle, precision: str = "auto", engine: str = "auto"
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
        **choices,
    ) -> list[Translation]:
        """Translate each text as one sentence (use :meth:`translate_document` for
        paragraphs) with ``options``, or the defaults changed by ``choices`` (beam=4,
        nbest=2, ...: see :meth:`search_options`). ``prefixes`` forces the first target
        ids of each sentence; ``should_stop`` is polled every step and raises
        ``SearchCancelled``. ``glossary``: German terms and the English each must become
        (only for a model that :attr:`follows_glossary`). ``dictionary_words`` False
        leaves the German words the model copied for :meth:`add_dictionary_words` (the
        window shows the English first)."""
        options, glossary = self._request(options, choices, glossary)
        decode = self._decoder(options, should_stop, batch_tokens, glossary)
        texts, protect = list(texts), self.protect_facts
        if protect == "off":
            out = decode(texts, prefixes, False)
        else:
            out = retry_lost_facts(texts, prefixes, decode, protect == "always")
            out = with_placeholders(texts, out, prefixes, decode, glossary)
        if dictionary_words:
            out = self._with_dictionary(texts, out, prefixes, decode, glossary)
        out = with_term_articles(self.tokenizer, out, prefixes)
        return with_first_capital(self.tokenizer, out, prefixes)

    def add_dictionary_words(
        self,
        texts: Sequence[str],
        translations: Sequence[Translation],
        options: SearchOptions | None = None,
        *,
        should_stop: Callable[[], bool] | None = None,
        glossary: Glossary | None = None,
        **choices,
    ) -> list[Translation]:
        """``translations`` of ``texts`` (from :meth:`translate` with
        ``dictionary_words=False`` and the same options and glossary), each decoded again
        where it copied a German word that the dictionary translates
        (engine/dictionary_pass.py); the others are returned as they are (the same
        objects)."""
        options, glossary = self._request(options, choices, glossary)
        decode = self._decoder(options, should_stop, BATCH_TOKENS, glossary)
        out = self._with_dictionary(list(texts), list(translations), None, decode, glossary)
        return with_first_capital(self.tokenizer, with_term_articles(self.tokenizer, out))

    def _request(self, options, choices, glossary):
        """The search options and glossary (the taught terms under the user's) of a
        request, checked."""
        if glossary and not self.follows_glossary:
            raise ValueError(
                "this model was not trained to follow a glossary; use a model trained with "
                "term annotations ([data] terms), or translate without the glossary"
            )
        if options is not None and choices:
            raise TypeError("give either options or changes of the defaults, not both")
        return options or self.search_options(**choices), merged(self.taught, glossary) or None

    def _decoder(self, options, should_stop, batch_tokens, glossary):
        """One decode of a list of sentences with these settings: (texts, prefixes,
        annotate facts, glossary) -> translations (faithful_passes.Decode)."""

        def decode(
            some: list[str], their_prefixes, protect: bool, terms: Glossary | None = glossary
        ) -> list[Translation]:
            return self._translate(
                some, options, their_prefixes, should_stop, batch_tokens, terms, protect
            )

        return decode

    def _with_dictionary(self, texts, out, prefixes, decode, glossary) -> list[Translation]:
        """``out`` with the words around the user's terms kept (engine/term_context.py)
        and the dictionary's English for copied words (once its index is built)."""
        out = with_words_around_terms(texts, out, prefixes, decode)
        if self.dictionary is None:
            return out
        try:
            if self.dictionary.ready(self.wait_for_dictionary):
                return with_dictionary_terms(
                    texts,
                    out,
                    prefixes,
                    decode,
                    glossary,
                    self.protect_facts,
                    self.dictionary,
                    encode=lambda english: self.tokenizer.encode(english).ids,
                )
        except DictionaryError as e:  # its index cannot be built: the model's words
            self.dictionary, self.dictionary_problem = None, str(e)
        return out

    def _translate(
        self, texts, options, prefixes, should_stop, batch_tokens, glossary, protect=False
    ) -> list[Translation]:
        """One decode of ``texts``: each encoded (annotated where ``protect`` or the
        glossary asks), cut into chunks the model's positions hold, searched in batches
        of similar length, and put together with its faithful candidate first."""
        sentences = [
            self._sentence(i, text, glossary, protect, tuple(prefixes[i]) if prefixes else ())
            for i, text in enumerate(texts)
        ]
        jobs = [job for s in sentences for job in s.jobs]
        results: dict[tuple[int, int], list[Hypothesis]] = {}
        searched = searched_options(options)
        for indices in length_batches([len(j.src) for j in jobs], batch_tokens, max_items=64):
            batch = [jobs[i] for i in indices]
            hyps = with_coverage(self.backend.search(batch, searched, should_stop), options)
            for job, h in zip(batch, hyps, strict=True):
                results[(job.item, job.chunk)] = h
        return [
            self._assemble(s, [results[(i, c)] for c in range(len(s.jobs))])
            for i, s in enumerate(sentences)
        ]

    def _sentence(self, i: int, text: str, glossary, protect: bool, prefix) -> _Sentence:
        """``text`` cleaned and encoded, the terms and facts its candidates are checked
        for, and its jobs (none where it is empty or kept as it is)."""
        clean, repaired = without_lone_surrogates(_CONTROL.sub(" ", text))
        if repaired:
            warnings.warn(
                f"text {i + 1} holds lone surrogates (not valid Unicode); "
                "they were replaced by U+FFFD",
                InvalidTextWarning,
                stacklevel=4,
            )
        if self.follows_glossary:  # the user's text must not carry annotations
            clean = mask_markers(clean)
        cut = symbol_tail(clean)
        clean, tail = clean[:cut], clean[cut:]  # a prefix: spans stay valid in ``text``
        # Typed without umlauts, in capitals or without any: read as German writes it.
        read, origins = spelled_as_german(clean)
        uses = glossary.find(read) if glossary else []
        # Protected names and places are checked in the n-best like the user's terms
        # (beam search may prefer a shorter candidate that drops „in Wien“).
        checked = merge_uses(uses, entity_uses(read)) if protect else uses
        marked = merge_uses(uses, protected_uses(read)) if protect else uses
        stop = needs_stop(read)
        enc = self._encode(read, marked, stop)
        if origins is not None and enc is not None:  # spans in the user's text
            enc = Pieces(clean, enc.ids, enc.pieces, spans_in(origins, enc.spans))
            uses, checked = uses_in(origins, uses), uses_in(origins, checked)
        sentence = _Sentence(text, enc, uses, checked, tail=tail, stop=stop)
        if enc is None or not enc.ids:
            return sentence
        if len(enc.ids) > MAX_SENTENCE_TOKENS:
            # The merged attention of one text grows with the square of its length.
            raise ValueError(
                f"text {i + 1} is {len(enc.ids)} tokens long, more than the "
                f"{MAX_SENTENCE_TOKENS} one sentence may have; use translate_document, "
                "which splits long text"
            )
        if not has_words(clean) and not prefix:
            sentence.as_is = verbatim(self.tokenizer, clean, enc.spans + ((len(clean),) * 2,))
            if sentence.as_is is not None:
                return sentence
        step = self.max_source_tokens - 1
        eos = self.tokenizer.eos_id
        for c, start in enumerate(range(0, len(enc.ids), step)):
            chunk_ids = list(enc.ids[start : start + step]) + [eos]
            sentence.jobs.append(Job(i, c, chunk_ids, prefix if c == 0 else ()))
        return sentence

    def _encode(self, clean: str, marked: list, stop: bool) -> Pieces | None:
        """The pieces of ``clean`` with its ``marked`` terms and facts annotated, read with
        a full stop after it where ``stop`` says it closes without punctuation
        (closing_stop.needs_stop); None where it is blank."""
        if not clean.strip():
            return None

        def encode(seen: str) -> Pieces:
            if not marked:
                return self.tokenizer.encode(seen)
            annotated, inserted = annotate(seen, marked)
            a = self.tokenizer.encode(annotated)
            return Pieces(seen, a.ids, a.pieces, map_spans(a.spans, inserted, len(seen)))

        return encode_with_stop(encode, clean) if stop else encode(clean)

    def _assemble(self, s: _Sentence, chunks: list[list[Hypothesis]]) -> Translation:
        """The Translation of one sentence from its chunks' hypotheses."""
        text, enc, eos = s.text, s.encoded, self.tokenizer.eos_id
        if enc is None or not enc.ids:
            return Translation(text, (eos,), (EOS_PIECE,), ((len(text), len(text)),), ())
        if s.as_is is not None:
            cands = (s.as_is,)
        elif len(chunks) == 1:
            # A search may return one decode twice (two beams cut at the length limit on
            # the same pieces): the n-best lists each translation once.
            unique: dict[tuple[int, ...], Hypothesis] = {}
            for h in chunks[0]:
                unique.setdefault(tuple(h.tokens), h)
            cands = tuple(candidate(self.tokenizer, h) for h in unique.values())
        else:
            cands = (merge_chunks(self.tokenizer, [c[0] for c in chunks], len(enc.ids) + 1),)
        if s.stop:
            cands = tuple(without_stop(self.tokenizer, c) for c in cands)
        if s.tail:
            cands = tuple(with_tail(c, s.tail) for c in cands)
        cands, missing = prefer_faithful(text, cands, s.checked)
        return Translation(
            source=text,
            source_ids=enc.ids + (eos,),
            source_pieces=enc.pieces + (EOS_PIECE,),
            source_spans=enc.spans + ((len(text), len(text)),),
            nbest=cands,
            missing_numbers=missing,
            terms=check_uses(s.term_uses, cands[0].text) if cands else (),
        )

    def explain(self, translation: Translation) -> Translation:
        """``translation`` with every layer's and head's attention of its best candidate
        (the alignment panel's other layers; engine/followups.py)."""
        return followups.explain(self, translation)

    def check_dropped(self, translations: Sequence[Translation]) -> list[Translation]:
        """``translations`` with the content words of each source that its best
        candidate does not seem to carry (``not_carried``; engine/followups.py)."""
        return followups.check_dropped(self, translations)

    # ----------------------------------------------------------------- word choices
    def alternatives(
        self, translation: Translation, piece: int, k: int = followups.ALTERNATIVES
    ) -> tuple[Candidate, ...]:
        """Up to ``k`` other translations of ``translation``'s sentence that keep its best
        candidate up to target position ``piece`` and choose another piece there: the
        word menu's alternatives, likeliest piece first (engine/followups.py)."""
        return followups.alternatives(self, translation, piece, k)

    # ----------------------------------------------------------------- documents
    def translate_document(self, text: str, **kwargs) -> DocumentTranslation:
        """Split into sentences (keeping line breaks and blank lines), translate each
        distinct sentence once (``kwargs`` as for :meth:`translate`), and join."""
        return translate_document(text, lambda sentences: self.translate(sentences, **kwargs))

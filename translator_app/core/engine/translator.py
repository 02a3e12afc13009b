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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from translator_app.core.engine import ct2
from translator_app.core.engine.batching import frozen_array, length_batches
from translator_app.core.engine.bundle import Bundle, SearchDefaults, load_bundle
from translator_app.core.engine.candidates import (
    candidate,
    has_words,
    merge_chunks,
    text_of,
    verbatim,
)
from translator_app.core.engine.document import DocumentTranslation, translate_document
from translator_app.core.engine.faithful_choice import facts_lost, n_lost, prefer_faithful
from translator_app.core.engine.lazy_model import Device, LazyModel, device_name, materialised
from translator_app.core.engine.search_types import (
    Hypothesis,
    SearchCancelled,
    SearchOptions,
    output_limit,
    with_choices,
)
from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.faithful.glossary import (
    Glossary,
    annotate,
    check_uses,
    map_spans,
    merged,
)
from translator_app.core.faithful.placeholders import restore_candidate, restore_source, substitute
from translator_app.core.faithful.protect import (
    entity_uses,
    is_place,
    merge_uses,
    protected_uses,
)
from translator_app.core.faithful.terms import has_term_markers, mask_markers
from translator_app.core.limits import MAX_SENTENCE_TOKENS, check_protect
from translator_app.core.platform.hardware import ENGINES, PRECISIONS
from translator_app.core.text.tokenizer import EOS_PIECE, Pieces, Tokenizer

if TYPE_CHECKING:
    import torch

# PyTorch and the PyTorch model are loaded where they are needed (forced passes, the
# PyTorch search, int8 quantisation): a Transformer translated with CTranslate2 reaches
# its first translation without them (issue 49; core/engine/lazy_model.py).

# Decodes with placeholders at most, for a sentence that lost a name or place (each one
# more decode of that sentence only).
PLACEHOLDER_TRIES = 2
# Word alternatives offered for one position of a translation (the word menu), and the
# least probability a piece needs there to be offered: less likely ones are noise ("we" +
# "ce" + "ce" made "wecece" beside "celebrate").
ALTERNATIVES = 8
ALTERNATIVE_MIN_PROB = 0.01
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Lone surrogates (from undecodable bytes, or a broken API caller) are not Unicode; the
# tokenizer cannot take them, so each becomes U+FFFD (one for one: spans stay valid).
LONE_SURROGATES = re.compile(r"[\ud800-\udfff]")


class InvalidTextWarning(UserWarning):
    """A text held characters that are not valid Unicode; they were replaced."""


@dataclass
class _Job:
    item: int
    chunk: int
    src: list[int]  # ids ending with EOS
    prefix: tuple[int, ...]


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
        self.max_positions = cfg.max_positions if cfg.arch == "transformer" else 4096
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
        cls, bundle: Bundle, precision: str = "fp32", engine: str = "auto"
    ) -> Translator:
        """A translator with the bundle's model, tokenizer and stored search defaults."""
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
        )

    @classmethod
    def load(
        cls,
        path: str | Path,
        device: str = "auto",
        precision: str = "fp32",
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
        batch_tokens: int = 3000,
        glossary: Glossary | None = None,
        **choices,
    ) -> list[Translation]:
        """Translate each text as one sentence (use :meth:`translate_document` for
        paragraphs) with ``options``, or the defaults changed by ``choices`` (beam=4,
        nbest=2, ...: see :meth:`search_options`). ``prefixes`` forces the first target
        ids of each sentence; ``should_stop`` is polled every step and raises
        ``SearchCancelled``. ``glossary``: German terms and the English each must become
        (only for a model that :attr:`follows_glossary`)."""
        if glossary and not self.follows_glossary:
            raise ValueError(
                "this model was not trained to follow a glossary; use a model trained with "
                "term annotations ([data] terms), or translate without the glossary"
            )
        if options is not None and choices:
            raise TypeError("give either options or changes of the defaults, not both")
        options = options or self.search_options(**choices)
        glossary = merged(self.taught, glossary) or None
        args = (options, prefixes, should_stop, batch_tokens, glossary)
        if self.protect_facts == "off":
            return self._translate(texts, *args)
        # "retry": decode plain, and where that loses or doubles a number, time or date,
        # a name, a place or a currency (core/faithful/protect.py), decode those sentences
        # with the facts annotated too and keep whichever loses fewer: the annotations
        # cost fluency where the plain decode is already faithful (newstest2014: "A
        # 37-year-old Pkw-old Pkw-old" for „ein 37-jähriger Pkw-Fahrer“). "always": the
        # other way round („kostet 30 Euro“ annotated gave "costs 30€30").
        first = self.protect_facts == "always"
        out = self._translate(texts, *args, protect=first)
        lost = [facts_lost(t) for t in out]
        retry = [i for i, (n, _) in enumerate(lost) if n]
        if retry:
            again = self._translate(
                [texts[i] for i in retry],
                options,
                [prefixes[i] for i in retry] if prefixes else None,
                should_stop,
                batch_tokens,
                glossary,
                protect=not first,
            )
            for i, t in zip(retry, again, strict=True):
                if facts_lost(t) < lost[i]:
                    out[i] = t
        return self._with_placeholders(texts, out, *args)

    def _with_placeholders(
        self, texts, out, options, prefixes, should_stop, batch_tokens, glossary
    ) -> list[Translation]:
        """Where the best candidate lost a protected name or place, decode once more with
        each lost one replaced by a name the model always copies, and keep that where it
        loses less (core/faithful/placeholders.py). Where the model garbled that placeholder too
        (annotated beside a place, „Frau Tom ... nach München“ gave "Mrs Munich"), try
        the next one."""
        for attempt in range(PLACEHOLDER_TRIES):
            todo = []  # (index, the glossary's terms, those and the entities, lost ones)
            for i, t in enumerate(out):
                if not t.nbest:
                    continue
                terms = glossary.find(t.source) if glossary else []
                checked = merge_uses(terms, entity_uses(t.source))
                entities = [u for u in checked if u not in terms]
                lost = [u for u in check_uses(entities, t.text) if not u.kept]
                if lost:
                    todo.append((i, terms, checked, lost))
            if not todo:
                return out
            subs = [
                substitute(texts[i], lost, [is_place(u) for u in lost], skip=attempt)
                for i, *_, lost in todo
            ]
            again = self._translate(
                [text for text, _ in subs],
                options,
                [prefixes[i] for i, *_ in todo] if prefixes else None,
                should_stop,
                batch_tokens,
                glossary,
                protect=True,
            )
            for (i, terms, checked, _), (_, edits), t in zip(todo, subs, again, strict=True):
                old = out[i]
                cands = tuple(restore_candidate(c, edits) for c in t.nbest)
                cands, missing = prefer_faithful(old.source, cands, checked)
                if not cands or n_lost(old.source, cands[0], checked) >= n_lost(
                    old.source, old.nbest[0], checked
                ):
                    continue
                out[i] = Translation(
                    source=old.source,
                    source_ids=t.source_ids,
                    source_pieces=t.source_pieces,
                    source_spans=restore_source(t.source_spans, edits),
                    nbest=cands,
                    missing_numbers=missing,
                    terms=check_uses(terms, cands[0].text),
                )
        return out

    def _translate(
        self, texts, options, prefixes, should_stop, batch_tokens, glossary, protect=False
    ) -> list[Translation]:
        eos = self.tokenizer.eos_id
        encoded, jobs, term_uses, checked = [], [], [], []
        as_is: dict[int, Candidate] = {}  # texts without words, kept as they are
        for i, text in enumerate(texts):
            clean = _CONTROL.sub(" ", text)
            if LONE_SURROGATES.search(clean):
                warnings.warn(
                    f"text {i + 1} holds lone surrogates (not valid Unicode); "
                    "they were replaced by U+FFFD",
                    InvalidTextWarning,
                    stacklevel=2,
                )
                clean = LONE_SURROGATES.sub("\ufffd", clean)
            if self.follows_glossary:  # the user's text must not carry annotations
                clean = mask_markers(clean)
            uses = glossary.find(clean) if glossary else []
            term_uses.append(uses)
            # Protected names and places are checked in the n-best like the user's terms
            # (beam search may prefer a shorter candidate that drops „in Wien“).
            checked.append(merge_uses(uses, entity_uses(clean)) if protect else uses)
            marked = merge_uses(uses, protected_uses(clean)) if protect else uses
            if marked:
                annotated, inserted = annotate(clean, marked)
                a = self.tokenizer.encode(annotated)
                spans = map_spans(a.spans, inserted, len(clean))
                enc = Pieces(clean, a.ids, a.pieces, spans)
            else:
                enc = self.tokenizer.encode(clean) if clean.strip() else None
            encoded.append(enc)
            if enc is None or not enc.ids:
                continue
            if len(enc.ids) > MAX_SENTENCE_TOKENS:
                # The merged attention of one text grows with the square of its length.
                raise ValueError(
                    f"text {i + 1} is {len(enc.ids)} tokens long, more than the "
                    f"{MAX_SENTENCE_TOKENS} one sentence may have; use translate_document, "
                    "which splits long text"
                )
            if not has_words(clean) and not prefixes:
                kept = verbatim(self.tokenizer, clean, enc.spans + ((len(clean), len(clean)),))
                if kept is not None:
                    as_is[i] = kept
                    continue
            prefix = tuple(prefixes[i]) if prefixes else ()
            step = self.max_source_tokens - 1
            for c, start in enumerate(range(0, len(enc.ids), step)):
                chunk_ids = list(enc.ids[start : start + step]) + [eos]
                jobs.append(_Job(i, c, chunk_ids, prefix if c == 0 else ()))

        results: dict[tuple[int, int], list[Hypothesis]] = {}
        widths = [len(j.src) for j in jobs]
        for indices in length_batches(widths, batch_tokens, max_items=64):
            batch = [jobs[i] for i in indices]
            hyps = self._search(batch, options, should_stop)
            for job, h in zip(batch, hyps, strict=True):
                results[(job.item, job.chunk)] = h

        out = []
        for i, text in enumerate(texts):
            enc = encoded[i]
            if enc is None or not enc.ids:
                out.append(Translation(text, (eos,), (EOS_PIECE,), ((len(text), len(text)),), ()))
                continue
            n_chunks = sum(1 for key in results if key[0] == i)
            chunks = [results[(i, c)] for c in range(n_chunks)]
            if i in as_is:
                cands = (as_is[i],)
            elif n_chunks == 1:
                cands = tuple(candidate(self.tokenizer, h) for h in chunks[0])
            else:
                cands = (merge_chunks(self.tokenizer, [c[0] for c in chunks], len(enc.ids) + 1),)
            cands, missing = prefer_faithful(text, cands, checked[i])
            out.append(
                Translation(
                    source=text,
                    source_ids=enc.ids + (eos,),
                    source_pieces=enc.pieces + (EOS_PIECE,),
                    source_spans=enc.spans + ((len(text), len(text)),),
                    nbest=cands,
                    missing_numbers=missing,
                    terms=check_uses(term_uses[i], cands[0].text) if cands else (),
                )
            )
        return out

    def _search(self, batch, options: SearchOptions, should_stop) -> list[list[Hypothesis]]:
        if self.engine is None:
            return self._search_torch(batch, options, should_stop)
        hyps = self._search_ct2(batch, options, should_stop)
        # A sentence with words never becomes nothing without a word said: where
        # CTranslate2 wrote only the end of the sentence (a damaged converted model did),
        # the PyTorch model, the reference, decodes that sentence again.
        empty = [k for k, h in enumerate(hyps) if len(batch[k].src) > 1 and _only_eos(h)]
        if empty:
            redone = self._search_torch([batch[k] for k in empty], options, should_stop)
            for k, h in zip(empty, redone, strict=True):
                hyps[k] = h
        return hyps

    def _search_torch(self, batch, options: SearchOptions, should_stop) -> list[list[Hypothesis]]:
        import torch

        from translator_app.core.engine.batching import pad_rows
        from translator_app.core.engine.search import beam_search, greedy_search

        src, mask = pad_rows([j.src for j in batch], self.tokenizer.pad_id)
        src, mask = src.to(str(self.device)), mask.to(str(self.device))
        kwargs = dict(
            max_len_cap=self.max_positions,
            prefixes=[j.prefix for j in batch] if any(j.prefix for j in batch) else None,
            should_stop=should_stop,
        )
        autocast = torch.autocast(
            self.device.type, dtype=torch.bfloat16, enabled=self.precision == "bf16"
        )
        with autocast:
            if options.beam == 1:
                return greedy_search(self.model, src, mask, options, **kwargs)
            return beam_search(self.model, src, mask, options, **kwargs)

    def _search_ct2(self, batch, options: SearchOptions, should_stop) -> list[list[Hypothesis]]:
        if should_stop is not None and should_stop():
            raise SearchCancelled()
        limits = [
            output_limit(len(j.src), options.max_len_a, options.max_len_b, self.max_positions)
            for j in batch
        ]
        prefixes = [j.prefix for j in batch] if any(j.prefix for j in batch) else None
        hyps = self.engine.search([j.src for j in batch], options, limits, prefixes)
        if prefixes:
            hyps = self._keep_prefixes(batch, hyps, options, should_stop)
        if options.all_layers and self.config.arch == "transformer":
            hyps = self._with_layers(batch, hyps)
        return hyps

    def _keep_prefixes(self, batch, hyps, options: SearchOptions, should_stop):
        """Only hypotheses that begin with their job's forced prefix: a word the user
        chose must never come back as another (CTranslate2 with its vocabulary
        shortlist once garbled forced words). Where none does, the PyTorch model decodes
        that sentence."""
        out = []
        for job, row in zip(batch, hyps, strict=True):
            n = len(job.prefix)
            kept = [h for h in row if tuple(h.tokens[:n]) == job.prefix]
            if not kept:
                kept = self._search_torch([job], options, should_stop)[0]
            out.append(kept)
        return out

    def _with_layers(self, batch, hyps: list[list[Hypothesis]]) -> list[list[Hypothesis]]:
        """Every layer's and head's cross-attention of each sentence's best decode by
        CTranslate2, from one teacher-forced pass of the PyTorch model; its alignment is
        taken from the same pass, so it is the model's own."""
        from translator_app.core.engine.forced import attention_layers

        layers = attention_layers(
            self.model, [j.src for j in batch], [row[0].tokens for row in hyps]
        )
        out = []
        for mine, row in zip(layers, hyps, strict=True):
            align = self.model.alignment_of(mine[:, self.model.align_layer])  # [T, S]
            out.append([replace(row[0], layers=mine, attention=align), *row[1:]])
        return out

    def explain(self, translation: Translation) -> Translation:
        """``translation`` with every layer's and head's attention of its best candidate
        (what the alignment panel shows when the user picks another layer or head), from
        one teacher-forced pass; the alignment stays the one decoded. Unchanged where it
        has them already, for an RNN (one attention: the alignment) and for a sentence
        longer than the model's positions (translated in parts)."""
        best = translation.best
        if (
            best is None
            or best.layers is not None
            or self.config.arch != "transformer"
            or len(translation.source_ids) > self.max_source_tokens
            or not best.target_ids
            or best.attention.shape != (len(best.target_ids), len(translation.source_ids))
        ):
            return translation
        from translator_app.core.engine.forced import attention_layers

        (layers,) = attention_layers(self.model, [translation.source_ids], [best.target_ids])
        explained = replace(best, layers=frozen_array(layers))
        return replace(translation, nbest=(explained, *translation.nbest[1:]))

    def check_dropped(self, translations: Sequence[Translation]) -> list[Translation]:
        """``translations`` with the content words of each source that its best
        candidate does not seem to carry (``not_carried``; core/engine/support.py), from
        one teacher-forced pass per sentence. Left unchecked (None) where the sentence
        was translated in parts or its text is not the decode of its ids."""
        from translator_app.core.engine.support import words_not_carried

        out = []
        for t in translations:
            best = t.best
            if (
                t.not_carried is not None
                or best is None
                or not best.target_ids
                or len(t.source_ids) > self.max_source_tokens
                or text_of(self.tokenizer, best.target_ids) != best.text
            ):
                out.append(t)
                continue
            words = words_not_carried(
                self.model, t.source, t.source_ids, t.source_spans, best.target_ids
            )
            out.append(replace(t, not_carried=tuple(words)))
        return out

    # ----------------------------------------------------------------- word choices
    def alternatives(
        self, translation: Translation, piece: int, k: int = ALTERNATIVES
    ) -> tuple[Candidate, ...]:
        """Up to ``k`` other translations of ``translation``'s sentence that keep its best
        candidate up to target position ``piece`` and choose another piece there, each
        decoded greedily to the end: the word menu's alternatives, likeliest piece first.
        CTranslate2 finds them in one call (``return_alternatives``, made for interactive
        translation); the PyTorch model ranks the pieces in one teacher-forced pass over
        the prefix and decodes each choice. Pieces under :data:`ALTERNATIVE_MIN_PROB` and
        the end of the sentence (the choice that drops words) are not offered. Empty
        where the sentence was translated in parts or its best text is not the decode of
        its ids (written back from placeholders): alternatives of another text mislead."""
        best = translation.best
        src = list(translation.source_ids)
        if (
            best is None
            or not 0 <= piece < len(best.target_ids)
            or not src
            or len(src) > self.max_source_tokens
            or text_of(self.tokenizer, best.target_ids) != best.text
        ):
            return ()
        prefix = best.target_ids[:piece]
        options = self.search_options(beam=1, nbest=1, all_layers=False)
        limit = max(
            output_limit(len(src), options.max_len_a, options.max_len_b, self.max_positions),
            piece + 2,
        )
        if self.engine is not None:
            hyps = self.engine.alternatives(
                src, prefix, k + 1, limit, options, ALTERNATIVE_MIN_PROB
            )
        else:
            from translator_app.core.engine.forced import likeliest_next

            choices = likeliest_next(self.model, src, prefix, k + 1, ALTERNATIVE_MIN_PROB)
            jobs = [_Job(0, 0, src, (*prefix, token)) for token in choices]
            hyps = [row[0] for row in self._search(jobs, options, None)] if jobs else []
        out, seen = [], {best.target_ids[piece], self.tokenizer.eos_id}
        for h in hyps:
            if len(h.tokens) > piece and h.tokens[:piece] == prefix and h.tokens[piece] not in seen:
                seen.add(h.tokens[piece])
                out.append(candidate(self.tokenizer, h))
        return tuple(out[:k])

    # ----------------------------------------------------------------- documents
    def translate_document(self, text: str, **kwargs) -> DocumentTranslation:
        """Split into sentences (keeping line breaks and blank lines), translate each
        distinct sentence once (``kwargs`` as for :meth:`translate`), and join."""
        return translate_document(text, lambda sentences: self.translate(sentences, **kwargs))


def _only_eos(hyps: Sequence[Hypothesis]) -> bool:
    return all(len(h.tokens) <= 1 for h in hyps)

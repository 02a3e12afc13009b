"""Transformer bundles decoded by CTranslate2 (issue 31).

CTranslate2 is the inference engine of the field for exactly this kind of model (Argos
Translate and the OPUS-MT CTranslate2 models use it): int8 on AVX2, AVX-512, ARM and
CUDA, several times faster per token than eager PyTorch on two cores, whose cost here is
the per-operator overhead of hundreds of small calls per decoder step.

The bundle's PyTorch weights are written into a CTranslate2 ``TransformerSpec`` once,
at its first load, and kept in the user's cache (``ct2_models.py``): the same layers,
norms and activation, our position table as its position encodings, the tokenizer's
pieces as its vocabulary. This module decodes with the converted model.

The PyTorch model stays the reference: RNN bundles, the fallback where CTranslate2 is
missing or refuses a model, and the teacher-forced pass that gives the alignment panel
every layer's and head's attention for the chosen output.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from translator_app.core.engine.ct2_models import (
    VMAP_FILE,
    Ct2Unavailable,
    converted_model,
    save_converted,
    state_sha256,
    supports,
    vocabulary,
)
from translator_app.core.engine.lazy_model import Device, materialised
from translator_app.core.engine.search_types import Hypothesis, SearchOptions, length_penalty
from translator_app.core.models.config import ModelConfig

if TYPE_CHECKING:  # imported where a model is converted: decoding needs no PyTorch
    pass

try:  # a base dependency, but the app must still run where a platform has no wheel
    import ctranslate2
except ImportError:  # pragma: no cover - depends on the platform
    ctranslate2 = None


def available() -> bool:
    return ctranslate2 is not None


# ------------------------------------------------------------------------- decoding
class Ct2Engine:
    """Greedy and beam search of a converted model, returning the translator's
    :class:`Hypothesis` (tokens with EOS, alignment rows for every token)."""

    def __init__(
        self,
        model_dir: Path,
        vocab: list[str],
        cfg: ModelConfig,
        device: str,
        compute_type: str,
        threads: int = 0,
        workers: int = 1,
    ) -> None:
        if ctranslate2 is None:
            raise Ct2Unavailable("CTranslate2 is not installed")
        # CTranslate2 sets the process's OpenMP threads to its own (1 on 2 cores): a
        # trainer that evaluated with it then trained on one core, 40 % slower (seen in
        # stage 17). PyTorch's threads are put back where PyTorch is loaded.
        torch = sys.modules.get("torch")
        torch_threads = torch.get_num_threads() if torch is not None else 0
        try:
            kind, index = device_parts(device)
            self.translator = ctranslate2.Translator(
                str(model_dir),
                device=kind,
                device_index=index,
                compute_type=compute_type,
                intra_threads=threads,
                inter_threads=workers,
            )
        except (RuntimeError, ValueError) as e:
            raise Ct2Unavailable(f"CTranslate2 cannot load {model_dir}: {e}") from None
        finally:
            if torch is not None and torch.get_num_threads() != torch_threads:
                torch.set_num_threads(torch_threads)
        self.vocab = vocab
        # How many decodes may run at once, each on cores of its own (a speculative
        # decode beside the one the user waits for: postedit/request.py)
        self.workers = workers
        self.repaired = ""  # what was wrong with the cached converted model, once repaired
        self.ids = {piece: i for i, piece in enumerate(vocab)}
        self.cfg = cfg
        self.compute_type = compute_type
        # The bundle's vocabulary shortlist: the output layer scores only the pieces the
        # sentence may become (bench/bench_vmap.py: a quarter faster, the same output).
        self.use_vmap = (Path(model_dir) / VMAP_FILE).is_file()
        # Never emit padding, BOS or UNK (as the PyTorch search, which masks them after
        # the softmax; CTranslate2 before it, so its log-probabilities are a little higher).
        specials = {cfg.pad_id, cfg.bos_id, cfg.unk_id} - {cfg.eos_id}
        self._suppress = [[vocab[i]] for i in sorted(specials)]

    def _translate(self, sources, options: SearchOptions, beam: int, limits, prefixes, **extra):
        """One ``translate_batch`` call (tokens as the vocabulary's pieces); ``extra``
        options add to or replace the search's."""
        v = self.vocab
        forced = bool(prefixes and any(prefixes))
        return self.translator.translate_batch(
            [[v[t] for t in s] for s in sources],
            [[v[t] for t in p] for p in prefixes] if forced else None,
            **{"beam_size": beam, "num_hypotheses": options.nbest, **extra},
            length_penalty=options.length_penalty,
            suppress_sequences=self._suppress,
            # The shortlist only where nothing is forced: a forced word outside it came
            # out garbled ("unfortunately" forced gave "recognition must be postponed"),
            # and it hid most of a word's alternatives (bundled model, issue 48).
            use_vmap=self.use_vmap and not forced and "return_alternatives" not in extra,
            return_end_token=True,
            max_decoding_length=max(limits),
            max_input_length=0,
            return_scores=True,
            return_attention=True,
        )

    def search(
        self,
        sources: Sequence[Sequence[int]],
        options: SearchOptions,
        limits: Sequence[int],
        prefixes: Sequence[Sequence[int]] | None = None,
    ) -> list[list[Hypothesis]]:
        """``sources``: token ids with EOS; ``limits``: the most output tokens (EOS
        included) per sentence; ``prefixes``: forced first target ids per sentence."""
        beam = max(options.beam, options.nbest)
        groups = [list(range(len(sources)))]
        if beam > 1:
            # CTranslate2 4.8's beam search returns a wrong first attention row for a
            # sentence padded in its batch (the row sums to less than one); sentences of
            # equal length need no padding.
            by_length: dict[int, list[int]] = {}
            for i, src in enumerate(sources):
                by_length.setdefault(len(src), []).append(i)
            groups = list(by_length.values())
        results: list = [None] * len(sources)
        for group in groups:
            for i, res in zip(
                group,
                self._translate(
                    [sources[i] for i in group],
                    options,
                    beam,
                    [limits[i] for i in group],
                    [prefixes[i] for i in group] if prefixes else None,
                ),
                strict=True,
            ):
                results[i] = res
        hyps = [
            self._hypotheses(res, limit, len(src), options.length_penalty)
            for res, limit, src in zip(results, limits, sources, strict=True)
        ]
        if prefixes and any(prefixes):
            hyps = self._scored_whole(sources, prefixes, limits, hyps, options.length_penalty)
        return hyps

    def _scored_whole(self, sources, prefixes, limits, hyps: list[list[Hypothesis]], alpha: float):
        """``hyps`` (decoded after the forced ``prefixes``) with the log-probability of
        all their tokens, the prefix's included, and their score from it: CTranslate2
        counts only the tokens it chose (its score times the length to the power
        ``alpha``), so "… in a month. 1,150." forced from its 14th piece scored above
        "… € 1,150 cold in a month." forced from its 7th (a fix of a lost fact,
        core/api/followups.fact_fix), where the PyTorch search, which counts the forced
        tokens too, put it below. The prefix's log-probability is one scoring pass per
        sentence, shared by its hypotheses (a decoder step reads only the tokens before
        it): scoring each whole hypothesis, five copies of a long source, took 35-90 ms.
        A hypothesis stopped by its length ``limits`` (its end forced, as the PyTorch
        search forces it) is scored whole, its forced end included."""
        v = self.vocab
        forced = [i for i, p in enumerate(prefixes) if p and hyps[i]]
        cut = [(i, k) for i in forced for k, h in enumerate(hyps[i]) if len(h.tokens) >= limits[i]]
        # one pass: each sentence's prefix, then each stopped hypothesis whole
        asked = [(i, tuple(prefixes[i])) for i in forced]
        asked += [(i, hyps[i][k].tokens[:-1]) for i, k in cut]
        if not asked:
            return hyps
        scored = self.translator.score_batch(
            [[v[t] for t in sources[i]] for i, _ in asked],
            [[v[t] for t in tokens] for _, tokens in asked],
            max_input_length=0,
        )
        before = {  # the prefix's log-probability (not the end the scoring adds)
            i: float(sum(res.log_probs[: len(tokens)]))
            for (i, tokens), res in zip(asked[: len(forced)], scored[: len(forced)], strict=True)
        }
        whole = {
            key: float(sum(res.log_probs))
            for key, res in zip(cut, scored[len(forced) :], strict=True)
        }
        out = list(hyps)
        for i in forced:
            row = []
            for k, h in enumerate(hyps[i]):
                logprob = whole.get((i, k), before[i] + h.logprob)
                score = logprob / length_penalty(len(h.tokens), alpha)
                row.append(replace(h, logprob=logprob, score=score))
            out[i] = sorted(row, key=lambda h: -h.score)
        return out

    def alternatives(
        self,
        source: Sequence[int],
        prefix: Sequence[int],
        k: int,
        limit: int,
        options: SearchOptions,
        min_prob: float = 0.0,
    ) -> list[Hypothesis]:
        """Up to ``k`` translations of ``source`` (ids with EOS) that begin with
        ``prefix`` and differ at the first position after it (CTranslate2's
        ``return_alternatives``, made for interactive translation): the likeliest pieces
        there (each at least ``min_prob``), each decoded greedily to the end. In the
        model's order of probability at that position, not re-ranked, so the menu lists
        the likeliest choice first."""
        (res,) = self._translate(
            [source],
            options,
            1,
            [limit],
            [prefix],
            num_hypotheses=k,
            return_alternatives=True,
            min_alternative_expansion_prob=min_prob,
        )
        return self._hypotheses(res, limit, len(source), options.length_penalty, rank=False)

    def _hypotheses(
        self, res, limit: int, src_len: int, alpha: float, rank: bool = True
    ) -> list[Hypothesis]:
        """One ``TranslationResult`` as the translator's hypotheses (ranked by the GNMT
        score unless ``rank`` is False)."""
        eos = self.cfg.eos_id
        hyps = []
        for tokens, score, attention in zip(res.hypotheses, res.scores, res.attention, strict=True):
            ids = [self.ids[t] for t in tokens]
            attn = np.asarray(attention, dtype=np.float32).reshape(-1, src_len)
            if len(ids) > limit or ids[-1:] != [eos]:
                # Stopped by the limit: the PyTorch search forces EOS at the limit. The
                # attention of that step does not depend on the token chosen there, so
                # the rows stay exact; the score has the last token's log-probability
                # instead of the forced EOS's.
                ids = ids[: limit - 1] + [eos]
                attn = attn[: len(ids)]
            # CTranslate2 ranks by logprob / length ** alpha; the score reported
            # is the PyTorch search's GNMT one, so both engines' scores compare.
            n = len(ids)
            logprob = float(score) * n**alpha
            hyps.append(
                Hypothesis(
                    tokens=tuple(ids),
                    logprob=logprob,
                    score=logprob / length_penalty(n, alpha),
                    attention=attn.reshape(n, src_len),
                )
            )
        # Ranked by the GNMT score, as the PyTorch search ranks its finished beams.
        return sorted(hyps, key=lambda h: -h.score) if rank else hyps


def cpu_threads() -> int:
    """CTranslate2's threads on the CPU: one per physical core, taken as half the logical
    ones (``TRANSLATOR_CT2_THREADS`` overrides). On a 2-vCPU machine (an Intel Xeon with
    AVX-512, 2026-11-24), two threads made greedy decoding of a 20-word sentence 6x slower
    than one (108 against 16 ms) and batches half as fast: the second thread contends for
    the same core."""
    override = os.environ.get("TRANSLATOR_CT2_THREADS", "")
    if override.isdigit() and int(override) > 0:
        return int(override)
    return max(1, (os.cpu_count() or 2) // 2)


def cpu_workers(threads: int) -> int:
    """How many decodes CTranslate2 runs at once on the CPU: as many as its ``threads``
    each fit in the cores (``TRANSLATOR_CT2_WORKERS`` overrides), at most two. On two
    cores (an AMD EPYC, 2026-11-30) two sentences decoded at once took 0.63-0.70 s where
    one alone took 0.59-0.61 s: the second core was idle while the user waited."""
    override = os.environ.get("TRANSLATOR_CT2_WORKERS", "")
    if override.isdigit() and int(override) > 0:
        return int(override)
    return max(1, min(2, (os.cpu_count() or 1) // max(1, threads)))


def device_parts(device) -> tuple[str, int]:
    """("cpu", 0) or ("cuda", 1) from "cpu", "cuda:1" or a ``torch.device``."""
    parsed = Device.parse(str(device))
    return parsed.type, parsed.index or 0


def compute_type(precision: str, device) -> str:
    """CTranslate2's compute type for the translator's precision on ``device`` ("cpu",
    "cuda:0" or a ``torch.device``)."""
    kind, _ = device_parts(device)
    wanted = {
        "int8": "int8" if kind == "cpu" else "int8_float16",
        "bf16": "bfloat16",
        "fp32": "float32",
    }[precision]
    supported = ctranslate2.get_supported_compute_types(kind)
    return wanted if wanted in supported else "float32"


def cuda_devices() -> int:
    """How many CUDA devices CTranslate2 sees (0 without CTranslate2 or a GPU)."""
    if ctranslate2 is None:
        return 0
    try:
        return ctranslate2.get_cuda_device_count()
    except RuntimeError:
        return 0


def supports_int8(device: str) -> bool:
    """Whether CTranslate2 runs int8 on ``device`` (the app's default precision there)."""
    return ctranslate2 is not None and "int8" in ctranslate2.get_supported_compute_types(
        device_parts(device)[0]
    )


def engine_for(
    model: Any,
    tokenizer,
    precision: str,
    device: str,
    bundle_path: Path | None = None,
    shortlist: str = "",
    weights_key: str = "",
) -> Ct2Engine:
    """A CTranslate2 engine for ``model`` at ``precision`` (int8, bf16 or fp32): for a
    bundle from its own converted model or the cache (found by ``weights_key``, the
    bundle's checked weights hash, else a hash of the loaded tensors), with its
    vocabulary ``shortlist`` where it has one; raises :class:`Ct2Unavailable`. ``model``
    may be a :class:`~translator_app.core.engine.lazy_model.LazyModel`: it is built only
    where the model must be converted."""
    if ctranslate2 is None:
        raise Ct2Unavailable("CTranslate2 is not installed")
    if not supports(model.config):
        raise Ct2Unavailable(f"CTranslate2 does not run {model.config.arch} models")
    ctype = compute_type(precision, device)
    quantization = "int8" if ctype.startswith("int8") else "float32"
    vocab = vocabulary(tokenizer, model.config.vocab_size)
    on_cpu = device_parts(device)[0] == "cpu"
    threads = cpu_threads() if on_cpu else 0
    workers = cpu_workers(threads) if on_cpu else 1
    try:
        if bundle_path is None:
            # A model in memory (the trainer's evaluations): converted into a scratch
            # folder, which CTranslate2 reads whole at load, so nothing piles up.
            with tempfile.TemporaryDirectory(prefix="ct2-") as tmp:
                model_dir = save_converted(
                    materialised(model),
                    tokenizer,
                    Path(tmp) / "model",
                    quantization,
                    shortlist=shortlist,
                )
                return Ct2Engine(model_dir, vocab, model.config, device, ctype, threads, workers)
        converted = converted_model(
            bundle_path,
            weights_key or state_sha256(materialised(model)),
            model,
            tokenizer,
            quantization,
            shortlist,
        )
    except Ct2Unavailable:
        raise
    except (OSError, ValueError, RuntimeError) as e:
        raise Ct2Unavailable(f"could not convert the model for CTranslate2: {e}") from None
    engine = Ct2Engine(converted.path, vocab, model.config, device, ctype, threads, workers)
    engine.repaired = converted.repaired
    return engine

"""The bundle format's names, torch-free: its file names and versions, the search
defaults a bundle carries, and the cancellation of a load. Both the reader (bundle.py) and
the PyTorch writer and loader (bundle_torch.py) import them from here, so that neither
imports the other's module at its top (issue 62 §5)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from translator_app.core.engine.search_types import GREEDY, SearchOptions
from translator_app.core.limits import MAX_SOURCE_TOKENS, check_number, check_protect
from translator_app.core.models.from_dict import from_dict
from translator_app.core.text.tokenizer import SPM_FILE

FORMAT_NAME = "de-en-attention-translator"
# Version 1: one joint spm.model. Version 2: a tokenizer pair (imported Marian models);
# joint-tokenizer bundles are still written as version 1, which older versions read.
FORMAT_VERSION = 1
PAIR_FORMAT_VERSION = 2
READABLE_VERSIONS = (FORMAT_VERSION, PAIR_FORMAT_VERSION)
CONFIG_FILE = "config.json"
WEIGHTS_FILE = "model.safetensors"
CARD_FILE = "MODEL_CARD.md"
METRICS_FILE = "metrics.json"
TERMS_FILE = "terms.tsv"  # optional
SHORTLIST_FILE = "vmap.txt.xz"  # optional
BUNDLE_FILES = (CONFIG_FILE, WEIGHTS_FILE, SPM_FILE, CARD_FILE, METRICS_FILE)
COMMON_FILES = (CONFIG_FILE, WEIGHTS_FILE, CARD_FILE, METRICS_FILE)
PAIR_TYPE = "sentencepiece-pair"


class DeviceFallbackWarning(UserWarning):
    """CUDA was asked for (or auto-selected) but could not be used; CPU is used instead."""


@dataclass(frozen=True)
class SearchDefaults:
    """How a model translates unless the user chooses otherwise: the one source of the
    app's, the command line's and the engine's defaults (stored in the bundle's config;
    choices are applied by :func:`~translator_app.core.engine.search.with_choices`).
    Where a bundle says nothing, the search's own defaults (:data:`GREEDY`) hold, except
    the beam: a model translates with a beam of 5 unless its config says otherwise."""

    beam: int = 5
    # Candidates the translator weighs (the first that keeps the source's numbers, names
    # and terms wins; the app offers them as alternatives). None: as many as the beam.
    nbest: int | None = None
    length_penalty: float = GREEDY.length_penalty
    # Beam search's penalty for source words the attention left uncovered (GNMT's beta;
    # 0: none): the bundled model's config sets it (recipes/de-en-base, stage 24).
    coverage_penalty: float = GREEDY.coverage_penalty
    max_len_a: float = GREEDY.max_len_a
    max_len_b: int = GREEDY.max_len_b
    # Longer sentences are translated in pieces of this many source tokens.
    max_source_tokens: int = 200
    # For a model trained on term annotations: when the translator annotates the numbers,
    # dates, names and places of a sentence (core/faithful/protect.py): "retry" where the plain
    # decode lost a number, time, date, name, place or currency, "always", or "off".
    protect: str = "retry"
    # For a model trained on term annotations: a German word it copied into the English
    # that reads as a common word („Den Teig …“ -> "The Teig …") is decoded once more
    # with the dictionary's English annotated as a term (core/faithful/copied_words.py).
    dictionary_words: bool = True

    def __post_init__(self) -> None:
        check_protect(self.protect)
        self.options()  # the search settings are checked as the translator will use them
        check_number(
            "max_source_tokens", self.max_source_tokens, 8, MAX_SOURCE_TOKENS, integer=True
        )

    def options(self) -> SearchOptions:
        """These defaults as the options of a search (one best translation)."""
        return SearchOptions(
            beam=self.beam,
            nbest=self.beam if self.nbest is None else self.nbest,
            length_penalty=self.length_penalty,
            coverage_penalty=self.coverage_penalty,
            max_len_a=self.max_len_a,
            max_len_b=self.max_len_b,
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SearchDefaults:
        # Keys of a newer version are ignored; a value of the wrong type is an error.
        return from_dict(cls, data, "search settings", unknown="ignore", error=ValueError)


class LoadCancelled(Exception):
    """Raised when ``should_stop()`` returned True while a bundle was loading."""


def raise_if_cancelled(should_stop: Callable[[], bool] | None) -> None:
    if should_stop is not None and should_stop():
        raise LoadCancelled()

"""Qt-free translation engine: tokenizer, models, attention, search and bundles.

The app, the trainer and the command line all import from here; nothing in this
package imports Qt.
"""

from .bundle import (
    Bundle,
    BundleError,
    DeviceFallbackWarning,
    LoadCancelled,
    SearchDefaults,
    load_bundle,
    resolve_device,
    save_bundle,
)
from .config import ConfigError, ModelConfig
from .document import DocumentTranslation
from .model import build_model
from .paths import bundled_model_dir
from .search import Hypothesis, SearchCancelled, SearchOptions, beam_search, greedy_search
from .segment import Segment, join_translations, split_sentences
from .tokenizer import Tokenizer, train_sentencepiece
from .translator import Candidate, Translation, Translator

__all__ = [
    "Bundle",
    "BundleError",
    "Candidate",
    "ConfigError",
    "DeviceFallbackWarning",
    "DocumentTranslation",
    "Hypothesis",
    "LoadCancelled",
    "ModelConfig",
    "SearchCancelled",
    "SearchDefaults",
    "SearchOptions",
    "Segment",
    "Tokenizer",
    "Translation",
    "Translator",
    "beam_search",
    "build_model",
    "bundled_model_dir",
    "greedy_search",
    "join_translations",
    "load_bundle",
    "resolve_device",
    "save_bundle",
    "split_sentences",
    "train_sentencepiece",
]

"""Qt-free translation engine: tokenizer, models, attention, search and bundles.

The app, the trainer and the command line all import from here; nothing in this
package imports Qt. The names below load their module (and PyTorch) on first use, so a
command line that only parses its arguments (``--help``) answers at once.
"""

from __future__ import annotations

import importlib

# Public name -> the module that defines it.
_EXPORTS = {
    **dict.fromkeys(("Bundle", "load_bundle"), ".engine.bundle"),
    "BundleError": ".engine.bundle_files",
    **dict.fromkeys(
        ("DeviceFallbackWarning", "LoadCancelled", "SearchDefaults"), ".engine.bundle_format"
    ),
    **dict.fromkeys(("resolve_device", "save_bundle"), ".engine.bundle_torch"),
    **dict.fromkeys(("ConfigError", "ModelConfig"), ".models.config"),
    "DocumentTranslation": ".engine.text_document",
    "build_model": ".models.model",
    **dict.fromkeys(("bundled_model_dir", "bundled_rnn_model_dir"), ".platform.paths"),
    **dict.fromkeys(
        ("Hypothesis", "SearchCancelled", "SearchOptions", "beam_search", "greedy_search"),
        ".engine.search",
    ),
    **dict.fromkeys(("Segment", "split_sentences"), ".text.segment"),
    **dict.fromkeys(("Tokenizer", "train_sentencepiece"), ".text.tokenizer"),
    **dict.fromkeys(("Candidate", "Translation"), ".engine.translation"),
    "Translator": ".engine.translator",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})

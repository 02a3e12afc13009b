"""Qt-free translation engine: tokenizer, models, attention, search and bundles.

The app, the trainer and the command line all import from here; nothing in this
package imports Qt. The names below load their module (and PyTorch) on first use, so a
command line that only parses its arguments (``--help``) answers at once.
"""

from __future__ import annotations

import importlib

# Public name -> the module that defines it.
_EXPORTS = {
    **dict.fromkeys(
        (
            "Bundle",
            "BundleError",
            "DeviceFallbackWarning",
            "LoadCancelled",
            "SearchDefaults",
            "load_bundle",
            "resolve_device",
            "save_bundle",
        ),
        ".bundle",
    ),
    **dict.fromkeys(("ConfigError", "ModelConfig"), ".config"),
    "DocumentTranslation": ".document",
    "build_model": ".model",
    "bundled_model_dir": ".paths",
    **dict.fromkeys(
        ("Hypothesis", "SearchCancelled", "SearchOptions", "beam_search", "greedy_search"),
        ".search",
    ),
    **dict.fromkeys(("Segment", "join_translations", "split_sentences"), ".segment"),
    **dict.fromkeys(("Tokenizer", "train_sentencepiece"), ".tokenizer"),
    **dict.fromkeys(("Candidate", "Translation", "Translator"), ".translator"),
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

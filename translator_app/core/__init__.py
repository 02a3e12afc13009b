"""Qt-free translation engine: tokenizer, models, attention, search and bundles.

Nothing in this package imports Qt. Its public API is the few names below (README, "The
engine's API"); they load their module (and PyTorch) on first use, so a command line
that only parses its arguments (``--help``) answers at once.
"""

from __future__ import annotations

import importlib

# The public API, kept small (issue 62 §4): load a model, translate, explain (a
# translation's words and attention), and the values and errors these give. Everything
# else (bundles, models, search, tokenizer) is imported from its own module.
# Public name -> the module that defines it.
_EXPORTS = {
    "Translator": ".api.translator",
    **dict.fromkeys(("Candidate", "Translation", "WordAlignment"), ".engine.translation"),
    "DocumentTranslation": ".engine.text_document",
    "Glossary": ".faithful.glossary",
    **dict.fromkeys(("SearchCancelled", "SearchOptions"), ".engine.search_types"),
    "BundleError": ".engine.bundle_files",
    "LoadCancelled": ".engine.bundle_format",
    "bundled_model_dir": ".platform.paths",
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

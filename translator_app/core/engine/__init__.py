"""Translating: bundles on disk, greedy and beam search (PyTorch, or CTranslate2 for
Transformers), the ``Translator`` and its immutable results, and whole documents."""

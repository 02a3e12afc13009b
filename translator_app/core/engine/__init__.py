"""Translating one list of sentences: bundles on disk, greedy and beam search (PyTorch,
or CTranslate2 for Transformers), immutable results, and whole documents."""

"""Training and fine-tuning of the translator's models (no Qt).

Uses the engine in :mod:`translator_app.core` for models, tokenizer and bundles.
"""

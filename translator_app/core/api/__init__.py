"""The ``Translator``: a model's search and the post-editing pipeline behind one call,
and what follows a translation (every layer's attention, dropped words, word
alternatives)."""

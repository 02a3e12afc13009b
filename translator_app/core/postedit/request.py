"""What every step of the post-editing pipeline sees of one request: an immutable
:class:`PostEditRequest` (the sentences, their forced beginnings, the translator's
decode, the glossary, the facts mode, the dictionary and the steps asked for).

A step is a function ``(request, translations) -> translations`` (pipeline.py lists
them): it may decode again through ``request.decode`` and returns the translations it
keeps, the others as they were (the same objects).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property

from translator_app.core.engine.translation import Translation
from translator_app.core.faithful.copied_words import names_in
from translator_app.core.faithful.glossary import Glossary
from translator_app.core.text.tokenizer import Tokenizer

# The translator's one decode of a list of sentences: (texts, prefixes, annotate facts,
# glossary) -> translations, in the order given.
Decode = Callable[
    [list[str], Sequence[Sequence[int]] | None, bool, Glossary | None], list[Translation]
]


@dataclass(frozen=True)
class PostEditRequest:
    """One request's sentences and what the steps may use to translate them again.

    ``protect``: how facts are annotated, as the model's bundle says ("retry": a
    sentence that lost one is decoded again annotated; "always": annotated first; "off":
    a model that cannot follow annotations, or the step "facts" not asked for).
    ``dictionary``: a dictionary ready to look words up, or None (none shipped, the
    model cannot follow terms, its index not built yet). ``steps``: the names of the
    steps asked for (pipeline.STEP_NAMES).

    >>> PostEditRequest(("Guten Morgen",), None, decode, tokenizer).prefixed(0)
    False
    """

    texts: tuple[str, ...]
    prefixes: tuple[tuple[int, ...], ...] | None
    decode: Decode
    tokenizer: Tokenizer
    glossary: Glossary | None = None
    protect: str = "off"
    dictionary: object | None = None
    steps: frozenset[str] = frozenset()
    # How many decodes may run at once (the engine's workers, each on cores of its own)
    workers: int = 1
    # (text, prefix, annotated, glossary's id) -> a decode of it already made this request
    decoded: dict = field(default_factory=dict, compare=False, repr=False)

    def prefixed(self, i: int) -> bool:
        """Whether sentence ``i`` begins with target ids the caller forced (words the
        user chose: kept as chosen)."""
        return bool(self.prefixes and self.prefixes[i])

    def some_prefixes(self, indices: Sequence[int]) -> list[tuple[int, ...]] | None:
        """The forced beginnings of the sentences at ``indices`` (None where none are)."""
        return [self.prefixes[i] for i in indices] if self.prefixes else None

    @cached_property
    def names(self) -> frozenset[str]:
        """The names of all the request's sentences: a name anywhere in them is a name
        in each (copied_words.names_in); read once for every step that asks."""
        return names_in(self.texts)

    def encode(self, english: str) -> tuple[int, ...]:
        """The target ids of ``english`` (a word forced into a decode)."""
        return tuple(self.tokenizer.encode(english).ids)

    def decode_once(
        self, texts: list[str], prefixes, annotate: bool, glossary: Glossary | None
    ) -> list[Translation]:
        """``decode``, each sentence decoded at most once in this request this way (with
        its prefix, its facts annotated or not, under ``glossary``): a decode made
        before, or beside another (:meth:`decode_both_ways`), is given again."""
        keys = [
            (text, tuple(prefixes[i]) if prefixes else (), annotate, id(glossary))
            for i, text in enumerate(texts)
        ]
        todo = [i for i, key in enumerate(keys) if key not in self.decoded]
        if todo:
            given = [prefixes[i] for i in todo] if prefixes else None
            new = self.decode([texts[i] for i in todo], given, annotate, glossary)
            self.decoded.update(zip((keys[i] for i in todo), new, strict=True))
        return [self.decoded[key] for key in keys]

    def decode_both_ways(
        self, texts: list[str], prefixes, glossary: Glossary | None
    ) -> tuple[list[Translation], list[Translation]]:
        """``texts`` decoded plain and with their facts annotated, at once where the
        engine has a worker for each (the annotated decode, which the step "facts"
        may ask for next, costs the user no wait); (plain, annotated)."""
        if self.workers < 2:
            plain = self.decode_once(texts, prefixes, False, glossary)
            return plain, self.decode_once(texts, prefixes, True, glossary)
        pool = ThreadPoolExecutor(max_workers=2)
        try:
            ways = [
                pool.submit(self.decode_once, texts, prefixes, a, glossary) for a in (False, True)
            ]
            return ways[0].result(), ways[1].result()
        finally:  # a cancelled request (should_stop) does not wait for the other decode
            pool.shutdown(wait=False, cancel_futures=True)

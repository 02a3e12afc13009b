"""A decoder that writes what a test tells it: for the tests of what a post-editing step
does with what a model wrote (a garble, a copy, a dropped word), so that they hold on
every CPU and for every bundle, where the real model's English differs by a word.

:class:`ScriptedDecoder` is a :class:`~translator_app.core.engine.backends.Backend`;
:func:`scripted_translator` is the bundled model's Translator (its tokenizer, its
dictionary, its search settings) with the decoder swapped for one.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from translator_app.core.engine.backends import Job
from translator_app.core.engine.search_types import Hypothesis

BUNDLE = Path(__file__).resolve().parents[1] / "resources" / "model"


@dataclass(frozen=True)
class Written:
    """One English the script writes: its text, its log-probability, the German word
    each of its words attends to (English word -> German word), and German words no
    piece attends to (what the English drops)."""

    text: str
    logprob: float
    attends: dict = field(default_factory=dict)
    ignores: tuple[str, ...] = ()


def asked_for(source: str) -> list[str]:
    """The English each term annotation of ``source`` asks for, in order:
    "… <term> Pauschale <means> lump sum </term> …" -> ["lump sum"]."""
    return [part.split(" </term>", 1)[0] for part in source.split("<means> ")[1:]]


# source (the job's ids decoded, term annotations shown as "<term> … <means> … </term>")
# -> what the model writes for it, likeliest first; a script of two parameters is given
# the forced prefix's text too ("" where none)
Script = Callable[[str], list[Written]] | Callable[[str, str], list[Written]]


@dataclass
class ScriptedDecoder:
    """Answers every job with the script's English for its source: the candidates
    that begin with the job's forced prefix, or the prefix followed by the best
    candidate's words after as many words; each with attention rows over the source
    pieces (uniform, or on the German word ``attends`` names). ``jobs`` records the
    sources asked for, in order."""

    tokenizer: object
    script: Script
    jobs: list[str] = field(default_factory=list)

    def search(self, batch, options, should_stop=None):
        out = []
        for job in batch:
            source = self.tokenizer.decode(job.src).text
            self.jobs.append(source)
            asked = (source, self.tokenizer.decode(job.prefix).text)
            if len(inspect.signature(self.script).parameters) == 1:
                asked = asked[:1]
            written = self.script(*asked)[: max(options.beam, options.nbest)]
            out.append([self._hypothesis(job, w) for w in self._fitting(job, written)])
        return out

    def alternatives(self, src, prefix, k, limit, options, min_prob):
        """The script's candidates that begin with ``prefix``, likeliest first (the word
        menu's: each chooses its own piece after the prefix)."""
        source = self.tokenizer.decode(src).text
        asked = (source, self.tokenizer.decode(prefix).text)
        if len(inspect.signature(self.script).parameters) == 1:
            asked = asked[:1]
        job = Job(0, 0, list(src), tuple(prefix))
        fit = [w for w in self.script(*asked) if self._ids(w.text)[: len(prefix)] == list(prefix)]
        return [self._hypothesis(job, w) for w in fit[:k]]

    def _fitting(self, job, written: list[Written]) -> list[Written]:
        if not job.prefix:
            return written
        prefix = self.tokenizer.decode(job.prefix).text
        fit = [w for w in written if self._ids(w.text)[: len(job.prefix)] == list(job.prefix)]
        if fit:
            return fit
        rest = written[0].text.split()[len(prefix.split()) :]
        return [Written(" ".join([prefix, *rest]), written[0].logprob, written[0].attends)]

    def _ids(self, text: str) -> list[int]:
        return list(self.tokenizer.encode(text).ids)

    def _hypothesis(self, job, w: Written) -> Hypothesis:
        ids = self._ids(w.text) + [self.tokenizer.eos_id]
        source = self.tokenizer.decode(job.src)
        rows = self._attention(source, self.tokenizer.decode(ids), len(ids), len(job.src), w)
        return Hypothesis(tuple(ids), w.logprob, w.logprob, rows)

    @staticmethod
    def _attention(source, target, n_target: int, n_source: int, w: Written) -> np.ndarray:
        """[n_target, n_source] rows: a word ``attends`` names puts 0.9 on its German
        word's pieces; every other row is uniform over the pieces of no ignored word."""

        def pieces_of(word: str, decoded) -> list[int]:
            at = decoded.text.find(word)
            if at < 0:
                return []
            return [i for i, (a, b) in enumerate(decoded.spans) if a < at + len(word) and b > at]

        ignored = {i for word in w.ignores for i in pieces_of(word, source)}
        base = np.array([0.0 if j in ignored else 1.0 for j in range(n_source)], np.float32)
        rows = np.tile(base / base.sum(), (n_target, 1))
        for english, german in w.attends.items():
            on = pieces_of(german, source)
            for t in pieces_of(english, target):
                rows[t] = 0.1 / n_source
                rows[t, on] += 0.9 / len(on)
        return rows


def scripted_translator(script: Script):
    """The bundled model's Translator (PyTorch engine, never built) whose decoder is a
    :class:`ScriptedDecoder` of ``script``: every step after the decode is the app's."""
    from translator_app.core import Translator

    translator = Translator.load(BUNDLE, device="cpu", precision="fp32", engine="torch")
    translator.backend = ScriptedDecoder(translator.tokenizer, script)
    return translator

"""The post-editing pipeline: every step that acts on what the model writes, in the
order it runs. No other module orders steps.

A request's sentences are read (stage "read": how the German is given to the model),
decoded once, the n-best of each ordered by the judge (stage "choose"), then the steps
of stage "search" may decode sentences again (facts), those of stage "words" too (words
the model does not know; the window asks for them after the English shows), and the
steps of stage "rewrite" change a candidate's words in place, keeping its pieces and
attention in step (engine/respell.py), on every path that shows a candidate: translate,
the dictionary follow-up and the word menu's alternatives.

Every step has a name; a request asks for steps by name (:func:`parse_steps`: "all",
"none", "all,-judge", "umlauts,first-capital"). With none, the English is the model's
own search, as its reference implementation writes it.

>>> [s.name for s in STEPS][:3]
['other-languages', 'umlauts', 'closing-stop']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.postedit.dictionary_words import (
    with_dictionary_terms,
    with_measures_mended,
    with_openers_lowered,
)
from translator_app.core.postedit.english_variant import american_rewrite, british_rewrite
from translator_app.core.postedit.facts import first_decode, retry_lost_facts, with_placeholders
from translator_app.core.postedit.first_capital import capital_rewrite
from translator_app.core.postedit.numbers_written import words_rewrite
from translator_app.core.postedit.request import PostEditRequest
from translator_app.core.postedit.term_articles import article_rewrite, verb_rewrite
from translator_app.core.text.tokenizer import Tokenizer

READ, CHOOSE, SEARCH, WORDS, REWRITE = "read", "choose", "search", "words", "rewrite"
# What a step needs of the model and the request: a model trained on term annotations
# with facts annotated (the bundle's protect mode not "off"), the dictionary ready.
FACTS, DICTIONARY = "facts", "dictionary"

# (request, translations) -> translations
Run = Callable[[PostEditRequest, list[Translation]], list[Translation]]
# (tokenizer, translation, one of its candidates) -> that candidate rewritten
Rewrite = Callable[[Tokenizer, Translation, Candidate], Candidate]


@dataclass(frozen=True)
class Step:
    """One step of the pipeline: its ``name`` (what a request asks for), its ``stage``,
    what it ``does`` (one line, for the docs and the ablation table), and how: ``run``
    over a request's translations, ``rewrite`` of one candidate, or neither where the
    translator's decode does it (stages "read" and "choose": the decode asks
    :func:`asked` for it). ``needs``: FACTS or DICTIONARY where the step has nothing to
    act on without them."""

    name: str
    stage: str
    does: str
    run: Run | None = None
    rewrite: Rewrite | None = None
    needs: str = ""
    # False: a preference, not a fix, asked for by name only ("all,british"): the
    # English variants, one at a time.
    default: bool = True

    def applies(self, request: PostEditRequest) -> bool:
        """Whether this step runs on ``request``: asked for, with what it needs."""
        if self.name not in request.steps:
            return False
        if self.needs == FACTS:
            return request.protect != "off"
        if self.needs == DICTIONARY:
            return request.dictionary is not None
        return True


STEPS: tuple[Step, ...] = (
    Step(
        "other-languages",
        READ,
        "a sentence sure to be in another language than German ('Could you please …', "
        "'Bonjour, comment ça va?') is kept as written and marked, not translated "
        "(language/identify.py: py3langid)",
    ),
    Step(
        "umlauts",
        READ,
        "German typed without umlauts, in capitals or without any is read as German writes "
        "it (faithful/umlauts.py)",
    ),
    Step(
        "closing-stop",
        READ,
        "a sentence that closes without punctuation is read with a full stop, taken off "
        "the English again (engine/closing_stop.py)",
    ),
    Step(
        "symbols",
        READ,
        "emoji and symbols are kept from the model and put back in the English and its "
        "ids: a closing run at its end, one inside after the word aligned with the German "
        "before it (engine/symbols.py)",
    ),
    Step(
        "amounts",
        READ,
        "fractions, prices and clock times in words, quarter hours, ranges, dates "
        "without a year, weekday adverbs and 'kaum' before a pronoun ('anderthalb Liter', "
        "'neunzehn Euro neunundneunzig', '3-5 Werktage', 'am 24.12.', "
        "'dienstagvormittags', 'kaum einer') are given to the model in the forms it keeps "
        "(language/amounts.py)",
    ),
    Step(
        "number-words",
        READ,
        "German numbers in words from thirteen up ('vierhundertzwanzig') are given to the "
        "model in digits, read by text2num (language/numbers.py)",
    ),
    Step(
        "judge",
        CHOOSE,
        "the n-best is ordered by the judge: the model's score less what each lost fact, "
        "term or copied word costs (postedit/judge.py)",
    ),
    Step(
        "facts",
        SEARCH,
        "a sentence whose decode lost a number, date, name or place is decoded again with "
        "its facts annotated; the one that loses fewer is kept (postedit/facts.py)",
        run=retry_lost_facts,
        needs=FACTS,
    ),
    Step(
        "placeholders",
        SEARCH,
        "a lost name, place or address is replaced by one the model always copies, "
        "decoded again and written back (postedit/facts.py; bench/bench_addresses.py)",
        run=with_placeholders,
        needs=FACTS,
    ),
    Step(
        "openers",
        WORDS,
        "a sentence that copies its capitalised first word is decoded again with it in "
        "lower case (postedit/dictionary_words.py)",
        run=with_openers_lowered,
        needs=DICTIONARY,
    ),
    Step(
        "dictionary-terms",
        WORDS,
        "a word the model copies, garbles or leaves out is decoded again with the "
        "dictionary's English as a term, then forced in its place (postedit/dictionary_words.py)",
        run=with_dictionary_terms,
        needs=DICTIONARY,
    ),
    Step(
        "measures",
        WORDS,
        "a measure written as English does not ('200 gram sugar') is forced as English "
        "writes it and the rest decoded again (postedit/dictionary_words.py)",
        run=with_measures_mended,
        needs=DICTIONARY,
    ),
    Step(
        "term-articles",
        REWRITE,
        "a term is written with the glossary's capitals, and 'a' or 'an' before it as it "
        "sounds (postedit/term_articles.py)",
        rewrite=article_rewrite,
    ),
    Step(
        "term-verbs",
        REWRITE,
        "a singular verb after a plural term is written in the plural (postedit/term_articles.py)",
        rewrite=verb_rewrite,
    ),
    Step(
        "numbers-in-words",
        REWRITE,
        "a number the German writes in words and the English in digits is written in "
        "words again where English says it in one or two ('fifteen euros'), and so is a "
        "half or a quarter hour the model was given in figures ('three and a half years'; "
        "postedit/numbers_written.py)",
        rewrite=words_rewrite,
    ),
    Step(
        "first-capital",
        REWRITE,
        "an English that begins in lower case where the German begins with a capital gets "
        "its capital (postedit/first_capital.py)",
        rewrite=capital_rewrite,
    ),
    Step(
        "british",
        REWRITE,
        "asked for by name (Settings → English: British): American spellings, titles "
        "and dates written the British way ('neighbours', 'Ms Kowalczyk', '14 June "
        "2025'; language/variants.py, breame's tables)",
        rewrite=british_rewrite,
        default=False,
    ),
    Step(
        "american",
        REWRITE,
        "asked for by name (Settings → English: American): British spellings, titles "
        "and dates written the American way ('neighbors', 'Ms. Kowalczyk', 'June 14, "
        "2025')",
        rewrite=american_rewrite,
        default=False,
    ),
)
STEP_NAMES: tuple[str, ...] = tuple(s.name for s in STEPS)
# "all": every step but those asked for by name only (OPT_IN).
ALL: frozenset[str] = frozenset(s.name for s in STEPS if s.default)
OPT_IN: tuple[str, ...] = tuple(s.name for s in STEPS if not s.default)
NONE: frozenset[str] = frozenset()


def parse_steps(spec: str | Iterable[str] | None) -> frozenset[str]:
    """The step names a request asks for: None or "all" (every step but those asked for
    by name only: "all,british"), "none" (the model's own search), a comma-separated list
    of names ("umlauts,first-capital"), or "all" less some ("all,-judge,-facts"); an
    iterable of names as they are. An unknown name, a text that names nothing, or both
    English variants, is a ValueError that says why.

    >>> sorted(parse_steps("all,-judge")) == sorted(ALL - {"judge"})
    True
    """
    if spec is None:
        return ALL
    words = [w.strip() for w in spec.split(",")] if isinstance(spec, str) else list(spec)
    words = [w for w in words if w]
    if isinstance(spec, str) and not words:  # an unset variable, not a wish for none
        raise ValueError("no post-editing step named; say 'none' for the model's own search")
    chosen: set[str] = set()
    for word in words:
        name = word[1:] if word.startswith("-") else word
        if name not in ("all", "none") and name not in STEP_NAMES:
            raise ValueError(
                f"unknown post-editing step {name!r}; the steps are: {', '.join(STEP_NAMES)} "
                "(or 'all', 'none', 'all,-STEP')"
            )
        if word == "all":
            chosen |= ALL
        elif word == "none":
            chosen.clear()
        elif word.startswith("-"):
            chosen.discard(name)
        else:
            chosen.add(name)
    if len(chosen & set(OPT_IN)) > 1:
        raise ValueError(f"choose one English: {' or '.join(OPT_IN)}, not both")
    return frozenset(chosen)


def with_step(spec: str, name: str, on: bool) -> str:
    """The steps of ``spec`` (as :func:`parse_steps` reads it) with step ``name`` on or
    off, written as "all" less the steps left out (a setting keeps a step added later).

    >>> with_step("all", "other-languages", False)
    'all,-other-languages'
    """
    chosen = parse_steps(spec) | {name} if on else parse_steps(spec) - {name}
    return ",".join(
        ["all", *(f"-{s}" for s in ALL if s not in chosen), *(s for s in OPT_IN if s in chosen)]
    )


def with_english(spec: str, variant: str) -> str:
    """The steps of ``spec`` with the English ``variant`` ("british", "american", or ""
    for the model's own) in place of the one it asked for.

    >>> with_english("all,-judge,american", "british")
    'all,-judge,british'
    """
    for name in OPT_IN:
        spec = with_step(spec, name, False)
    return with_step(spec, variant, True) if variant else spec


def english_of(steps: frozenset[str]) -> str:
    """The English variant ``steps`` ask for ("" for none)."""
    return next((name for name in OPT_IN if name in steps), "")


def asked(steps: frozenset[str], name: str) -> bool:
    """Whether the step ``name`` (one the translator's decode does itself: stages "read"
    and "choose") is among ``steps``."""
    assert name in ALL, name
    return name in steps


def wants_dictionary(steps: frozenset[str]) -> bool:
    """Whether one of ``steps`` looks words up in the dictionary."""
    return any(s.needs == DICTIONARY and s.name in steps for s in STEPS)


def run_stage(request: PostEditRequest, out: list[Translation], stage: str) -> list[Translation]:
    """``out`` through the steps of ``stage`` that apply to ``request``, in order."""
    for step in STEPS:
        if step.stage == stage and step.run is not None and step.applies(request):
            out = step.run(request, out)
    return out


def rewritten(
    tokenizer: Tokenizer, t: Translation, cand: Candidate, steps: frozenset[str]
) -> Candidate:
    """``cand`` (a candidate of ``t``, or one offered in its place) through the steps of
    stage "rewrite" among ``steps``."""
    for step in STEPS:
        if step.rewrite is not None and step.name in steps:
            cand = step.rewrite(tokenizer, t, cand)
    return cand


def with_rewrites(request: PostEditRequest, out: list[Translation]) -> list[Translation]:
    """``out`` with every candidate rewritten (:func:`rewritten`); those whose beginning
    was forced (words the user chose, kept as chosen) are returned as they are, and so
    is any translation none of whose candidates changed (the same object)."""
    result = []
    for i, t in enumerate(out):
        if t.nbest and not request.prefixed(i):
            nbest = tuple(rewritten(request.tokenizer, t, c, request.steps) for c in t.nbest)
            if any(a is not b for a, b in zip(nbest, t.nbest, strict=True)):
                t = replace(t, nbest=nbest)
        result.append(t)
    return result


def translate(request: PostEditRequest, words: bool = True) -> list[Translation]:
    """The request's sentences decoded and post-edited: the first decode, the steps of
    stage "search", those of stage "words" where ``words`` (the window asks for them
    later, through :func:`add_words`), then the rewrites."""
    out = first_decode(request)
    out = run_stage(request, out, SEARCH)
    if words:
        out = run_stage(request, out, WORDS)
    return with_rewrites(request, out)


def add_words(request: PostEditRequest, out: list[Translation]) -> list[Translation]:
    """``out`` (from :func:`translate` with ``words`` False, for the same request)
    through the steps of stage "words", then the rewrites."""
    return with_rewrites(request, run_stage(request, list(out), WORDS))

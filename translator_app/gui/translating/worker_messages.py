"""The values that cross between the window and its worker thread (worker.py): requests
one way, results and failures the other. Each is immutable (frozen dataclasses, tuples,
strings, read-only arrays), so no lock guards them; each carries its request id, so that
the session can drop the answer to a request that a newer one replaced.

Four requests: load a model, translate (a text's split and the check for dropped content
follow on the worker under the same id, with no round trip), explain one translation's
attention, find one word's alternatives.

A text's translation comes back as revisions, one stream per request: each result says
its ``stage`` (:data:`STAGES`), and a sentence's revisions only go forward.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from translator_app.core.engine.model_features import Feature, model_features
from translator_app.core.engine.translation import Translation
from translator_app.core.faithful.glossary import Glossary
from translator_app.core.text.segment import Segment

# The stages of a text's translation, in the order the worker reports them, each a
# revision of the one before (docs/architecture.md, "The window's revisions"):
#   english - the model's search and the post-editing pipeline's stages read, choose,
#             search and rewrite (core/postedit/pipeline.py): what the window shows first;
#   words   - the pipeline's stage "words": the dictionary's English for the German
#             words the model copied, garbled or left out (only where it changed one);
#   marks   - the check for content the English drops (issue 48 §3): marks, no new text.
STAGES = ("english", "words", "marks")


@dataclass(frozen=True)
class SplitResult:
    """A long text's sentences, split on the worker before it translates them: the
    ``sentences`` it is translating (the distinct ones its request's ``cached`` lacked)."""

    request_id: int
    text: str
    segments: tuple[Segment, ...]
    sentences: tuple[str, ...]


@dataclass(frozen=True)
class TranslateRequest:
    """Translate ``sentences``; or, given a (long) ``text``, split it on the worker first
    (a :class:`SplitResult`) and translate its distinct sentences that ``cached`` lacks.
    The worker then follows up the new translations and ``follow_up``'s on its own
    (:class:`CheckResult` under the same id)."""

    id: int
    sentences: tuple[str, ...]
    beam: int | None = None  # None: the model's (see core/engine/search.with_choices)
    nbest: int | None = None
    prefix: tuple[int, ...] = ()  # forced target ids (only with a single sentence)
    glossary: Glossary | None = None  # for a model that follows one (immutable)
    text: str = ""
    cached: frozenset[str] = frozenset()
    # Cached sentences of the text and their translations whose follow-up a newer
    # request abandoned: followed up with this request's own translations.
    follow_up: tuple[tuple[str, Translation], ...] = ()
    steps: str = "all"  # the post-editing steps (pipeline.parse_steps)


@dataclass(frozen=True)
class ExplainRequest:
    """Every layer's and head's attention of one translation's best candidate, for the
    alignment panel when the user picks another layer or head (computed only then: the
    teacher-forced pass would cost every keystroke's translation about as much again)."""

    id: int
    translation: Translation


@dataclass(frozen=True)
class ExplainResult:
    request_id: int
    model_path: str
    original: Translation
    explained: Translation


@dataclass(frozen=True)
class AlternativesRequest:
    """The model's other choices for one position of a translation's best candidate (the
    word menu asks when it opens: CTranslate2 answers in tens of milliseconds)."""

    id: int
    translation: Translation
    piece: int
    # also the fix of each fact the translation lost (core/api/followups.fact_fix): the
    # word menu asks once per translation
    fixes: bool = False
    steps: str = "all"  # post-edited as the translation was (Settings.steps)


@dataclass(frozen=True)
class AlternativesResult:
    request_id: int
    model_path: str
    translation: Translation
    piece: int
    candidates: tuple  # Candidate, likeliest first
    # (a lost fact, the best candidate of its fix or None where no decode keeps it),
    # where the request asked for fixes
    fixes: tuple = ()


@dataclass(frozen=True)
class CheckRequest:
    """A request's follow-up, which the worker queues itself once the translations are
    reported and serves after everything else; a newer translation abandons it. First
    the dictionary's English for the German words the model copied (issue 60: decoded
    again with the request's search and glossary), then which content words the
    translations do not carry (issue 48 §3: one teacher-forced pass per sentence)."""

    id: int
    sentences: tuple[str, ...]
    translations: tuple[Translation, ...]
    beam: int | None = None
    nbest: int | None = None
    glossary: Glossary | None = None
    worded: bool = True  # the dictionary's words are in (or not asked for)
    steps: str = "all"


@dataclass(frozen=True)
class CheckResult:
    """A revision of a text's translation after its English (stage "words": the
    dictionary's English, the text may have changed; "marks": not_carried set)."""

    request_id: int
    model_path: str
    sentences: tuple[str, ...]
    translations: tuple[Translation, ...]
    stage: str = "marks"

    @property
    def worded(self) -> bool:
        return self.stage == "words"


@dataclass(frozen=True)
class LoadRequest:
    id: int
    path: str
    device: str = "auto"
    precision: str = "auto"  # int8 on the CPU (faster, same BLEU: model card), fp32 on CUDA


@dataclass(frozen=True)
class ModelInfo:
    """What the window needs to know about a loaded model."""

    request_id: int
    path: str
    name: str
    device: str
    arch: str
    layers: int  # decoder layers with cross-attention (Transformer); 0 for an RNN
    heads: int
    alignment_layer: int
    alignment_head: int  # -1: the heads' mean
    eos_id: int
    card: str
    beam: int  # the model's default search (what "the model's" means in Settings)
    nbest: int
    warnings: tuple[str, ...]
    seconds: float
    follows_glossary: bool = False  # trained on term annotations (core/faithful/terms.py)

    @property
    def features(self) -> tuple[Feature, ...]:
        """What the app does with this model (engine/model_features.py)."""
        return model_features(self.follows_glossary)


class FailureKind(enum.Enum):
    INPUT = "input"  # the request cannot be done (a bad value, text or file)
    MODEL = "model"  # the model folder cannot be used
    DEVICE = "device"  # the accelerator failed: the CPU can take over
    INTERNAL = "internal"  # a bug: the traceback went to stderr


@dataclass(frozen=True)
class Failure:
    request_id: int
    kind: FailureKind
    message: str  # one line for the status bar


@dataclass(frozen=True)
class TranslateResult:
    request_id: int
    model_path: str
    translations: tuple[Translation, ...]
    seconds: float
    done: int = 0  # sentences finished so far (a progress report: fewer than total)
    total: int = 0
    sentences: tuple[str, ...] = ()  # the German of ``translations``, one each
    stage: str = "english"  # the first revision of a text's translation (STAGES)

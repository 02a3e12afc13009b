"""The fine-tuning recipe for a user's own pairs (issue 33): how long and how hard to
train for the data's size, what to mix in, and how to judge the result.

Measured with bench/bench_teach.py (60 kitchen-product pairs, 16 new terms), then chosen:

- Steps grow with the data (not a fixed number of epochs: 3 epochs of 60 pairs is 3
  steps, of 5,000 pairs hundreds). The user picks the effort, "quick" or "thorough".
- Replay: a sample of the base model's everyday training pairs (resources/teach/
  replay.tsv), as many as the user's, mixed in so that the new model keeps what the base
  knew.
- The user's terms (trainer/term_mining.py) are annotated in copies of the pairs that
  hold them (the model follows its glossary more surely), and written into the new
  bundle's terms.tsv, so that the translator applies them to every sentence.
- The checkpoint is chosen by loss on pairs held out for that; the verdict is measured
  on other pairs (``--report``) and on a fixed everyday set (resources/teach/
  general.tsv).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from translator_app.core.faithful.glossary import Glossary, annotate
from translator_app.core.language.english import find_target
from translator_app.core.platform.paths import resources_dir

from .term_mining import Pair, mine_terms, term_use

EFFORTS = ("quick", "thorough")
# A batch: some 60 pairs with their annotated copies and replay (what plan() counts in).
BATCH_TOKENS = 2048
# Evaluations on the stopping pairs without improvement before a fine-tune stops: a
# plan makes only 3 or 6 of them (a long training run, TrainConfig, waits for 10).
PATIENCE = 2
TEACH_DATA = resources_dir() / "teach"  # written by scripts/make_teach_data.py
REPLAY_FILE = TEACH_DATA / "replay.tsv"
GENERAL_FILE = TEACH_DATA / "general.tsv"
# A held-out sentence whose chrF moves less than this between the models is unchanged.
SAME_CHRF = 1.0


@dataclass(frozen=True)
class TeachPlan:
    steps: int
    lr: float
    evals: int  # checkpoints compared on the stopping pairs
    replay: float  # replay pairs per pair of the user's


def plan(pairs: int, effort: str = "quick") -> TeachPlan:
    """Steps and learning rate for ``pairs`` of the user's (batches of
    :data:`BATCH_TOKENS`: some 60 pairs with their annotated copies and replay)."""
    if effort not in EFFORTS:
        raise ValueError(f"unknown effort {effort!r}; use one of {', '.join(EFFORTS)}")
    # bench_teach, 64 pairs (2 batches with copies and replay), 2-vCPU Xeon: 24 steps at
    # 3e-4 kept every term but cost 5.9 BLEU on everyday sentences, at 1e-4 2.5; 12
    # steps at 3e-5 kept 25 of 27 term uses (the taught glossary does most: 19 of 26
    # with no training at all) for 0.7 BLEU.
    batches = max(1.0, pairs / 60)
    if effort == "quick":
        return TeachPlan(round(min(240, 12 * math.sqrt(batches))), 3e-5, evals=3, replay=1.0)
    return TeachPlan(round(min(1200, 24 * math.sqrt(batches))), 2e-5, evals=6, replay=2.0)


def annotated_copies(pairs: Sequence[Pair], terms: Glossary) -> list[Pair]:
    """Copies of the pairs whose German holds a term and whose English uses it, with the
    term annotated as the translator will annotate it."""
    out = []
    for de, en in pairs:
        uses = [u for u in terms.find(de) if find_target(u.target, en)]
        if uses:
            out.append((annotate(de, uses)[0], en))
    return out


def replay_sample(path: Path, count: int, seed: int) -> list[Pair]:
    """``count`` pairs of the replay file (all of it if smaller), the same for a seed."""
    from translator_app.core.data.corpus import read_all

    pairs = list(read_all([path]))
    random.Random(seed).shuffle(pairs)
    return pairs[:count]


def known_to(translator):
    """``known(sources, english)`` for term mining: whether ``translator`` already gives
    ``english`` for most of ``sources``."""

    def known(sources: list[str], english: str) -> bool:
        if not sources:
            return False
        outputs = translator.translate(sources, beam=1)
        hits = sum(find_target(english, t.text) is not None for t in outputs)
        return 2 * hits > len(outputs)

    return known


def find_terms(pairs: Sequence[Pair], translator) -> Glossary:
    """The user's terms in ``pairs`` that ``translator`` (the base) does not yet use,
    less the words its dictionary knows only as verbs (a term names a thing, a product,
    a property: „kostet“ → "costs" and „hält“ → "keeps" forced into every sentence were
    listed in a bakery's terms, issue 89 §2)."""
    mined = mine_terms(pairs, known=known_to(translator))
    dictionary = getattr(translator, "dictionary", None)
    return Glossary(tuple(t for t in mined if not only_a_verb(dictionary, t.source)))


VERB_TAGS = ("v", "vi", "vt", "vr")  # Ding's word classes of a verb


def only_a_verb(dictionary, word: str) -> bool:
    """Whether ``dictionary`` (Ding) knows ``word`` only as a verb or a verb's form
    („hält“, „gebacken“: every sense a verb's, by its word class or by its headword's
    English "to …"); False where it does not know the word, or has no dictionary."""
    if dictionary is None:
        return False
    try:
        senses = dictionary.lookup(word).senses
    except Exception:  # noqa: BLE001 - no dictionary to ask: the word stays a term
        return False

    def verb(sense) -> bool:
        if sense.tags:
            return all(t in VERB_TAGS for t in sense.tags)
        return sense.headword_english.startswith("to ")

    return bool(senses) and all(verb(s) for s in senses)


def score_model(
    translator, pairs: Sequence[Pair], general: Sequence[Pair], terms: Glossary, **options
) -> tuple[dict, list]:
    """Greedy translations of ``pairs`` scored: BLEU, chrF, each sentence's chrF
    (``sentence_chrf``, for :func:`compare_sentences`), and the uses of ``terms`` kept
    (``terms_kept`` of ``terms``); BLEU on ``general`` (``general_bleu``) where given.
    Returns the scores and the translations (``options``: of ``translate``)."""
    from .evaluate import score_translations  # sacrebleu: not for the command line's start

    sources, refs = [de for de, _ in pairs], [en for _, en in pairs]
    done = translator.translate(sources, beam=1, **options)
    texts = [t.text for t in done]
    result = score_translations(texts, refs)
    result["sentence_chrf"] = sentence_chrf(texts, refs)
    result["terms_kept"], result["terms"] = term_use(sources, refs, texts, terms)
    if general:
        everyday = translator.translate([de for de, _ in general], beam=1)
        result["general_bleu"] = score_translations(
            [t.text for t in everyday], [en for _, en in general]
        )["bleu"]
    return result, done


def sentence_chrf(hyps: Sequence[str], refs: Sequence[str]) -> list[float]:
    """sacreBLEU's chrF of each hypothesis against its reference."""
    from sacrebleu.metrics import CHRF

    metric = CHRF()
    return [round(metric.sentence_score(h, [r]).score, 2) for h, r in zip(hyps, refs, strict=True)]


def sign_test(better: int, worse: int) -> float:
    """Two-sided sign test: the chance of a split at least as uneven as ``better`` to
    ``worse`` if either model were as likely to win each sentence. sign_test(9, 1) ≈
    0.021; sign_test(1, 1) = 1.0."""
    n, k = better + worse, min(better, worse)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def compare_sentences(before: Sequence[float], after: Sequence[float]) -> dict:
    """The held-out sentences one by one (their chrF before and after): how many came
    closer to the user's English (``better``), how many less (``worse``), how many moved
    less than ``SAME_CHRF`` (``same``), and the sign test's ``p`` of that split."""
    better = sum(a - b >= SAME_CHRF for b, a in zip(before, after, strict=True))
    worse = sum(b - a >= SAME_CHRF for b, a in zip(before, after, strict=True))
    same = len(before) - better - worse
    return {"better": better, "worse": worse, "same": same, "p": round(sign_test(better, worse), 4)}


def terms_verdict(before: tuple[int, int], after: tuple[int, int], taught: int) -> str:
    """The new model's terms in words: how many it was taught (its terms.tsv holds
    them) and how many uses of them in the held-out sentences it keeps. terms_verdict(
    (1, 10), (9, 10), 12): 'learnt 12 terms from your pairs; of their 10 uses in the
    held-out sentences it keeps 9 (the base model: 1)'; '' without any term."""
    (was, uses), (now, _) = before, after
    if not taught and not uses:
        return ""
    learnt = f"learnt {taught} term{'s' if taught != 1 else ''} from your pairs"
    if not uses:
        return f"{learnt}; none of them comes up in the held-out sentences"
    return (
        f"{learnt}; of their {uses} use{'s' if uses != 1 else ''} in the held-out sentences "
        f"it keeps {now} (the base model: {was})"
    )


def general_verdict(before: float, after: float) -> str:
    """Everyday sentences (BLEU on the general set) in words."""
    change = after - before
    if abs(change) < 1.0:
        return "everyday sentences unchanged"
    return f"everyday sentences {'better' if change > 0 else 'worse'} (BLEU {before:.1f} → {after:.1f})"


__all__ = [
    "EFFORTS",
    "GENERAL_FILE",
    "REPLAY_FILE",
    "TeachPlan",
    "annotated_copies",
    "compare_sentences",
    "find_terms",
    "general_verdict",
    "plan",
    "replay_sample",
    "score_model",
    "sentence_chrf",
    "sign_test",
    "term_use",
    "terms_verdict",
]

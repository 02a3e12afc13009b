"""A vocabulary shortlist for CTranslate2 (``vmap.txt`` in a bundle, issue 31).

CTranslate2's output layer then scores only the English pieces a sentence's German
pieces may become, not all of the vocabulary: greedy decoding of the base model took
25-30 % less time per token at the same BLEU (``bench/bench_vmap.py``). The map is a
co-occurrence lexicon of training pairs (the cheap stand-in for a word aligner's
lexical table): the most frequent English pieces are always allowed; for every German
piece, the English pieces that appear in the same pairs more often than their frequency
predicts, and the piece itself, so that names, numbers and the English of term
annotations can always be copied.

The format is CTranslate2's: ``<German piece>\\t<English piece> <English piece> ...`` per
line; the line with an empty key lists the pieces always allowed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

ALWAYS = 5000  # English pieces always allowed (the most frequent)
PER_PIECE = 100  # English pieces allowed per German piece, beyond those
_CHUNK = 5000  # pairs counted per bincount (its array holds vocab² counts)


def training_sample(pairs: Sequence, n: int) -> list:
    """``n`` pairs to count: every k-th pair (k = len(pairs) // n), the first ``n`` of
    those (the prepared training file is shuffled, so they stand for all its corpora)."""
    return list(pairs[:: max(1, len(pairs) // n)][:n])


def build_shortlist(
    tokenizer, pairs: Sequence[tuple[str, str]], always: int = ALWAYS, per_piece: int = PER_PIECE
) -> str:
    """The ``vmap.txt`` text for ``tokenizer``'s vocabulary from parallel ``pairs``
    (German, English). Memory: 4 bytes per vocabulary size squared (1 GB for 16,000)."""
    vocab = tokenizer.vocab_size
    src_count = np.zeros(vocab, dtype=np.int64)
    tgt_count = np.zeros(vocab, dtype=np.int64)
    frequency: Counter[int] = Counter()
    joint = np.zeros(vocab * vocab, dtype=np.int32)
    keys = []
    for k, (de, en) in enumerate(pairs):
        s = np.unique(tokenizer.encode(de).ids)
        t_ids = tokenizer.encode(en).ids
        frequency.update(t_ids)
        t = np.unique(t_ids)
        src_count[s] += 1
        tgt_count[t] += 1
        keys.append((s[:, None] * vocab + t[None, :]).ravel())
        if len(keys) == _CHUNK or k == len(pairs) - 1:
            joint += np.bincount(np.concatenate(keys), minlength=vocab * vocab).astype(np.int32)
            keys = []
    joint = joint.reshape(vocab, vocab)
    common = {i for i, _ in frequency.most_common(always)}
    specials = set(tokenizer.special_ids().values())
    lines = ["\t" + " ".join(tokenizer.piece(i) for i in sorted(common))]
    n = max(1, len(pairs))
    for s in range(vocab):
        if s in specials:
            continue
        row = joint[s].astype(np.float64)
        # co-occurrence beyond chance: the joint count minus what independence predicts
        score = row - src_count[s] * tgt_count / n
        score[list(common | specials)] = -np.inf  # allowed anyway, or never emitted
        top = [int(i) for i in np.argsort(-score)[:per_piece] if row[i] > 0 and score[i] > 0]
        allowed = sorted({*top, s} - common)  # the piece itself: names and numbers copy
        if allowed:
            lines.append(tokenizer.piece(s) + "\t" + " ".join(tokenizer.piece(i) for i in allowed))
    return "\n".join(lines) + "\n"

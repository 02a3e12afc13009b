"""Training data as a run uses it: read, filter, split, repeat, augment, encode
(``train`` and ``finetune`` share it).

The pairs are read and filtered once. Validation pairs come from ``[data] valid`` or are
held out of the training pairs; a fine-tune can hold out a third set, the pairs its
verdict reports on, which play no part in training or in choosing the checkpoint.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from trainer.augment import augment_pairs, name_words
from trainer.config import DataConfig
from trainer.dataset import Encoded, encode_pairs
from trainer.term_data import annotate_facts, annotate_pairs, load_dictionary
from translator_app.core.data.corpus import (
    FilterReport,
    Pair,
    filter_pairs,
    finetune_split,
    heldout_size,
    read_all,
    read_each,
    split_heldout,
    test_sentences,
)
from translator_app.core.text.tokenizer import Tokenizer

# How each kind of augmented copy is named in the log.
_AUGMENTED = {
    "terms": "copies with term annotations ([data] terms_share)",
    "facts": "copies with the protected facts annotated ([data] facts_share)",
}


@dataclass
class Prepared:
    """A run's data: encoded training and validation sets, the validation pairs as text
    (for BLEU), what happened to the data (``info``, kept in checkpoints), and the pairs
    held out for a report (empty unless asked for)."""

    train: Encoded
    valid: Encoded
    valid_pairs: list[Pair]
    info: dict
    report_pairs: list[Pair] = field(default_factory=list)


def note_files(tagged: Iterable[tuple[int, Pair]], owner: dict) -> Iterator[Pair]:
    """Pass on the pairs of :func:`read_each`, noting in ``owner`` the index of the first
    file each pair (stripped, as :func:`filter_pairs` keeps it) came from."""
    for i, (de, en) in tagged:
        owner.setdefault((de.strip(), en.strip()), i)
        yield de, en


def repeat_pairs(pairs: list, owner: dict, repeat) -> int:
    """Append ``repeat[i] - 1`` more copies of the pairs (already filtered, in ``pairs``)
    whose file index in ``owner`` (from :func:`note_files`) is ``i``; a pair in several
    files belongs to the first. The copies go at the end, so length bucketing puts them in
    other batches than the originals. Returns the number of copies added."""
    # No count above 1 (or none given): the range is empty and ``owner`` is never read.
    extra = [
        p for r in range(2, max(repeat, default=1) + 1) for p in pairs if repeat[owner[p]] >= r
    ]
    pairs.extend(extra)
    return len(extra)


def _dropped_text(report: FilterReport) -> str:
    dropped = ", ".join(f"{n} {why}" for why, n in report.dropped.items() if n)
    return f"dropped: {dropped}" if dropped else "none dropped"


def read_filtered(files, d: DataConfig, log) -> tuple[list[Pair], dict, FilterReport]:
    """The pairs of ``files`` that pass the filters (length, ratio, test sentences), each
    pair's file index where ``[data] repeat`` needs it, and the filter's report."""
    exclude = test_sentences([Path(p) for p in d.exclude_test]) if d.exclude_test else None
    report = FilterReport()
    # [data] repeat needs each kept pair's file: noted during the one read, only then.
    owner: dict[Pair, int] = {}
    tagged = read_each([Path(f) for f in files])
    if any(r > 1 for r in d.repeat):
        source = note_files(tagged, owner)
    else:
        source = (pair for _, pair in tagged)
    pairs = filter_pairs(
        source, max_chars=d.max_chars, max_ratio=d.max_ratio, exclude=exclude, report=report
    )
    for line in report.lines():
        log(line)
    return pairs, owner, report


def _augment_part(
    pairs: list[Pair], owner: dict, d: DataConfig, seed: int, dictionary, known=None
) -> tuple[list[Pair], Counter, int]:
    """``pairs`` with ``[data] repeat``'s copies and the augmented copies (entities and
    numbers swapped, terms and facts annotated), in that order. Returns (pairs, counts of
    each kind of copy, pairs repeated)."""
    pairs = list(pairs)
    copies, counts = augment_pairs(pairs, d.augment_entities, d.augment_numbers, seed, known)
    repeated = repeat_pairs(pairs, owner, d.repeat)
    out = pairs + copies
    terms: list[Pair] = []
    if dictionary is not None:
        terms, more = annotate_pairs(pairs, dictionary, d.terms_share, d.terms_swap, seed)
        counts.update(more)
    facts: list[Pair] = []
    if d.facts_share > 0:
        facts, more = annotate_facts(out, d.facts_share, seed)
        counts.update(more)
    return out + terms + facts, counts, repeated


# What the forked processes of a sharded preparation read (set only while they run):
# (pairs, owner, data config, seed, dictionary, names, shards).
_SHARED: tuple | None = None


def _shard(k: int) -> tuple[list[Pair], Counter, int]:
    """Shard ``k`` of ``_SHARED``'s pairs (every shards-th pair, so each shard holds every
    corpus), augmented with a seed of its own."""
    pairs, owner, d, seed, dictionary, known, shards = _SHARED
    return _augment_part(pairs[k::shards], owner, d, seed * shards + k, dictionary, known)


def _run_shards(shards: int) -> list[tuple[list[Pair], Counter, int]]:
    """Every shard, in forked processes where the platform forks, else one after another
    here: the same result either way, whatever the number of cores."""
    processes = min(shards, os.cpu_count() or 1)
    if processes < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return [_shard(k) for k in range(shards)]
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        return pool.map(_shard, range(shards))


def augmented(train_pairs: list[Pair], owner: dict, d: DataConfig, seed: int, log):
    """The training pairs with ``[data] repeat``'s copies and the augmented copies
    (entities and numbers swapped, terms and facts annotated). Returns (pairs, counts of
    each kind of copy, pairs repeated). With ``[data] prepare_shards`` = N the pairs are
    cut into N shards augmented in parallel, each with random draws of its own (for a GPU
    lease, whose minutes cannot wait for one core); 0 keeps one pass here."""
    global _SHARED
    dictionary = None
    if d.terms and d.terms_share > 0:
        dictionary = load_dictionary(d.terms)
        log(f"  dictionary {len(dictionary):>6}  German nouns with English ({d.terms})")
    if d.prepare_shards:
        known = name_words(train_pairs) if d.augment_entities > 0 else frozenset()
        _SHARED = (train_pairs, owner, d, seed, dictionary, known, d.prepare_shards)
        try:
            parts = _run_shards(d.prepare_shards)
        finally:
            _SHARED = None
        pairs = [p for part, _, _ in parts for p in part]
        counts = sum((c for _, c, _ in parts), Counter())
        repeated = sum(r for _, _, r in parts)
    else:
        pairs, counts, repeated = _augment_part(train_pairs, owner, d, seed, dictionary)
    if repeated:
        log(f"  repeated {repeated:>8}  extra uses of pairs ([data] repeat)")
    for kind, n in sorted(counts.items()):
        log(
            f"  augmented {n:>7}  {_AUGMENTED.get(kind, f'copies with other {kind} ([data] augment_{kind})')}"
        )
    return pairs, counts, repeated


def prepare_data(
    files,
    d: DataConfig,
    tokenizer: Tokenizer,
    seed: int,
    log=print,
    add_pairs: Callable[[list[Pair], list[Pair]], list[Pair]] | None = None,
    hold_out_report: bool = False,
) -> Prepared:
    """Read, filter, split and encode. ``add_pairs(train pairs, valid pairs)``: more
    training pairs (a fine-tune's replay and annotated copies), added before encoding.
    ``hold_out_report``: also hold out a tenth of the pairs (2 to 200), apart from
    validation, for a verdict that nothing was chosen on."""
    pairs, owner, report = read_filtered(files, d, log)
    report_pairs: list[Pair] = []
    if d.valid:
        valid_pairs = filter_pairs(
            read_all([Path(d.valid)]), max_chars=d.max_chars, max_ratio=d.max_ratio
        )
        train_pairs = pairs
        if hold_out_report:
            train_pairs, report_pairs = split_heldout(pairs, heldout_size(len(pairs)), seed)
    else:
        if hold_out_report:  # as the app splits them
            train_pairs, valid_pairs, report_pairs = finetune_split(pairs, d.valid_size, seed)
        else:
            train_pairs, valid_pairs = split_heldout(pairs, d.valid_size, seed)
        log(f"held out {len(valid_pairs)} pairs for validation")
    if report_pairs:
        log(f"held out {len(report_pairs)} pairs to report on (never trained on)")
    train_pairs, counts, repeated = augmented(train_pairs, owner, d, seed, log)
    if add_pairs is not None:
        train_pairs = train_pairs + add_pairs(train_pairs, valid_pairs)
    train_data, too_long = encode_pairs(train_pairs, tokenizer, d.max_tokens)
    valid_data, _ = encode_pairs(valid_pairs, tokenizer, d.max_tokens)
    if too_long:
        log(f"  dropped {too_long:>8}  longer than {d.max_tokens} tokens")
    if not len(train_data):
        named = ", ".join(str(f) for f in files)
        raise ValueError(
            f"no training pairs left after filtering {named} "
            f"({report.read} pairs read; {_dropped_text(report)})"
        )
    if not valid_pairs:
        raise ValueError("no validation pairs: give --valid FILE or more data")
    info = {
        "data_files": [str(f) for f in files],
        "pairs_read": report.read,
        "pairs_dropped": dict(report.dropped)
        | ({f"longer than {d.max_tokens} tokens": too_long} if too_long else {}),
        "train_pairs": len(train_data),
        "repeat": list(d.repeat),
        "repeated_pairs": repeated,
        "augmented_pairs": dict(counts),
        "valid_pairs": len(valid_pairs),
        **({"report_pairs": len(report_pairs)} if report_pairs else {}),
        "test_sentences_excluded_from": list(d.exclude_test),
    }
    return Prepared(train_data, valid_data, valid_pairs, info, report_pairs)

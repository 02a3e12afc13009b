"""The training mix prepared in shards, in parallel processes (issue 63: a GPU lease
cannot wait the ten minutes one core takes to repeat, augment and annotate the base mix),
and every distinct sentence encoded once."""

from __future__ import annotations

import dataclasses

from conftest import DATA
from trainer import prepare
from trainer.config import DataConfig
from trainer.dataset import encode_pairs


def _mix(tmp_path) -> DataConfig:
    """Two files (the second twice as heavy), names and numbers to swap, facts to note."""
    extra = tmp_path / "numbers.tsv"
    extra.write_text(
        "Tom kauft 3 Äpfel für 12 Euro.\tTom buys 3 apples for 12 euros.\n"
        "Maria kommt am 4. Mai um 10 Uhr nach Berlin.\tMaria comes to Berlin on 4 May at 10 a.m.\n"
        "Der Zug nach Hamburg fährt um 8 Uhr.\tThe train to Hamburg leaves at 8 a.m.\n",
        encoding="utf-8",
    )
    return DataConfig(
        train=(str(DATA / "tiny_pairs.tsv"), str(extra)),
        repeat=(1, 3),
        augment_entities=1.0,
        augment_numbers=1.0,
        facts_share=1.0,
    )


def _augmented(d: DataConfig, pairs, owner):
    return prepare.augmented(list(pairs), owner, d, 1, log=lambda *_: None)


def test_shards_give_the_same_mix_on_one_core_and_on_several(tmp_path, monkeypatch):
    d = dataclasses.replace(_mix(tmp_path), prepare_shards=3)
    pairs, owner, _ = prepare.read_filtered(d.train, d, log=lambda *_: None)
    forked, forked_counts, forked_repeated = _augmented(d, pairs, owner)
    monkeypatch.setattr(prepare.os, "cpu_count", lambda: 1)  # one process, shard after shard
    here, here_counts, here_repeated = _augmented(d, pairs, owner)
    assert forked == here and forked_counts == here_counts and forked_repeated == here_repeated


def test_shards_keep_every_pair_and_the_weights_of_one_pass(tmp_path):
    d = _mix(tmp_path)
    pairs, owner, _ = prepare.read_filtered(d.train, d, log=lambda *_: None)
    one, one_counts, one_repeated = _augmented(d, pairs, owner)
    sharded, counts, repeated = _augmented(dataclasses.replace(d, prepare_shards=4), pairs, owner)
    # Repeats are counted, not drawn: each of the heavier file's three pairs twice more.
    assert repeated == one_repeated == 6
    assert set(pairs) <= set(sharded)
    heavy = [p for p in pairs if owner[p] == 1]
    assert all(sharded.count(p) >= 3 for p in heavy)
    # Each kind of copy is made in the shards too (the draws differ, the kinds do not).
    assert set(counts) == set(one_counts) and all(counts.values())
    assert len(sharded) == len(pairs) + repeated + sum(counts.values())


def test_a_negative_shard_count_is_a_config_error(tmp_path):
    import pytest

    from trainer.config import ConfigError, parse_config

    with pytest.raises(ConfigError, match="prepare_shards"):
        parse_config({"model": {}, "data": {"train": ["a.tsv"], "prepare_shards": -1}}, tmp_path)


def test_repeated_sentences_are_encoded_once_and_come_out_as_if_each_were(tokenizer):
    pairs = [("Guten Morgen!", "Good morning!"), ("Wie geht es dir?", "How are you?")] * 3
    calls = []
    real = tokenizer.encode_ids

    class Counting:
        eos_id = tokenizer.eos_id

        def encode_ids(self, texts, side="source"):
            calls.append(len(texts))
            return real(texts, side=side)

    data, dropped = encode_pairs(pairs, Counting(), max_tokens=64)
    assert calls == [2, 2]  # two distinct sentences a side
    assert dropped == 0
    eos = tokenizer.eos_id
    assert [list(r) for r in data.src] == [ids + [eos] for ids in real([de for de, _ in pairs])]
    assert [list(r) for r in data.tgt] == [ids + [eos] for ids in real([en for _, en in pairs])]
    # one compact row (4 bytes an id) shared by equal texts: a million pairs fit
    assert data.src[2] is data.src[0] and data.src[0].itemsize == 4

"""A resumed run takes its prepared data from its folder (issue 63 §1: a GPU lease's
10-minute commands cannot spend minutes tokenising the corpora again each time)."""

from __future__ import annotations

import shutil

from conftest import DATA, write_config
from trainer import cli
from trainer import prepare as prepare_module


def _cached_config(tmp_path, train):
    cfg = write_config(tmp_path, "cached", steps=6, eval_every=3, train=train)
    text = cfg.read_text().replace("[train]\n", "[train]\ncache_data = true\n", 1)
    cfg.write_text(text)
    return cfg


def test_a_resumed_run_reuses_its_prepared_data_and_sees_a_changed_file(tmp_path, monkeypatch):
    import trainer.commands as commands

    data = tmp_path / "pairs.tsv"
    shutil.copy(DATA / "tiny_pairs.tsv", data)
    cfg = _cached_config(tmp_path, data)
    assert cli.main(["train", str(cfg), "--max-minutes", "0.001"]) == 0
    assert (tmp_path / "cached" / "data-cache" / "key").is_file()
    calls = []
    real = prepare_module.prepare_data

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(commands, "prepare_data", counted)
    assert cli.main(["train", str(cfg), "--resume", "--max-minutes", "0.002"]) == 0
    assert calls == []  # the cache served it
    data.write_text(data.read_text(encoding="utf-8") + "Neu hier.\tNew here.\n", encoding="utf-8")
    assert cli.main(["train", str(cfg), "--resume", "--max-minutes", "0.003"]) == 0
    assert calls == [1]  # a changed corpus is read again


def test_the_cache_gives_back_what_was_prepared(tmp_path, tokenizer):
    from trainer import data_cache
    from trainer.config import DataConfig

    d = DataConfig(train=(str(DATA / "tiny_pairs.tsv"),), valid=str(DATA / "tiny_pairs.tsv"))
    prepared = prepare_module.prepare_data(d.train, d, tokenizer, 1, log=lambda *_: None)
    key = data_cache.cache_key(d, 1, tokenizer.files())
    data_cache.save(tmp_path, key, prepared)
    back = data_cache.load(tmp_path, key)
    assert back.train == prepared.train and back.valid == prepared.valid
    assert back.valid_pairs == [tuple(p) for p in prepared.valid_pairs]
    assert data_cache.load(tmp_path, "another key") is None
    (tmp_path / "data-cache" / "arrays.npz").write_bytes(b"damaged")
    assert data_cache.load(tmp_path, key) is None

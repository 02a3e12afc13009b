"""translator-train compare (issue 51 §2): two tiny models of different kinds trained on
the same data under one budget, scored side by side with a table, BLEU by length and
both models' attention of one sentence."""

from __future__ import annotations

import json

import pytest

from conftest import DATA, write_config
from trainer import cli


@pytest.mark.slow  # trains: outside the fast lane
def test_compare_trains_each_config_and_writes_the_table_and_plots(tmp_path):
    configs = [
        write_config(tmp_path, name="transformer", steps=30, eval_every=30),
        write_config(tmp_path, name="rnn", arch="rnn", steps=30, eval_every=30),
    ]
    out = tmp_path / "compare"
    lines = (DATA / "tiny_pairs.tsv").read_text("utf-8").splitlines(keepends=True)
    (train := tmp_path / "train.tsv").write_text("".join(lines[:32]), "utf-8")
    (test := tmp_path / "test.tsv").write_text("".join(lines[32:]), "utf-8")
    argv = ["compare", *map(str, configs), "--test", str(test), "--data", str(train)]
    assert cli.main([*argv, "--minutes", "5", "--device", "cpu", "--out", str(out)]) == 0
    report = json.loads((out / "compare.json").read_text("utf-8"))
    assert set(report["models"]) == {"transformer", "rnn"}
    for name, row in report["models"].items():
        assert row["parameters"] > 0 and row["tokens_per_s"] > 0, name
        assert row["scores"]["greedy"]["by_length"], name
        assert set(row["scores"]) == {"greedy"}, "one search: greedy, not greedy and beam1"
        assert (out / name / "model" / "config.json").is_file()
    assert report["models"]["rnn"]["model"].startswith("gru bahdanau additive")
    table = (out / "compare.md").read_text("utf-8")
    assert "| transformer | Transformer |" in table and "| rnn | gru" in table
    assert table.startswith("# Comparison: 2 models, 5 minutes each")
    for png in ("bleu_by_length.png", "alignments.png"):
        assert (out / png).stat().st_size > 1000, png

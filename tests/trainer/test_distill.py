"""Distillation data (issue 63 §2.3): `translator-train distill` writes the teacher's
translation of each distinct German sentence, and a run cut short goes on where its file
ends, as a GPU lease's commands need."""

from __future__ import annotations

import pytest

from conftest import DATA
from trainer import cli
from trainer.distill import distill, done_lines, german_sentences
from translator_app.core import Translator


def _lines(path):
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]


def test_the_teacher_english_of_every_distinct_sentence_is_written(tmp_path, overfit_run):
    doubled = tmp_path / "doubled.tsv"
    doubled.write_text((DATA / "tiny_pairs.tsv").read_text(encoding="utf-8") * 2, "utf-8")
    out = tmp_path / "distilled.tsv"
    args = ["distill", "--model", str(overfit_run / "model"), "--data", str(doubled)]
    assert cli.main([*args, "--out", str(out), "--device", "cpu", "--beam", "2"]) == 0
    rows = _lines(out)
    german = german_sentences([DATA / "tiny_pairs.tsv"])
    assert [de for de, _ in rows] == german  # each once, shortest first
    teacher = Translator.load(overfit_run / "model", "cpu")
    expected = teacher.translate(german, beam=2, nbest=1, steps="none")  # the model's own
    assert [en for _, en in rows] == [" ".join(t.text.split()) for t in expected]


def test_a_run_cut_short_goes_on_where_its_file_ends(tmp_path, overfit_run):
    teacher = Translator.load(overfit_run / "model", "cpu")
    german = german_sentences([DATA / "tiny_pairs.tsv"])
    whole = tmp_path / "whole.tsv"
    distill(teacher, german, whole, beam=1, chunk=64, batch_tokens=2000, max_minutes=0)
    cut = tmp_path / "cut.tsv"
    # A budget spent at once: one chunk, then a kill in the middle of the next line.
    distill(teacher, german, cut, beam=1, chunk=7, batch_tokens=2000, max_minutes=1e-9)
    assert len(_lines(cut)) == 7
    with open(cut, "a", encoding="utf-8") as f:
        f.write(german[7] + "\tThe half of a li")
    logged = []
    held = distill(
        teacher, german, cut, beam=1, chunk=5, batch_tokens=2000, max_minutes=0, log=logged.append
    )
    assert held == len(german)
    assert cut.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")
    assert f"holds 7 of {len(german)}" in logged[0]


def test_a_file_of_other_sentences_is_refused_not_appended_to(tmp_path):
    out = tmp_path / "other.tsv"
    out.write_text("Ganz anders.\tQuite different.\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 1"):
        done_lines(out, ["Guten Morgen!"])
    assert out.read_text(encoding="utf-8") == "Ganz anders.\tQuite different.\n"

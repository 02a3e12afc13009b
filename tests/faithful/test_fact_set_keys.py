"""The fact set's half written by hand (issue 88 §3): its keys file fits its pairs, every
key is one the bench reads, and a file that does not fit is refused with its line."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from bench_fact_set import hand_set  # noqa: E402

HAND = ROOT / "testsets" / "facts" / "facts-test.deu-eng.tsv"


def test_the_hand_written_half_reads_with_a_fact_on_every_line():
    rows = hand_set(HAND)
    assert len(rows) >= 100
    assert all(facts for *_, facts in rows)
    assert frozenset({"t7:30", "t19:30"}) in rows[20][3]  # „um halb acht“: either


def test_a_key_the_bench_cannot_read_is_refused_with_its_line(tmp_path):
    pairs = tmp_path / "x.deu-eng.tsv"
    pairs.write_text("Um 8 Uhr.\tAt 8 a.m.\nAm Montag.\tOn Monday.\n", encoding="utf-8")
    (tmp_path / "x.keys.txt").write_text("t8:00\nmonday\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"x.keys.txt, line 2: 'monday'"):
        hand_set(pairs)
    (tmp_path / "x.keys.txt").write_text("t8:00\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="1 lines for the 2 pairs"):
        hand_set(pairs)
    (tmp_path / "x.keys.txt").unlink()
    with pytest.raises(SystemExit, match="x.keys.txt"):  # no keys file: said, no traceback
        hand_set(pairs)
    with pytest.raises(SystemExit, match="no such file"):
        hand_set(tmp_path / "missing.deu-eng.tsv")

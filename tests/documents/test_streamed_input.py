"""A large .txt translates as a stream (issue 47, section 4): blocks written as they are
translated, progress on stderr, the target appearing whole at the end, memory for one
block only."""

from __future__ import annotations

import errno
import subprocess
import sys
from pathlib import Path

import pytest
from test_documents import fake_translate_text

from translator_app import cli
from translator_app.core.documents import streamed
from translator_app.core.documents.streamed import NotText, count_paragraphs, translate_stream
from translator_app.core.platform.paths import temporary_name

PAIRS = [
    line.split("\t")
    for line in (Path(__file__).parents[1] / "data" / "tiny_pairs.tsv").read_text().splitlines()
]


def test_blocks_are_written_as_they_come_and_the_target_appears_whole(tmp_path, monkeypatch):
    source = tmp_path / "lang.txt"
    lines = [f"Zeile {i}." if i % 5 else "" for i in range(100)]
    source.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8-sig")
    target = tmp_path / "lang.en.txt"
    seen = []

    part = target.with_name(temporary_name(target.name, "part"))

    def on_block(doc, progress):
        seen.append((progress.done, progress.total, part.read_text().count("\n"), target.exists()))

    translate_stream(source, target, fake_translate_text, on_block, block_paragraphs=32)
    assert [s[:2] for s in seen] == [(32, 100), (64, 100), (96, 100), (100, 100)]
    assert [s[2] for s in seen] == [32, 64, 96, 100]  # on disk before the next block
    assert not any(s[3] for s in seen)  # the target only when whole
    assert target.read_text().split("\n")[:-1] == [fake_translate_text(x).output for x in lines]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lang.en.txt", "lang.txt"]


def test_counting_and_bad_bytes_name_the_line(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes(b"eins\nzwei\ndrei")
    assert count_paragraphs(path) == 3
    path.write_bytes(b"eins\nzwei\n\xff\xfe kaputt\n")
    with pytest.raises(NotText, match=r"a\.txt: not UTF-8 text"):
        translate_stream(path, tmp_path / "a.en.txt", fake_translate_text)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]  # no target, part or lock


def test_the_command_line_reports_progress(overfit_run, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(streamed, "BLOCK_PARAGRAPHS", 4)
    source = tmp_path / "brief.txt"
    source.write_text("\n".join(de for de, _ in PAIRS[:10]) + "\n", encoding="utf-8")
    argv = ["translate", "--model", str(overfit_run / "model"), "--input", str(source)]
    assert cli.main(argv) == 0
    err = capsys.readouterr().err
    assert "translated 4 of 10 paragraphs" in err and "translated 10 of 10 paragraphs" in err
    english = (tmp_path / "brief.en.txt").read_text().splitlines()
    assert len(english) == 10 and all(english)


def test_a_second_writer_of_the_same_output_is_refused_while_the_first_runs(tmp_path):
    """issue 65 §2: two translations into one file both wrote ``same.txt.part``: the
    first said "wrote same.txt" over the second's text, the second failed on the gone
    part file."""
    source = tmp_path / "a.txt"
    source.write_text("Eins.\nZwei.\n", encoding="utf-8")
    target = tmp_path / "same.txt"
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        lock = target.with_name(".same.txt.writing")
        lock.write_text(str(other.pid))  # a running process writes same.txt
        with pytest.raises(streamed.OutputBusy, match=f"process {other.pid}") as busy:
            translate_stream(source, target, fake_translate_text)
        assert busy.value.filename == str(target) and busy.value.errno == errno.EBUSY
        assert not target.exists() and lock.read_text() == str(other.pid)  # its claim kept
    finally:
        other.kill()
        other.wait()
    # once that process is gone, its lock and partial file are removed and the file written
    stale_part = target.with_name(temporary_name("same.txt", "part", other.pid))
    stale_part.write_text("half of it")
    assert translate_stream(source, target, fake_translate_text) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "same.txt"]


def test_a_full_disk_names_the_output_not_the_input(tmp_path, monkeypatch):
    """issue 65 §5: ENOSPC carries no file name; the message named the input file."""
    source = tmp_path / "a.txt"
    source.write_text("Eins.\n", encoding="utf-8")

    def full(text):
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError) as e:
        translate_stream(source, tmp_path / "out.txt", full)
    assert e.value.filename == str(tmp_path / "out.txt") and e.value.errno == errno.ENOSPC
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


def test_a_documents_progress_reckons_its_rate_from_the_first_part_on():
    """The first part of a .docx of 90,000 paragraphs came after the model's load and the
    reading, and its rate said "6:03:47 left" for a run of about 8 minutes: the first
    report says how many, the later ones the rate since the first."""
    from translator_app.core.documents.streamed import DocumentProgress

    first = DocumentProgress(64, 90_000, 0.0, "sentences", since=64)
    assert first.line() == "64 of 90,000 sentences"
    later = DocumentProgress(512, 90_000, 2.0, "sentences", since=64)
    assert later.rate == pytest.approx(224.0)
    assert later.line() == "512 of 90,000 sentences (224.0/s, 6:39 left)"

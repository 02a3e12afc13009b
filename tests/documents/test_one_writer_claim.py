"""One writer per output, by an atomic claim (issue 86 §2): four processes started at one
instant held the claim together in 23 of 30 rounds (one found the other's lock still
empty and took it over), and two .docx translations into one output both succeeded, the
one started without --force overwriting what the other had just written."""

from __future__ import annotations

import multiprocessing as mp
import os
import time

import pytest

from translator_app.core.documents.streamed import OutputBusy, claim_output


def _claim(target, start, results):
    start.wait()
    try:
        claim_output(target, wait=1.0)
        results.put(os.getpid())
        time.sleep(0.5)  # hold it while the others try
    except OutputBusy:
        results.put(0)


def test_of_processes_started_at_one_instant_exactly_one_holds_the_claim(tmp_path):
    ctx = mp.get_context("fork")
    for round_ in range(8):
        target = tmp_path / f"out{round_}.txt"
        start, results = ctx.Barrier(4), ctx.Queue()
        workers = [ctx.Process(target=_claim, args=(target, start, results)) for _ in range(4)]
        for w in workers:
            w.start()
        got = [results.get(timeout=30) for _ in workers]
        for w in workers:
            w.join(timeout=30)
        assert sum(1 for pid in got if pid) == 1, (round_, got)


def test_a_lock_left_empty_is_taken_over_and_a_live_one_is_not(tmp_path):
    target = tmp_path / "out.txt"
    lock = target.with_name(f".{target.name}.writing")
    lock.write_text("")
    old = time.time() - 60
    os.utime(lock, (old, old))
    assert claim_output(target) == lock and lock.read_text() == str(os.getpid())
    lock.write_text(str(os.getppid()))  # a running process holds it
    with pytest.raises(OutputBusy, match=f"process {os.getppid()}"):
        claim_output(target, wait=0.2)


def test_a_docx_another_translation_wrote_meanwhile_is_not_overwritten(
    tmp_path, capsys, monkeypatch
):
    """The check at start found no output; another translation wrote it while this one
    loaded its model: without --force it is refused, not overwritten."""
    from docx import Document

    from translator_app import cli

    source = tmp_path / "brief.docx"
    d = Document()
    d.add_paragraph("Guten Morgen!")
    d.save(str(source))
    target = tmp_path / "brief.en.docx"
    real = cli._load

    def load(args):
        translator = real(args)
        target.write_bytes(b"the other translation's document")  # finished meanwhile
        return translator

    monkeypatch.setattr(cli, "_load", load)
    assert cli.main(["translate", "--input", str(source), "--beam", "1"]) == 1
    assert "another translation has just written it" in capsys.readouterr().err
    assert target.read_bytes() == b"the other translation's document"
    assert not target.with_name(f".{target.name}.writing").exists()

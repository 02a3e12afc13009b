"""Special files as input are refused with one sentence (issue 86 §2): `translator-app gui
fifo.txt` hung, a .txt linked to /dev/zero took 4.4 GB and ended in "MemoryError: ", and
File → Open read the same way. Only regular files are read, and no further than their
limit."""

from __future__ import annotations

import os
import threading

import pytest

from translator_app.core.documents import DocumentError, check_package, read_text


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo.txt"
    os.mkfifo(path)
    yield path
    # a reader that did open it would still be waiting: let it go
    threading.Thread(target=lambda: _release(path), daemon=True).start()


def _release(path):
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
    except OSError:
        pass


def test_a_named_pipe_is_refused_not_waited_on(fifo):
    with pytest.raises(DocumentError, match=r"fifo\.txt: not a regular file"):
        read_text(fifo)
    docx = fifo.with_name("fifo.docx")
    os.mkfifo(docx)
    with pytest.raises(DocumentError, match=r"fifo\.docx: not a regular file"):
        check_package(docx)


def test_a_link_to_a_device_is_refused(tmp_path):
    link = tmp_path / "zero.txt"
    link.symlink_to("/dev/zero")
    with pytest.raises(DocumentError, match=r"zero\.txt: not a regular file"):
        read_text(link)


def test_a_file_is_read_no_further_than_its_limit(tmp_path):
    big = tmp_path / "big.txt"
    big.write_bytes(b"a" * 2_000)
    with pytest.raises(DocumentError, match=r"big\.txt: larger than"):
        read_text(big, max_bytes=1_000)
    assert read_text(big, max_bytes=2_000) == "a" * 2_000


def test_the_window_says_so_in_one_sentence(qtbot, open_window, fifo):
    w = open_window()
    assert not w.files.open(str(fifo))
    assert "not a regular file" in w.notice_label.text()


def test_the_command_line_refuses_a_pipe_as_input(fifo, capsys):
    from translator_app import cli

    assert cli.main(["translate", "--input", str(fifo)]) == 1
    err = capsys.readouterr().err
    assert "fifo.txt: not a regular file" in err and "Traceback" not in err

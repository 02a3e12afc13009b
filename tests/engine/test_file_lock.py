"""The lock that keeps two windows' changes of one file (platform.paths.file_lock), and
what a power cut leaves of it (issue 86 §4): an empty lock file blocked saving
corrections forever ("is being changed by process 0"), across restarts."""

from __future__ import annotations

import os
import time

import pytest

from translator_app.core.data.corrections import CorrectionsStore
from translator_app.core.platform.paths import file_lock


def _lock_of(path):
    return path.with_name(f".{path.name}.lock")


def test_an_empty_lock_a_power_cut_left_is_taken_over(tmp_path):
    store = CorrectionsStore(tmp_path / "corrections.tsv")
    lock = _lock_of(store.path)
    lock.write_text("")  # created, never given its process's id
    old = time.time() - 3600
    os.utime(lock, (old, old))
    start = time.monotonic()
    assert store.add([("Hallo", "Hello")]) == 1
    assert time.monotonic() - start < 1.0 and not lock.exists()
    assert CorrectionsStore(store.path).pairs == [("Hallo", "Hello")]


def test_an_empty_lock_being_written_is_waited_for_then_taken_over(tmp_path):
    path = tmp_path / "corrections.tsv"
    _lock_of(path).write_text("")  # fresh: a holder may be writing its id this instant
    start = time.monotonic()
    with file_lock(path, wait=3.0):
        waited = time.monotonic() - start
    assert 0.9 < waited < 3.0


def test_a_live_holder_is_waited_for_then_named(tmp_path):
    path = tmp_path / "corrections.tsv"
    _lock_of(path).write_text(str(os.getppid()))  # a live process that is not this one
    with pytest.raises(OSError, match=f"process {os.getppid()}"), file_lock(path, wait=0.2):
        pass


def test_a_lock_of_a_killed_process_is_taken_over_at_once(tmp_path):
    path = tmp_path / "corrections.tsv"
    _lock_of(path).write_text("999999999")  # no such process
    start = time.monotonic()
    with file_lock(path, wait=3.0):
        assert time.monotonic() - start < 0.5

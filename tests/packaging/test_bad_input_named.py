"""Bad input is refused with its file and line, and a history of another kind is moved
aside (issue 47, sections 4 and 5)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from translator_app.core.data.corpus import DataError, read_all
from translator_app.core.faithful import glossary as glossary_module
from translator_app.core.faithful.glossary import read_glossary

DATA = Path(__file__).parents[1] / "data"


def test_a_nul_byte_in_a_training_pair_is_refused_with_its_line(tmp_path):
    path = tmp_path / "pairs.tsv"
    path.write_bytes(b"Guten Tag\tGood day\nHal\x00lo\tHello\n")
    with pytest.raises(DataError, match=r"pairs\.tsv:2: holds a NUL byte"):
        list(read_all([path]))


def test_a_nul_byte_in_a_glossary_term_is_refused_with_its_line(tmp_path):
    path = tmp_path / "terms.tsv"
    path.write_bytes("Haus\thouse\nBüro\x00stuhl\toffice chair\n".encode())
    with pytest.raises(DataError, match=r"terms\.tsv:2: holds a NUL byte"):
        read_glossary(path)


def test_a_huge_glossary_is_refused_without_reading_it_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(glossary_module, "MAX_TERMS", 10)
    path = tmp_path / "big.tsv"
    path.write_bytes(b"Haus\thouse\n" * 100_000)
    reads = []
    real_open = open

    class Counting:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def read(self, n=-1):
            reads.append(n)
            return self.f.read(n)

    monkeypatch.setattr(
        "builtins.open", lambda p, mode="r", *a, **k: Counting(real_open(p, mode, *a, **k))
    )
    with pytest.raises(DataError, match=r"big\.tsv: is larger than"):
        read_glossary(path)
    assert reads and all(0 < n < 1_100_000 for n in reads)


def test_an_empty_training_file_is_named(tmp_path, capsys):
    from trainer import cli

    empty = tmp_path / "empty.tsv"
    empty.write_text("")
    args = ["finetune", "--model", "resources/model", "--data", str(empty)]
    args += [
        "--out",
        str(tmp_path / "out"),
        "--steps",
        "1",
        "--valid",
        str(DATA / "tiny_pairs.tsv"),
    ]
    assert cli.main(args) != 0
    err = capsys.readouterr().err
    assert "no training pairs left after filtering" in err and "empty.tsv" in err
    assert not (tmp_path / "out").exists()  # the claimed folder was given back


def test_a_history_of_another_kind_is_moved_aside_and_history_works(tmp_path):
    from translator_app.gui.dialogs.history import History

    path = tmp_path / "history.sqlite3"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE history (url TEXT, visited INTEGER)")
    other.execute("INSERT INTO history VALUES ('https://example.org', 1)")
    other.commit()
    other.close()
    h = History(path)
    assert h.available, h.problem
    assert "another kind" in h.problem and "kept as" in h.problem
    h.record("Guten Tag.", "Good day.", "m", now=1)
    assert len(h) == 1
    kept = [p for p in tmp_path.iterdir() if p.name != path.name]
    assert kept and sqlite3.connect(kept[0]).execute("SELECT url FROM history").fetchone()


def test_a_full_disk_is_named_before_an_export_writes(tmp_path, tokenizer, spm_bytes, monkeypatch):
    from conftest import tiny_model
    from translator_app.core import BundleError
    from translator_app.core.engine.bundle_torch import save_bundle

    full = shutil.disk_usage(tmp_path)._replace(free=1000)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: full)
    out = tmp_path / "models" / "mine"
    with pytest.raises(BundleError, match=r"models: has 0 MB free and needs \d+ MB"):
        save_bundle(out, tiny_model(tokenizer), spm_bytes, name="x", card="", metrics={})
    assert not out.exists() and not any(p.name.startswith(".") for p in out.parent.iterdir())


def test_a_fine_tune_is_refused_before_training_on_a_full_disk(
    make_bundle, tmp_path, monkeypatch, capsys
):
    from trainer import cli

    bundle = make_bundle()
    full = shutil.disk_usage(tmp_path)._replace(free=1000)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: full)
    args = ["finetune", "--model", str(bundle), "--data", str(DATA / "tiny_pairs.tsv")]
    assert cli.main([*args, "--out", str(tmp_path / "out"), "--steps", "1"]) != 0
    assert "MB free and needs" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_running_out_of_memory_is_said_in_words_not_as_an_empty_error(capsys):
    """A MemoryError carries no message: the command said "error: MemoryError: "."""
    import argparse

    from translator_app.core.cli_common import run_main

    parser = argparse.ArgumentParser(prog="translator-train")
    parser.add_argument("command")

    def exhausted(_args):
        raise MemoryError

    assert run_main(parser, {"finetune": exhausted}, ["finetune"], (ValueError,)) == 1
    err = capsys.readouterr().err
    assert (
        err.startswith("error: out of memory: the input is too large") and "MemoryError" not in err
    )

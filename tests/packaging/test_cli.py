"""``translator-app translate``: arguments, stdin, --json and errors without tracebacks."""

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from translator_app import cli


@pytest.fixture
def bundle_dir(overfit_run, tmp_path):
    """A copy of the tiny trained model: it writes English words, so no sentence comes
    out empty (which the command line reports as an error, issue 47)."""
    return Path(shutil.copytree(overfit_run / "model", tmp_path / "bundle"))


def run_main(argv, stdin_bytes=b"", monkeypatch=None):
    if monkeypatch is not None:
        fake = io.TextIOWrapper(io.BytesIO(stdin_bytes), encoding="utf-8")
        monkeypatch.setattr(sys, "stdin", fake)
    return cli.main(argv)


def test_translates_arguments(bundle_dir, capsys):
    code = cli.main(
        [
            "translate",
            "--model",
            str(bundle_dir),
            "--beam",
            "1",
            "Guten Morgen!",
            "Das Haus ist groß.",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert len(out.splitlines()) == 2


def test_translates_stdin_line_by_line_keeping_blank_lines(bundle_dir, capsys, monkeypatch):
    code = run_main(
        ["translate", "--model", str(bundle_dir), "--beam", "1"],
        "Guten Morgen!\n\nDas Haus ist groß.\n".encode(),
        monkeypatch,
    )
    out, _ = capsys.readouterr()
    assert code == 0
    lines = out.split("\n")
    assert lines[1] == "" and len(lines) == 4  # three lines and the final newline


def test_an_empty_text_is_an_error_not_an_empty_translation(bundle_dir, capsys, monkeypatch):
    """`translate ""` printed nothing and exited 0, as did an empty standard input."""
    argv = ["translate", "--model", str(bundle_dir), "--beam", "1"]
    assert cli.main([*argv, "", "  "]) == 1
    assert "nothing to translate: the text is empty" in capsys.readouterr().err
    assert run_main(argv, b"", monkeypatch) == 1
    assert "standard input held no text" in capsys.readouterr().err
    assert run_main(argv, b"\n\n", monkeypatch) == 1


def test_words_without_quotes_are_one_text(bundle_dir, capsys):
    """`translate Ich habe Hunger` translated each word on its own line (issue 61, §5)."""
    argv = ["translate", "--model", str(bundle_dir), "--beam", "1"]
    assert cli.main([*argv, "Ich", "habe", "Hunger."]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1
    assert cli.main([*argv, "Guten Morgen!", "Danke"]) == 0  # quoted texts: one by one
    assert len(capsys.readouterr().out.splitlines()) == 2


def test_an_output_is_never_overwritten_or_misnamed_silently(bundle_dir, tmp_path, capsys):
    """Plain text went into a .docx-named file and an existing output was replaced,
    both with exit 0 (issue 61, §5)."""
    source = tmp_path / "brief.txt"
    source.write_text("Guten Morgen!\n", encoding="utf-8")
    argv = ["translate", "--model", str(bundle_dir), "--beam", "1", "--input", str(source)]
    assert cli.main([*argv, "--output", str(tmp_path / "brief.docx")]) == 1
    assert "brief.docx: the translation of a text file is text" in capsys.readouterr().err
    assert not (tmp_path / "brief.docx").exists()
    kept = tmp_path / "brief.en.txt"
    kept.write_text("my own notes\n", encoding="utf-8")
    assert cli.main(argv) == 1
    assert "brief.en.txt: already exists; add --force" in capsys.readouterr().err
    assert kept.read_text(encoding="utf-8") == "my own notes\n"
    assert cli.main([*argv, "--force"]) == 0
    assert kept.read_text(encoding="utf-8") != "my own notes\n"


def test_a_pipe_as_output_is_refused_not_replaced_by_a_file(bundle_dir, tmp_path, capsys):
    """--output onto a named pipe, with --force, left a plain file in its place (as root,
    /dev/null itself was replaced: issue 86 §2)."""
    import os
    import stat

    source = tmp_path / "brief.txt"
    source.write_text("Guten Morgen!\n", encoding="utf-8")
    fifo = tmp_path / "o.fifo.txt"
    os.mkfifo(fifo)
    link = tmp_path / "o.link.txt"
    link.symlink_to(fifo)
    argv = ["translate", "--model", str(bundle_dir), "--input", str(source), "--force"]
    for target in (fifo, link):
        assert cli.main([*argv, "--output", str(target)]) == 1
        err = capsys.readouterr().err
        assert f"{target}: not a regular file" in err and "Traceback" not in err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and link.is_symlink()


def test_json_output(bundle_dir, capsys):
    code = cli.main(
        [
            "translate",
            "--model",
            str(bundle_dir),
            "--json",
            "--beam",
            "3",
            "--nbest",
            "2",
            "Guten Morgen! Wie geht es dir?",
        ]
    )
    out, _ = capsys.readouterr()
    assert code == 0
    (line,) = out.splitlines()
    record = json.loads(line)
    assert record["source"] == "Guten Morgen! Wie geht es dir?"
    assert len(record["sentences"]) == 2
    s = record["sentences"][0]
    assert s["source"] == "Guten Morgen!"
    assert len(s["attention"]) == len(s["target_pieces"])
    assert all(len(row) == len(s["source_pieces"]) for row in s["attention"])
    assert 1 <= len(s["nbest"]) <= 2 and s["nbest"][0]["translation"] == s["translation"]


def test_bad_model_path_is_one_sentence(tmp_path, capsys):
    code = cli.main(["translate", "--model", str(tmp_path / "missing"), "Hallo"])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert err.startswith("error: ") and "no such model directory" in err
    assert len(err.strip().splitlines()) == 1


def test_broken_bundle_names_the_file(bundle_dir, capsys):
    (bundle_dir / "spm.model").unlink()
    assert cli.main(["translate", "--model", str(bundle_dir), "Hallo"]) == 1
    assert "spm.model: is missing" in capsys.readouterr().err


def test_invalid_utf8_on_stdin(bundle_dir, capsys, monkeypatch):
    code = run_main(
        ["translate", "--model", str(bundle_dir), "--beam", "1"],
        b"Hallo\n\xff\xfe kaputt\n",
        monkeypatch,
    )
    out, err = capsys.readouterr()
    # One bad line no longer fails the rest: it is translated with U+FFFD for the bad
    # bytes, and a warning names it.
    assert code == 0
    assert err.strip() == (
        "warning: standard input line 2 is not valid UTF-8 (byte 0); "
        "its invalid bytes were replaced by U+FFFD"
    )
    assert len(out.splitlines()) == 2 and "\ufffd" not in out


def test_bad_numbers(bundle_dir, capsys):
    assert cli.main(["translate", "--model", str(bundle_dir), "--beam", "0", "x"]) == 1
    assert "--beam must be an integer from 1 to 64, got 0" in capsys.readouterr().err


def test_a_text_that_looks_like_an_option_is_explained_and_taken_after_dashes(bundle_dir, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["translate", "--model", str(bundle_dir), "-Ordner"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: -Ordner" in err
    assert "after '--': translator-app translate -- -Ordner" in err
    assert cli.main(["translate", "--model", str(bundle_dir), "--", "-Ordner"]) == 0
    assert capsys.readouterr().out.strip()


def test_no_command_opens_the_window_or_explains_there_is_no_display(capsys, monkeypatch):
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert cli.main([]) == 1
    err = capsys.readouterr().err
    assert "no display" in err and "translator-app translate" in err and "Traceback" not in err
    # The window's own options and a file name need no "gui" before them (issue 32).
    for argv in (["--text", "Guten Morgen"], ["brief.txt"], ["--model", "x", "--text", "y"]):
        assert cli.main(argv) == 1
        err = capsys.readouterr().err
        assert "no display" in err and "invalid choice" not in err


def test_as_a_real_process_without_traceback(bundle_dir, tmp_path):
    ok = subprocess.run(
        [
            sys.executable,
            "-m",
            "translator_app",
            "translate",
            "--model",
            str(bundle_dir),
            "--beam",
            "1",
        ],
        input="Guten Morgen!\nWie geht es dir?\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ok.returncode == 0, ok.stderr
    assert len(ok.stdout.splitlines()) == 2
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "translator_app",
            "translate",
            "--model",
            str(tmp_path / "nope"),
            "x",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert bad.stderr.count("\n") == 1


def test_engine_core_does_not_import_qt():
    code = "import sys, translator_app.core, translator_app.cli; print(any(m.startswith(('PySide6', 'matplotlib')) for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "False", out.stderr


def test_train_command_is_the_trainer(capsys):
    # The built app has one executable; `translator-app train` must reach the trainer
    # (through packaging's entry point: the app's own code does not import the trainer).
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[2] / "packaging" / "entry_app.py"
    spec = importlib.util.spec_from_file_location("entry_app", path)
    entry = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(entry)
    for argv, program in (
        (["train", "finetune", "--help"], "translator-app"),
        (["finetune", "--help"], "/opt/app/translator-train"),
    ):
        with pytest.raises(SystemExit) as exit_info:
            entry.main(argv, program)
        assert exit_info.value.code == 0
        assert "--model" in capsys.readouterr().out


def test_size_report_names_the_largest_parts(tmp_path):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "packaging" / "size_report.py"
    spec = importlib.util.spec_from_file_location("size_report", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    report = module.report

    (tmp_path / "_internal" / "torch" / "lib").mkdir(parents=True)
    (tmp_path / "_internal" / "torch" / "lib" / "big.so").write_bytes(b"x" * 3_000_000)
    (tmp_path / "_internal" / "small").mkdir()
    (tmp_path / "_internal" / "small" / "a.py").write_bytes(b"x" * 1000)
    (tmp_path / "translator-app").write_bytes(b"x" * 2_000_000)
    text = report(tmp_path)
    assert text.splitlines()[0].endswith("in 3 files")
    largest = text.split("largest files:")[1].splitlines()[1]
    assert largest.strip().endswith("_internal/torch/lib/big.so")
    by_package = text.split("by package:")[1].splitlines()[1:]
    assert by_package[0].strip().endswith("torch")
    assert by_package[1].strip().endswith("(top-level files)")


def test_translates_a_document_into_one_of_its_kind(bundle_dir, tmp_path, capsys):
    """--input/--output: a .docx (random-weight model: only the structure is checked)."""
    from docx import Document

    d = Document()
    d.add_heading("Einleitung", level=1)
    d.add_paragraph("Das Haus ist groß.", style="List Bullet")
    d.save(str(tmp_path / "brief.docx"))
    argv = ["translate", "--model", str(bundle_dir), "--beam", "1"]
    assert cli.main([*argv, "--input", str(tmp_path / "brief.docx")]) == 0
    out, err = capsys.readouterr()
    assert out == "" and f"wrote {tmp_path / 'brief.en.docx'} (2 sentences)" in err
    styles = [p.style.name for p in Document(str(tmp_path / "brief.en.docx")).paragraphs]
    assert styles == ["Heading 1", "List Bullet"]
    # Mistakes are one line each, before the model loads, and nothing is written.
    for extra, message in [
        (["--input", str(tmp_path / "nope.odt")], "nope.odt: no such file"),
        (["--input", str(tmp_path / "brief.docx"), "--json"], "--json writes text"),
        (["--input", str(tmp_path / "x.pdf")], "translate .txt, .docx or .odt files"),
        (["--output", str(tmp_path / "o.txt")], "--output needs --input"),
        (
            ["--input", str(tmp_path / "brief.docx"), "--output", str(tmp_path / "o.odt")],
            "o.odt: a translated .docx document is saved as .docx",
        ),
    ]:
        assert cli.main([*argv, *extra]) == 1
        assert message in capsys.readouterr().err
    assert not (tmp_path / "o.odt").exists()


def test_train_runs_the_trainer(capfd, tmp_path):
    """`translator-app train ...` is `translator-train ...` (issue 50, item 7): its help, and a
    real trainer command through it (a small SentencePiece model, written and loadable)."""
    from translator_app.core.text.tokenizer import Tokenizer

    assert cli.main(["train", "--help"]) == 0
    out = capfd.readouterr().out
    assert out.startswith("usage: translator-train") and "finetune" in out
    spm = tmp_path / "spm.model"
    data = Path(__file__).resolve().parents[1] / "data" / "tiny_pairs.tsv"
    code = cli.main(["train", "spm", "--data", str(data), "--vocab-size", "340", "--out", str(spm)])
    assert code == 0 and f"wrote {spm}" in capfd.readouterr().out
    assert Tokenizer(spm.read_bytes()).vocab_size == 340


def test_every_start_sets_passive_openmp_waits_before_the_libraries_load():
    """Two OpenMP pools spinning in one process made the panel lag (issue 61, §4): the
    policy is set by importing the package, before PyTorch or CTranslate2 loads, and a
    value the user set is kept."""
    import os
    import subprocess
    import sys

    code = (
        "import os, sys; from translator_app.cli import build_parser; "
        "print(os.environ.get('OMP_WAIT_POLICY'), 'torch' in sys.modules, "
        "'ctranslate2' in sys.modules)"
    )
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.stdout.split() == ["PASSIVE", "False", "False"], done.stderr
    env["OMP_WAIT_POLICY"] = "ACTIVE"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.stdout.split()[0] == "ACTIVE"


def test_the_first_run_says_it_indexes_the_dictionary(tmp_path, capsys):
    # the first run after installing waits for the dictionary's index: it says why
    from types import SimpleNamespace

    from translator_app.core.dictionary.lookup import Dictionary
    from translator_app.core.postedit.pipeline import parse_steps

    dictionary = Dictionary(tmp_path / "de-en.ding.txt.xz", tmp_path / "cache")
    translator = SimpleNamespace(dictionary=dictionary, steps=parse_steps("all"))
    cli._index_the_dictionary(translator)
    assert "Indexing the dictionary" in capsys.readouterr().err
    # not where no step looks words up, nor once the index is there
    cli._index_the_dictionary(SimpleNamespace(dictionary=dictionary, steps=parse_steps("none")))
    dictionary.index_path.parent.mkdir(parents=True)
    dictionary.index_path.write_bytes(b"")
    cli._index_the_dictionary(translator)
    assert capsys.readouterr().err == ""

"""One writer per folder (issue 47, section 3): of two exports or fine-tunes into the
same folder exactly one succeeds and the other says the folder exists; a fine-tune
claims its folder before it trains."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from conftest import tiny_model
from translator_app.core import BundleError
from translator_app.core.engine import bundle_torch as bundle_module
from translator_app.core.engine.bundle import load_bundle
from translator_app.core.engine.bundle_files import claim_folder
from translator_app.core.engine.bundle_torch import save_bundle


def _save(out: Path, model, spm_bytes: bytes, name: str) -> None:
    save_bundle(out, model, spm_bytes, name=name, card="", metrics={})


def test_the_second_writer_finding_the_folder_taken_is_refused(
    tmp_path, tokenizer, spm_bytes, monkeypatch
):
    out = tmp_path / "model"
    _save(out, tiny_model(tokenizer), spm_bytes, "first")
    # The second export checked before the first had finished: the check saw nothing.
    monkeypatch.setattr(bundle_module, "holds_files", lambda folder: False)
    with pytest.raises(BundleError, match="another export or fine-tune wrote it first"):
        _save(out, tiny_model(tokenizer, seed=1), spm_bytes, "second")
    assert load_bundle(out, "cpu").name == "first"
    assert [p.name for p in tmp_path.iterdir()] == ["model"]  # no temporary left


def test_a_claimed_empty_folder_takes_the_bundle_and_a_second_claim_is_refused(
    tmp_path, tokenizer, spm_bytes
):
    out = tmp_path / "models" / "mine"
    claim_folder(out)
    with pytest.raises(BundleError, match="already exists"):
        claim_folder(out)
    _save(out, tiny_model(tokenizer), spm_bytes, "mine")
    assert load_bundle(out, "cpu").name == "mine"


def _export(outs: list[str], spm_bytes: bytes, seed: int, start, results) -> None:
    """Export a model into each folder of ``outs`` in turn, at the same instant as the
    other process (``start``, a barrier); put "ok" or the refusal for each."""
    from translator_app.core.text.tokenizer import Tokenizer

    model = tiny_model(Tokenizer(spm_bytes), seed=seed)
    for out in outs:
        start.wait()
        try:
            _save(Path(out), model, spm_bytes, f"writer-{seed}")
            results.put((out, "ok"))
        except BundleError as e:
            results.put((out, str(e)))


@pytest.mark.slow
def test_two_processes_exporting_into_one_folder_one_wins(tmp_path, spm_bytes):
    ctx = multiprocessing.get_context("spawn")
    outs = [str(tmp_path / f"model-{trial}") for trial in range(3)]
    start, results = ctx.Barrier(2), ctx.Queue()
    procs = [
        ctx.Process(target=_export, args=(outs, spm_bytes, seed, start, results)) for seed in (1, 2)
    ]
    for p in procs:
        p.start()
    answers = [results.get(timeout=120) for _ in range(2 * len(outs))]
    for p in procs:
        p.join(timeout=60)
    for out in outs:
        outcomes = sorted(said for folder, said in answers if folder == out)
        assert outcomes[-1] == "ok" and "already exists" in outcomes[0], outcomes
        assert load_bundle(out, "cpu").name.startswith("writer-")


def test_a_fine_tune_into_a_claimed_folder_is_refused_before_it_trains(
    make_bundle, tmp_path, capsys
):
    from trainer import cli

    out = tmp_path / "mine"
    claim_folder(out)  # another fine-tune is training into it
    data = Path(__file__).parents[1] / "data" / "tiny_pairs.tsv"
    args = ["finetune", "--model", str(make_bundle()), "--data", str(data), "--out", str(out)]
    assert cli.main([*args, "--steps", "2"]) != 0
    assert "already exists" in capsys.readouterr().err
    assert out.is_dir() and not any(out.iterdir())  # the other run's claim is left alone


def test_the_empty_folder_of_a_killed_job_is_taken_over(tmp_path):
    import subprocess
    import sys

    out = tmp_path / "models" / "mine"
    claim_folder(out)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # the job that claimed it was killed before it wrote the bundle
    (out.parent / ".mine.claim").write_text(str(gone.pid))
    assert claim_folder(out) == []  # taken over, nothing new created
    assert (out.parent / ".mine.claim").read_text() == str(os.getpid())
    with pytest.raises(BundleError, match=r"already exists and a running job \(process"):
        claim_folder(out)  # now a running job's again

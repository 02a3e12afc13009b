"""Hostile OPUS-MT downloads (issue 35): each attack of bench/hostile_marian.py is refused
with one line that names the file and says what to do, and nothing is left behind.
(Time and memory are measured by bench/bench_hostile_import.py, not here.)"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

from translator_app.core.engine.bundle import load_bundle
from translator_app.core.importers.marian import import_marian
from translator_app.core.importers.marian_common import WHAT_TO_DO, MarianImportError
from translator_app.core.platform.paths import remove_orphans
from translator_app.gui.shared.model_list import is_bundle

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
import hostile_marian  # noqa: E402

# The bombs at a quarter GiB: the same code path as the bench's 4 GiB, in a fraction of
# the time it takes to write them.
CASES = dict(hostile_marian.CASES)
CASES["npz decompression bomb (4 GiB)"] = partial(hostile_marian.npz_bomb, gib=0.25)
CASES["zip decompression bomb (4 GiB)"] = partial(hostile_marian.zip_bomb, gib=0.25)

# What each refusal must say (besides naming the file).
EXPECTED = {
    "YAML alias bomb in decoder.yml": ("decoder.yml", "aliases"),
    "YAML alias bomb in special:model.yml": ("opus.bt.npz", "aliases"),
    "YAML alias bomb in the vocabulary": ("opus.spm.vocab.yml", "aliases"),
    "60 MB vocabulary": ("opus.spm.vocab.yml", "is larger than 8 MB; refused"),
    "npz decompression bomb (4 GiB)": ("opus.bt.npz", "refused"),
    "zip decompression bomb (4 GiB)": ("release.zip", "opus.spm.vocab.yml unpacks"),
    "NaN weight in the npz": ("opus.bt.npz", "encoder_l1_ffn_W1 holds NaN"),
    "infinite weight in safetensors": ("model.safetensors", "fc2.weight holds NaN or infinite"),
    "5,000-digit integer in config.json": ("config.json", "config.json"),
    "deeply nested config.json": ("config.json", "nested"),
    "deeply nested decoder.yml": ("decoder.yml", "nested"),
    "layer named encoder_lx_": ("opus.bt.npz", "encoder_lx_ffn_W1"),
    "a list where Marian has a string": ("decoder.yml", "list of file names"),
    "string array": ("opus.bt.npz", "decoder_l1_ffn_b2 has the data type"),
    "structured array": ("opus.bt.npz", "decoder_l1_ffn_b2 has the data type"),
    "negative dimension": ("opus.bt.npz", "transformer-dim-ffn = -32"),
    "zip with two members of the same name": ("release.zip", "two files named decoder.yml"),
}


@pytest.mark.slow  # imports whole Marian models: outside the fast lane
@pytest.mark.parametrize("builder", ["release", "hf"])
def test_the_untouched_downloads_import(tmp_path, builder):
    make = hostile_marian.tiny_release if builder == "release" else hostile_marian.tiny_hf
    bundle = import_marian(make(tmp_path / "src"), tmp_path / "bundle")
    assert load_bundle(bundle, "cpu").model.config.d_model == hostile_marian.D_MODEL


@pytest.mark.parametrize(
    "case",
    # The bombs write a quarter GiB each: the fast lane leaves them to the full suite.
    [pytest.param(c, marks=pytest.mark.slow) if "decompression" in c else c for c in CASES],
)
def test_each_attack_is_one_clear_refusal(tmp_path, case):
    src = CASES[case](tmp_path)
    with pytest.raises(MarianImportError) as e:
        import_marian(src, tmp_path / "bundle")
    message = str(e.value)
    file_name, says = EXPECTED[case]
    assert file_name in message and says in message, message
    assert "\n" not in message and message.endswith(WHAT_TO_DO)
    assert len(message) < 400 + len(str(tmp_path))
    assert not (tmp_path / "bundle").exists()


# NaN weights in a bundle are refused at load too: tests/engine/test_bundle.py.


KILLED_MID_WRITE = """
import os, signal, sys
from pathlib import Path
import translator_app.core.engine.bundle_torch as bundle
real = bundle.save_file
def dying(*args, **kwargs):
    real(*args, **kwargs)
    os.kill(os.getpid(), signal.SIGKILL)  # as kill -9 would, right after the weights
bundle.save_file = dying
from translator_app.core.importers.marian import import_marian
import_marian(Path(sys.argv[1]), Path(sys.argv[2]))
"""


def test_an_import_killed_mid_write_leaves_nothing_the_app_lists(tmp_path):
    src = hostile_marian.tiny_release(tmp_path / "src")
    models = tmp_path / "models"
    models.mkdir()
    proc = subprocess.run(
        [sys.executable, "-c", KILLED_MID_WRITE, str(src), str(models / "opus-mt")],
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()[-2000:]
    left = list(models.iterdir())
    assert left and all(p.name.startswith(".") for p in left)  # only the temporary folder
    listed = [p for p in left if not p.name.startswith(".") and is_bundle(p)]
    assert listed == [] and not (models / "opus-mt").exists()
    assert remove_orphans(models) == left and not any(models.iterdir())
    assert os.getpid()  # this process is untouched


def test_a_huge_integer_is_bad_json_in_plain_words():
    from translator_app.core.limits import parse_json

    with pytest.raises(ValueError, match="thousands of digits") as e:
        parse_json('{"d_model": ' + "9" * 5000 + "}")
    assert "sys." not in str(e.value)


@pytest.mark.parametrize("kind", ["link to /dev/urandom", "named pipe"])
def test_weights_that_are_no_regular_file_are_refused_at_once(tmp_path, kind):
    """An import whose .npz linked to /dev/urandom read 5 GB before it failed; a pipe hung
    it (issue 86 §2)."""
    import os
    import time

    src = hostile_marian.tiny_release(tmp_path / "src")
    (npz,) = src.glob("*.npz")
    npz.unlink()
    if kind == "named pipe":
        os.mkfifo(npz)
    else:
        npz.symlink_to("/dev/urandom")
    start = time.monotonic()
    with pytest.raises(MarianImportError, match=r"\.npz.*not a regular file"):
        import_marian(src, tmp_path / "bundle")
    assert time.monotonic() - start < 5
    assert not (tmp_path / "bundle").exists()

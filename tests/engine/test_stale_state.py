"""What the translator serves stays what it checked (issue 65, section 4): the converted
model is keyed by the tokenizer as well as the weights, and the PyTorch model built later
comes from the weights that were checked at load, or not at all."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from translator_app.core import Translator
from translator_app.core.engine.bundle import BundleError

BUNDLE = Path(__file__).parents[2] / "resources" / "model"
SENTENCE = "Der Hund und die Katze schlafen."


def _copy(tmp_path: Path) -> Path:
    model = tmp_path / "model"
    shutil.copytree(BUNDLE, model, ignore=shutil.ignore_patterns("ct2"))
    return model


def _record(model: Path, name: str) -> None:
    """config.json records the file's new size and checksum, as a careful swap would."""
    cfg = json.loads((model / "config.json").read_text(encoding="utf-8"))
    data = (model / name).read_bytes()
    cfg["files"][name] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    (model / "config.json").write_text(json.dumps(cfg), encoding="utf-8")


def _swap_pieces(model: Path, a: str, b: str) -> None:
    """Swap two English pieces of the same length in spm.model, byte for byte (each is
    stored as field 1 of a SentencePiece message: tag, length, the UTF-8 bytes)."""
    spm = model / "spm.model"
    data = spm.read_bytes()
    first, second = (b"\x0a\x06\xe2\x96\x81" + w.encode() + b"\x15" for w in (a, b))
    assert data.count(first) == 1 and data.count(second) == 1
    swapped = bytearray(data)
    i, j = data.index(first), data.index(second)
    swapped[i : i + len(first)], swapped[j : j + len(second)] = second, first
    spm.write_bytes(bytes(swapped))
    _record(model, "spm.model")


def test_a_changed_tokenizer_is_converted_again(tmp_path):
    model = _copy(tmp_path)
    before = Translator.load(model, precision="auto").translate([SENTENCE])[0].text
    assert "dog" in before and "cat" in before, before
    _swap_pieces(model, "cat", "dog")
    fast = Translator.load(model, precision="auto")
    assert fast.engine_name.startswith("CTranslate2")
    torch = Translator.load(model, precision="fp32", engine="torch")
    # The same model now writes each animal's id with the other's piece: the default
    # engine must say what the PyTorch one says, not what the stale conversion said.
    swapped = before.replace("dog", "\0").replace("cat", "dog").replace("\0", "cat")
    assert torch.translate([SENTENCE])[0].text == swapped
    assert fast.translate([SENTENCE])[0].text == swapped


def test_weights_changed_after_the_load_are_refused_not_mixed(tmp_path):
    from safetensors.numpy import load_file, save_file

    model = _copy(tmp_path)
    Translator.load(model, precision="auto")  # converts, if not in the run's cache yet
    translator = Translator.load(model, precision="auto")
    (out,) = translator.translate([SENTENCE])
    tensors = load_file(str(model / "model.safetensors"))
    name = sorted(tensors)[0]
    tensors[name] = tensors[name] * np.float32(0.5)  # same size, other weights
    save_file(tensors, str(model / "model.safetensors"))
    with pytest.raises(BundleError, match=r"model\.safetensors: changed since the model was"):
        translator.explain(out)

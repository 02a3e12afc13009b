"""The first translation of the bundled Transformer needs no PyTorch (issue 49): the
bundle is checked with NumPy, CTranslate2 decodes from the converted model in the cache,
and the PyTorch model is built only when something needs it (a per-layer view, the
dropped-words check, Teach)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BUNDLE = Path(__file__).parents[2] / "resources" / "model"

FIRST_TRANSLATION = """
import json, sys
from translator_app.core import Translator
t = Translator.load(sys.argv[1], precision="auto")
(out,) = t.translate(["Die Rechnung ist noch offen."])
before = "torch" in sys.modules
explained = t.explain(out)  # every layer's attention: the PyTorch model, built now
print(json.dumps({"text": out.text, "engine": t.engine_name, "torch_first": before,
                  "torch_after": "torch" in sys.modules,
                  "layers": list(explained.best.layers.shape)}))
"""

CLI = """
import sys
from translator_app.cli import main
code = main(["translate", "Guten Morgen!"])
print("TORCH" if "torch" in sys.modules else "NO TORCH", file=sys.stderr)
sys.exit(code)
"""


def _run(code: str, *args: str) -> subprocess.CompletedProcess:
    """``code`` in a fresh Python, with the test run's cache (TRANSLATOR_CACHE_DIR)."""
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300
    )


def test_the_first_translation_imports_no_pytorch():
    from translator_app.core import Translator

    Translator.load(BUNDLE, precision="auto")  # converted into the run's cache, if not yet
    got_run = _run(FIRST_TRANSLATION, str(BUNDLE))
    assert got_run.returncode == 0, got_run.stderr
    got = json.loads(got_run.stdout)
    # „Rechnung“ is an invoice or a bill (v18 writes "bill"): a translation, not a guess.
    assert got["engine"] == "CTranslate2 int8"
    assert "invoice" in got["text"] or "bill" in got["text"], got["text"]
    assert got["torch_first"] is False and got["torch_after"] is True
    assert got["layers"][1:3] == [4, 4]  # [tokens, layers, heads, source]
    cli = _run(CLI)
    assert cli.returncode == 0 and "morning" in cli.stdout.lower(), cli.stderr
    assert "NO TORCH" in cli.stderr


def test_a_lazily_loaded_bundle_still_refuses_bad_weights(tmp_path):
    """The NumPy checks refuse what the PyTorch loader refuses: NaN weights."""
    import shutil

    import numpy as np
    import pytest
    from safetensors.numpy import load_file, save_file

    from translator_app.core.engine.bundle import BundleError, load_bundle

    bad = tmp_path / "bad"
    shutil.copytree(BUNDLE, bad, ignore=shutil.ignore_patterns("ct2"))
    tensors = load_file(str(bad / "model.safetensors"))
    name = sorted(tensors)[0]
    tensors[name] = tensors[name].copy()
    tensors[name].flat[0] = np.nan
    save_file(tensors, str(bad / "model.safetensors"))
    cfg = json.loads((bad / "config.json").read_text())
    cfg["files"].pop("model.safetensors")  # no checksum: the values are what is checked
    (bad / "config.json").write_text(json.dumps(cfg))
    with pytest.raises(BundleError, match="NaN or infinite"):
        load_bundle(bad, "cpu", lazy=True)

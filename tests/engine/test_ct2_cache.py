"""The converted-model cache heals itself (issue 47, section 1): every file is checked
against the checksum recorded when it was written; a damaged, emptied or replaced file is
converted again and said once; conversions a killed process left behind are removed; and
a sentence with words never comes out empty without a word said."""

from __future__ import annotations

import json
import os
import shutil
import time

import pytest
import torch

from translator_app import cli
from translator_app.core.api.translator import Translator
from translator_app.core.engine import ct2, ct2_models
from translator_app.core.engine.bundle import load_bundle, write_shortlist

pytestmark = pytest.mark.skipif(not ct2.available(), reason="CTranslate2 is not installed")

SENTENCE = ["Das Haus ist sehr groß und alt."]


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TRANSLATOR_CACHE_DIR", str(tmp_path / "cache"))


def _cached(tmp_path):
    folders = [p for p in (tmp_path / "cache" / "ctranslate2").iterdir() if p.is_dir()]
    assert len(folders) == 1, folders
    return folders[0]


def _bundle_with_shortlist(make_bundle, tokenizer):
    bundle = make_bundle()
    vocab = ct2.vocabulary(tokenizer, tokenizer.vocab_size)
    write_shortlist(bundle, "\t" + " ".join(p for p in vocab[4:200] if p.isascii()) + "\n")
    return bundle


def _load(bundle):
    return Translator.from_bundle(load_bundle(bundle, "cpu"), "int8")


def _flip_a_byte(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


DAMAGE = {
    "vmap garbage": lambda d: (d / "vmap.txt").write_bytes(os.urandom(100_000)),
    "vmap emptied": lambda d: (d / "vmap.txt").write_bytes(b""),
    "model truncated": lambda d: (d / "model.bin").write_bytes(
        (d / "model.bin").read_bytes()[:1000]
    ),
    "model bit flipped": lambda d: _flip_a_byte(d / "model.bin"),
    "model missing": lambda d: (d / "model.bin").unlink(),
}


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_cache_is_converted_again_and_said_once(kind, make_bundle, tokenizer, tmp_path):
    bundle = _bundle_with_shortlist(make_bundle, tokenizer)
    first = _load(bundle)
    assert first.engine is not None and first.engine.use_vmap and not first.engine_repaired
    expected = first.translate(SENTENCE, max_len_b=8)[0].best.target_ids
    DAMAGE[kind](_cached(tmp_path))
    healed = _load(bundle)
    assert healed.engine is not None, healed.engine_problem  # not a silent PyTorch fall-back
    assert (
        "made again" in healed.engine_repaired and str(_cached(tmp_path)) in healed.engine_repaired
    )
    assert healed.translate(SENTENCE, max_len_b=8)[0].best.target_ids == expected
    assert not ct2_models.damage(_cached(tmp_path))
    assert not _load(bundle).engine_repaired  # repaired once, then trusted


def test_a_cache_from_before_checksums_is_made_again(make_bundle, tmp_path):
    bundle = make_bundle()
    _load(bundle)
    stamp_path = _cached(tmp_path) / "converted_from.json"
    stamp = json.loads(stamp_path.read_text())
    del stamp["files"]
    stamp_path.write_text(json.dumps(stamp))
    assert "no checksums" in _load(bundle).engine_repaired
    assert "files" in json.loads(stamp_path.read_text())


def test_conversions_a_killed_process_left_are_removed(make_bundle, tmp_path):
    root = tmp_path / "cache" / "ctranslate2"
    stale, fresh = root / ".converting-abc-1", root / ".converting-abc-2"
    for folder in (stale, fresh):
        folder.mkdir(parents=True)
        (folder / "model.bin").write_bytes(b"half")
    hour_ago = time.time() - 3600
    os.utime(stale, (hour_ago, hour_ago))
    _load(make_bundle())
    # The old one was left by a kill; the new one may be another process converting now.
    assert not stale.exists() and fresh.exists()


def test_a_sentence_ctranslate2_leaves_empty_is_decoded_by_pytorch(make_bundle, monkeypatch):
    t = _load(make_bundle())
    torch_t = Translator(t.model, t.tokenizer, t.options, engine="torch")
    expected = torch_t.translate(SENTENCE, max_len_b=8)
    eos = t.tokenizer.eos_id

    def only_eos(sources, *args, **kwargs):
        return [[ct2.Hypothesis((eos,), 0.0, 0.0, torch.zeros(1, len(s)))] for s in sources]

    monkeypatch.setattr(t.engine, "search", only_eos)
    out = t.translate(SENTENCE, max_len_b=8)[0]
    # (A random model's pieces may spell nothing; its ids are what the PyTorch search gave.)
    assert len(out.best.target_ids) > 1
    assert out.best.target_ids == expected[0].best.target_ids


def test_the_command_line_says_what_it_repaired(overfit_run, tmp_path, capsys):
    bundle = tmp_path / "bundle"
    shutil.copytree(overfit_run / "model", bundle)
    tokenizer = load_bundle(bundle, "cpu").tokenizer
    vocab = ct2.vocabulary(tokenizer, tokenizer.vocab_size)
    write_shortlist(bundle, "\t" + " ".join(p for p in vocab[4:] if p.isascii()) + "\n")
    args = ["translate", "--model", str(bundle), "--precision", "int8", "Guten Morgen."]
    assert cli.main(args) == 0
    first = capsys.readouterr()
    (_cached(tmp_path) / "vmap.txt").write_bytes(b"")
    assert cli.main(args) == 0
    again = capsys.readouterr()
    assert again.out == first.out and again.out.strip()
    assert again.err.count("repaired:") == 1 and "vmap.txt is damaged" in again.err


def test_an_empty_translation_of_words_is_an_error(make_bundle, monkeypatch, capsys):
    from translator_app.core.engine.backends import Ct2Backend, TorchBackend

    bundle = make_bundle()
    eos = load_bundle(bundle, "cpu").tokenizer.eos_id

    def only_eos(self, batch, *a):  # both engines, the fall-back too, write nothing
        return [[ct2.Hypothesis((eos,), 0.0, 0.0, torch.zeros(1, len(j.src)))] for j in batch]

    monkeypatch.setattr(Ct2Backend, "search", only_eos)
    monkeypatch.setattr(TorchBackend, "search", only_eos)
    assert cli.main(["translate", "--model", str(bundle), "Guten Morgen."]) == 1
    assert "wrote nothing for 'Guten Morgen.'" in capsys.readouterr().err

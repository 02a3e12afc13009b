"""Importing Marian (OPUS-MT) models: tiny random MarianMTModels built with transformers
(a test-only dependency) must give the same logits and the same greedy and beam outputs
after import."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
import torch

from translator_app.core.engine.batching import pad_rows
from translator_app.core.engine.search import SearchOptions, beam_search, greedy_search
from translator_app.core.importers.marian_common import MarianImportError
from translator_app.core.importers.marian_hf import read_hf_folder
from translator_app.core.models.model import build_model

transformers = pytest.importorskip("transformers")
from tiny_marian import ENGLISH, GERMAN, make_hf_model  # noqa: E402

SENTENCES = ["Der Hund läuft.", "Ich habe keine Zeit.", "Wir treffen uns morgen am Bahnhof."]


def load_marian_model(folder: Path):
    """(our model in eval mode, tokenizer) from a Hugging Face Marian folder, as the
    import reads it."""
    config, state, tokenizer = read_hf_folder(folder)
    model = build_model(config)
    model.load_state_dict(state, strict=False)  # output.weight is tied to the embedding
    return model.eval(), tokenizer


CONFIGS = [
    {"d_model": 32, "encoder_layers": 2, "decoder_layers": 2, "heads": 4, "ffn": 64},
    {"d_model": 33, "encoder_layers": 3, "decoder_layers": 1, "heads": 3, "ffn": 40},
    {"d_model": 24, "encoder_layers": 1, "decoder_layers": 3, "heads": 2, "ffn": 48},
]


def encode_source(tokenizer, texts):
    rows = [list(tokenizer.encode(t).ids) + [tokenizer.eos_id] for t in texts]
    return pad_rows(rows, tokenizer.pad_id)


@pytest.mark.slow  # imports whole Marian models: outside the fast lane
@pytest.mark.parametrize("shape", CONFIGS)
@pytest.mark.parametrize("layout", ["safetensors", "bin"])
def test_imported_model_gives_the_same_logits(tmp_path, shape, layout):
    hf, vocab = make_hf_model(tmp_path / "hf", shape, layout=layout)
    ours, tokenizer = load_marian_model(tmp_path / "hf")
    src, mask = encode_source(tokenizer, SENTENCES)
    tgt_in = torch.tensor([[vocab["<pad>"], 5, 9, 7, 3, 11]] * len(SENTENCES))
    with torch.no_grad():
        want = hf(input_ids=src, attention_mask=mask.long(), decoder_input_ids=tgt_in).logits
        got, _ = ours(src, mask, tgt_in)
    assert got.shape == want.shape
    assert torch.allclose(got, want, atol=1e-4), (got - want).abs().max()
    # Incremental decoding (the key/value caches search uses) gives the same logits.
    with torch.no_grad():
        state = ours.start(src, mask)
        for t in range(tgt_in.size(1)):
            out = ours.step(state, tgt_in[:, t])
            state = out.state
            assert torch.allclose(out.logits, want[:, t], atol=1e-4), t
    # The tokenizer agrees with Hugging Face's Marian tokenizer on the source side.
    hf_tok = transformers.MarianTokenizer(
        str(tmp_path / "hf" / "source.spm"),
        str(tmp_path / "hf" / "target.spm"),
        str(tmp_path / "hf" / "vocab.json"),
    )
    for text in SENTENCES:
        assert hf_tok(text)["input_ids"] == list(tokenizer.encode(text).ids) + [0]


@pytest.mark.parametrize("shape", CONFIGS[:2])
def test_imported_model_searches_like_hugging_face(tmp_path, shape):
    hf, vocab = make_hf_model(tmp_path / "hf", shape, seed=1)
    ours, tokenizer = load_marian_model(tmp_path / "hf")
    src, mask = encode_source(tokenizer, SENTENCES)
    blocked = [[vocab["<pad>"]], [vocab["<unk>"]]]  # our search never emits these
    max_new = 12
    common = dict(
        input_ids=src,
        attention_mask=mask.long(),
        max_new_tokens=max_new,
        min_new_tokens=0,
        bad_words_ids=blocked,
        do_sample=False,
        length_penalty=0.0,
        forced_eos_token_id=vocab["</s>"],  # EOS at the length limit, as our search does
    )
    with torch.no_grad():
        greedy_hf = hf.generate(num_beams=1, **common)
        beam_hf = hf.generate(num_beams=4, early_stopping=True, **common)
        greedy = greedy_search(ours, src, mask, SearchOptions(max_len_a=0.0, max_len_b=max_new))
        options = SearchOptions(beam=4, max_len_a=0.0, max_len_b=max_new, length_penalty=0.0)
        beam = beam_search(ours, src, mask, options)

    def strip(row):
        return [int(t) for t in row[1:] if int(t) != vocab["<pad>"]]

    greedy_ids = [list(h[0].tokens) for h in greedy]
    assert greedy_ids == [strip(r) for r in greedy_hf]
    beam_ids = [list(h[0].tokens) for h in beam]
    assert beam_ids == [strip(r) for r in beam_hf]


class _Marker:
    """Unpickling this would create a file: the proof that code ran."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):
        return (Path.touch, (Path(self.path),))


def test_a_hostile_bin_is_refused_and_runs_nothing(tmp_path):
    make_hf_model(tmp_path / "hf", CONFIGS[0], layout="bin")
    marker = tmp_path / "pwned"
    with open(tmp_path / "hf" / "pytorch_model.bin", "wb") as f:
        pickle.dump({"model.shared.weight": _Marker(str(marker))}, f)
    with pytest.raises(MarianImportError) as e:
        load_marian_model(tmp_path / "hf")
    assert "pytorch_model.bin" in str(e.value)
    assert not marker.exists()


def test_wrong_shapes_and_missing_files_name_the_file(tmp_path):
    make_hf_model(tmp_path / "hf", CONFIGS[0])
    cfg = json.loads((tmp_path / "hf" / "config.json").read_text())
    cfg["d_model"] = 64
    (tmp_path / "hf" / "config.json").write_text(json.dumps(cfg))
    with pytest.raises(MarianImportError, match="model.safetensors.*shape"):
        load_marian_model(tmp_path / "hf")
    (tmp_path / "hf" / "target.spm").unlink()
    with pytest.raises(MarianImportError, match="target.spm: is missing"):
        load_marian_model(tmp_path / "hf")


@pytest.mark.slow
def test_import_translate_finetune_export_load(tmp_path, monkeypatch):
    """The whole path a user takes: import, translate with alignments, fine-tune a few
    steps (the imported tokenizers and architecture kept), and load the result."""
    from trainer import cli
    from translator_app.core import Translator
    from translator_app.core.engine.bundle import load_bundle
    from translator_app.core.text.pair_tokenizer import PairTokenizer

    monkeypatch.setenv("TRANSLATOR_DATA_DIR", str(tmp_path / "userdata"))
    monkeypatch.setenv("TRANSLATOR_CACHE_DIR", str(tmp_path / "cache"))
    make_hf_model(tmp_path / "hf", CONFIGS[0])
    assert cli.main(["import-marian", str(tmp_path / "hf"), "--out", str(tmp_path / "b")]) == 0
    bundle = load_bundle(tmp_path / "b", "cpu")
    assert isinstance(bundle.tokenizer, PairTokenizer)
    assert bundle.config.norm == "post" and bundle.config.decoder_start == "pad"
    assert "CC-BY 4.0" in bundle.card
    ours, _ = load_marian_model(tmp_path / "hf")
    for name, tensor in ours.state_dict().items():  # the bundle holds the same weights
        assert torch.equal(bundle.model.state_dict()[name], tensor), name

    translator = Translator.from_bundle(bundle)
    for beam in (1, 4):
        [t] = translator.translate(["Der Hund läuft."], beam=beam)
        cand = t.best
        assert cand.attention.shape == (len(cand.target_ids), len(t.source_ids))
        assert t.source_ids[-1] == bundle.tokenizer.eos_id  # the source ends in </s>
        assert t.source_pieces[0].startswith("▁")

    # n-best, a forced prefix, all layers' attention and int8 work as for our models.
    [t] = translator.translate(["Der Hund läuft."], beam=4, nbest=3, all_layers=True)
    assert len(t.nbest) == 3 and t.best.layers.shape[1:3] == (2, 4)
    forced = list(t.nbest[1].target_ids[:2])
    [p] = translator.translate(["Der Hund läuft."], beam=2, prefixes=[forced])
    assert list(p.best.target_ids[:2]) == forced
    [q] = Translator.from_bundle(bundle, precision="int8").translate(["Der Hund läuft."], beam=1)
    assert q.best.attention.shape[1] == len(q.source_ids)

    data = tmp_path / "mine.tsv"
    data.write_text(
        "".join(f"{de}\t{en}\n" for de, en in zip(GERMAN, ENGLISH, strict=True)), "utf-8"
    )
    args = ["finetune", "--model", str(tmp_path / "b"), "--data", str(data)]
    args += ["--valid", str(data), "--steps", "3", "--batch-tokens", "256", "--device", "cpu"]
    args += ["--bf16", "off", "--out", str(tmp_path / "tuned")]
    assert cli.main(args) == 0
    tuned = load_bundle(tmp_path / "tuned", "cpu")
    assert isinstance(tuned.tokenizer, PairTokenizer)
    assert tuned.tokenizer.files() == bundle.tokenizer.files()
    assert tuned.config == bundle.config
    changed = [
        n
        for n, v in tuned.model.state_dict().items()
        if not torch.equal(v, bundle.model.state_dict()[n])
    ]
    assert changed  # it trained
    Translator.from_bundle(tuned).translate(["Wir treffen uns."], beam=2)


def test_old_bundles_keep_loading_as_version_1(make_bundle):
    from translator_app.core.engine.bundle import load_bundle

    tiny_bundle = make_bundle()
    info = json.loads((tiny_bundle / "config.json").read_text())
    assert info["format_version"] == 1 and info["tokenizer"]["type"] == "sentencepiece"
    assert load_bundle(tiny_bundle, "cpu").config.norm == "pre"


def write_opus_release(hf, vocab: dict, hf_folder: Path, folder: Path) -> Path:
    """The same model as an OPUS-MT release: Marian's names, [in, out] matrices, no <pad>."""
    import numpy as np
    import yaml

    from translator_app.core.importers.marian_npz import _LAYER

    folder.mkdir(parents=True, exist_ok=True)
    sd = {k.removeprefix("model."): v.detach().numpy() for k, v in hf.state_dict().items()}
    arrays = {
        "Wemb": sd["shared.weight"][:-1],
        "decoder_ff_logit_out_b": sd["final_logits_bias"][:, :-1],
    }
    cfg = hf.config
    for side, n in (("encoder", cfg.encoder_layers), ("decoder", cfg.decoder_layers)):
        for i in range(n):
            for marian, hf_name in _LAYER.items():
                key = f"{side}.layers.{i}.{hf_name}"
                if key in sd:
                    a = sd[key]
                    arrays[f"{side}_l{i + 1}_{marian}"] = a.T if a.ndim == 2 else a[None, :]
    model_yml = yaml.safe_dump(
        {
            "type": "transformer",
            "dim-emb": cfg.d_model,
            "enc-depth": cfg.encoder_layers,
            "dec-depth": cfg.decoder_layers,
            "transformer-heads": cfg.encoder_attention_heads,
            "transformer-dim-ffn": cfg.encoder_ffn_dim,
            "transformer-ffn-activation": "swish",
            "transformer-postprocess": "dan",
            "transformer-preprocess": "",
            "tied-embeddings-all": True,
        }
    )
    arrays["special:model.yml"] = np.frombuffer(model_yml.encode() + b"\0", dtype=np.int8)
    np.savez(folder / "opus.bt-2021.npz", **arrays)
    plain = {k: v for k, v in vocab.items() if k != "<pad>"}
    (folder / "opus.spm.vocab.yml").write_text(yaml.safe_dump(plain, allow_unicode=True))
    (folder / "decoder.yml").write_text(
        "models:\n  - opus.bt-2021.npz\nvocabs:\n  - opus.spm.vocab.yml\n  - opus.spm.vocab.yml\n"
    )
    for f in ("source.spm", "target.spm"):
        (folder / f).write_bytes((hf_folder / f).read_bytes())
    return folder


@pytest.mark.parametrize("shape", CONFIGS)
@pytest.mark.parametrize("zipped", [False, True])
def test_an_opus_mt_release_imports_to_the_same_model(tmp_path, shape, zipped):
    import shutil

    from translator_app.core.engine.bundle import load_bundle
    from translator_app.core.importers.marian import import_marian

    hf, vocab = make_hf_model(tmp_path / "hf", shape)
    release = write_opus_release(hf, vocab, tmp_path / "hf", tmp_path / "opus-mt-de-en")
    if zipped:
        release = Path(shutil.make_archive(str(tmp_path / "opus-2021"), "zip", release))
    bundle = load_bundle(import_marian(release, tmp_path / "bundle"), "cpu")
    assert bundle.tokenizer.vocab == vocab
    src, mask = encode_source(bundle.tokenizer, SENTENCES)
    tgt_in = torch.tensor([[vocab["<pad>"], 5, 9, 7, 3, 11]] * len(SENTENCES))
    with torch.no_grad():
        want = hf(input_ids=src, attention_mask=mask.long(), decoder_input_ids=tgt_in).logits
        got, _ = bundle.model(src, mask, tgt_in)
    assert torch.allclose(got, want, atol=1e-4), (got - want).abs().max()


def test_an_npz_with_object_arrays_is_refused_and_runs_nothing(tmp_path):
    import numpy as np

    from translator_app.core.importers.marian import import_marian

    hf, vocab = make_hf_model(tmp_path / "hf", CONFIGS[0])
    release = write_opus_release(hf, vocab, tmp_path / "hf", tmp_path / "rel")
    marker = tmp_path / "pwned"
    evil = np.empty(1, dtype=object)
    evil[0] = _Marker(str(marker))
    np.savez(release / "opus.bt-2021.npz", Wemb=evil)
    with pytest.raises(MarianImportError, match="opus.bt-2021.npz.*refused"):
        import_marian(release, tmp_path / "bundle")
    assert not marker.exists()


def test_the_app_imports_a_model_and_uses_it(qtbot, open_window, tmp_path, monkeypatch):
    """Model → Import OPUS-MT model…: the chosen download becomes a model in the menu and
    the one in use; a broken download is one status-bar message."""
    from PySide6.QtWidgets import QFileDialog

    from translator_app.core.engine.bundle import load_bundle

    hf_folder = tmp_path / "opus-mt-de-en"
    make_hf_model(hf_folder, CONFIGS[0])
    w = open_window()
    picked = {"path": str(hf_folder / "config.json")}
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (picked["path"], ""))
    )
    w.models.import_dialog()
    qtbot.waitUntil(
        lambda: w.model_info is not None and w.model_info.name == "opus-mt-de-en", timeout=20_000
    )
    assert any(a.text() == "opus-mt-de-en" for a in w.models.actions)
    assert w.settings.model.endswith("opus-mt-de-en")
    # The panel starts on the head chosen at import, marked as the alignment.
    cfg = load_bundle(w.settings.model, "cpu").config
    head = w.alignment.head_box
    assert head.currentData() == cfg.alignment_head and "(highlights)" in head.currentText()

    (hf_folder / "vocab.json").write_text("not json")
    w.models.import_dialog()
    qtbot.waitUntil(lambda: "vocab.json" in w.messages.last_error, timeout=20_000)
    assert "Could not import" in w.statusBar().currentMessage()


def test_the_sharpest_head_becomes_the_alignment(tmp_path):
    """OPUS-MT puts its alignment into one head (guided alignment); the import finds the
    sharpest head and shows it. Here decoder layer 1, head 2 is made sharp."""
    from translator_app.core.engine.bundle import load_bundle
    from translator_app.core.importers.marian import head_entropies, import_marian

    hf, _ = make_hf_model(tmp_path / "hf", CONFIGS[0])
    q = hf.model.decoder.layers[0].encoder_attn.q_proj
    head_dim = CONFIGS[0]["d_model"] // CONFIGS[0]["heads"]
    with torch.no_grad():  # large queries: a peaked softmax in that head only
        q.weight[head_dim : 2 * head_dim] *= 40
        q.bias[head_dim : 2 * head_dim] *= 40
    hf.save_pretrained(tmp_path / "hf")
    bundle = load_bundle(import_marian(tmp_path / "hf", tmp_path / "b"), "cpu")
    assert (bundle.config.alignment_layer, bundle.config.alignment_head) == (0, 1)
    ent = head_entropies(bundle.model, bundle.tokenizer)
    assert ent.shape == (2, 4) and ent[0, 1] == ent.min()
    assert "decoder layer 1, head 2" in bundle.card

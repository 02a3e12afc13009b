"""Hostile OPUS-MT downloads, built on the spot, for bench/bench_hostile_import.py and
tests/engine/test_hostile_import.py (issue 35).

``tiny_release(folder)`` writes a small valid OPUS-MT release (Marian's .npz, YAML
vocabulary, decoder.yml, SentencePiece models) and ``tiny_hf(folder)`` a small Hugging
Face Marian folder, without transformers. Each entry of ``CASES`` turns such a download
into an attack seen in the audit (YAML alias bombs, decompression bombs, NaN weights,
values that used to surface as raw Python errors) and returns the path to import.
"""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import sentencepiece as spm
import yaml

LINES = [
    "Der Hund läuft schnell über die Straße.",
    "Ich habe heute leider keine Zeit.",
    "The dog runs quickly across the street.",
    "Unfortunately I have no time today.",
] * 10
D_MODEL, HEADS, FFN, LAYERS = 16, 2, 32, 1
_MARIAN_LAYER = {  # Marian's per-layer names and their shapes (in = out = D_MODEL)
    "self_Wq": (D_MODEL, D_MODEL),
    "self_Wk": (D_MODEL, D_MODEL),
    "self_Wv": (D_MODEL, D_MODEL),
    "self_Wo": (D_MODEL, D_MODEL),
    "self_bq": (1, D_MODEL),
    "self_bk": (1, D_MODEL),
    "self_bv": (1, D_MODEL),
    "self_bo": (1, D_MODEL),
    "self_Wo_ln_scale": (1, D_MODEL),
    "self_Wo_ln_bias": (1, D_MODEL),
    "ffn_W1": (D_MODEL, FFN),
    "ffn_b1": (1, FFN),
    "ffn_W2": (FFN, D_MODEL),
    "ffn_b2": (1, D_MODEL),
    "ffn_ffn_ln_scale": (1, D_MODEL),
    "ffn_ffn_ln_bias": (1, D_MODEL),
}
_CONTEXT = {k.replace("self_", "context_"): v for k, v in _MARIAN_LAYER.items() if "self" in k}


def _spm() -> bytes:
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(LINES),
        model_writer=out,
        vocab_size=40,
        hard_vocab_limit=False,
        minloglevel=2,
    )
    return out.getvalue()


def _vocab(proto: bytes) -> dict[str, int]:
    vocab = {"</s>": 0, "<unk>": 1}
    sp = spm.SentencePieceProcessor(model_proto=proto)
    for i in range(sp.vocab_size()):
        piece = sp.id_to_piece(i)
        if piece not in vocab and piece not in ("<s>", "<unk>", "</s>"):
            vocab[piece] = len(vocab)
    return vocab


def model_yml(**changes) -> str:
    cfg = {
        "type": "transformer",
        "dim-emb": D_MODEL,
        "enc-depth": LAYERS,
        "dec-depth": LAYERS,
        "transformer-heads": HEADS,
        "transformer-dim-ffn": FFN,
        "transformer-ffn-activation": "swish",
        "transformer-postprocess": "dan",
        "transformer-preprocess": "",
        "tied-embeddings-all": True,
    } | changes
    return yaml.safe_dump(cfg)


def release_arrays(vocab_size: int, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    arrays = {
        "Wemb": rng.normal(0, 0.1, (vocab_size, D_MODEL)),
        "decoder_ff_logit_out_b": rng.normal(0, 0.1, (1, vocab_size)),
    }
    for side in ("encoder", "decoder"):
        names = _MARIAN_LAYER | (_CONTEXT if side == "decoder" else {})
        for name, shape in names.items():
            arrays[f"{side}_l1_{name}"] = rng.normal(0, 0.1, shape)
    arrays = {k: v.astype(np.float32) for k, v in arrays.items()}
    arrays["special:model.yml"] = np.frombuffer(model_yml().encode() + b"\0", dtype=np.int8)
    return arrays


NPZ, VOCAB_YML = "opus.bt.npz", "opus.spm.vocab.yml"


def tiny_release(folder: Path) -> Path:
    """A valid OPUS-MT release folder that imports."""
    folder.mkdir(parents=True, exist_ok=True)
    proto = _spm()
    vocab = _vocab(proto)
    np.savez(folder / NPZ, **release_arrays(len(vocab)))
    (folder / VOCAB_YML).write_text(yaml.safe_dump(vocab, allow_unicode=True), "utf-8")
    (folder / "decoder.yml").write_text(
        f"models:\n  - {NPZ}\nvocabs:\n  - {VOCAB_YML}\n  - {VOCAB_YML}\n", "utf-8"
    )
    (folder / "source.spm").write_bytes(proto)
    (folder / "target.spm").write_bytes(proto)
    return folder


def tiny_hf(folder: Path) -> Path:
    """A valid Hugging Face Marian folder (safetensors) of the same model."""
    import torch
    from safetensors.torch import save_file

    from translator_app.core.importers.marian_npz import marian_to_hf

    release = tiny_release(folder / "_release")
    with np.load(release / NPZ) as z:
        arrays = {k: z[k] for k in z.files if k != "special:model.yml"}
    hf = marian_to_hf(arrays)
    tensors = {"model." + k: v.contiguous() for k, v in hf.items()}
    tensors["final_logits_bias"] = tensors.pop("model.final_logits_bias").reshape(1, -1)
    for side in ("encoder", "decoder"):
        tensors[f"model.{side}.embed_positions.weight"] = torch.zeros(512, D_MODEL)
    save_file(tensors, str(folder / "model.safetensors"))
    vocab = yaml.safe_load((release / VOCAB_YML).read_text("utf-8"))
    vocab["<pad>"] = len(vocab)
    (folder / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), "utf-8")
    for name in ("source.spm", "target.spm"):
        shutil.copy(release / name, folder / name)
    shutil.rmtree(release)
    config = {
        "model_type": "marian",
        "vocab_size": len(vocab),
        "d_model": D_MODEL,
        "encoder_layers": LAYERS,
        "decoder_layers": LAYERS,
        "encoder_attention_heads": HEADS,
        "decoder_attention_heads": HEADS,
        "encoder_ffn_dim": FFN,
        "decoder_ffn_dim": FFN,
        "max_position_embeddings": 512,
        "activation_function": "swish",
        "pad_token_id": vocab["<pad>"],
        "eos_token_id": 0,
        "decoder_start_token_id": vocab["<pad>"],
        "scale_embedding": True,
    }
    (folder / "config.json").write_text(json.dumps(config), "utf-8")
    return folder


# ------------------------------------------------------------------- the attacks
def _laughs(levels: int = 9) -> str:
    """YAML's "billion laughs": each alias level multiplies the size by ten."""
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        refs = ",".join([f"*a{i - 1}"] * 10)
        lines.append(f"a{i}: &a{i} [{refs}]")
    return "\n".join(lines) + "\n"


def _rewrite_npz(folder: Path, change: Callable[[dict], None]) -> None:
    with np.load(folder / NPZ) as z:
        arrays = {k: z[k] for k in z.files}
    change(arrays)
    np.savez(folder / NPZ, **arrays)


def yaml_bomb_decoder(tmp: Path) -> Path:
    rel = tiny_release(tmp / "rel")
    (rel / "decoder.yml").write_text(_laughs() + f"models: [{NPZ}]\n", "utf-8")
    return rel


def yaml_bomb_model(tmp: Path) -> Path:
    rel = tiny_release(tmp / "rel")

    def bomb(arrays):
        text = _laughs() + model_yml()
        arrays["special:model.yml"] = np.frombuffer(text.encode() + b"\0", dtype=np.int8)

    _rewrite_npz(rel, bomb)
    return rel


def yaml_bomb_vocab(tmp: Path) -> Path:
    rel = tiny_release(tmp / "rel")
    (rel / VOCAB_YML).write_text(_laughs() + (rel / VOCAB_YML).read_text("utf-8"), "utf-8")
    return rel


def huge_vocab(tmp: Path) -> Path:
    """A 60 MB vocabulary (three million made-up pieces): YAML took 46 s and 3.4 GB to
    parse it before the import refused it."""
    rel = tiny_release(tmp / "rel")
    with open(rel / VOCAB_YML, "a", encoding="utf-8") as f:
        f.writelines(f"piece{i:07d}: {100 + i}\n" for i in range(3_000_000))
    return rel


def _zero_member(z: zipfile.ZipFile, name: str, header: bytes, size: int) -> None:
    """A member of ``size`` zero bytes after ``header``, deflated as it is written."""
    with z.open(zipfile.ZipInfo(name), "w", force_zip64=True) as f:
        f.write(header)
        block = bytes(64 << 20)
        left = size
        while left > 0:
            f.write(block[: min(left, len(block))])
            left -= len(block)


def npz_bomb(tmp: Path, gib: float = 4.0) -> Path:
    """An .npz of a few MB whose configuration entry unpacks to ``gib`` GiB."""
    rel = tiny_release(tmp / "rel")
    with np.load(rel / NPZ) as z:
        arrays = {k: z[k] for k in z.files if k != "special:model.yml"}
    size = int(gib * 1024**3)
    header = io.BytesIO()
    np.lib.format.write_array_header_2_0(
        header, {"descr": "|i1", "fortran_order": False, "shape": (size,)}
    )
    with zipfile.ZipFile(rel / NPZ, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for name, a in arrays.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, a)
            z.writestr(name + ".npy", buf.getvalue())
        _zero_member(z, "special:model.yml.npy", header.getvalue(), size)
    return rel


def zip_bomb(tmp: Path, gib: float = 4.0) -> Path:
    """A release zip whose vocabulary unpacks to ``gib`` GiB."""
    rel = tiny_release(tmp / "rel")
    out = tmp / "release.zip"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for f in rel.iterdir():
            if f.name != VOCAB_YML:
                z.write(f, f.name)
        _zero_member(z, VOCAB_YML, b"", int(gib * 1024**3))
    return out


def nan_npz(tmp: Path) -> Path:
    rel = tiny_release(tmp / "rel")

    def poison(arrays):
        arrays["encoder_l1_ffn_W1"][3, 4] = np.nan

    _rewrite_npz(rel, poison)
    return rel


def inf_safetensors(tmp: Path) -> Path:
    from safetensors.torch import load_file, save_file

    hf = tiny_hf(tmp / "hf")
    tensors = load_file(str(hf / "model.safetensors"))
    tensors["model.decoder.layers.0.fc2.weight"][0, 0] = float("inf")
    save_file(tensors, str(hf / "model.safetensors"))
    return hf


def _edit_config(hf: Path, text: str) -> Path:
    (hf / "config.json").write_text(text, "utf-8")
    return hf


def huge_integer_json(tmp: Path) -> Path:
    hf = tiny_hf(tmp / "hf")
    text = (
        (hf / "config.json").read_text("utf-8").replace('"d_model": 16', '"d_model": ' + "9" * 5000)
    )
    return _edit_config(hf, text)


def nested_json(tmp: Path) -> Path:
    hf = tiny_hf(tmp / "hf")
    return _edit_config(hf, '{"model_type": "marian", "x": ' + "[" * 100_000 + "]" * 100_000 + "}")


def nested_yaml(tmp: Path) -> Path:
    rel = tiny_release(tmp / "rel")
    (rel / "decoder.yml").write_text("models: " + "[" * 50_000 + "]" * 50_000 + "\n", "utf-8")
    return rel


def bad_layer_name(tmp: Path) -> Path:
    rel = tiny_release(tmp / "rel")
    _rewrite_npz(rel, lambda a: a.__setitem__("encoder_lx_ffn_W1", a.pop("encoder_l1_ffn_W1")))
    return rel


def list_for_string(tmp: Path) -> Path:
    rel = tiny_release(tmp / "rel")
    (rel / "decoder.yml").write_text(f"models:\n  - [{NPZ}]\nvocabs:\n  - [{VOCAB_YML}]\n", "utf-8")
    return rel


def string_array(tmp: Path) -> Path:
    rel = tiny_release(tmp / "rel")
    _rewrite_npz(rel, lambda a: a.__setitem__("decoder_l1_ffn_b2", np.array(["x"] * D_MODEL)))
    return rel


def structured_array(tmp: Path) -> Path:
    rel = tiny_release(tmp / "rel")
    kind = np.dtype([("a", "<f4"), ("b", "<i4")])
    _rewrite_npz(rel, lambda a: a.__setitem__("decoder_l1_ffn_b2", np.zeros((1, D_MODEL), kind)))
    return rel


def negative_dimension(tmp: Path) -> Path:
    rel = tiny_release(tmp / "rel")

    def negative(arrays):
        text = model_yml(**{"transformer-dim-ffn": -32})
        arrays["special:model.yml"] = np.frombuffer(text.encode() + b"\0", dtype=np.int8)

    _rewrite_npz(rel, negative)
    return rel


def duplicate_members(tmp: Path) -> Path:
    rel = tiny_release(tmp / "rel")
    out = tmp / "release.zip"
    with zipfile.ZipFile(out, "w") as z:
        for f in rel.iterdir():
            z.write(f, f.name)
        z.writestr("decoder.yml", "models: [other.npz]\n")  # a second decoder.yml
    return out


CASES: dict[str, Callable[[Path], Path]] = {
    "YAML alias bomb in decoder.yml": yaml_bomb_decoder,
    "YAML alias bomb in special:model.yml": yaml_bomb_model,
    "YAML alias bomb in the vocabulary": yaml_bomb_vocab,
    "60 MB vocabulary": huge_vocab,
    "npz decompression bomb (4 GiB)": npz_bomb,
    "zip decompression bomb (4 GiB)": zip_bomb,
    "NaN weight in the npz": nan_npz,
    "infinite weight in safetensors": inf_safetensors,
    "5,000-digit integer in config.json": huge_integer_json,
    "deeply nested config.json": nested_json,
    "deeply nested decoder.yml": nested_yaml,
    "layer named encoder_lx_": bad_layer_name,
    "a list where Marian has a string": list_for_string,
    "string array": string_array,
    "structured array": structured_array,
    "negative dimension": negative_dimension,
    "zip with two members of the same name": duplicate_members,
}

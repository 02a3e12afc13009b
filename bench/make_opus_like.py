"""Write a random Hugging Face Marian folder of opus-mt-de-en's shape, for benchmarks.

    .venv/bin/python bench/make_opus_like.py --out /tmp/opus-like

No real OPUS-MT model can be downloaded here; this gives one of the same shape (d_model
512, 6 encoder and 6 decoder layers, 8 heads, feed-forward 2048, 58,101 pieces) with
random weights, saved by transformers (a dev dependency) exactly as a download is laid
out. Import it with ``translator-train import-marian`` and time it with
``bench/bench_translate.py`` (``bench/bench_marian.sh`` does all three). Untrained
models rarely stop early: compare ms per output token.
"""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import sentencepiece as spm
import torch

from bench.bench_translate import load_sentences

OPUS_MT_DE_EN = dict(
    d_model=512,
    encoder_layers=6,
    decoder_layers=6,
    encoder_attention_heads=8,
    decoder_attention_heads=8,
    encoder_ffn_dim=2048,
    decoder_ffn_dim=2048,
    max_position_embeddings=512,
    activation_function="swish",
    scale_embedding=True,
)
VOCAB_SIZE = 58101  # opus-mt-de-en's, <pad> included


def small_spm(lines: list[str]) -> bytes:
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines * 20),
        model_writer=out,
        vocab_size=400,
        hard_vocab_limit=False,
        minloglevel=2,
    )
    return out.getvalue()


def main() -> int:
    import transformers

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    text = [s for group in load_sentences().values() for s in group]
    proto = small_spm(text)
    for name in ("source.spm", "target.spm"):
        (args.out / name).write_bytes(proto)
    sp = spm.SentencePieceProcessor(model_proto=proto)
    vocab = {"</s>": 0, "<unk>": 1}
    for i in range(sp.vocab_size()):
        vocab.setdefault(sp.id_to_piece(i), len(vocab))
    while len(vocab) < VOCAB_SIZE - 1:  # filler pieces up to the real vocabulary's size
        vocab[f"▁filler{len(vocab)}"] = len(vocab)
    vocab["<pad>"] = len(vocab)
    (args.out / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), "utf-8")
    config = transformers.MarianConfig(
        vocab_size=VOCAB_SIZE,
        pad_token_id=vocab["<pad>"],
        eos_token_id=0,
        decoder_start_token_id=vocab["<pad>"],
        **OPUS_MT_DE_EN,
    )
    torch.manual_seed(0)
    transformers.MarianMTModel(config).save_pretrained(args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

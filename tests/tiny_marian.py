"""Tiny random Marian (OPUS-MT) models saved as Hugging Face lays them out, made with
transformers (a test-only dependency): the importer's and the downloads' tests use them."""

from __future__ import annotations

import io
import json
from pathlib import Path

import sentencepiece as spm
import torch

GERMAN = [
    "Der Hund läuft schnell über die Straße.",
    "Ich habe heute leider keine Zeit.",
    "Das Wetter soll morgen schön werden.",
    "Wir treffen uns am Bahnhof.",
] * 5
ENGLISH = [
    "The dog runs quickly across the street.",
    "Unfortunately I have no time today.",
    "The weather is supposed to be nice tomorrow.",
    "We meet at the station.",
] * 5


def tiny_spm(lines: list[str], size: int) -> bytes:
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines),
        model_writer=out,
        vocab_size=size,
        model_type="unigram",
        character_coverage=1.0,
        hard_vocab_limit=False,
        minloglevel=2,
    )
    return out.getvalue()


def marian_vocab(*protos: bytes) -> dict[str, int]:
    """As OPUS-MT builds it: </s> 0, <unk> 1, the pieces of both models, <pad> last."""
    vocab = {"</s>": 0, "<unk>": 1}
    for proto in protos:
        sp = spm.SentencePieceProcessor(model_proto=proto)
        for i in range(sp.vocab_size()):
            piece = sp.id_to_piece(i)
            if piece not in vocab and piece not in ("<s>", "<unk>", "</s>"):
                vocab[piece] = len(vocab)
    vocab["<pad>"] = len(vocab)
    return vocab


def make_hf_model(folder: Path, shape: dict, seed: int = 0, layout: str = "safetensors"):
    """A random MarianMTModel with its tokenizer files, saved as Hugging Face does."""
    folder.mkdir(parents=True, exist_ok=True)
    src, tgt = tiny_spm(GERMAN, 60), tiny_spm(ENGLISH, 50)
    vocab = marian_vocab(src, tgt)
    (folder / "source.spm").write_bytes(src)
    (folder / "target.spm").write_bytes(tgt)
    (folder / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False))
    import transformers

    config = transformers.MarianConfig(
        vocab_size=len(vocab),
        d_model=shape["d_model"],
        encoder_layers=shape["encoder_layers"],
        decoder_layers=shape["decoder_layers"],
        encoder_attention_heads=shape["heads"],
        decoder_attention_heads=shape["heads"],
        encoder_ffn_dim=shape["ffn"],
        decoder_ffn_dim=shape["ffn"],
        max_position_embeddings=128,
        activation_function="swish",
        pad_token_id=vocab["<pad>"],
        eos_token_id=0,
        decoder_start_token_id=vocab["<pad>"],
        scale_embedding=True,
        dropout=0.0,
        attention_dropout=0.0,
        activation_dropout=0.0,
    )
    torch.manual_seed(seed)
    model = transformers.MarianMTModel(config).eval()
    with torch.no_grad():  # a random, non-zero output bias, so that its import is tested
        model.final_logits_bias.normal_(0, 0.5)
        model.final_logits_bias[0, -1] = 0  # <pad>: Marian has no such row, it is zero
        for name, p in model.named_parameters():
            if "embed_positions" not in name:  # fixed sinusoids, not learned
                p.add_(torch.randn_like(p) * 0.05)
        model.model.shared.weight[-1] = 0
    if layout == "safetensors":
        model.save_pretrained(folder)
    else:
        model.config.save_pretrained(folder)
        torch.save(model.state_dict(), folder / "pytorch_model.bin")
    return model, vocab

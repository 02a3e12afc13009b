"""``translator-train`` (also ``python -m trainer``): the trainer's command line.

    translator-train spm --data FILES... --vocab-size N --out spm.model

Errors are one line on stderr (``FILE:LINE: problem`` for bad data) and a non-zero exit;
nothing is written when a command fails.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from trainer.data import DataError, read_all
from translator_app.cli_common import run_main


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="translator-train",
        description="Train and adapt the German→English translator's models.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    spm = sub.add_parser(
        "spm",
        help="train the joint German+English SentencePiece model",
        description="Train one SentencePiece model on both sides of parallel text "
        "(TSV, x.de + x.en, TMX; .gz/.xz allowed), with byte fallback and NFKC normalisation.",
    )
    spm.add_argument("--data", nargs="+", type=Path, required=True, metavar="FILE")
    spm.add_argument("--vocab-size", type=int, default=16000)
    spm.add_argument("--model-type", choices=("unigram", "bpe"), default="unigram")
    spm.add_argument("--character-coverage", type=float, default=0.9999)
    spm.add_argument(
        "--max-sentences", type=int, default=2_000_000, help="sample at most this many sentences"
    )
    spm.add_argument("--out", type=Path, required=True, help="where to write spm.model")
    return parser


def run_spm(args) -> int:
    from translator_app.core import Tokenizer, train_sentencepiece

    if args.vocab_size < 300:
        raise ValueError("--vocab-size must be at least 300 (byte fallback alone needs 256 pieces)")
    start = time.perf_counter()
    sentences = []
    pairs = 0
    for de, en in read_all(args.data):
        pairs += 1
        sentences.extend(s for s in (de.strip(), en.strip()) if s)
    if not sentences:
        raise ValueError("the data files hold no sentences")
    model = train_sentencepiece(
        sentences,
        vocab_size=args.vocab_size,
        model_type=args.model_type,
        character_coverage=args.character_coverage,
        input_sentence_size=args.max_sentences,
        num_threads=os.cpu_count() or 1,
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{args.out.name}.", dir=args.out.parent)
    with os.fdopen(fd, "wb") as f:
        f.write(model)
    os.replace(tmp, args.out)
    tok = Tokenizer(model)
    print(
        f"wrote {args.out}: {tok.vocab_size} pieces ({args.model_type}, byte fallback) "
        f"from {pairs} pairs in {time.perf_counter() - start:.1f} s"
    )
    return 0


COMMANDS = {"spm": run_spm}


def main(argv: list[str] | None = None) -> int:
    return run_main(build_parser(), COMMANDS, argv, (DataError, ValueError, OSError))

"""Training throughput of the trainer's own step: fp32 vs bf16 autocast, and one
vocabulary size vs another, on the same sentences in one run.

    .venv/bin/python bench/bench_train.py --spm data/prepared/spm.model data/prepared/spm8k.model

For every (SentencePiece model, precision) it builds the config's model from the same
seed and trains it on the same batches of sentences: batches are cut by the first
tokenizer's lengths and reused for the others, so every run does the same work in
sentences. The step is the trainer's (``make_optimizer``, ``collate``, ``token_loss``,
gradient clipping). It prints target tokens/s and sentence pairs/s (the fair measure
across vocabularies, which split sentences into different numbers of pieces), the
speed-up over the first row, the padding share of the batches, and the mean training
loss of the last timed steps: bf16 should reach the same loss as fp32 from the same
start (the check that autocast does not hurt learning).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from trainer.allocator import allocator_in_use, restart_with_jemalloc  # noqa: E402
from trainer.config import load_config  # noqa: E402
from trainer.dataset import Encoded, collate, encode_pairs, make_batches, padding_fraction  # noqa: E402
from trainer.step import token_loss  # noqa: E402
from trainer.train import make_optimizer  # noqa: E402
from translator_app.core.data.corpus import read_all  # noqa: E402
from translator_app.core.models.model import build_model  # noqa: E402
from translator_app.core.platform.hardware import describe_machine, has_fast_bf16_training  # noqa: E402
from translator_app.core.text.tokenizer import Tokenizer  # noqa: E402


def sample_pairs(path: Path, n: int, seed: int) -> list[tuple[str, str]]:
    pairs = [(de.strip(), en.strip()) for de, en in read_all([path]) if de.strip() and en.strip()]
    random.Random(seed).shuffle(pairs)
    return pairs[:n]


def corpus_padding(path: Path, tokenizer: Tokenizer, max_tokens: int, batch_tokens: int) -> float:
    """The padding share of the trainer's batches over the whole corpus."""
    pairs = [(de.strip(), en.strip()) for de, en in read_all([path]) if de.strip() and en.strip()]
    data, _ = encode_pairs(pairs, tokenizer, max_tokens)
    return padding_fraction(data, make_batches(data, batch_tokens))


def run(cfg, tokenizer: Tokenizer, data: Encoded, batches, precision: str, warmup: int) -> dict:
    """Train from a fixed seed on ``batches`` (the first ``warmup`` untimed)."""
    torch.manual_seed(0)
    model_cfg = cfg.model.__class__(**(cfg.model.to_dict() | {"vocab_size": tokenizer.vocab_size}))
    model = build_model(model_cfg).train()
    optimizer = make_optimizer(model, cfg.train.lr, cfg.train.weight_decay)
    pad, bos = model_cfg.pad_id, model_cfg.start_id
    autocast = torch.autocast("cpu", dtype=torch.bfloat16, enabled=precision == "bf16")
    times, tokens, pairs, losses = [], 0, 0, []
    for i, idx in enumerate(batches):
        t0 = time.perf_counter()
        src, tgt_in, tgt_out = collate(data, idx, pad, bos)
        with autocast:
            logits, _ = model(src, src != pad, tgt_in)
        n = int((tgt_out != pad).sum())
        loss = token_loss(logits, tgt_out, pad, cfg.train.label_smoothing) / n
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.train.clip_norm)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        if i >= warmup:
            times.append(time.perf_counter() - t0)
            tokens += n
            pairs += len(idx)
            losses.append(loss.item())
    seconds = sum(times)
    return {
        "tokens_per_s": tokens / seconds,
        "pairs_per_s": pairs / seconds,
        "step_s_median": statistics.median(times),
        "loss_last": statistics.mean(losses[-max(1, len(losses) // 3) :]),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", type=Path, default=ROOT / "configs" / "transformer.toml")
    ap.add_argument("--data", type=Path, default=ROOT / "data" / "prepared" / "train.tsv.xz")
    ap.add_argument(
        "--spm",
        type=Path,
        nargs="+",
        default=[ROOT / "resources" / "model" / "spm.model"],
        help="SentencePiece models to compare (the first one cuts the batches)",
    )
    ap.add_argument("--precision", nargs="+", choices=("fp32", "bf16"), default=["fp32", "bf16"])
    ap.add_argument("--pairs", type=int, default=4000, help="sentence pairs trained per run")
    ap.add_argument("--warmup", type=int, default=3, help="untimed steps first")
    ap.add_argument("--batch-tokens", type=int, help="default: the config's [train] batch_tokens")
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path, help="also write the results here")
    ap.add_argument(
        "--system-malloc",
        action="store_true",
        help="keep the C library's malloc (default: jemalloc where installed, as the trainer)",
    )
    args = ap.parse_args(argv)
    if not args.system_malloc and argv is None:
        restart_with_jemalloc([str(Path(__file__).resolve()), *sys.argv[1:]])
    if args.threads:
        torch.set_num_threads(args.threads)
    cfg = load_config(args.config)
    batch_tokens = args.batch_tokens or cfg.train.batch_tokens
    tokenizers = [Tokenizer.from_file(p) for p in args.spm]
    # The same sentence pairs for every run, sampled over the whole corpus. Each
    # tokenizer cuts them into its own length-bucketed batches (as the trainer would) and
    # every run trains one pass over them, so all runs do the same work in sentences.
    pairs = sample_pairs(args.data, args.pairs, args.seed)
    encoded = [encode_pairs(pairs, tok, sys.maxsize)[0] for tok in tokenizers]
    limit = cfg.data.max_tokens  # keep the pairs that every tokenizer fits in max_tokens
    keep = [
        i
        for i in range(len(pairs))
        if all(max(len(e.src[i]), len(e.tgt[i])) <= limit for e in encoded)
    ]
    encoded = [Encoded([e.src[i] for i in keep], [e.tgt[i] for i in keep]) for e in encoded]
    print(describe_machine() + f"; malloc: {allocator_in_use()}")
    print(
        f"model: {cfg.model.arch} d{cfg.model.d_model} {cfg.model.enc_layers}+{cfg.model.dec_layers}, "
        f"one pass over {len(keep)} pairs in batches of <= {batch_tokens} tokens "
        f"({args.warmup} batches untimed); "
        f"auto bf16 would be {'on' if has_fast_bf16_training() else 'off'} on this CPU"
    )
    rows = []
    for tok, path, data in zip(tokenizers, args.spm, encoded, strict=True):
        batches = make_batches(data, batch_tokens)
        random.Random(args.seed).shuffle(batches)
        corpus = corpus_padding(args.data, tok, cfg.data.max_tokens, batch_tokens)
        for precision in args.precision:
            result = run(cfg, tok, data, batches, precision, args.warmup)
            rows.append(
                {
                    "spm": str(path),
                    "vocab": tok.vocab_size,
                    "precision": precision,
                    "batches": len(batches),
                    "padding_whole_corpus": corpus,
                    **result,
                }
            )
            r = rows[-1]
            print(
                f"vocab {r['vocab']:>6} {precision:<5} {r['tokens_per_s']:7.0f} target tokens/s "
                f"{r['pairs_per_s']:6.1f} pairs/s  x{r['pairs_per_s'] / rows[0]['pairs_per_s']:.2f}  "
                f"{len(batches)} steps, median {r['step_s_median']:.2f} s  "
                f"loss (last third) {r['loss_last']:.4f}  "
                f"padding of a whole-corpus epoch {100 * corpus:.1f} %",
                flush=True,
            )
    if args.json:
        figures = {"hardware": describe_machine(), "rows": rows}
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

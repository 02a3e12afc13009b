"""The course's comparison (issue 51 §2): several small models trained on the same data
under the same time budget, then scored on one test set side by side.

    translator-train compare configs/rnn-bahdanau.toml configs/rnn-luong.toml \\
        --data TRAIN.tsv --valid DEV.tsv --test TEST.tsv --minutes 10 --out runs/compare

Each config trains into OUT/<config name>/ (its own out_dir is replaced, its data by
--data/--valid where given) and is exported as a bundle there. OUT then gets:
compare.md (BLEU, chrF, training tokens/s, parameters, minutes trained), compare.json
(with every model's BLEU by source length), bleu_by_length.png (Bahdanau et al. 2015,
figure 2: one line per model) and alignments.png (the same sentence's attention in each
model: a Transformer's alignment layer beside the RNN's one distribution).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

from trainer.evaluate import evaluate_translator, signatures, write_report
from translator_app.core import Translator
from translator_app.core.data.corpus import read_all
from translator_app.core.engine.bundle import load_bundle

HEATMAP_WORDS = (8, 16)  # the alignment sentence: the first test source of this many words


def train_one(config: Path, out: Path, args: argparse.Namespace) -> Path:
    """Train ``config`` into ``out`` for the budget, on the comparison's data; returns
    the exported bundle."""
    from trainer.commands import train_config
    from trainer.config import load_config

    cfg = load_config(config)
    data = cfg.data
    if args.data:
        data = dataclasses.replace(data, train=tuple(str(p.resolve()) for p in args.data))
    if args.valid:
        data = dataclasses.replace(data, valid=str(args.valid.resolve()))
    train = dataclasses.replace(cfg.train, out_dir=str(out), max_minutes=args.minutes)
    if args.steps:
        train = dataclasses.replace(train, steps=args.steps)
    run = argparse.Namespace(
        config=config,
        exclude_test=[args.test],
        max_minutes=None,
        out_dir=None,
        resume=False,
        init=None,
        device=args.device,
    )
    train_config(dataclasses.replace(cfg, data=data, train=train), run)
    return out / "model"


def tokens_per_s(run: Path) -> int:
    """Training throughput at the run's last evaluation (log.jsonl)."""
    log = run / "log.jsonl"
    if not log.is_file():
        return 0
    lines = [line for line in log.read_text("utf-8").splitlines() if line.strip()]
    return int(json.loads(lines[-1]).get("tokens_per_s", 0)) if lines else 0


def alignment_sentence(pairs: list[tuple[str, str]]) -> str:
    low, high = HEATMAP_WORDS
    return next((de for de, _ in pairs if low <= len(de.split()) <= high), pairs[0][0])


def plot_alignments(rows: list[tuple[str, object]], path: Path) -> bool:
    """One heatmap per model (its pieces on both axes) of the same sentence."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return False
    fig = Figure(figsize=(5.5 * len(rows), 5.5), layout="constrained")
    for k, (name, t) in enumerate(rows, start=1):
        ax = fig.add_subplot(1, len(rows), k)
        ax.imshow(t.attention, aspect="auto", cmap="viridis", vmin=0.0, vmax=1.0)
        ax.set_xticks(range(len(t.source_pieces)), t.source_pieces, rotation=70, fontsize=7)
        ax.set_yticks(range(len(t.target_pieces)), t.target_pieces, fontsize=7)
        ax.set_title(name, fontsize=9)
    fig.savefig(path, dpi=110)
    return True


def cmd_compare(args: argparse.Namespace) -> int:
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    pairs = [p for p in read_all([args.test]) if p[0].strip()]
    if not pairs:
        raise ValueError(f"{args.test}: no test pairs")
    sentence = alignment_sentence(pairs)
    report = {"test": str(args.test), "pairs": len(pairs), "signatures": signatures()}
    report |= {"minutes": args.minutes, "models": {}}
    table, heatmaps = [], []
    for config in args.configs:
        run = out / config.stem
        bundle = load_bundle(train_one(config, run, args), "cpu")
        translator = Translator.from_bundle(bundle, engine="torch")
        scores = evaluate_translator(translator, pairs, beam=1)
        scores["greedy"].pop("translations")  # the table compares scores only
        params = sum(p.numel() for p in bundle.model.parameters())
        cfg = bundle.config
        kind = (
            "Transformer"
            if cfg.arch == "transformer"
            else f"{cfg.rnn_type} {cfg.decoder_style} {cfg.attention} {cfg.locality}"
        )
        speed = tokens_per_s(run)
        report["models"][config.stem] = {
            "path": str(run / "model"),
            "model": kind,
            "parameters": params,
            "tokens_per_s": speed,
            "scores": scores,
        }
        greedy = scores["greedy"]
        table.append(
            f"| {config.stem} | {kind} | {greedy['bleu']:.2f} | {greedy['chrf']:.2f} | "
            f"{speed:,} | {params / 1e6:.2f} M |"
        )
        (t,) = translator.translate([sentence], beam=1)
        heatmaps.append((config.stem, t))
    plotted = write_report(report, out / "compare.json", out / "bleu_by_length.png")
    plot_alignments(heatmaps, out / "alignments.png")
    md = [
        f"# Comparison: {len(args.configs)} models, {args.minutes:g} "
        f"minute{'' if args.minutes == 1 else 's'} each",
        "",
        f"Test set {args.test} ({len(pairs)} pairs), greedy; sacreBLEU "
        f"{report['signatures']['bleu']}.",
        "",
        "| run | model | BLEU | chrF | training tokens/s | parameters |",
        "|---|---|---|---|---|---|",
        *table,
        "",
        f"BLEU by source length: {'bleu_by_length.png' if plotted else '(no matplotlib)'}; "
        f"the attention of “{sentence}” in each model: alignments.png.",
    ]
    (out / "compare.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))
    return 0

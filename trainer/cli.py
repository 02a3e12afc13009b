"""``translator-train`` (also ``python -m trainer``): the trainer's command line.

    translator-train spm --data FILES... --vocab-size N --out spm.model

Errors are one line on stderr (``FILE:LINE: problem`` for bad data) and a non-zero exit;
nothing is written when a command fails.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from trainer.allocator import bound_native_caches, restart_with_jemalloc
from trainer.config import DataConfig, TrainConfig
from trainer.teach_recipe import BATCH_TOKENS, EFFORTS, GENERAL_FILE, PATIENCE, REPLAY_FILE
from translator_app.core.cli_common import add_protect_arguments, run_main
from translator_app.core.data.corpus import MAX_HELDOUT, DataError, read_all
from translator_app.core.ipc.translation_file import SHOWN_SENTENCES
from translator_app.core.limits import PROTECT_MODES
from translator_app.core.platform.hardware import BF16_SETTINGS, DEVICES, PRECISIONS
from translator_app.core.platform.paths import write_atomic


def _file_or_none(value: str) -> Path | None:
    """A file argument where 'none' says: no file."""
    return None if value == "none" else Path(value)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="translator-train",
        description="Train and adapt the German→English translator's models.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add_command in (
        _add_spm,
        _add_train,
        _add_import_marian,
        _add_finetune,
        _add_eval,
        _add_average,
        _add_shortlist,
        _add_export,
        _add_compare,
        _add_recipe,
        _add_distill,
    ):
        add_command(sub)
    return parser


def _add_spm(sub) -> None:
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


def _add_train(sub) -> None:
    tr = sub.add_parser(
        "train",
        help="train a model from scratch (TOML config)",
        description="Train from scratch as CONFIG (TOML) says; see configs/ for examples.",
    )
    tr.add_argument("config", type=Path, metavar="CONFIG")
    tr.add_argument(
        "--resume", action="store_true", help="continue the run in the config's out_dir"
    )
    tr.add_argument("--device", choices=DEVICES, default="auto")
    tr.add_argument(
        "--init",
        type=Path,
        metavar="BUNDLE",
        help="warm start: begin from this bundle's weights and tokenizer (the config's "
        "[model] must have its shape; set [train] schedule_offset to its steps)",
    )
    tr.add_argument(
        "--out-dir", type=Path, help="run folder, overriding [train] out_dir (same config, new run)"
    )
    tr.add_argument(
        "--max-minutes",
        type=float,
        help="training-time budget, overriding [train] max_minutes (raise it to continue a run)",
    )
    tr.add_argument(
        "--exclude-test",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="also drop pairs whose German side is in these test files ([data] exclude_test)",
    )


def _add_import_marian(sub) -> None:
    im = sub.add_parser(
        "import-marian",
        help="import a downloaded OPUS-MT (Marian) model as a bundle",
        description="Read a Hugging Face Marian folder (config.json, model.safetensors or "
        "pytorch_model.bin, source.spm, target.spm, vocab.json), e.g. Helsinki-NLP/opus-mt-de-en, "
        "and write a bundle the app and the trainer use like any other. No code from the "
        "download is run.",
    )
    im.add_argument("src", type=Path, metavar="SRC")
    im.add_argument(
        "--out",
        type=Path,
        help="bundle folder (default: in your data folder, where the app lists it)",
    )
    im.add_argument("--name", help="model name shown in the app (default: the folder's name)")
    im.add_argument("--overwrite", action="store_true")


def _add_finetune(sub) -> None:
    ft = sub.add_parser(
        "finetune",
        help="adapt a model bundle to your parallel text",
        description="Continue training a bundle on your data, keeping its tokenizer and "
        "architecture. The result is a new bundle (by default in your data folder, where "
        "the app lists it); the base model is never changed.",
    )
    ft.add_argument("--model", type=Path, required=True, help="bundle to start from")
    ft.add_argument("--data", type=Path, nargs="+", required=True, metavar="FILE")
    ft.add_argument(
        "--out", type=Path, help="bundle directory to write (default: your data folder)"
    )
    ft.add_argument("--name", help="name of the new model")
    ft.add_argument(
        "--data-origin",
        help="what the pairs came from, in the model card's words (default: the --data "
        "files' names)",
    )
    ft.add_argument(
        "--valid", type=Path, help="validation pairs (default: hold out part of --data)"
    )
    ft.add_argument(
        "--valid-size", type=int, default=MAX_HELDOUT, help="pairs held out when no --valid"
    )
    ft.add_argument(
        "--report",
        type=Path,
        help="pairs to score the base and the new model on, and nothing else (default: "
        "a tenth of --data, 2 to 200 pairs, held out from training and from choosing "
        "the checkpoint)",
    )
    ft.add_argument(
        "--exclude-test", type=Path, nargs="+", help="drop pairs whose German side is in these"
    )
    ft.add_argument(
        "--effort",
        choices=EFFORTS,
        default="quick",
        help="how hard it tries: steps and learning rate follow from this and the data's "
        "size (default quick; --steps, --epochs and --lr override)",
    )
    ft.add_argument("--epochs", type=int, default=0, help="train this many epochs")
    ft.add_argument("--steps", type=int, default=0, help="train this many steps")
    ft.add_argument("--lr", type=float, default=0.0, help="learning rate (default: the effort's)")
    ft.add_argument(
        "--terms",
        choices=("auto", "off"),
        default="auto",
        help="auto: find your terms in the pairs, teach them and give the new model "
        "them as its glossary (terms.tsv); off: train on the pairs alone",
    )
    for flag, app_file, what in (
        ("--replay", REPLAY_FILE, "everyday pairs to mix in, as many as yours, so the "
         "model keeps what it knew"),
        ("--general", GENERAL_FILE, "everyday pairs scored before and after, so "
         "forgetting shows"),
    ):  # fmt: skip
        ft.add_argument(
            flag,
            type=_file_or_none,
            default=app_file if app_file.is_file() else None,
            help=f"{what} (default: the app's; 'none' for none)",
        )
    _add_finetune_training(ft)


def _add_finetune_training(ft: argparse.ArgumentParser) -> None:
    """How the fine-tune trains, saves and reports (batch, patience, device, progress)."""
    ft.add_argument("--batch-tokens", type=int, default=BATCH_TOKENS)
    ft.add_argument(
        "--max-tokens", type=int, default=DataConfig.max_tokens, help="longest sentence in tokens"
    )
    ft.add_argument(
        "--patience",
        type=int,
        default=PATIENCE,
        help="evaluations without improvement before stopping (0: never)",
    )
    ft.add_argument("--seed", type=int, default=TrainConfig.seed)
    ft.add_argument("--bf16", choices=BF16_SETTINGS, default="auto")
    ft.add_argument("--device", choices=DEVICES, default="auto")
    ft.add_argument("--work-dir", type=Path, help="checkpoints (default: your cache folder)")
    ft.add_argument(
        "--checkpoint-every",
        type=int,
        default=100,
        help="steps between checkpoints (also one at every epoch's end); a kill loses at most this many",
    )
    ft.add_argument(
        "--resume",
        action="store_true",
        help="continue a stopped fine-tune: the one in --work-dir or of --name, else the latest",
    )
    ft.add_argument(
        "--progress",
        choices=("text", "json"),
        default="text",
        help="json: progress and results as JSON lines on stdout (for the app)",
    )
    ft.add_argument(
        "--heldout-out",
        type=Path,
        help="write the base and the new model's translations of the first held-out "
        "sentences, attention included, to this file (the app shows them)",
    )
    ft.add_argument(
        "--heldout-count",
        type=int,
        default=SHOWN_SENTENCES,
        help=f"how many (default {SHOWN_SENTENCES})",
    )


def _add_eval(sub) -> None:
    ev = sub.add_parser(
        "eval",
        help="BLEU and chrF (sacreBLEU) of a bundle on a test file",
        description="Translate a test file greedily and with beam search; print BLEU and "
        "chrF with their sacreBLEU signatures; write a JSON report and a PNG of BLEU by "
        "source length.",
    )
    ev.add_argument("--model", type=Path, required=True)
    ev.add_argument("--test", type=Path, required=True)
    ev.add_argument(
        "--compare", type=Path, help="a second bundle (e.g. the base model) on the same test"
    )
    ev.add_argument("--beam", type=int, default=4)
    ev.add_argument("--limit", type=int, default=0, help="only the first N pairs")
    ev.add_argument(
        "--beam-limit",
        type=int,
        default=0,
        help="beam search on N pairs spread over the set only (greedy runs on all)",
    )
    ev.add_argument("--out", type=Path, help="report folder (default: ./eval-reports)")
    add_protect_arguments(ev)
    ev.add_argument("--device", choices=DEVICES, default="auto")


def _add_average(sub) -> None:
    av = sub.add_parser(
        "average",
        help="average the weights of a run's last checkpoints",
        description="Write one checkpoint whose weights are the mean of the last N weight "
        "snapshots (step-N.pt, kept by [train] keep_snapshots) of a run's checkpoints "
        "folder, or of the checkpoint files given. Export it like any checkpoint.",
    )
    av.add_argument("checkpoints", type=Path, nargs="+", metavar="FOLDER_OR_FILE")
    av.add_argument("--last", type=int, default=5, help="how many of a folder's newest snapshots")
    av.add_argument("--out", type=Path, required=True, help="the averaged checkpoint to write")


def _add_distill(sub) -> None:
    ds = sub.add_parser(
        "distill",
        help="translate the German of training corpora with a teacher model (distillation)",
        description="Translate each distinct German sentence of the files with a larger "
        "model and write German<TAB>English lines, resumable (trainer/distill.py).",
    )
    ds.add_argument("--model", type=Path, required=True, help="the teacher's bundle")
    ds.add_argument("--data", type=Path, nargs="+", required=True, metavar="FILE")
    ds.add_argument("--out", type=Path, required=True, help="German<TAB>English lines")
    ds.add_argument("--beam", type=int, default=4)
    ds.add_argument("--device", choices=DEVICES, default="auto")
    ds.add_argument("--precision", choices=PRECISIONS, default="auto")
    ds.add_argument("--max-minutes", type=float, default=0.0, help="stop after this long")
    ds.add_argument("--chunk", type=int, default=4096, help="sentences written at a time")
    ds.add_argument("--batch-tokens", type=int, default=16000, help="tokens a batch")


def _add_shortlist(sub) -> None:
    sl = sub.add_parser(
        "shortlist",
        help="add CTranslate2's vocabulary shortlist to a bundle (faster decoding)",
        description="Count which English pieces co-occur with each German piece in "
        "training pairs and write the bundle's vmap.txt.xz: CTranslate2 then scores only "
        "the pieces a sentence may become (trainer/shortlist.py; bench/bench_vmap.py "
        "measures it). An export over the bundle keeps it while the tokenizer is the same.",
    )
    sl.add_argument("model", type=Path, help="the bundle folder")
    sl.add_argument("--data", type=Path, nargs="+", required=True, help="training pairs (TSV)")
    sl.add_argument("--pairs", type=int, default=150_000, help="pairs counted, spread over all")
    sl.add_argument("--always", type=int, default=5000, help="most frequent pieces always allowed")
    sl.add_argument("--per-piece", type=int, default=100, help="pieces allowed per German piece")


def _add_export(sub) -> None:
    ex = sub.add_parser(
        "export",
        help="turn a checkpoint into a model bundle",
        description="Write a bundle from a checkpoint, load it back and check it.",
    )
    ex.add_argument("checkpoint", type=Path)
    ex.add_argument("--out", type=Path, required=True)
    ex.add_argument(
        "--fp16", action="store_true", help="store weights in half precision (half the size)"
    )
    ex.add_argument("--name")
    ex.add_argument("--card", type=Path, help="MODEL_CARD.md to use (default: generated)")
    ex.add_argument("--metrics", type=Path, help="JSON merged into metrics.json")
    ex.add_argument(
        "--protect",
        choices=PROTECT_MODES,
        help="the bundle's search setting for annotating numbers, dates, names and places "
        "(default: retry: annotated where the plain decode does not keep them as annotated; "
        "always: every sentence annotated)",
    )
    ex.add_argument(
        "--coverage-penalty",
        type=float,
        metavar="BETA",
        help="the bundle's beam search's coverage penalty (GNMT's beta; default 0: none)",
    )
    ex.add_argument("--overwrite", action="store_true")


def _add_compare(sub) -> None:
    cp = sub.add_parser(
        "compare",
        help="train several small models under one budget and compare them",
        description="Train each CONFIG on the same data for the same minutes, then score "
        "all on one test set: a table (BLEU, chrF, training tokens/s, parameters), BLEU by "
        "source length (one line per model) and the same sentence's attention in each.",
    )
    cp.add_argument("configs", nargs="+", type=Path, metavar="CONFIG")
    cp.add_argument("--test", type=Path, required=True, metavar="FILE")
    cp.add_argument("--data", type=Path, nargs="+", metavar="FILE", help="training pairs for all")
    cp.add_argument("--valid", type=Path, metavar="FILE", help="validation pairs for all")
    cp.add_argument("--minutes", type=float, default=10.0, help="training time per model")
    cp.add_argument("--steps", type=int, default=0, help="at most this many steps (0: config's)")
    cp.add_argument("--device", choices=DEVICES, default="auto")
    cp.add_argument("--out", type=Path, default=Path("runs/compare"))


def _add_recipe(sub) -> None:
    rc = sub.add_parser(
        "recipe",
        help="list, show or run the stages of a model's recipe",
        description="A recipe folder holds a model's stages in order (NN-what.toml, each "
        "changing the one before); without options, list them. recipes/de-en-base is the "
        "bundled model's.",
    )
    rc.add_argument("folder", type=Path, metavar="FOLDER")
    which = rc.add_mutually_exclusive_group()
    which.add_argument("--show", type=int, metavar="N", help="print stage N's whole config")
    which.add_argument("--run", type=int, metavar="N", help="train and export stage N")
    which.add_argument(
        "--from", dest="start_from", type=int, metavar="N", help="run stages N, N+1, ..."
    )
    rc.add_argument(
        "--init",
        type=Path,
        metavar="BUNDLE",
        help="start the first stage run from this bundle instead of the stage before's "
        "(e.g. resources/model, the last exported stage)",
    )
    rc.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")


def run_recipe_command(args) -> int:
    from trainer import recipe

    if args.show is not None:
        print(recipe.show(args.folder, args.show))
        return 0
    if args.run is None and args.start_from is None:
        print(recipe.describe_stages(recipe.stages(args.folder)))
        return 0
    return recipe.run_recipe(
        args.folder,
        run=args.run,
        start_from=args.start_from,
        init=args.init,
        dry_run=args.dry_run,
    )


def run_spm(args) -> int:
    from translator_app.core.text.tokenizer import Tokenizer, train_sentencepiece

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
    write_atomic(args.out, model)
    tok = Tokenizer(model)
    print(
        f"wrote {args.out}: {tok.vocab_size} pieces ({args.model_type}, byte fallback) "
        f"from {pairs} pairs in {time.perf_counter() - start:.1f} s"
    )
    return 0


def run_import_marian(args) -> int:
    from translator_app.core.importers.marian import import_marian
    from translator_app.core.platform.paths import safe_name, user_models_dir

    name = args.name or args.src.name
    out = args.out or user_models_dir() / safe_name(name)
    import_marian(args.src, out, name=name, overwrite=args.overwrite)
    print(f"wrote {out}")
    return 0


def _imported_on_use(name: str):
    """The command ``trainer.commands.<name>``, imported when it runs: ``--help`` and the
    light commands start without importing torch's training stack."""

    def run(args) -> int:
        from trainer import commands  # a plain import: the built app's analysis sees it

        return getattr(commands, name)(args)

    return run


def run_finetune(args) -> int:
    from trainer.finetune import cmd_finetune

    return cmd_finetune(args)


def run_distill(args) -> int:
    from trainer.distill import cmd_distill

    return cmd_distill(args)


def run_compare(args) -> int:
    from trainer.compare import cmd_compare

    return cmd_compare(args)


COMMANDS = {
    "spm": run_spm,
    "train": _imported_on_use("cmd_train"),
    "import-marian": run_import_marian,
    "finetune": run_finetune,
    "eval": _imported_on_use("cmd_eval"),
    "average": _imported_on_use("cmd_average"),
    "export": _imported_on_use("cmd_export"),
    "shortlist": _imported_on_use("cmd_shortlist"),
    "recipe": run_recipe_command,
    "compare": run_compare,
    "distill": run_distill,
}


def main(argv: list[str] | None = None) -> int:
    bound_native_caches()  # before any tensor operation (issue 47 §6)
    if argv is None and sys.argv[1:2] in (["train"], ["finetune"], ["compare"]):
        restart_with_jemalloc(["-m", "trainer", *sys.argv[1:]])  # returns where it cannot
    from translator_app.core import BundleError
    from translator_app.core.importers.marian import MarianImportError
    from translator_app.core.models.config import ConfigError

    expected = (DataError, ConfigError, BundleError, MarianImportError, ValueError, OSError)
    return run_main(build_parser(), COMMANDS, argv, expected)

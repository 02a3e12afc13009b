"""The trainer's commands: train, finetune, eval, export (``spm`` lives in cli.py).

Every command reads and checks all its input before it writes anything, so bad data
leaves the output directory untouched.
"""

from __future__ import annotations

import dataclasses
import json
import os
import platform
import shutil
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import torch

from trainer.augment import augment_pairs
from trainer.checkpoints import (
    average_checkpoints,
    checkpoint_tokenizer,
    load_checkpoint,
    save_checkpoint,
    snapshots,
)
from trainer.config import DataConfig, RunConfig, TrainConfig, load_config
from trainer.dataset import encode_pairs, make_batches
from trainer.evaluate import evaluate_translator, signatures, write_report
from trainer.teach import (
    annotated_copies,
    find_terms,
    general_verdict,
    plan,
    replay_sample,
    score_model,
    terms_verdict,
)
from trainer.term_data import annotate_facts, annotate_pairs, load_dictionary
from trainer.train import train
from translator_app.core import (
    ModelConfig,
    Tokenizer,
    Translator,
    build_model,
    load_bundle,
    save_bundle,
    train_sentencepiece,
)
from translator_app.core.cli_common import protect_mode
from translator_app.core.data.corpus import (
    FilterReport,
    Pair,
    filter_pairs,
    read_all,
    read_each,
    split_heldout,
    test_sentences,
)
from translator_app.core.engine.bundle import (
    SHORTLIST_FILE,
    BundleError,
    SearchDefaults,
    check_free_space,
    claim_folder,
    release_folder,
    write_shortlist,
)
from translator_app.core.engine.model_card import architecture_lines, config_block, render
from translator_app.core.faithful.glossary import Glossary, merged
from translator_app.core.faithful.terms import has_term_markers, with_term_markers
from translator_app.core.ipc.progress_lines import Done, encode
from translator_app.core.ipc.translation_file import save_translations
from translator_app.core.platform.hardware import describe


def note_files(tagged: Iterable[tuple[int, Pair]], owner: dict) -> Iterator[Pair]:
    """Pass on the pairs of :func:`read_each`, noting in ``owner`` the index of the first
    file each pair (stripped, as :func:`filter_pairs` keeps it) came from."""
    for i, (de, en) in tagged:
        owner.setdefault((de.strip(), en.strip()), i)
        yield de, en


def repeat_pairs(pairs: list, owner: dict, repeat) -> int:
    """Append ``repeat[i] - 1`` more copies of the pairs (already filtered, in ``pairs``)
    whose file index in ``owner`` (from :func:`note_files`) is ``i``; a pair in several
    files belongs to the first. The copies go at the end, so length bucketing puts them in
    other batches than the originals. Returns the number of copies added."""
    # No count above 1 (or none given): the range is empty and ``owner`` is never read.
    extra = [
        p for r in range(2, max(repeat, default=1) + 1) for p in pairs if repeat[owner[p]] >= r
    ]
    pairs.extend(extra)
    return len(extra)


def _dropped_text(report: FilterReport) -> str:
    dropped = ", ".join(f"{n} {why}" for why, n in report.dropped.items() if n)
    return f"dropped: {dropped}" if dropped else "none dropped"


def prepare_data(files, d: DataConfig, tokenizer: Tokenizer, seed: int, log=print, add_pairs=None):
    """Read, filter, split and encode. Returns (train, valid, valid pairs, info).
    ``add_pairs(train pairs, valid pairs)``: more training pairs (a fine-tune's replay
    and annotated copies), added before encoding."""
    exclude = test_sentences([Path(p) for p in d.exclude_test]) if d.exclude_test else None
    report = FilterReport()
    # [data] repeat needs each kept pair's file: noted during the one read, only then.
    owner: dict[Pair, int] = {}
    tagged = read_each([Path(f) for f in files])
    if any(r > 1 for r in d.repeat):
        source = note_files(tagged, owner)
    else:
        source = (pair for _, pair in tagged)
    pairs = filter_pairs(
        source,
        max_chars=d.max_chars,
        max_ratio=d.max_ratio,
        exclude=exclude,
        report=report,
    )
    for line in report.lines():
        log(line)
    if d.valid:
        valid_pairs = filter_pairs(
            read_all([Path(d.valid)]), max_chars=d.max_chars, max_ratio=d.max_ratio
        )
        train_pairs = pairs
    else:
        train_pairs, valid_pairs = split_heldout(pairs, d.valid_size, seed)
        log(f"held out {len(valid_pairs)} pairs for validation")
    copies, augmented = augment_pairs(train_pairs, d.augment_entities, d.augment_numbers, seed)
    repeated = repeat_pairs(train_pairs, owner, d.repeat)
    if repeated:
        log(f"  repeated {repeated:>8}  extra uses of pairs ([data] repeat)")
    train_pairs = train_pairs + copies
    if d.terms and d.terms_share > 0:
        dictionary = load_dictionary(d.terms)
        log(f"  dictionary {len(dictionary):>6}  German nouns with English ({d.terms})")
        annotated, counts = annotate_pairs(
            train_pairs[: len(train_pairs) - len(copies)],
            dictionary,
            d.terms_share,
            d.terms_swap,
            seed,
        )
        train_pairs += annotated
        augmented.update(counts)
    if d.facts_share > 0:
        annotated, counts = annotate_facts(
            train_pairs[: len(train_pairs) - augmented["terms"]], d.facts_share, seed
        )
        train_pairs += annotated
        augmented.update(counts)
    for kind, n in sorted(augmented.items()):
        what = {
            "terms": "copies with term annotations ([data] terms_share)",
            "facts": "copies with the protected facts annotated ([data] facts_share)",
        }.get(kind, f"copies with other {kind} ([data] augment_{kind})")
        log(f"  augmented {n:>7}  {what}")
    if add_pairs is not None:
        train_pairs = train_pairs + add_pairs(train_pairs, valid_pairs)
    train_data, too_long = encode_pairs(train_pairs, tokenizer, d.max_tokens)
    valid_data, _ = encode_pairs(valid_pairs, tokenizer, d.max_tokens)
    if too_long:
        log(f"  dropped {too_long:>8}  longer than {d.max_tokens} tokens")
    if not len(train_data):
        named = ", ".join(str(f) for f in files)
        raise ValueError(
            f"no training pairs left after filtering {named} "
            f"({report.read} pairs read; {_dropped_text(report)})"
        )
    if not valid_pairs:
        raise ValueError("no validation pairs: give --valid FILE or more data")
    info = {
        "data_files": [str(f) for f in files],
        "pairs_read": report.read,
        "pairs_dropped": dict(report.dropped)
        | ({f"longer than {d.max_tokens} tokens": too_long} if too_long else {}),
        "train_pairs": len(train_data),
        "repeat": list(d.repeat),
        "repeated_pairs": repeated,
        "augmented_pairs": dict(augmented),
        "valid_pairs": len(valid_pairs),
        "test_sentences_excluded_from": list(d.exclude_test),
    }
    return train_data, valid_data, valid_pairs, info


# --------------------------------------------------------------------------- train
def cmd_train(args) -> int:
    return train_config(load_config(args.config), args)


def train_config(cfg: RunConfig, args) -> int:
    """``translator-train train`` of ``cfg`` (its file is ``args.config``) with the
    command line's overrides: exclude_test, max_minutes, out_dir, resume, init, device."""
    if args.exclude_test:
        extra = tuple(str(p.resolve()) for p in args.exclude_test)
        cfg = dataclasses.replace(
            cfg, data=dataclasses.replace(cfg.data, exclude_test=cfg.data.exclude_test + extra)
        )
    overrides = {"max_minutes": args.max_minutes, "out_dir": args.out_dir and str(args.out_dir)}
    overrides = {k: v for k, v in overrides.items() if v is not None}
    cfg = dataclasses.replace(cfg, train=dataclasses.replace(cfg.train, **overrides))
    out = Path(cfg.train.out_dir)
    init = None
    if args.resume:
        # The checkpoint carries its tokenizer: spm.model beside it is only a copy.
        tokenizer = checkpoint_tokenizer(load_checkpoint(out / "checkpoints" / "last.pt"))
    elif args.init:
        # Warm start: the bundle's weights and its tokenizer; the config's model must fit them.
        if (out / "checkpoints" / "last.pt").exists():
            raise ValueError(f"{out} already holds a run; use --resume or another out_dir")
        init = load_bundle(args.init, "cpu")
        tokenizer = init.tokenizer
    elif cfg.data.spm:
        tokenizer = Tokenizer.from_file(cfg.data.spm)
    else:
        if (out / "checkpoints" / "last.pt").exists():
            raise ValueError(f"{out} already holds a run; use --resume or another out_dir")
        sentences = [
            s for pair in read_all([Path(p) for p in cfg.data.train]) for s in pair if s.strip()
        ]
        print(
            f"training a {cfg.data.vocab_size}-piece SentencePiece model on {len(sentences)} sentences"
        )
        tokenizer = Tokenizer(train_sentencepiece(sentences, cfg.data.vocab_size))
    if (cfg.data.terms or cfg.data.facts_share > 0) and not has_term_markers(tokenizer):
        # The markers of term annotations become pieces of their own (ids after the others).
        tokenizer = Tokenizer(with_term_markers(tokenizer.model_proto))
        print(f"tokenizer: term markers added ({tokenizer.vocab_size} pieces)")
    cfg = dataclasses.replace(
        cfg, model=dataclasses.replace(cfg.model, vocab_size=tokenizer.vocab_size)
    )
    train_data, valid_data, valid_pairs, info = prepare_data(
        cfg.data.train, cfg.data, tokenizer, cfg.train.seed
    )
    info |= {"command": "train", "config_file": str(args.config), "hardware": describe()}
    if init is not None:
        info["warm_start"] = {"bundle": init.name, "path": str(init.path)}
    start = time.time()
    best = train(
        cfg,
        tokenizer,
        train_data,
        valid_data,
        valid_pairs,
        init_weights=init.model.state_dict() if init is not None else None,
        resume=args.resume,
        device=args.device,
        info=info,
    )
    if _is_main():
        bundle = export_checkpoint(best, out / "model", name=out.name, overwrite=True)
        print(f"best checkpoint: {best}\nbundle: {bundle} ({time.time() - start:.0f} s)")
    return 0


def _is_main() -> bool:
    return os.environ.get("RANK", "0") == "0"


# ------------------------------------------------------------------------ finetune
RUN_FILE = "finetune-run.json"


def latest_finetune(runs: Path) -> Path:
    """The most recently checkpointed fine-tune in ``runs`` (the cache folder)."""
    found = [
        p
        for p in runs.glob("*")
        if (p / RUN_FILE).is_file() and (p / "checkpoints" / "last.pt").is_file()
    ]
    if not found:
        raise ValueError(f"no stopped fine-tune to resume in {runs}; give --work-dir or --name")
    return max(found, key=lambda p: (p / "checkpoints" / "last.pt").stat().st_mtime)


def cmd_finetune(args) -> int:
    from translator_app.core.platform.paths import (
        safe_name,
        user_cache_dir,
        user_models_dir,
    )

    base = load_bundle(args.model, "cpu")
    tokenizer = base.tokenizer
    runs = user_cache_dir() / "finetune"
    work = args.work_dir
    if args.resume and work is None and not args.name:
        work = latest_finetune(runs)
    run_file = work / RUN_FILE if work else None
    if args.resume and run_file and run_file.is_file():
        run = json.loads(run_file.read_text("utf-8"))
        name, out = run["name"], Path(run["out"])
    else:
        name = args.name or f"{base.name}-finetuned-{time.strftime('%Y%m%d-%H%M%S')}"
        out = args.out or user_models_dir() / safe_name(name)
    work = work or runs / safe_name(name)
    if args.resume and not (work / "checkpoints" / "last.pt").is_file():
        raise ValueError(f"{work}: no fine-tune to resume there (no checkpoints/last.pt)")
    if args.checkpoint_every < 1:
        raise ValueError("--checkpoint-every must be at least 1")
    # The folder is claimed now, so that a second fine-tune into it is refused at once;
    # a run that fails gives it back (an interrupted one keeps it to resume into).
    # (Under torchrun only the first process writes the bundle, so only it claims.)
    # Room for the checkpoints (weights, optimiser state: about 4 copies) and the new
    # bundle, checked before the training a full disk would waste.
    weights = sum(p.numel() * p.element_size() for p in base.model.parameters())
    for folder, copies in ((work, 4), (out, 1)):
        existing = next(p for p in (folder, *folder.parents) if p.exists())
        try:
            check_free_space(existing, copies * weights)
        except BundleError as e:
            raise ValueError(str(e)) from None
    claims = _is_main() and not (args.resume and out.is_dir() and not any(out.iterdir()))
    created: list[Path] = []
    if claims:
        try:
            created = claim_folder(out)
        except BundleError:
            raise ValueError(f"{out} already exists; choose another --out or --name") from None
    try:
        return _run_finetune(args, base, tokenizer, runs, work, name, out)
    except Exception:
        release_folder(created)
        raise


def _run_finetune(args, base, tokenizer, runs: Path, work: Path, name: str, out: Path) -> int:
    """The fine-tune itself, into the folder ``out`` that cmd_finetune claimed."""
    from translator_app.core.platform.paths import write_atomic

    data_cfg = DataConfig(
        train=tuple(str(p) for p in args.data),
        valid=str(args.valid or ""),
        valid_size=args.valid_size,
        exclude_test=tuple(str(p) for p in args.exclude_test or ()),
        max_tokens=args.max_tokens,
    )
    base_translator = Translator.from_bundle(base)
    follows = base_translator.follows_glossary
    found = {"terms": Glossary(), "recipe": plan(0, args.effort)}

    def teach_pairs(train_pairs, valid_pairs) -> list:
        """The user's terms (found in all their pairs but the reported ones), annotated
        copies of the pairs that hold them, and replay pairs as many as the user's."""
        recipe = found["recipe"] = plan(len(train_pairs), args.effort)
        if args.terms == "auto" and follows:
            found["terms"] = find_terms(train_pairs + valid_pairs, base_translator)
            print(f"found {len(found['terms'].terms)} of your terms the base model does not use")
        copies = annotated_copies(train_pairs, found["terms"])
        replay = []
        if args.replay:
            replay = replay_sample(args.replay, round(recipe.replay * len(train_pairs)), args.seed)
        print(f"  added {len(copies):>9}  copies with your terms annotated")
        print(f"  added {len(replay):>9}  everyday pairs the base model learned (replay)")
        return copies + replay

    train_data, valid_data, valid_pairs, info = prepare_data(
        args.data, data_cfg, tokenizer, args.seed, add_pairs=teach_pairs
    )
    recipe = found["recipe"]
    steps = args.steps or (
        args.epochs * max(1, len(make_batches(train_data, args.batch_tokens)))
        if args.epochs
        else recipe.steps
    )
    lr = args.lr or recipe.lr
    every = max(1, steps // recipe.evals)
    print(f"{args.effort}: {steps} steps at learning rate {lr:g}")
    tc = TrainConfig(
        out_dir=str(work),
        steps=steps,
        batch_tokens=args.batch_tokens,
        lr=lr,
        warmup=min(100, max(1, steps // 10)),
        schedule="constant",
        eval_every=every,
        checkpoint_every=min(every, args.checkpoint_every),
        patience=args.patience,
        select_by="loss",
        seed=args.seed,
        bf16=args.bf16,
        eval_sentences=0,  # the checkpoint is chosen by loss; BLEU is the verdict's
    )
    cfg = RunConfig(model=base.config, data=data_cfg, train=tc)

    # The verdict's pairs: --report, kept apart from those that choose the checkpoint.
    report_pairs = valid_pairs
    if getattr(args, "report", None):
        report_pairs = [p for p in read_all([args.report]) if p[0].strip()]
        if not report_pairs:
            raise ValueError(f"{args.report}: no pairs to report on")
    general = [p for p in read_all([args.general]) if p[0].strip()] if args.general else []
    # For --heldout-out, every layer's attention too: the app's panels show it.
    layered = base.config.arch == "transformer"
    shown = args.heldout_count if args.heldout_out else 0

    def verdict_of(translator: Translator) -> tuple[dict, list]:
        """BLEU and term use on the reported pairs, BLEU on the everyday set."""
        options = {"all_layers": layered and shown > 0}
        result, done = score_model(translator, report_pairs, general, found["terms"], **options)
        return result, done[:shown]

    def describe_verdict(result: dict, label: str) -> str:
        line = f"{label} on {len(report_pairs)} held-out pairs: BLEU {result['bleu']:.2f}"
        if result["terms"]:
            line += f", your terms {result['terms_kept']} of {result['terms']}"
        if "general_bleu" in result:
            line += f"; everyday sentences BLEU {result['general_bleu']:.2f}"
        return line

    before, base_shown = verdict_of(base_translator)
    print(describe_verdict(before, "base model"))
    # What --resume needs to find this run again without repeating its --name.
    write_atomic(work / RUN_FILE, json.dumps({"name": name, "out": str(out)}) + "\n")
    info |= {
        "command": "finetune",
        "base_model": base.name,
        "base_path": str(base.path),
        "hardware": describe(),
        "effort": args.effort,
        "taught_terms": len(found["terms"].terms),
    }
    best = train(
        cfg,
        tokenizer,
        train_data,
        valid_data,
        valid_pairs,
        init_weights=base.model.state_dict(),
        resume=args.resume,
        device=args.device,
        info=info,
        progress_json=args.progress == "json",
    )
    if not _is_main():
        return 0
    # The best checkpoint is read and built once: scored here, then exported as it is.
    ckpt = load_checkpoint(best)
    tuned = model_from_checkpoint(ckpt)
    taught = merged(base.terms, found["terms"])
    after, tuned_shown = verdict_of(Translator(tuned, tokenizer, taught=taught, engine="torch"))
    print(describe_verdict(after, "fine-tuned model"))
    summary = "; ".join(
        s
        for s in (
            terms_verdict((before["terms_kept"], before["terms"]), (after["terms_kept"], 0)),
            general_verdict(before["general_bleu"], after["general_bleu"]) if general else "",
        )
        if s
    )
    if summary:
        print(summary)
    metrics = {
        "heldout": {
            "pairs": len(report_pairs),
            "base": before,
            "finetuned": after,
            "summary": summary,
            "terms": [[t.source, t.target] for t in found["terms"].terms],
        }
    }
    bundle = export_model(
        ckpt,
        tuned,
        out,
        name=name,
        extra_metrics=metrics,
        search=base.search,
        terms=taught,
        check=False,
    )
    print(f"new model: {bundle}")
    if args.heldout_out:
        cfg = base.config
        shape = (
            [cfg.dec_layers, cfg.n_heads, cfg.alignment_layer_index, cfg.alignment_head]
            if layered
            else [0, 0, 0, -1]
        )
        save_translations(
            args.heldout_out,
            {"base": base_shown, "finetuned": tuned_shown},
            {"references": [en for _, en in report_pairs][:shown], "shape": shape},
        )
    if work.parent == runs:  # our own cache folder: the run is done, nothing to resume
        shutil.rmtree(work, ignore_errors=True)
    if args.progress == "json":
        translations = str(args.heldout_out or "")
        print(encode(Done(str(bundle), metrics["heldout"], translations)), end="", flush=True)
    return 0


# ---------------------------------------------------------------------------- eval
def cmd_eval(args) -> int:
    pairs = [p for p in read_all([args.test]) if p[0].strip()]
    if args.limit:
        pairs = pairs[: args.limit]
    if not pairs:
        raise ValueError(f"{args.test}: no test pairs")
    models = [args.model] + ([args.compare] if args.compare else [])
    report = {"test": str(args.test), "pairs": len(pairs), "signatures": signatures(), "models": {}}
    print(
        f"sacreBLEU signatures: BLEU {report['signatures']['bleu']}; chrF {report['signatures']['chrf']}"
    )
    for path in models:
        bundle = load_bundle(path, args.device)
        translator = Translator.from_bundle(bundle)
        if protect_mode(args):
            translator.protect_facts = protect_mode(args)
        scores = evaluate_translator(translator, pairs, args.beam, args.beam_limit)
        label = bundle.name if bundle.name not in report["models"] else str(path)
        report["models"][label] = {"path": str(path), "scores": scores}
        for search, res in scores.items():
            print(
                f"{label:<30} {search:<7} BLEU {res['bleu']:6.2f}  chrF {res['chrf']:6.2f}  "
                f"({res['pairs']} pairs, {res['seconds']} s)"
            )
    out = args.out or Path("eval-reports")
    stem = f"{Path(args.test).name.split('.')[0]}"
    json_path, png_path = out / f"{stem}.json", out / f"{stem}.png"
    plotted = write_report(report, json_path, png_path)
    print(f"report: {json_path}")
    print(f"plot: {png_path}" if plotted else "plot: none (matplotlib is not installed)")
    return 0


# ------------------------------------------------------------------------- average
def cmd_average(args) -> int:
    if args.last < 1:
        raise ValueError("--last must be at least 1")
    paths: list[Path] = []
    for p in args.checkpoints:
        if p.is_dir():
            found = snapshots(p)[-args.last :]
            if not found:
                raise ValueError(f"{p}: no step-N.pt snapshots (set [train] keep_snapshots)")
            paths += found
        else:
            paths.append(p)
    save_checkpoint(args.out, average_checkpoints(paths))
    steps = json.loads(load_checkpoint(args.out)["state"])["averaged_steps"]
    print(
        f"wrote {args.out}: the mean of {len(paths)} checkpoints (steps {', '.join(map(str, steps))})"
    )
    return 0


# -------------------------------------------------------------------------- export
def model_card(name: str, cfg: ModelConfig, ckpt: dict, n_params: int) -> str:
    """A trained or fine-tuned model's card (the template: core/engine/model_card.py)."""
    info = json.loads(ckpt.get("info", "{}"))
    state = json.loads(ckpt["state"])
    run = json.loads(ckpt.get("run_config", "{}"))
    ev = state.get("last_eval", {})
    training = [
        f"- steps: {state['step']} (best checkpoint at step {state['best_step']}), "
        f"{state['target_tokens']:,} target tokens, {state['elapsed_s'] / 60:.1f} min of training",
        f"- hardware: {info.get('hardware', platform.machine())}",
        f"- data files: {', '.join(Path(f).name for f in info.get('data_files', [])) or 'n/a'}",
        f"- pairs read {info.get('pairs_read', 'n/a')}, used for training {info.get('train_pairs', 'n/a')}, "
        f"held out for validation {info.get('valid_pairs', 'n/a')}",
        f"- dropped: {json.dumps(info.get('pairs_dropped', {}))}",
    ]
    if info.get("base_model"):
        training.append(f"- fine-tuned from: {info['base_model']}")
    validation = (
        [
            f"- valid loss {ev.get('valid_loss')}, BLEU {ev.get('bleu', 'n/a')}, "
            f"chrF {ev.get('chrf', 'n/a')}"
        ]
        if ev
        else []
    )
    return render(
        name,
        [
            f"German→English {cfg.arch} model, trained with "
            f"`translator-train {info.get('command', 'train')}`."
        ],
        [
            ("Architecture", architecture_lines(cfg, n_params)),
            ("Training", training),
            ("Validation (last evaluation during training)", validation),
            ("Configuration", config_block(run.get("model", cfg.to_dict()))),
        ],
    )


def export_checkpoint(ckpt_path: Path, out: Path, **options) -> Path:
    """Checkpoint -> bundle, then load the bundle back and translate with it
    (``options`` as for :func:`export_model`)."""
    ckpt = load_checkpoint(Path(ckpt_path))
    return export_model(ckpt, model_from_checkpoint(ckpt), out, **options)


def model_from_checkpoint(ckpt: dict) -> torch.nn.Module:
    """The checkpoint's model, built from its own config, in eval mode."""
    model = build_model(ModelConfig.from_dict(json.loads(ckpt["model_config"])))
    model.load_state_dict(ckpt["model"])
    return model.eval()


def export_model(
    ckpt: dict,
    model: torch.nn.Module,
    out: Path,
    *,
    fp16: bool = False,
    name: str | None = None,
    card: str | None = None,
    extra_metrics: dict | None = None,
    overwrite: bool = False,
    protect: str | None = None,
    search: SearchDefaults | None = None,
    terms: Glossary | None = None,
    check: bool = True,
) -> Path:
    """The bundle of a loaded checkpoint and its model: weights in float16 with ``fp16``,
    ``name`` (default: the folder's), the model card (default: generated), extra
    metrics, the search settings (``search``, or the default with ``protect``), the
    taught ``terms``; an existing ``out`` is replaced only with ``overwrite``. With
    ``check``, the bundle is loaded back and translates a sentence."""
    cfg = model.config
    tokenizer = checkpoint_tokenizer(ckpt)
    state = json.loads(ckpt["state"])
    name = name or Path(out).name
    metrics = {"validation": state.get("last_eval", {}), **(extra_metrics or {})}
    if "averaged_steps" in state:
        metrics["averaged_steps"] = state["averaged_steps"]
    card = card or model_card(name, cfg, ckpt, model.num_parameters)
    if search is None and protect:
        search = SearchDefaults(protect=protect)
    shortlist = _shortlist_to_keep(Path(out), tokenizer) if overwrite else None
    save_bundle(
        out,
        model,
        tokenizer,
        name=name,
        card=card,
        metrics=metrics,
        search=search,
        fp16=fp16,
        overwrite=overwrite,
        terms=terms,
    )
    if shortlist is not None:
        (Path(out) / SHORTLIST_FILE).write_bytes(shortlist)
    if check:
        Translator.from_bundle(load_bundle(out, "cpu")).translate(["Guten Morgen!"], beam=1)
    return Path(out)


def _shortlist_to_keep(out: Path, tokenizer) -> bytes | None:
    """The vocabulary shortlist of the bundle that ``out`` replaces, where it has one
    made for the same tokenizer files: it depends on the vocabulary and the data, not the
    weights, so a new stage of the same model keeps it (checked when the new bundle is
    loaded, like every file of it)."""
    kept = out / SHORTLIST_FILE
    if not kept.is_file():
        return None
    for name, content in tokenizer.files().items():
        if not (out / name).is_file() or (out / name).read_bytes() != content:
            return None
    return kept.read_bytes()


# ------------------------------------------------------------------------- shortlist
def cmd_shortlist(args) -> int:
    from trainer.shortlist import build_shortlist, training_sample

    bundle = load_bundle(args.model, "cpu")
    if not isinstance(bundle.tokenizer, Tokenizer):
        raise ValueError(f"{args.model}: a shortlist needs one joint SentencePiece model")
    every = [p for p in read_all(args.data) if p[0].strip() and p[1].strip()]
    if not every:
        raise ValueError("no training pairs in " + ", ".join(map(str, args.data)))
    pairs = training_sample(every, args.pairs)
    start = time.perf_counter()
    text = build_shortlist(bundle.tokenizer, pairs, args.always, args.per_piece)
    path = write_shortlist(args.model, text)
    print(
        f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB, {text.count(chr(10))} lines) from "
        f"{len(pairs)} pairs in {time.perf_counter() - start:.0f} s"
    )
    return 0


def cmd_export(args) -> int:
    card = args.card.read_text("utf-8") if args.card else None
    metrics = json.loads(args.metrics.read_text("utf-8")) if args.metrics else None
    out = export_checkpoint(
        args.checkpoint,
        args.out,
        fp16=args.fp16,
        name=args.name,
        card=card,
        extra_metrics=metrics,
        overwrite=args.overwrite,
        protect=args.protect,
    )
    size = sum(f.stat().st_size for f in out.iterdir()) / 1e6
    print(f"wrote {out} ({size:.1f} MB); loaded back and translated a test sentence")
    return 0

"""``translator-train finetune``: adapt a bundle to the user's pairs (the app's Teach runs
it as a separate process with ``--progress json``).

In order: find where the run goes and claim the new bundle's folder (:func:`cmd_finetune`);
read the pairs, with the user's terms annotated and replay pairs mixed in
(:class:`Teaching`); score the base model on the reported pairs; train; score the new
model on the same pairs with the same engine; export the bundle with the verdict in its
metrics. The base bundle is never written.
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from trainer.checkpoints import load_checkpoint
from trainer.commands import export_model, model_from_checkpoint
from trainer.config import DataConfig, RunConfig, TrainConfig
from trainer.dataset import make_batches
from trainer.distributed import is_main_process
from trainer.prepare import Prepared, prepare_data
from trainer.teach_recipe import (
    annotated_copies,
    compare_sentences,
    find_terms,
    general_verdict,
    plan,
    replay_sample,
    score_model,
    terms_verdict,
)
from trainer.train import train
from translator_app.core import Translator
from translator_app.core.data.corpus import Pair, read_all
from translator_app.core.engine.bundle import load_bundle
from translator_app.core.engine.bundle_files import (
    BundleError,
    check_free_space,
    claim_folder,
    release_folder,
    unclaim,
)
from translator_app.core.faithful.glossary import Glossary, merged
from translator_app.core.ipc.progress_lines import Done, encode
from translator_app.core.ipc.translation_file import save_translations
from translator_app.core.platform.hardware import describe_machine
from translator_app.core.platform.paths import (
    safe_name,
    user_cache_dir,
    user_models_dir,
    write_atomic,
)

RUN_FILE = "finetune-run.json"  # in the work folder: what --resume needs to find the run


def latest_finetune(runs: Path) -> Path:
    """The most recently checkpointed fine-tune in ``runs`` (the cache folder)."""
    found = [
        p
        for p in runs.glob("*")
        if (p / RUN_FILE).is_file() and (p / "checkpoints" / "last.pt").is_file()
    ]
    if not found:
        early = sorted(p.name for p in runs.glob("*") if (p / RUN_FILE).is_file())
        if early:  # started, then stopped before the first checkpoint was written
            raise ValueError(
                f"{runs}: {', '.join(early)} stopped before the first checkpoint, so there "
                "is nothing to resume; run the same command without --resume to start again"
            )
        raise ValueError(f"no stopped fine-tune to resume in {runs}; give --work-dir or --name")
    return max(found, key=lambda p: (p / "checkpoints" / "last.pt").stat().st_mtime)


@dataclass(frozen=True)
class Target:
    """Where a fine-tune goes: the new bundle's ``name`` and folder ``out``, its
    checkpoints in ``work`` (inside ``runs``, the cache folder, unless --work-dir)."""

    name: str
    out: Path
    work: Path
    runs: Path


def run_folders(args, base_name: str) -> Target:
    """The run's folders: a new run's from --name/--out, a resumed one's from its run file."""
    runs = user_cache_dir() / "finetune"
    work = args.work_dir
    if args.resume and work is None and not args.name:
        work = latest_finetune(runs)
    run_file = work / RUN_FILE if work else None
    if args.resume and run_file and run_file.is_file():
        run = json.loads(run_file.read_text("utf-8"))
        name, out = run["name"], Path(run["out"])
    else:
        name = args.name or f"{base_name}-finetuned-{time.strftime('%Y%m%d-%H%M%S')}"
        out = args.out or user_models_dir() / safe_name(name)
    work = work or runs / safe_name(name)
    if args.resume and not (work / "checkpoints" / "last.pt").is_file():
        raise ValueError(
            f"{work}: no checkpoint to resume from (a fine-tune stopped before its first "
            "checkpoint has nothing to resume); run the same command without --resume to "
            f"start it again into {out}"
        )
    return Target(name, out, work, runs)


def cmd_finetune(args) -> int:
    if args.checkpoint_every < 1:
        raise ValueError("--checkpoint-every must be at least 1")
    base = load_bundle(args.model, "cpu")
    target = run_folders(args, base.name)
    # Room for the checkpoints (weights, optimiser state: about 4 copies) and the new
    # bundle, checked before the training a full disk would waste.
    weights = sum(p.numel() * p.element_size() for p in base.model.parameters())
    for folder, copies in ((target.work, 4), (target.out, 1)):
        existing = next(p for p in (folder, *folder.parents) if p.exists())
        try:
            check_free_space(existing, copies * weights)
        except BundleError as e:
            raise ValueError(str(e)) from None
    # The folder is claimed now, so that a second fine-tune into it is refused at once;
    # a run that fails gives it back (an interrupted one keeps it to resume into).
    # (Under torchrun only the first process writes the bundle, so only it claims.)
    out = target.out
    resuming_into_empty = args.resume and out.is_dir() and not any(out.iterdir())
    created: list[Path] = []
    if is_main_process() and not resuming_into_empty:
        try:
            created = claim_folder(out)
        except BundleError:
            raise ValueError(f"{out} already exists; choose another --out or --name") from None
    try:
        status = finetune_into(args, base, target)
    except Exception:
        release_folder(created, out)
        raise
    unclaim(out)
    return status


@dataclass
class Teaching:
    """What a fine-tune adds to the user's pairs, decided once their number is known:
    the user's terms (found in all their pairs but the reported ones), annotated copies of
    the pairs that hold them, and replay pairs as many as the recipe asks. Called by
    :func:`prepare_data` as its ``add_pairs``."""

    args: object
    base: Translator
    terms: Glossary = field(default_factory=Glossary)
    recipe: object = None

    def __post_init__(self) -> None:
        self.recipe = plan(0, self.args.effort)

    def __call__(self, train_pairs: list[Pair], valid_pairs: list[Pair]) -> list[Pair]:
        args = self.args
        self.recipe = plan(len(train_pairs), args.effort)
        if args.terms == "auto" and self.base.follows_glossary:
            self.terms = find_terms(train_pairs + valid_pairs, self.base)
            print(f"found {len(self.terms.terms)} of your terms the base model does not use")
        copies = annotated_copies(train_pairs, self.terms)
        replay = []
        if args.replay:
            wanted = round(self.recipe.replay * len(train_pairs))
            replay = replay_sample(args.replay, wanted, args.seed)
        print(f"  added {len(copies):>9}  copies with your terms annotated")
        print(f"  added {len(replay):>9}  everyday pairs the base model learned (replay)")
        return copies + replay


def data_config(args) -> DataConfig:
    return DataConfig(
        train=tuple(str(p) for p in args.data),
        valid=str(args.valid or ""),
        valid_size=args.valid_size,
        exclude_test=tuple(str(p) for p in args.exclude_test or ()),
        max_tokens=args.max_tokens,
    )


def run_config(args, model_config, data_cfg: DataConfig, recipe, train_data, work: Path):
    """The training run: steps and learning rate from --steps/--epochs/--lr or the effort's
    recipe; a constant schedule; the checkpoint chosen by validation loss."""
    if args.steps:
        steps = args.steps
    elif args.epochs:
        steps = args.epochs * max(1, len(make_batches(train_data, args.batch_tokens)))
    else:
        steps = recipe.steps
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
    return RunConfig(model=model_config, data=data_cfg, train=tc)


@dataclass
class Verdict:
    """How a model does on the reported pairs (BLEU, the user's terms) and on everyday
    sentences (BLEU), the same way for the base and the new model; ``shown`` of the
    reported sentences are kept with their translations (every layer's attention too for
    a Transformer: the app's panels show it)."""

    report_pairs: list[Pair]
    general: list[Pair]
    terms: Glossary
    shown: int
    layered: bool

    def of(self, translator: Translator) -> tuple[dict, list]:
        result, done = score_model(translator, self.report_pairs, self.general, self.terms)
        shown = done[: self.shown]
        if self.layered:  # every layer's attention for the few shown, not for all scored
            shown = [translator.explain(t) for t in shown]
        return result, shown

    def describe_machine(self, result: dict, label: str) -> str:
        line = f"{label} on {len(self.report_pairs)} held-out pairs: BLEU {result['bleu']:.2f}"
        if result["terms"]:
            line += f", your terms {result['terms_kept']} of {result['terms']}"
        if "general_bleu" in result:
            line += f"; everyday sentences BLEU {result['general_bleu']:.2f}"
        return line

    def summary(self, before: dict, after: dict) -> str:
        return "; ".join(
            s
            for s in (
                terms_verdict(
                    (before["terms_kept"], before["terms"]),
                    (after["terms_kept"], after["terms"]),
                    len(self.terms.terms),
                ),
                general_verdict(before["general_bleu"], after["general_bleu"])
                if self.general
                else "",
            )
            if s
        )

    def heldout(self, before: dict, after: dict) -> dict:
        """What the new model's metrics and the app keep of the verdict (printed too):
        both models' scores, the sentences one by one, the words, the terms taught."""
        summary = self.summary(before, after)
        if summary:
            print(summary)
        sentences = compare_sentences(before.pop("sentence_chrf"), after.pop("sentence_chrf"))
        print(
            "held-out sentences closer to the reference: {better} better, {worse} worse, "
            "{same} unchanged (sign test p = {p})".format(**sentences)
        )
        return {
            "pairs": len(self.report_pairs),
            "base": before,
            "finetuned": after,
            "sentences": sentences,
            "summary": summary,
            "terms": [[t.source, t.target] for t in self.terms.terms],
        }


def verdict_for(args, data: Prepared, terms: Glossary, arch: str) -> Verdict:
    """The verdict's pairs: --report, or else those held out of --data; neither is
    trained on nor chooses the checkpoint, so the verdict is not biased in the new
    model's favour. Data too small to spare any: the validation pairs, and it says so."""
    report_pairs = data.report_pairs
    if args.report:
        report_pairs = [p for p in read_all([args.report]) if p[0].strip()]
        if not report_pairs:
            raise ValueError(f"{args.report}: no pairs to report on")
    elif not report_pairs:
        report_pairs = data.valid_pairs
        print(
            "too few pairs to hold some out for the verdict: it is scored on the "
            "validation pairs, which also choose the checkpoint (give --report FILE)"
        )
    general = [p for p in read_all([args.general]) if p[0].strip()] if args.general else []
    shown = args.heldout_count if args.heldout_out else 0
    return Verdict(report_pairs, general, terms, shown, layered=arch == "transformer")


def scoring_translator(model, base, taught: Glossary) -> Translator:
    """The translator a verdict scores ``model`` with: the base and the new model alike,
    by PyTorch (the new model has no converted CTranslate2 copy) with the base bundle's
    search settings and the terms each model was taught."""
    return Translator(
        model,
        base.tokenizer,
        base.search.options(),
        max_source_tokens=base.search.max_source_tokens,
        engine="torch",
        protect=base.search.protect,
        taught=taught,
    )


def finetune_into(args, base, target: Target) -> int:
    """The fine-tune itself, into the folder ``target.out`` that cmd_finetune claimed."""
    data_cfg = data_config(args)
    base_translator = Translator.from_bundle(base)
    teaching = Teaching(args, base_translator)
    data = prepare_data(
        args.data,
        data_cfg,
        base.tokenizer,
        args.seed,
        add_pairs=teaching,
        hold_out_report=not args.report,
    )
    cfg = run_config(args, base.config, data_cfg, teaching.recipe, data.train, target.work)
    verdict = verdict_for(args, data, teaching.terms, base.config.arch)
    before, base_shown = verdict.of(scoring_translator(base.model, base, base.terms))
    print(verdict.describe_machine(before, "base model"))
    write_atomic(
        target.work / RUN_FILE, json.dumps({"name": target.name, "out": str(target.out)}) + "\n"
    )
    info = data.info | {
        "command": "finetune",
        "base_model": base.name,
        "base_path": str(base.path),
        "hardware": describe_machine(),
        "effort": args.effort,
        "taught_terms": len(teaching.terms.terms),
        **({"data_origin": args.data_origin} if args.data_origin else {}),
    }
    best = train(
        cfg,
        base.tokenizer,
        data.train,
        data.valid,
        data.valid_pairs,
        init_weights=base.model.state_dict(),
        resume=args.resume,
        device=args.device,
        info=info,
        progress_json=args.progress == "json",
    )
    if not is_main_process():
        return 0
    # The best checkpoint is read and built once: scored here, then exported as it is.
    ckpt = load_checkpoint(best)
    tuned = model_from_checkpoint(ckpt)
    taught = merged(base.terms, teaching.terms)
    after, tuned_shown = verdict.of(scoring_translator(tuned, base, taught))
    print(verdict.describe_machine(after, "fine-tuned model"))
    heldout = verdict.heldout(before, after)
    bundle = export_model(
        ckpt,
        tuned,
        target.out,
        name=target.name,
        extra_metrics={"heldout": heldout},
        search=base.search,
        terms=taught,
        check=False,
    )
    print(f"new model: {bundle}")
    if args.heldout_out:
        save_heldout(args.heldout_out, base.config, verdict, base_shown, tuned_shown)
    if target.work.parent == target.runs:  # our own cache folder: nothing left to resume
        shutil.rmtree(target.work, ignore_errors=True)
    if args.progress == "json":
        translations = str(args.heldout_out or "")
        print(encode(Done(str(bundle), heldout, translations)), end="", flush=True)
    return 0


def save_heldout(path: Path, cfg, verdict: Verdict, base_shown, tuned_shown) -> None:
    """The shown sentences as both models translated them, for the app's comparison:
    with the attention's shape (layers, heads, the alignment layer and head)."""
    shape = list(cfg.attention_shape)
    references = [en for _, en in verdict.report_pairs][: verdict.shown]
    save_translations(
        path,
        {"base": base_shown, "finetuned": tuned_shown},
        {"references": references, "shape": shape},
    )

"""The trainer's commands: train, eval, average, export, shortlist (``spm`` and
``recipe`` live in cli.py, ``finetune`` in finetune.py, ``compare`` in compare.py).

Every command reads and checks all its input before it writes anything, so bad data
leaves the output directory untouched.
"""

from __future__ import annotations

import dataclasses
import json
import platform
import time
from pathlib import Path

import torch

from trainer import data_cache
from trainer.checkpoints import (
    average_checkpoints,
    checkpoint_tokenizer,
    load_checkpoint,
    save_checkpoint,
    snapshots,
)
from trainer.config import RunConfig, load_config
from trainer.distributed import is_main_process
from trainer.evaluate import evaluate_translator, read_kinds, signatures, write_report
from trainer.prepare import prepare_data
from trainer.train import train
from translator_app.core import Translator
from translator_app.core.cli_common import apply_protect_arguments
from translator_app.core.data.corpus import (
    read_all,
)
from translator_app.core.engine.bundle import load_bundle, write_shortlist
from translator_app.core.engine.bundle_format import SHORTLIST_FILE, SearchDefaults
from translator_app.core.engine.bundle_torch import save_bundle
from translator_app.core.engine.model_card import architecture_lines, config_block, render
from translator_app.core.faithful.german_left import GermanLeftCheck
from translator_app.core.faithful.glossary import Glossary
from translator_app.core.faithful.terms import has_term_markers, with_term_markers
from translator_app.core.models.config import ModelConfig
from translator_app.core.models.model import build_model
from translator_app.core.platform.hardware import describe_machine, facts
from translator_app.core.text.tokenizer import Tokenizer, train_sentencepiece


# --------------------------------------------------------------------------- train
def cmd_train(args) -> int:
    return train_config(load_config(args.config), args)


def _prepared(cfg: RunConfig, tokenizer, out: Path):
    """The run's data: read and encoded, or, with ``[train] cache_data``, kept in the run
    folder and taken from there when a resumed run asks for the same (data_cache.py)."""
    if not cfg.train.cache_data:
        return prepare_data(cfg.data.train, cfg.data, tokenizer, cfg.train.seed)
    key = data_cache.cache_key(cfg.data, cfg.train.seed, tokenizer.files())
    data = data_cache.load(out, key)
    if data is not None:
        print(f"data: as prepared before, from {out / data_cache.CACHE_DIR}")
        return data
    data = prepare_data(cfg.data.train, cfg.data, tokenizer, cfg.train.seed)
    data_cache.save(out, key, data)
    return data


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
    data = _prepared(cfg, tokenizer, out)
    info = data.info | {
        "command": "train",
        "config_file": str(args.config),
        "hardware": describe_machine(),
    }
    if init is not None:
        info["warm_start"] = {"bundle": init.name, "path": str(init.path)}
    start = time.time()
    best = train(
        cfg,
        tokenizer,
        data.train,
        data.valid,
        data.valid_pairs,
        init_weights=init.model.state_dict() if init is not None else None,
        resume=args.resume,
        device=args.device,
        info=info,
    )
    if is_main_process():
        bundle = export_checkpoint(best, out / "model", name=out.name, overwrite=True)
        print(f"best checkpoint: {best}\nbundle: {bundle} ({time.time() - start:.0f} s)")
    return 0


# ---------------------------------------------------------------------------- eval
def cmd_eval(args) -> int:
    pairs = [p for p in read_all([args.test]) if p[0].strip()]
    kinds = read_kinds(Path(args.test), len(pairs))
    if args.limit:
        pairs = pairs[: args.limit]
        kinds = kinds[: args.limit] if kinds else None
    if not pairs:
        raise ValueError(f"{args.test}: no test pairs")
    models = [args.model] + ([args.compare] if args.compare else [])
    german_left = GermanLeftCheck.bundled()
    translations: dict[str, dict[str, list[str]]] = {}
    report = {"test": str(args.test), "pairs": len(pairs), "signatures": signatures(), "models": {}}
    # int8 rounds otherwise on another backend (hardware.int8_kind): the card names it
    report["hardware"] = facts()
    print(
        f"sacreBLEU signatures: BLEU {report['signatures']['bleu']}; chrF {report['signatures']['chrf']}"
    )
    for path in models:
        bundle = load_bundle(path, args.device)
        translator = Translator.from_bundle(bundle)
        apply_protect_arguments(translator, args)
        scores = evaluate_translator(
            translator, pairs, args.beam, args.beam_limit, german_left=german_left, kinds=kinds
        )
        label = bundle.name if bundle.name not in report["models"] else str(path)
        report["models"][label] = {
            "path": str(path),
            "engine": translator.engine_name,
            "scores": scores,
        }
        translations[label] = {search: res.pop("translations") for search, res in scores.items()}
        for search, res in scores.items():
            left = res["german_left"]
            print(
                f"{label:<30} {search:<7} BLEU {res['bleu']:6.2f}  chrF {res['chrf']:6.2f}  "
                f"German words left {left['per_100']:5.2f}/100 sentences "
                f"(any: {left.get('per_100_any', left['per_100']):.2f}; "
                f"from the dictionary: {res['dictionary_words_per_100']:.2f})  "
                f"({res['pairs']} pairs, {res['seconds']} s)"
            )
            for kind, k in res.get("by_kind", {}).items():
                print(
                    f"{'':<30} {'':<7}   {kind:<14} BLEU {k['bleu']:6.2f} ({k['sentences']} pairs)"
                )
    out = args.out or Path("eval-reports")
    stem = f"{Path(args.test).name.split('.')[0]}"
    json_path, png_path = out / f"{stem}.json", out / f"{stem}.png"
    plotted = write_report(report, json_path, png_path)
    print(f"report: {json_path}")
    for label, by_search in translations.items():
        for search, hyps in by_search.items():
            # one line per test pair (beam: the pairs it ran on), to read beside the test
            path = out / f"{stem}.{Path(label).name}.{search}.txt"
            path.write_text("".join(h.replace("\n", " ") + "\n" for h in hyps), encoding="utf-8")
            print(f"translations: {path}")
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
def model_card(
    name: str,
    cfg: ModelConfig,
    ckpt: dict,
    n_params: int,
    heldout: dict | None = None,
    terms: Glossary | None = None,
) -> str:
    """A trained or fine-tuned model's card (the template: core/engine/model_card.py);
    a fine-tune's (``heldout``: its verdict's figures) opens with what its user reads
    in the app: the scores on their held-out sentences, the data, the terms."""
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
            *fine_tune_sections(info, state, heldout, terms),
            ("Architecture", architecture_lines(cfg, n_params)),
            ("Training", training),
            ("Validation (last evaluation during training)", validation),
            ("Configuration", config_block(run.get("model", cfg.to_dict()))),
        ],
    )


def fine_tune_sections(
    info: dict, state: dict, heldout: dict | None, terms: Glossary | None
) -> list[tuple[str, list[str]]]:
    """A fine-tune's sections for its user: "Scores on your held-out sentences" (both
    models, sentence by sentence too), "Training data" and "Glossary" (its terms.tsv);
    none for a model trained from scratch."""
    if not heldout:
        return []
    base, new = heldout.get("base", {}), heldout.get("finetuned", {})
    scores = [
        f"- {heldout.get('pairs', 0)} of your sentence pairs were set aside: the new model "
        "neither learnt from them nor was chosen by them.",
        f"- BLEU: the base model {base.get('bleu', 0.0):.1f}, the new model "
        f"{new.get('bleu', 0.0):.1f}; chrF {base.get('chrf', 0.0):.1f} → "
        f"{new.get('chrf', 0.0):.1f}.",
    ]
    if split := heldout.get("sentences"):
        scores.append(
            "- Sentence by sentence: {better} closer to your English, {worse} less close, "
            "{same} about the same (sign test p = {p}).".format(**split)
        )
    if said := heldout.get("summary", ""):
        scores.append(
            f"- The new model {said}."
            if said.startswith("learnt")
            else f"- {said[:1].upper()}{said[1:]}."
        )
    data = [
        f"- Fine-tuned from: {info.get('base_model', 'n/a')}, effort "
        f"{info.get('effort', 'n/a')}, {state['step']} steps "
        f"({state['elapsed_s'] / 60:.1f} min on {info.get('hardware', 'n/a')}).",
        f"- Your pairs: {_origin(info)}. Of them, {heldout.get('pairs', 0)} were set aside "
        f"for the scores above and {info.get('valid_pairs', 'n/a')} to choose the "
        "checkpoint; the model learnt from the rest, with copies of those that hold your "
        f"terms and everyday pairs mixed in ({info.get('train_pairs', 'n/a')} pairs in all).",
    ]
    listed = [f"{t.source} → {t.target}" for t in (terms.terms if terms else ())]
    glossary = (
        [
            f"- {len(listed)} terms, applied to every sentence (terms.tsv in the model's "
            f"folder), {info.get('taught_terms', 0)} of them learnt from these pairs: "
            + ", ".join(listed[:TERMS_ON_CARD])
            + (f" and {len(listed) - TERMS_ON_CARD} more." if len(listed) > TERMS_ON_CARD else ".")
        ]
        if listed
        else []
    )
    return [
        ("Scores on your held-out sentences", scores),
        ("Training data", data),
        ("Glossary", glossary),
    ]


TERMS_ON_CARD = 40  # the card lists this many terms; terms.tsv holds them all


def _origin(info: dict) -> str:
    """Where a fine-tune's pairs came from: as its caller said, else its files' names."""
    files = ", ".join(Path(f).name for f in info.get("data_files", []))
    return info.get("data_origin") or files or "n/a"


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
    coverage_penalty: float | None = None,
    search: SearchDefaults | None = None,
    terms: Glossary | None = None,
    check: bool = True,
) -> Path:
    """The bundle of a loaded checkpoint and its model: weights in float16 with ``fp16``,
    ``name`` (default: the folder's), the model card (default: generated), extra
    metrics, the search settings (``search``, or the default with ``protect`` and
    ``coverage_penalty``), the
    taught ``terms``; an existing ``out`` is replaced only with ``overwrite``. With
    ``check``, the bundle is loaded back and translates a sentence."""
    cfg = model.config
    tokenizer = checkpoint_tokenizer(ckpt)
    state = json.loads(ckpt["state"])
    name = name or Path(out).name
    metrics = {"validation": state.get("last_eval", {}), **(extra_metrics or {})}
    if "averaged_steps" in state:
        metrics["averaged_steps"] = state["averaged_steps"]
    card = card or model_card(name, cfg, ckpt, model.num_parameters, metrics.get("heldout"), terms)
    if search is None:
        chosen = {"protect": protect, "coverage_penalty": coverage_penalty}
        search = SearchDefaults(**{k: v for k, v in chosen.items() if v is not None})
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
        coverage_penalty=args.coverage_penalty,
    )
    size = sum(f.stat().st_size for f in out.iterdir()) / 1e6
    print(f"wrote {out} ({size:.1f} MB); loaded back and translated a test sentence")
    return 0

"""The training loop, shared by ``train`` (from scratch) and ``finetune``.

Read top to bottom: set up (device, distributed, optimiser, schedule, resume), then one loop
of steps with evaluation, checkpoints and early stopping. Checkpoints (plain tensors and
numbers, written atomically, checked when read) let an interrupted and resumed run end with
the same weights as an uninterrupted one (on the CPU); a NaN loss stops the run.
"""

from __future__ import annotations

import json
import math
import re
import signal
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch

from trainer.allocator import allocator_in_use
from trainer.checkpoints import (
    CHECKPOINT_FORMAT,
    CHECKPOINT_VERSION,
    TRAINING_ONLY,
    load_checkpoint,
    save_checkpoint,
    snapshots,
    tokenizer_payload,
)
from trainer.config import RunConfig
from trainer.dataset import Encoded, collate, epoch_order, make_batches, padding_fraction
from trainer.distributed import Dist
from trainer.evaluate import score_translations
from trainer.loss_guard import check_loss
from trainer.memory_guard import after_step
from trainer.progress import Progress
from trainer.step import batch_loss, optimiser_step, token_loss
from translator_app.core import Translator
from translator_app.core.models.model import build_model
from translator_app.core.platform import hardware
from translator_app.core.platform.paths import write_atomic
from translator_app.core.text.tokenizer import Tokenizer


@dataclass
class TrainState:
    step: int = 0
    epoch: int = 0
    batch_in_epoch: int = 0
    best: float | None = None
    best_step: int = 0
    evals_since_best: int = 0
    elapsed_s: float = 0.0
    target_tokens: int = 0
    last_eval: dict = field(default_factory=dict)


def lr_factor(schedule: str, warmup: int, total: int, offset: int = 0):
    """The learning-rate multiplier of each step: a linear warm-up over this run's first
    ``warmup`` steps, times the schedule's decay at ``offset`` + step (``offset``: steps a
    warm-started model was trained before)."""
    warmup = max(1, warmup)

    def factor(step: int) -> float:
        step = step + 1
        ramp = min(1.0, step / warmup)
        done = max(step + offset, warmup)
        if schedule == "inverse_sqrt":
            return ramp * math.sqrt(warmup / done)
        if schedule == "cosine":
            progress = (done - warmup) / max(1, total + offset - warmup)
            return ramp * 0.5 * (1 + math.cos(math.pi * min(1.0, progress)))
        return ramp

    return factor


def use_bf16(setting: str, device: torch.device) -> bool:
    if setting != "auto":
        return setting == "on"
    if device.type == "cuda":
        return torch.cuda.is_bf16_supported()
    return hardware.has_fast_bf16_training()  # emulated bf16 on other CPUs is slower than fp32


def make_optimizer(model: torch.nn.Module, lr: float, weight_decay: float) -> torch.optim.AdamW:
    """AdamW; no weight decay on biases and layer norms (1-D parameters)."""
    params = {id(p): p for p in model.parameters() if p.requires_grad}.values()
    decay = [p for p in params if p.dim() >= 2]
    no_decay = [p for p in params if p.dim() < 2]
    groups = [
        {"params": decay, "weight_decay": weight_decay},
        {"params": no_decay, "weight_decay": 0.0},
    ]
    return torch.optim.AdamW(groups, lr=lr, betas=(0.9, 0.98), eps=1e-9)


LAYER_KEY = re.compile(r"^(enc_layers|dec_layers)\.(\d+)\.")
# The sublayers' last projections: zero, a pre-norm layer adds nothing to its input.
RESIDUAL_OUTPUTS = ("attn.out_proj.", "self_attn.out_proj.", "cross_attn.out_proj.", "ff.net.3.")


def load_weights(model: torch.nn.Module, weights: dict, grow: bool = False) -> None:
    """Start from another model's weights (fine-tuning, warm start); a model of another
    shape is one clear error, not a half-loaded model.

    ``grow``: the model may have more encoder or decoder layers than the weights. The
    extra layers start as identities (their residual outputs zero, the rest as built), so
    the deeper model first translates exactly as the smaller one and training deepens it
    from there (progressive stacking; pre-norm models only).
    """
    own = model.state_dict()
    if grow:
        weights = grow_vocabulary(weights, own)
    missing = sorted(set(own) - set(weights))
    new_layers = [k for k in missing if grow and LAYER_KEY.match(k)]
    if new_layers and getattr(getattr(model, "config", None), "norm", "pre") != "pre":
        raise ValueError("only a pre-norm model can grow layers (a post-norm layer is no identity)")
    missing = [k for k in missing if k not in new_layers]
    wrong = sorted(k for k in own if k in weights and weights[k].shape != own[k].shape)
    if missing or wrong:
        k = (wrong or missing)[0]
        raise ValueError(
            f"the starting weights do not fit this model: {k} "
            + (
                f"is {tuple(weights[k].shape)}, expected {tuple(own[k].shape)}"
                if wrong
                else "is missing"
            )
            + f" ({len(missing) + len(wrong)} parameter(s) differ)"
        )
    extra = [k for k in weights if k not in own]
    if extra:
        raise ValueError(
            f"the starting weights do not fit this model: it has no {extra[0]} "
            f"({len(extra)} parameter(s) more than the model; fewer layers in the config?)"
        )
    model.load_state_dict(weights, strict=False)
    with torch.no_grad():
        for name, param in model.named_parameters():
            if name in new_layers and LAYER_KEY.sub("", name).startswith(RESIDUAL_OUTPUTS):
                param.zero_()


VOCAB_ROWS = ("embedding.weight", "output.weight", "output.bias")  # a row per vocabulary entry


def grow_vocabulary(weights: dict, own: dict) -> dict:
    """``weights`` with rows added where the model's vocabulary is larger (pieces appended
    to the tokenizer, such as the term markers): a new embedding row is the mean of the
    old ones, a new output bias the smallest old one, so the new pieces start neutral
    and are never predicted before training has seen them."""
    out = dict(weights)
    for key in VOCAB_ROWS:
        old, new = weights.get(key), own.get(key)
        if old is None or new is None or old.shape[0] >= new.shape[0]:
            continue
        if old.shape[1:] != new.shape[1:]:
            continue  # reported as a mismatch by the caller
        extra = new.shape[0] - old.shape[0]
        if old.dim() == 1:
            rows = old.min().expand(extra)
        else:
            rows = old.mean(0, keepdim=True).expand(extra, *old.shape[1:])
        out[key] = torch.cat([old, rows.to(old.dtype)], 0)
    return out


def drop_words(tgt_in: torch.Tensor, p: float, pad: int, unk: int) -> torch.Tensor:
    """Target word dropout: decoder input tokens become ``unk`` with probability ``p``;
    BOS (column 0) and padding stay."""
    drop = torch.rand(tgt_in.shape) < p
    drop[:, 0] = False
    return tgt_in.masked_fill(drop.to(tgt_in.device) & (tgt_in != pad), unk)


@torch.no_grad()
def validation_loss(model, data: Encoded, batch_tokens: int, device, autocast) -> float:
    """Mean token cross-entropy (no label smoothing) over a data set."""
    cfg = model.config
    total, tokens = 0.0, 0
    for idx in make_batches(data, batch_tokens):
        src, tgt_in, tgt_out = (t.to(device) for t in collate(data, idx, cfg.pad_id, cfg.start_id))
        with autocast:
            logits, _ = model(src, src != cfg.pad_id, tgt_in)
        total += token_loss(logits, tgt_out, cfg.pad_id).item()
        tokens += int((tgt_out != cfg.pad_id).sum())
    return total / max(1, tokens)


@dataclass
class Run:
    """One training run's working parts, built by ``train`` and shared by its steps,
    evaluations and checkpoints (nothing here outlives the run)."""

    cfg: RunConfig
    tokenizer: Tokenizer
    model: torch.nn.Module
    net: torch.nn.Module  # the model, wrapped for DDP where there are several processes
    optimizer: torch.optim.Optimizer
    scheduler: torch.optim.lr_scheduler.LambdaLR
    state: TrainState
    dist: Dist
    bf16: bool
    info: dict
    progress: Progress | None = None

    @property
    def out(self) -> Path:
        return Path(self.cfg.train.out_dir)

    @property
    def last_path(self) -> Path:
        return self.out / "checkpoints" / "last.pt"

    @property
    def best_path(self) -> Path:
        return self.out / "checkpoints" / "best.pt"

    def autocast(self):
        return torch.autocast(self.dist.device.type, dtype=torch.bfloat16, enabled=self.bf16)

    def payload(self) -> dict:
        return {
            "format": CHECKPOINT_FORMAT,
            "version": CHECKPOINT_VERSION,
            "model_config": json.dumps(self.cfg.model.to_dict()),
            "run_config": json.dumps(self.cfg.to_dict()),
            "info": json.dumps(self.info),
            "model": self.model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "scheduler": self.scheduler.state_dict(),
            "state": json.dumps(asdict(self.state)),
            "rng": torch.get_rng_state(),
            **tokenizer_payload(self.tokenizer),
        }

    def checkpoint(self, path: Path) -> None:
        payload = self.payload()
        if self.dist.device.type == "cuda":
            payload["cuda_rng"] = torch.cuda.get_rng_state()
        save_checkpoint(path, payload)

    def snapshot(self) -> None:
        """The weights alone, for checkpoint averaging; only the newest keep_snapshots stay."""
        payload = {k: v for k, v in self.payload().items() if k not in TRAINING_ONLY}
        save_checkpoint(self.last_path.parent / f"step-{self.state.step}.pt", payload)
        for old in snapshots(self.last_path.parent)[: -self.cfg.train.keep_snapshots]:
            old.unlink(missing_ok=True)

    def resume(self, log) -> None:
        """Model, optimiser, schedule, RNG and data position from the last checkpoint."""
        ckpt = load_checkpoint(self.last_path)
        self.model.load_state_dict(ckpt["model"])
        self.optimizer.load_state_dict(ckpt["optimizer"])
        self.scheduler.load_state_dict(ckpt["scheduler"])
        self.state = TrainState(**json.loads(ckpt["state"]))
        torch.set_rng_state(ckpt["rng"])
        if self.dist.device.type == "cuda" and "cuda_rng" in ckpt:
            torch.cuda.set_rng_state(ckpt["cuda_rng"])
        log(f"resumed from {self.last_path} at step {self.state.step}")

    def step(self, data: Encoded, idx: list[int]) -> None:
        """One optimiser step on one batch (``idx``: pair indices into ``data``)."""
        t0 = time.perf_counter()
        tc, pad = self.cfg.train, self.cfg.model.pad_id
        src, tgt_in, tgt_out = (
            t.to(self.dist.device) for t in collate(data, idx, pad, self.cfg.model.start_id)
        )
        if tc.word_dropout:
            tgt_in = drop_words(tgt_in, tc.word_dropout, pad, self.cfg.model.unk_id)
        loss, n_tokens = batch_loss(
            self.net, src, tgt_in, tgt_out, pad, tc.label_smoothing, self.autocast()
        )
        loss_value = loss.item()
        check_loss(loss_value, self.state.step + 1, self.last_path, self.dist.agree)
        loss.backward()
        optimiser_step(self.model, self.optimizer, tc.clip_norm)
        self.scheduler.step()
        state = self.state
        state.step += 1
        state.batch_in_epoch += 1
        state.target_tokens += n_tokens * self.dist.world
        dt = time.perf_counter() - t0
        state.elapsed_s += dt
        self.progress.update(
            state.step, loss_value, n_tokens * self.dist.world, dt, self.scheduler.get_last_lr()[0]
        )

    def evaluate(self, valid_data: Encoded, valid_pairs: list[tuple[str, str]]) -> bool:
        """Validation loss and BLEU, logged; keeps the best checkpoint. True = stop early."""
        tc, state, model = self.cfg.train, self.state, self.model
        model.eval()
        loss = validation_loss(
            model, valid_data, tc.batch_tokens, self.dist.device, self.autocast()
        )
        pairs = valid_pairs[: tc.eval_sentences]
        with torch.no_grad():  # the model alone: no post-editing step (issue 87)
            translator = Translator(model, self.tokenizer, steps="none")
            hyps = translator.translate([de for de, _ in pairs], beam=1)
        scores = (
            score_translations([h.text for h in hyps], [en for _, en in pairs]) if pairs else {}
        )
        model.train()
        metric = scores.get("bleu", 0.0) if tc.select_by == "bleu" else -loss
        improved = state.best is None or metric > state.best
        if improved:
            state.best, state.best_step, state.evals_since_best = metric, state.step, 0
        else:
            state.evals_since_best += 1
        record = {
            "step": state.step,
            "epoch": state.epoch,
            "train_loss": self.progress.mean_loss(),
            "valid_loss": round(loss, 4),
            **{k: round(v, 2) for k, v in scores.items()},
            "lr": self.scheduler.get_last_lr()[0],
            "tokens_per_s": round(self.progress.tokens_per_s()),
            "elapsed_s": round(state.elapsed_s, 1),
            "best_step": state.best_step,
            "bf16": self.bf16,
        }
        state.last_eval = record
        with open(self.out / "log.jsonl", "a", encoding="utf-8") as f:
            f.write(json.dumps(record) + "\n")
        self.progress.note(
            f"step {state.step}: valid loss {loss:.3f}"
            + (f", BLEU {scores['bleu']:.2f}, chrF {scores['chrf']:.2f}" if scores else "")
            + (" (best)" if improved else f" (best: step {state.best_step})")
        )
        if improved:
            self.checkpoint(self.best_path)
        return bool(tc.patience) and state.evals_since_best >= tc.patience


def train(
    cfg: RunConfig,
    tokenizer: Tokenizer,
    train_data: Encoded,
    valid_data: Encoded,
    valid_pairs: list[tuple[str, str]],
    *,
    init_weights: dict | None = None,
    resume: bool = False,
    device: str = "auto",
    info: dict | None = None,
    log=print,
    progress_json: bool = False,
) -> Path:
    """Train; returns the path of the best checkpoint. ``progress_json``: progress as
    JSON lines on stdout (see trainer.progress)."""
    tc = cfg.train
    dist = Dist.start(device)
    if tc.threads:
        torch.set_num_threads(tc.threads)
    run = _start_run(cfg, tokenizer, dist, init_weights, info or {})
    if resume:
        run.resume(log)
    batches = make_batches(train_data, tc.batch_tokens)
    if len(batches) < dist.world:
        raise ValueError(f"only {len(batches)} batches of training data for {dist.world} processes")
    if dist.is_main:
        padding = 100 * padding_fraction(train_data, batches)
        _write_run_files(run, log, f"{len(train_data)} pairs in {len(batches)} batches of "
                         f"<= {tc.batch_tokens} tokens, {padding:.1f} % of them padding")  # fmt: skip
    # Ctrl-C finishes the current step, writes a checkpoint and stops cleanly.
    interrupted: list[int] = []
    previous_handler = None
    if dist.is_main and hasattr(signal, "SIGINT"):
        try:
            previous_handler = signal.signal(signal.SIGINT, lambda *_: interrupted.append(1))
        except ValueError:  # not the main thread
            previous_handler = None
    run.progress = Progress(
        tc.steps, start_step=run.state.step, enabled=dist.is_main, json_lines=progress_json
    )
    run.model.train()
    try:
        _loop(run, train_data, batches, valid_data, valid_pairs, interrupted)
    finally:
        run.progress.close()
        if previous_handler is not None:
            signal.signal(signal.SIGINT, previous_handler)
        dist.stop()
    return run.best_path


def _start_run(cfg: RunConfig, tokenizer: Tokenizer, dist: Dist, init_weights, info) -> Run:
    """The model (warm-started from ``init_weights`` where given), optimiser and schedule."""
    tc = cfg.train
    torch.manual_seed(tc.seed)
    model = build_model(cfg.model)
    if init_weights is not None:
        load_weights(model, init_weights, grow=tc.grow)
    model.to(dist.device)
    optimizer = make_optimizer(model, tc.lr, tc.weight_decay)
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lr_factor(tc.schedule, tc.warmup, tc.steps, tc.schedule_offset)
    )
    return Run(
        cfg=cfg,
        tokenizer=tokenizer,
        model=model,
        net=dist.wrap(model),
        optimizer=optimizer,
        scheduler=scheduler,
        state=TrainState(),
        dist=dist,
        bf16=use_bf16(tc.bf16, dist.device),
        info=info,
    )


def _write_run_files(run: Run, log, data_text: str) -> None:
    """The run folder's copies for people (tokenizer, config, machine)."""
    out, cfg, dist = run.out, run.cfg, run.dist
    malloc = allocator_in_use()
    out.mkdir(parents=True, exist_ok=True)
    for file_name, content in run.tokenizer.files().items():
        write_atomic(out / file_name, content)
    write_atomic(out / "run_config.json", json.dumps(cfg.to_dict(), indent=2) + "\n")
    machine = {
        **hardware.facts(),
        "processes": dist.world,
        "device": str(dist.device),
        "malloc": malloc,
    }
    write_atomic(out / "hardware.json", json.dumps(machine, indent=2) + "\n")
    log(
        f"training {cfg.model.arch} ({run.model.num_parameters / 1e6:.1f} M parameters) on "
        f"{dist.device}{' with bf16 autocast' if run.bf16 else ''}, malloc: {malloc}, "
        f"{dist.world} process(es): {data_text}"
    )


def _loop(run: Run, train_data, batches, valid_data, valid_pairs, interrupted: list) -> None:
    """Steps until the schedule's end, early stopping, the time budget or Ctrl-C; an
    evaluation every eval_every steps, a checkpoint every checkpoint_every."""
    tc, state, dist, progress = run.cfg.train, run.state, run.dist, run.progress
    budget_s = tc.max_minutes * 60 if tc.max_minutes > 0 else float("inf")

    def out_of_time() -> bool:
        return dist.agree(state.elapsed_s >= budget_s)

    stop = out_of_time()
    if stop:
        progress.note(f"the time budget of {tc.max_minutes} minutes is already spent")
    while state.step < tc.steps and not stop:
        mine = dist.shard(epoch_order(len(batches), tc.seed, state.epoch))
        while state.batch_in_epoch < len(mine) and state.step < tc.steps:
            run.step(train_data, batches[mine[state.batch_in_epoch]])
            save = lambda: dist.is_main and run.checkpoint(run.last_path)  # noqa: E731
            after_step(state.step, run.last_path, dist.agree, save)  # memory_guard.py
            timed_out = out_of_time()
            last_step = state.step == tc.steps
            if state.step % tc.eval_every == 0 or last_step or timed_out:
                stop = dist.agree(dist.is_main and run.evaluate(valid_data, valid_pairs))
            if dist.is_main and (
                state.step % tc.checkpoint_every == 0 or stop or timed_out or last_step
            ):
                run.checkpoint(run.last_path)
                if tc.keep_snapshots:
                    run.snapshot()
            if dist.agree(bool(interrupted)):
                if dist.is_main:
                    run.checkpoint(run.last_path)
                    progress.note(
                        f"interrupted at step {state.step}; checkpoint written, continue with --resume"
                    )
                raise KeyboardInterrupt
            if stop:
                progress.note(f"stopping early: no improvement in {tc.patience} evaluations")
                break
            if timed_out:
                progress.note(
                    f"time budget of {tc.max_minutes} minutes spent at step {state.step}; "
                    "raise max_minutes and --resume to continue"
                )
                stop = True
                break
        if state.batch_in_epoch >= len(mine):
            state.epoch += 1
            state.batch_in_epoch = 0

"""Training configuration: a TOML file with [model], [data] and [train] tables.

Unknown keys are an error that lists the valid ones. Relative paths are relative to the
TOML file's folder, so a config can be run from anywhere.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from translator_app.core.data.corpus import MAX_LENGTH_RATIO, MAX_PAIR_CHARS
from translator_app.core.models.config import ConfigError, ModelConfig
from translator_app.core.models.from_dict import from_dict
from translator_app.core.platform.hardware import BF16_SETTINGS

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


@dataclass(frozen=True)
class DataConfig:
    train: tuple[str, ...] = ()
    valid: str = ""  # empty: hold out `valid_size` pairs of the training data
    valid_size: int = 1000
    spm: str = ""  # an existing spm.model; empty: train one of `vocab_size` pieces
    vocab_size: int = 16000
    exclude_test: tuple[str, ...] = ()
    max_tokens: int = 128  # per side, EOS included
    max_chars: int = MAX_PAIR_CHARS
    max_ratio: float = MAX_LENGTH_RATIO
    # Times each training file's pairs are used per epoch, one count per file of `train`
    # (empty: once each): oversamples a domain without copying corpora. Duplicates across
    # files count for the file listed first.
    repeat: tuple[int, ...] = ()
    # Augmentation for faithful names and numbers (trainer/augment.py): the share of the
    # pairs with a name or place on both sides that get a copy with other names, and of
    # the pairs whose numbers pair up that get a copy with other numbers (0: off).
    augment_entities: float = 0.0
    augment_numbers: float = 0.0
    # Inline term annotations (trainer/term_data.py): a dictionary TSV (German, English),
    # the share of training pairs (their [data] repeat copies included, so a repeated
    # file's pairs are annotated in several ways) that get an annotated copy, the share of those
    # annotations that ask for another English word. A dictionary adds the marker pieces
    # to the tokenizer (and rows to a warm-started model's embedding).
    terms: str = ""
    terms_share: float = 0.0
    terms_swap: float = 0.5
    # The share of the pairs (augmented copies included) that get a copy with the facts
    # the translator protects annotated (numbers, dates, names, places; term_data.py).
    facts_share: float = 0.0
    # Shards the repeated and augmented copies are made in, in parallel processes (each
    # shard with random draws of its own; the result does not depend on the cores). 0: one
    # pass in one process, as every recipe before the GPU teacher (issue 63).
    prepare_shards: int = 0


@dataclass(frozen=True)
class TrainConfig:
    out_dir: str = "runs/model"
    steps: int = 20000
    max_minutes: float = 0.0  # training-time budget (evaluation excluded); 0 = no limit
    batch_tokens: int = 4096
    lr: float = 7e-4
    warmup: int = 1000
    schedule: str = "inverse_sqrt"  # inverse_sqrt | cosine | constant
    # Steps a warm-started model (--init) was already trained: the schedule's decay goes on
    # from there instead of climbing back to the peak rate (the warm-up is still done).
    schedule_offset: int = 0
    # Warm start into a deeper model: layers the --init bundle lacks start as identities
    # (see trainer.train.load_weights), so the [model] may have more layers than it.
    grow: bool = False
    weight_decay: float = 0.01
    label_smoothing: float = 0.1
    # Target word dropout: each decoder input token (BOS kept) becomes <unk> with this
    # probability, so the decoder leans on the source more (Sennrich & Zhang 2019).
    word_dropout: float = 0.0
    clip_norm: float = 1.0
    eval_every: int = 1000
    eval_sentences: int = 500  # validation sentences translated for BLEU
    checkpoint_every: int = 500
    # Keep the model weights of the last N checkpoints (checkpoints/step-N.pt) for
    # `translator-train average`; 0 keeps none.
    keep_snapshots: int = 0
    # keep the prepared data in the run folder, for --resume (trainer/data_cache.py)
    cache_data: bool = False
    patience: int = 10  # evaluations without improvement before stopping; 0 = never
    select_by: str = "bleu"  # bleu | loss: what "best checkpoint" means
    seed: int = 1
    bf16: str = "auto"  # auto | on | off; auto: CUDA with bf16, or a CPU with avx512_bf16/AMX
    threads: int = 0  # torch CPU threads; 0 = torch's default


SCHEDULES = ("inverse_sqrt", "cosine", "constant")


@dataclass(frozen=True)
class RunConfig:
    model: ModelConfig
    data: DataConfig = field(default_factory=DataConfig)
    train: TrainConfig = field(default_factory=TrainConfig)

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model.to_dict(),
            "data": dataclasses.asdict(self.data),
            "train": dataclasses.asdict(self.train),
        }


def _table(cls, data: Any, where: str):
    return from_dict(cls, data, f"[{where}]", error=ConfigError)


def validate_train(t: TrainConfig) -> None:
    if t.schedule not in SCHEDULES:
        raise ConfigError(f"[train] schedule={t.schedule!r} is not one of {', '.join(SCHEDULES)}")
    if t.select_by not in ("bleu", "loss"):
        raise ConfigError(f"[train] select_by={t.select_by!r} must be bleu or loss")
    if t.bf16 not in BF16_SETTINGS:
        raise ConfigError(f"[train] bf16={t.bf16!r} must be auto, on or off")
    for key in ("steps", "batch_tokens", "eval_every", "checkpoint_every"):
        if getattr(t, key) < 1:
            raise ConfigError(f"[train] {key} must be at least 1")
    for key in ("schedule_offset", "keep_snapshots"):
        if getattr(t, key) < 0:
            raise ConfigError(f"[train] {key} must not be negative")
    for key in ("label_smoothing", "word_dropout"):
        if not 0.0 <= getattr(t, key) < 1.0:
            raise ConfigError(f"[train] {key} must be in [0, 1)")


def parse_config(data: dict[str, Any], base: Path, vocab_size: int | None = None) -> RunConfig:
    unknown = sorted(set(data) - {"model", "data", "train"})
    if unknown:
        raise ConfigError(
            f"unknown table(s) {', '.join(unknown)}; valid tables are: model, data, train"
        )
    d = _table(DataConfig, data.get("data", {}), "data")
    if d.repeat and len(d.repeat) != len(d.train):
        raise ConfigError(
            f"[data] repeat has {len(d.repeat)} counts for {len(d.train)} train files;"
            " give one count per file"
        )
    for key in ("augment_entities", "augment_numbers", "terms_share", "terms_swap", "facts_share"):
        if not 0.0 <= getattr(d, key) <= 1.0:
            raise ConfigError(f"[data] {key} must be between 0 and 1")
    if d.prepare_shards < 0:
        raise ConfigError(f"[data] prepare_shards must not be negative: {d.prepare_shards}")
    if any(r < 1 for r in d.repeat):
        raise ConfigError(f"[data] repeat counts must be whole numbers of at least 1: {d.repeat}")

    def resolve(p: str) -> str:
        return str((base / p).resolve()) if p else p

    d = dataclasses.replace(
        d,
        train=tuple(resolve(p) for p in d.train),
        valid=resolve(d.valid),
        spm=resolve(d.spm),
        terms=resolve(d.terms),
        exclude_test=tuple(resolve(p) for p in d.exclude_test),
    )
    t = _table(TrainConfig, data.get("train", {}), "train")
    t = dataclasses.replace(t, out_dir=resolve(t.out_dir))
    validate_train(t)
    model = dict(data.get("model", {}))
    model["vocab_size"] = vocab_size or model.get("vocab_size", d.vocab_size)
    return RunConfig(ModelConfig.from_dict(model), d, t)


# Path settings of a config, resolved against the folder of the file that sets them.
_PATH_KEYS = {
    "data": ("train", "valid", "spm", "terms", "exclude_test"),
    "train": ("out_dir",),
}
# Top-level entries besides the tables: ``base`` (a config this one changes) and the
# recipe's ``[stage]`` table (trainer/recipe.py), which training itself does not read.
_EXTRA_KEYS = ("base", "stage")


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text("utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: {e}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot be read ({e})") from None


def _absolute_paths(raw: dict[str, Any], folder: Path) -> dict[str, Any]:
    out = {k: dict(v) if isinstance(v, dict) else v for k, v in raw.items()}
    for table, keys in _PATH_KEYS.items():
        t = out.get(table)
        if not isinstance(t, dict):
            continue
        for key in keys:
            v = t.get(key)
            if isinstance(v, str) and v:
                t[key] = str((folder / v).resolve())
            elif isinstance(v, list):
                t[key] = [str((folder / p).resolve()) if isinstance(p, str) else p for p in v]
    return out


def read_config_chain(path: Path, _seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    """A config's raw tables with its ``base = "other.toml"`` chain applied (nanoGPT-style
    overrides: a key set here replaces the base's; tables merge key by key), and every
    path resolved against the folder of the file that sets it."""
    path = Path(path).resolve()
    if path in _seen:
        raise ConfigError(f"{path}: its base chain comes back to itself")
    raw = _absolute_paths(_read_toml(path), path.parent)
    base = raw.pop("base", None)
    if base is None:
        return raw
    if not isinstance(base, str):
        raise ConfigError(f"{path}: base must be the name of another config file")
    merged = read_config_chain(path.parent / base, (*_seen, path))
    for key, value in raw.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged


def load_config(path: Path) -> RunConfig:
    raw = read_config_chain(path)
    try:
        cfg = parse_config({k: v for k, v in raw.items() if k not in _EXTRA_KEYS}, path.parent)
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from None
    if not cfg.data.train:
        raise ConfigError(f"{path}: [data] train lists no files")
    return cfg

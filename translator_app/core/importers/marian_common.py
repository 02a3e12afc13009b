"""What both Marian layouts share: the one error a refused download raises, size and
value checks, and Marian's configuration and tensor shapes in our terms. The readers of
the two layouts (:mod:`translator_app.core.importers.marian_hf`,
:mod:`translator_app.core.importers.marian_npz`) build on it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

from translator_app.core.models.config import ConfigError, ModelConfig
from translator_app.core.models.model import build_model
from translator_app.core.platform.paths import special_file
from translator_app.core.text.pair_tokenizer import (
    VOCAB_FILE,
    PairTokenizer,
    VocabularyError,
)

MAX_WEIGHTS_BYTES = 4 * 1024**3  # opus-mt-de-en is 298 MB; "big" models about 900 MB
ACTIVATIONS = {"swish": "silu", "silu": "silu", "relu": "relu", "gelu": "gelu"}
# Marian trains its guided alignment on the first head of the last decoder layer
# (--transformer-guided-alignment-layer last); the import measures it (alignment_choice).
GUIDED_LAYER, GUIDED_HEAD = -1, 0


# What a user can do about any refused download (one line with the file and the problem).
WHAT_TO_DO = "download the model again from its publisher, or choose another model"


class MarianImportError(Exception):
    """A download that cannot be imported; ``str()`` is one line: the file, the problem
    and what the user can do."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}; {WHAT_TO_DO}")


def check_finite(tensors: dict[str, Any], where: Path) -> None:
    """Refuse NaN or infinite weights (a model with them translates garbage), naming the
    tensor. ``tensors``: names to tensors or NumPy arrays, as the download names them."""
    for name, t in tensors.items():
        t = torch.as_tensor(t)
        if t.is_floating_point() and t.numel() and not bool(torch.isfinite(t).all()):
            raise MarianImportError(where, f"tensor {name} holds NaN or infinite values")


# Bounds of the sizes a configuration may give (beyond them it is not a model: a layer
# count of a billion would build for hours).
def check_regular(path: Path) -> None:
    """Refuse what is no regular file once links are followed: a named pipe hung the
    import, a link to /dev/urandom read 5 GB before it failed (issue 86 §2)."""
    if special_file(path):
        raise MarianImportError(path, "is not a regular file (a pipe or a device); refused")


def check_weights_size(path: Path) -> None:
    check_regular(path)
    if path.stat().st_size > MAX_WEIGHTS_BYTES:
        raise MarianImportError(path, f"is larger than {MAX_WEIGHTS_BYTES // 1024**3} GB; refused")


def short(value: Any) -> str:
    """A value for a message: its repr, cut to 60 characters (a 5,000-digit number or a
    nested list must not flood the one line)."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**30 else "a huge number"
    return text if len(text) <= 60 else text[:57] + "..."


def read_limited(path: Path, limit: int) -> bytes:
    """The bytes of ``path``; a missing, unreadable or oversized file is one clear error."""
    check_regular(path)
    if not path.is_file():
        raise MarianImportError(path, "is missing from the model folder")
    if path.stat().st_size > limit:
        raise MarianImportError(path, f"is larger than {limit // 1024**2} MB; refused")
    try:
        return path.read_bytes()
    except OSError as e:
        raise MarianImportError(path, f"cannot be read ({e.strerror or e})") from None


def pair_tokenizer(source: bytes, target: bytes, vocab: bytes, folder: Path) -> PairTokenizer:
    try:
        return PairTokenizer(source, target, vocab)
    except VocabularyError as e:
        raise MarianImportError(folder / VOCAB_FILE, str(e)) from None
    except (RuntimeError, OSError) as e:  # SentencePiece refuses a corrupt model
        raise MarianImportError(
            folder, f"source.spm or target.spm is not a SentencePiece model ({e})"
        ) from None


def marian_config(
    *,
    vocab_size: int,
    d_model: int,
    enc_layers: int,
    dec_layers: int,
    n_heads: int,
    ff_dim: int,
    max_positions: int,
    activation: str,
    scale_embeddings: bool,
    tokenizer: PairTokenizer,
    where: Path,
) -> ModelConfig:
    """Our Transformer configured as Marian's, from sizes read off the download."""
    if activation not in ACTIVATIONS:
        raise MarianImportError(
            where, f"uses the activation {activation!r}; supported: {', '.join(ACTIVATIONS)}"
        )
    if tokenizer.vocab_size > vocab_size:
        raise MarianImportError(
            where,
            f"the vocabulary has {tokenizer.vocab_size} pieces but the model only "
            f"{vocab_size} embeddings",
        )
    try:
        return ModelConfig(
            arch="transformer",
            vocab_size=vocab_size,
            pad_id=tokenizer.pad_id,
            unk_id=tokenizer.unk_id,
            bos_id=tokenizer.pad_id,
            eos_id=tokenizer.eos_id,
            dropout=0.1,
            tie_embeddings=True,
            enc_layers=enc_layers,
            dec_layers=dec_layers,
            d_model=d_model,
            n_heads=n_heads,
            ff_dim=ff_dim,
            positions="sinusoidal_halves",
            max_positions=max_positions,
            alignment_layer=GUIDED_LAYER,
            alignment_head=GUIDED_HEAD,
            norm="post",
            activation=ACTIVATIONS[activation],
            scale_embeddings=scale_embeddings,
            output_bias=True,
            decoder_start="pad",
        )
    except ConfigError as e:
        raise MarianImportError(where, str(e)) from None


def expected_shapes(config: ModelConfig) -> dict[str, tuple[int, ...]]:
    """Our state-dict names and shapes for ``config``, built on the meta device (nothing
    allocated), without the tied output weight."""
    with torch.device("meta"):
        model = build_model(config)
    return {k: tuple(v.shape) for k, v in model.state_dict().items() if k != "output.weight"}


def check_shapes(
    state: dict[str, Any], config: ModelConfig, where: Path, shape=lambda t: tuple(t.shape)
) -> None:
    """Every tensor the config needs is there with its shape, and nothing else."""
    want = expected_shapes(config)
    missing = sorted(set(want) - set(state))
    extra = sorted(set(state) - set(want))
    if missing or extra:
        parts = [f"missing {', '.join(missing[:4])}"] if missing else []
        parts += [f"unexpected {', '.join(extra[:4])}"] if extra else []
        raise MarianImportError(
            where, "weights do not match the configuration: " + "; ".join(parts)
        )
    for name, size in want.items():
        if tuple(shape(state[name])) != size:
            raise MarianImportError(
                where,
                f"tensor for {name} has shape {tuple(shape(state[name]))}, the configuration "
                f"implies {size}",
            )

"""Checkpoints: written atomically, read safely (tensors and plain values only, never
code), and averaged.

A checkpoint is a dict: ``format``/``version``, the model and run configs and the run's
info as JSON strings, the model's state dict, the SentencePiece model as a uint8 tensor,
the training state as JSON, and (``last.pt`` only) optimiser, schedule and RNG state for
``--resume``. Snapshots (``step-N.pt``) hold the same minus the training-only parts; the
average of the last few is often a better model than any one of them (Vaswani et al.
2017 averaged the last 5 or 20).
"""

from __future__ import annotations

import io
import json
import pickle
import re
import warnings
from pathlib import Path

import torch

from translator_app.core.platform.paths import write_atomic
from translator_app.core.text.pair_tokenizer import tokenizer_from_files
from translator_app.core.text.tokenizer import SPM_FILE

CHECKPOINT_FORMAT = "translator-checkpoint"
CHECKPOINT_VERSION = 1
TRAINING_ONLY = ("optimizer", "scheduler", "rng", "cuda_rng")
SNAPSHOT = re.compile(r"step-(\d+)\.pt")


def save_checkpoint(path: Path, payload: dict) -> None:
    """Write atomically: a crash or a full disk leaves the previous checkpoint intact and
    no temporary file behind; a failure is one OSError naming the checkpoint."""
    buffer = io.BytesIO()
    torch.save(payload, buffer)
    try:
        write_atomic(path, buffer.getbuffer())
    except OSError as e:
        raise OSError(
            f"{path}: could not write the checkpoint ({e.strerror or e}); "
            "the previous checkpoint is kept"
        ) from None


def load_checkpoint(path: Path) -> dict:
    """Load safely (tensors and plain values only, never code) and check before it is
    trusted: its format and version, and finite values in every weight and optimiser
    tensor (issue 64 §4: garbage written over the middle of a checkpoint loaded, and the
    resumed run trained with loss NaN from its first step)."""
    try:
        if Path(path).stat().st_size == 0:
            raise ValueError(f"{path}: an empty file (0 bytes), not a checkpoint")
        with warnings.catch_warnings():  # PyTorch warns of a pickle before it refuses it
            warnings.simplefilter("ignore")
            ckpt = torch.load(path, map_location="cpu", weights_only=True)
    except FileNotFoundError:
        raise ValueError(f"{path}: no such checkpoint") from None
    except pickle.UnpicklingError as e:
        # PyTorch's text for either case is a page of advice to load unsafely.
        if "global" in str(e):
            raise ValueError(
                f"{path}: holds pickled Python objects beside tensors, which are never "
                "loaded (only checkpoints this trainer writes are)"
            ) from None
        raise ValueError(f"{path}: not a readable checkpoint (damaged or another format)") from None
    except ValueError:
        raise
    except Exception as e:  # unpickling errors of every kind
        raise ValueError(f"{path}: not a readable checkpoint ({_first_line(e)})") from None
    if not isinstance(ckpt, dict) or ckpt.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"{path}: not a translator checkpoint")
    if ckpt.get("version") != CHECKPOINT_VERSION:
        raise ValueError(
            f"{path}: checkpoint version {ckpt.get('version')!r} is not {CHECKPOINT_VERSION}"
        )
    damaged = first_non_finite(ckpt)
    if damaged:
        raise ValueError(
            f"{path}: damaged: {damaged} holds NaN or infinite values (not used; resume "
            "from another checkpoint or start again)"
        )
    return ckpt


def _first_line(e: BaseException) -> str:
    lines = str(e).strip().splitlines()
    return lines[0] if lines else type(e).__name__


def first_non_finite(ckpt: dict) -> str:
    """The name of the first floating-point tensor of the weights or the optimiser
    state that holds NaN or infinity ("" where none does)."""
    tensors = [(f"weight {k}", v) for k, v in ckpt.get("model", {}).items()]
    for n, state in ckpt.get("optimizer", {}).get("state", {}).items():
        tensors += [(f"optimiser state {n}.{k}", v) for k, v in state.items()]
    for name, t in tensors:
        if isinstance(t, torch.Tensor) and t.is_floating_point() and not torch.isfinite(t).all():
            return name
    return ""


def tokenizer_payload(tokenizer) -> dict:
    """What a checkpoint stores of its tokenizer: the joint model under "spm" (as every
    checkpoint did), other tokenizers' files under "tokenizer_files"; uint8 tensors, which
    ``torch.load(weights_only=True)`` reads."""

    def as_tensor(data: bytes) -> torch.Tensor:
        return torch.frombuffer(bytearray(data), dtype=torch.uint8)

    files = tokenizer.files()
    if list(files) == [SPM_FILE]:
        return {"spm": as_tensor(files[SPM_FILE])}
    return {"tokenizer_files": {name: as_tensor(data) for name, data in files.items()}}


def checkpoint_tokenizer_files(ckpt: dict) -> dict[str, bytes]:
    if "tokenizer_files" in ckpt:
        return {n: bytes(t.numpy().tobytes()) for n, t in ckpt["tokenizer_files"].items()}
    return {SPM_FILE: bytes(ckpt["spm"].numpy().tobytes())}


def checkpoint_tokenizer(ckpt: dict):
    """The tokenizer a checkpoint was trained with."""
    return tokenizer_from_files(checkpoint_tokenizer_files(ckpt))


def snapshots(folder: Path) -> list[Path]:
    """The weight snapshots in a checkpoint folder, oldest step first."""
    found = [
        (int(m.group(1)), p) for p in folder.glob("step-*.pt") if (m := SNAPSHOT.fullmatch(p.name))
    ]
    return [p for _, p in sorted(found)]


def average_checkpoints(paths: list[Path]) -> dict:
    """One checkpoint whose weights are the mean of ``paths``' weights (same model and
    tokenizer required); configs and training state are the newest one's, with the
    averaged steps recorded in its state."""
    if not paths:
        raise ValueError("no checkpoints to average")
    first = load_checkpoint(paths[0])
    total = {k: v.double() if v.is_floating_point() else v for k, v in first["model"].items()}
    steps = [json.loads(first["state"])["step"]]
    newest = first
    for path in paths[1:]:
        ckpt = load_checkpoint(path)
        if ckpt["model_config"] != first["model_config"] or checkpoint_tokenizer_files(
            ckpt
        ) != checkpoint_tokenizer_files(first):
            raise ValueError(f"{path}: another model or tokenizer than {paths[0]}; cannot average")
        if ckpt["model"].keys() != total.keys():
            raise ValueError(f"{path}: other parameters than {paths[0]}; cannot average")
        for k, v in ckpt["model"].items():
            if v.is_floating_point():
                total[k] += v.double()
        steps.append(json.loads(ckpt["state"])["step"])
        if steps[-1] >= max(steps[:-1]):
            newest = ckpt
    averaged = {
        k: (v / len(paths)).to(first["model"][k].dtype) if v.is_floating_point() else v
        for k, v in total.items()
    }
    state = json.loads(newest["state"]) | {"averaged_steps": steps}
    payload = {k: v for k, v in newest.items() if k not in TRAINING_ONLY}
    return payload | {"model": averaged, "state": json.dumps(state)}

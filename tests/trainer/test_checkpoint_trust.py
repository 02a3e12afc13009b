"""A checkpoint is checked before it is trusted, and a NaN loss stops a run (issue 64 §4):
a checkpoint overwritten with garbage in the middle resumed with loss NaN from its first
step and ended "no improvement", exit 0; a zero-byte one said "IndexError"."""

from __future__ import annotations

import math
import pickle

import pytest
import torch

from trainer.checkpoints import (
    CHECKPOINT_FORMAT,
    CHECKPOINT_VERSION,
    first_non_finite,
    load_checkpoint,
    save_checkpoint,
)
from trainer.loss_guard import NonFiniteLoss, check_loss


def _checkpoint(weight: torch.Tensor) -> dict:
    return {
        "format": CHECKPOINT_FORMAT,
        "version": CHECKPOINT_VERSION,
        "model": {"embed.weight": weight, "steps": torch.tensor(3)},
        "optimizer": {"state": {0: {"exp_avg": torch.zeros(2), "step": torch.tensor(1.0)}}},
    }


def test_a_sound_checkpoint_loads(tmp_path):
    path = tmp_path / "last.pt"
    save_checkpoint(path, _checkpoint(torch.ones(2, 2)))
    assert torch.equal(load_checkpoint(path)["model"]["embed.weight"], torch.ones(2, 2))


def test_nan_or_infinite_values_are_refused_naming_the_tensor(tmp_path):
    path = tmp_path / "last.pt"
    save_checkpoint(path, _checkpoint(torch.tensor([[1.0, math.nan], [0.0, 1.0]])))
    with pytest.raises(ValueError, match=r"last\.pt: damaged: weight embed\.weight holds NaN"):
        load_checkpoint(path)
    ckpt = _checkpoint(torch.ones(2))
    ckpt["optimizer"]["state"][0]["exp_avg"] = torch.tensor([0.0, math.inf])
    assert first_non_finite(ckpt) == "optimiser state 0.exp_avg"


def test_an_empty_file_and_garbage_are_named_in_a_sentence(tmp_path):
    empty = tmp_path / "empty.pt"
    empty.write_bytes(b"")
    with pytest.raises(ValueError, match=r"empty\.pt: an empty file \(0 bytes\)"):
        load_checkpoint(empty)
    garbage = tmp_path / "garbage.pt"
    garbage.write_bytes(b"\x00\x01 not a checkpoint" * 100)
    with pytest.raises(ValueError, match=r"garbage\.pt: not a readable checkpoint \(.+\)"):
        load_checkpoint(garbage)


class Payload:  # any class: pickling it stores a reference to code
    pass


def test_a_pickled_object_is_never_loaded(tmp_path):
    path = tmp_path / "pickled.pt"
    with open(path, "wb") as f:
        torch.save({"format": CHECKPOINT_FORMAT, "thing": Payload()}, f, pickle_module=pickle)
    with pytest.raises(ValueError, match=r"pickled\.pt: holds pickled Python objects"):
        load_checkpoint(path)


def test_a_non_finite_loss_stops_every_process():
    votes = []

    def agree(flag: bool) -> bool:
        votes.append(flag)
        return flag

    check_loss(2.5, 7, "runs/x/checkpoints/last.pt", agree)
    for bad in (math.nan, math.inf):
        with pytest.raises(NonFiniteLoss, match=r"became (nan|inf) at step 8: .*last\.pt"):
            check_loss(bad, 8, "runs/x/checkpoints/last.pt", agree)
    assert votes == [False, True, True]

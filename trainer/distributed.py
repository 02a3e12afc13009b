"""Single-process or DDP training, behind one small interface.

Under ``torchrun`` (RANK / WORLD_SIZE / LOCAL_RANK in the environment) every process
takes its share of each epoch's batches; gradients are averaged by DDP (NCCL on GPUs,
gloo on the CPU). Only process 0 evaluates and writes files.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import torch
import torch.distributed as torch_dist

from translator_app.core.engine.bundle_torch import resolve_device


def is_main_process() -> bool:
    """False in the other processes of a torchrun run, before or after :class:`Dist`
    exists: only the first writes bundles and reports."""
    return os.environ.get("RANK", "0") == "0"


@dataclass
class Dist:
    rank: int
    world: int
    device: torch.device

    @property
    def is_main(self) -> bool:
        return self.rank == 0

    @classmethod
    def start(cls, device: str = "auto") -> Dist:
        world = int(os.environ.get("WORLD_SIZE", "1"))
        if world == 1:
            return cls(0, 1, resolve_device(device)[0])
        rank, local = int(os.environ["RANK"]), int(os.environ.get("LOCAL_RANK", "0"))
        dev = resolve_device(device)[0]
        if dev.type == "cuda":
            dev = torch.device("cuda", local)
            torch.cuda.set_device(dev)
        if not torch_dist.is_initialized():
            torch_dist.init_process_group("nccl" if dev.type == "cuda" else "gloo")
        return cls(rank, world, dev)

    def wrap(self, model: torch.nn.Module) -> torch.nn.Module:
        if self.world == 1:
            return model
        from torch.nn.parallel import DistributedDataParallel

        ids = [self.device.index] if self.device.type == "cuda" else None
        return DistributedDataParallel(model, device_ids=ids)

    def shard(self, order: list[int]) -> list[int]:
        """This process's batches; every process gets the same number."""
        usable = len(order) - len(order) % self.world
        return order[self.rank : usable : self.world]

    def agree(self, flag: bool) -> bool:
        """True on every process if it is True on any (stop decisions)."""
        if self.world == 1:
            return flag
        t = torch.tensor([1.0 if flag else 0.0], device=self.device)
        torch_dist.all_reduce(t, op=torch_dist.ReduceOp.MAX)
        return bool(t.item())

    def stop(self) -> None:
        if self.world > 1 and torch_dist.is_initialized():
            torch_dist.barrier()
            torch_dist.destroy_process_group()

"""The arithmetic a translator runs in on the CPU: int8 where PyTorch has a quantized
engine (the app's default), and the dynamic int8 copy of a PyTorch model."""

from __future__ import annotations

import copy
import warnings
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported in the functions: a CTranslate2 translator needs none
    import torch


def auto_precision(device: torch.device) -> str:
    """int8 on the CPU where PyTorch has a quantized engine, else fp32. Measured on the
    base model (bench/bench_translate.py --test, see its model card): int8 cuts greedy
    latency 2-3x on 2 cores at the same BLEU; bf16 autocast helps only with AMX."""
    if device.type == "cpu" and any(e in ("x86", "fbgemm") for e in _quantized_engines()):
        return "int8"
    return "fp32"


def _quantized_engines() -> list[str]:
    import torch

    try:
        return list(torch.backends.quantized.supported_engines)
    except Exception:  # noqa: BLE001 - an exotic build: quantisation simply is not offered
        return []


def quantize_dynamic_int8(model: torch.nn.Module) -> torch.nn.Module:
    """A copy of ``model`` whose Linear layers run with int8 weights and dynamically
    quantised activations (CPU). The original model is left untouched."""
    import torch
    from torch.ao.quantization import quantize_dynamic

    with warnings.catch_warnings():
        # torch.ao.quantization is deprecated in favour of torchao, but still the one
        # eager-mode dynamic quantisation that needs no extra package.
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", UserWarning)
        return quantize_dynamic(copy.deepcopy(model), {torch.nn.Linear}, dtype=torch.qint8)

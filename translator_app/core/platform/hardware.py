"""What the CPU can do, detected (never assumed): CI and users' machines differ."""

from __future__ import annotations

import functools
import os
import platform

# Where a model runs ("auto": CUDA when present, else the CPU), how the translator
# computes ("auto": see engine/precision.auto_precision), and the trainer's bf16 switch.
DEVICES = ("auto", "cpu", "cuda")
PRECISIONS = ("auto", "fp32", "bf16", "int8")
# What decodes: CTranslate2 for Transformer models where it is installed (auto), or the
# PyTorch search (the reference, and what RNN models use).
ENGINES = ("auto", "ctranslate2", "torch")
BF16_SETTINGS = ("auto", "on", "off")


# The CPU features that decide training and inference speed here.
SPEED_FEATURES = ("amx_bf16", "amx_int8", "avx512_bf16", "avx512f", "avx2")


@functools.cache
def _cpuinfo(field: str) -> str | None:
    """The first ``field`` line's value in /proc/cpuinfo (Linux); None where unavailable."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith(field):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def cpu_flags() -> frozenset[str]:
    """CPU feature flags from /proc/cpuinfo (Linux); empty where unavailable."""
    return frozenset((_cpuinfo("flags") or "").split())


def has_fast_bf16_training() -> bool:
    """Whether bf16 autocast speeds up training on this CPU. Measured with the trainer's own
    tokens/s: on AMD EPYCs with avx512_bf16 (no AMX) bf16 trained 2-3.6x faster than fp32;
    on an Intel Xeon (family 6 model 207) whose VM shows avx512_bf16 but not AMX it trained
    at 0.71x fp32 (1,148 against 1,616 tok/s, recipe stage 13). So: AMX, or avx512_bf16 on
    an AMD CPU. Elsewhere bf16 is emulated or slow, and fp32 is the faster choice."""
    flags = cpu_flags()
    return "amx_bf16" in flags or ("avx512_bf16" in flags and cpu_vendor() == "AuthenticAMD")


def cpu_vendor() -> str:
    """The CPU vendor id from /proc/cpuinfo (GenuineIntel, AuthenticAMD); '' where unknown."""
    return _cpuinfo("vendor_id") or ""


def cpu_name() -> str:
    """The CPU's model name from /proc/cpuinfo (Linux), else what platform reports."""
    return _cpuinfo("model name") or platform.processor() or platform.machine()


# oneDNN's instruction-set levels that change int8 rounding, lowest first, each with the
# CPU flag that offers it (ONEDNN_MAX_CPU_ISA names them so; VNNI and AMX accumulate
# otherwise than AVX2's pairwise adds).
_ONEDNN_LEVELS = (
    ("AVX2", "avx2"),
    ("AVX2_VNNI", "avx_vnni"),
    ("AVX512_CORE", "avx512bw"),
    ("AVX512_CORE_VNNI", "avx512_vnni"),
    ("AVX512_CORE_AMX", "amx_int8"),
)
_MKL_LEVELS = (
    ("AVX2", "avx2"),
    ("AVX512", "avx512bw"),
    ("AVX512_E1", "avx512_vnni"),
    ("AVX512_E4", "amx_int8"),
)


def int8_kind(
    flags: frozenset[str] | None = None,
    vendor: str | None = None,
    env: dict | None = None,
    machine: str | None = None,
) -> str:
    """How CTranslate2 computes int8 on this CPU, as its rules and its environment
    variables decide: the GEMM backend and the instruction set it may use, and the
    instruction set of CTranslate2's own kernels where it is not AVX2. Two machines of
    one kind write the same English; of two kinds, a word may differ.

    Intel MKL on a GenuineIntel CPU unless CT2_USE_MKL says otherwise, oneDNN elsewhere
    (ONEDNN_MAX_CPU_ISA caps it; MKL_ENABLE_INSTRUCTIONS caps MKL); CTranslate2's own
    kernels AVX2 unless CT2_FORCE_CPU_ISA says otherwise (AVX-512 is not in its
    automatic choice). ``flags``, ``vendor``, ``env``, ``machine``: this machine's by
    default.

    >>> int8_kind(frozenset({"avx2", "avx512bw", "avx512_vnni"}), "AuthenticAMD",
    ...           {"ONEDNN_MAX_CPU_ISA": "AVX2"}, "x86_64")
    'oneDNN AVX2'
    """
    flags = cpu_flags() if flags is None else flags
    vendor = cpu_vendor() if vendor is None else vendor
    env = os.environ if env is None else env
    machine = (machine or platform.machine()).lower()
    if machine not in ("x86_64", "amd64"):
        return f"CTranslate2's default for {machine}"
    use_mkl = env.get("CT2_USE_MKL", "").strip().lower()
    mkl = vendor == "GenuineIntel" if not use_mkl else use_mkl in ("1", "true", "on", "yes")
    name, levels, cap_var = (
        ("MKL", _MKL_LEVELS, "MKL_ENABLE_INSTRUCTIONS")
        if mkl
        else ("oneDNN", _ONEDNN_LEVELS, "ONEDNN_MAX_CPU_ISA")
    )
    offered = [level for level, flag in levels if flag in flags] or ["below AVX2"]
    cap = env.get(cap_var, "").strip().upper()
    names = [level for level, _ in levels]
    if cap in names and offered[-1] in names and names.index(cap) < names.index(offered[-1]):
        offered.append(cap)
    kind = f"{name} {offered[-1]}"
    own = env.get("CT2_FORCE_CPU_ISA", "").strip().upper()
    return f"{kind}, kernels {own}" if own and own != "AVX2" else kind


def recorded_int8_kind(record: dict) -> str:
    """What CTranslate2's int8 ran on for a machine :func:`facts` recorded: its
    ``int8_backend``, or, for a record older than that, what its CPU and oneDNN cap
    imply (MKL on an Intel CPU, where the cap does nothing); "" where nothing tells.

    >>> recorded_int8_kind({"cpu": "AMD EPYC 9R14", "onednn_isa_cap": "AVX2"})
    'oneDNN AVX2'
    """
    if record.get("int8_backend"):
        return record["int8_backend"]
    if "intel" in str(record.get("cpu", "")).lower():
        return "Intel MKL"
    return f"oneDNN {record['onednn_isa_cap']}" if record.get("onednn_isa_cap") else ""


def facts() -> dict:
    """What a training run or a benchmark ran on, for model cards (measured here, never
    typed in): CPU, its cores, torch's threads, the features that decide speed, the GPU."""
    # Imported here, not at the top: the window imports this module for its settings
    # and shows itself before PyTorch (1.4 s of a 2-core start) has loaded behind it.
    import torch

    return {
        "cpu": cpu_name(),
        "cpu_cores": os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
        "features": [c for c in SPEED_FEATURES if c in cpu_flags()],
        "cuda": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
        # int8 GEMMs round otherwise with AVX-512 VNNI than with AVX2 (the English can
        # differ by a word); a figure made with oneDNN capped says so.
        "onednn_isa_cap": os.environ.get("ONEDNN_MAX_CPU_ISA"),
        # what CTranslate2's int8 ran on (the cap above reaches oneDNN only, not MKL)
        "int8_backend": int8_kind(),
    }


def describe_machine() -> str:
    f = facts()
    return (
        f"{platform.machine()} CPU, {f['torch_threads']} torch threads, "
        f"features: {', '.join(f['features']) or 'unknown'}; CUDA: {f['cuda'] or 'none'}"
    )

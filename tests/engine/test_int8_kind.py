"""How CTranslate2 computes int8 on a CPU (hardware.int8_kind): the GEMM backend its rules
and environment variables choose, and the instruction set that backend may use. Two
machines of one kind write the same English; the model card and the regression lane
name the kind their figures and English were made on (issue 84)."""

from __future__ import annotations

import pytest

from translator_app.core.platform.hardware import int8_kind, recorded_int8_kind

AVX2 = frozenset({"avx2"})
EPYC = frozenset({"avx2", "avx512f", "avx512bw", "avx512_vnni", "avx512_bf16"})
XEON = EPYC | {"amx_int8", "amx_bf16", "avx_vnni"}


@pytest.mark.parametrize(
    ("flags", "vendor", "env", "kind"),
    [
        # CTranslate2 runs Intel MKL on a GenuineIntel CPU, oneDNN elsewhere
        (XEON, "GenuineIntel", {}, "MKL AVX512_E4"),
        (EPYC, "AuthenticAMD", {}, "oneDNN AVX512_CORE_VNNI"),
        (AVX2, "GenuineIntel", {}, "MKL AVX2"),
        # the oneDNN cap reaches oneDNN only: on an Intel CPU it does nothing
        (XEON, "GenuineIntel", {"ONEDNN_MAX_CPU_ISA": "AVX2"}, "MKL AVX512_E4"),
        (EPYC, "AuthenticAMD", {"ONEDNN_MAX_CPU_ISA": "AVX2"}, "oneDNN AVX2"),
        # CT2_USE_MKL=0 chooses oneDNN on Intel (what the tests run), =1 MKL anywhere
        (XEON, "GenuineIntel", {"CT2_USE_MKL": "0", "ONEDNN_MAX_CPU_ISA": "AVX2"}, "oneDNN AVX2"),
        (XEON, "GenuineIntel", {"CT2_USE_MKL": "0"}, "oneDNN AVX512_CORE_AMX"),
        (EPYC, "AuthenticAMD", {"CT2_USE_MKL": "1"}, "MKL AVX512_E1"),
        # a cap above what the CPU has changes nothing; MKL's own cap
        (AVX2, "AuthenticAMD", {"ONEDNN_MAX_CPU_ISA": "AVX512_CORE_AMX"}, "oneDNN AVX2"),
        (XEON, "GenuineIntel", {"MKL_ENABLE_INSTRUCTIONS": "AVX2"}, "MKL AVX2"),
        # CTranslate2's own kernels are AVX2 unless forced
        (
            EPYC,
            "AuthenticAMD",
            {"CT2_FORCE_CPU_ISA": "AVX512"},
            "oneDNN AVX512_CORE_VNNI, kernels AVX512",
        ),
        (EPYC, "AuthenticAMD", {"CT2_FORCE_CPU_ISA": "AVX2"}, "oneDNN AVX512_CORE_VNNI"),
    ],
)
def test_the_int8_kind_follows_ctranslate2s_rules(flags, vendor, env, kind):
    assert int8_kind(flags, vendor, env, "x86_64") == kind


def test_another_architecture_is_named_as_such():
    assert int8_kind(frozenset(), "", {}, "aarch64") == "CTranslate2's default for aarch64"


@pytest.mark.parametrize(
    ("record", "kind"),
    [
        ({"cpu": "AMD EPYC 9R14", "int8_backend": "oneDNN AVX2"}, "oneDNN AVX2"),
        # older records: the vendor and the oneDNN cap tell
        ({"cpu": "AMD EPYC 9R14", "onednn_isa_cap": "AVX2"}, "oneDNN AVX2"),
        ({"cpu": "Intel(R) Xeon(R) Processor", "onednn_isa_cap": "AVX2"}, "Intel MKL"),
        ({"cpu": "AMD EPYC 9R14"}, ""),
    ],
)
def test_a_recorded_machine_names_what_computed_its_int8(record, kind):
    assert recorded_int8_kind(record) == kind

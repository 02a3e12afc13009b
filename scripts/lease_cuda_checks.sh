#!/usr/bin/env bash
# Issue 63 §2.1: the app on CUDA, once, on a lent GPU machine. Every step runs whatever
# the one before it did, and says how it ended, so one failure does not hide the rest:
#
#   OUT=dir [PYTHON=python3] [DEVICE=cuda] bash scripts/lease_cuda_checks.sh
#
# (DEVICE=cpu rehearses it on a machine without a GPU.)
#
# Writes $OUT/cuda_checks.log (everything printed) and the benches' JSON beside it:
# - `translator-app translate --device cuda` with the PyTorch engine, with CTranslate2 and
#   with the default engine (auto), plain and --json (attention for every output token);
# - bench/bench_translate.py on CUDA (fp32 and bf16), from process start;
# - Teach's fine-tune on CUDA, end to end (bench/bench_teach.py, effort quick).
# The window is not among them: PySide6 is not installed on the lent machines, and its
# wheels are larger than what a call may carry (docs/benchmarks.md).
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:?set OUT to the folder whose files come back}"
python="${PYTHON:-python3}"
device="${DEVICE:-cuda}"
mkdir -p "$out"
log="$out/cuda_checks.log"
sentence="Drücken Sie die Taste drei Sekunden lang, bis die Lampe grün blinkt."

step() {  # step NAME COMMAND...: run, time and report one check
    local name="$1"
    shift
    echo "== $name: $*"
    local start=$SECONDS
    "$@"
    local rc=$?
    echo "== $name: exit $rc after $((SECONDS - start)) s"
}

{
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
    "$python" -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda,
        torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no CUDA device")'
    for engine in torch ctranslate2 auto; do
        step "translate, engine $engine" "$python" -m translator_app translate --device "$device" \
            --engine "$engine" "$sentence"
    done
    step "translate --json, engine torch" "$python" -m translator_app translate \
        --device "$device" --engine torch --json "Wir sehen uns morgen." \
        | cut -c1-400
    step "bench_translate on $device" "$python" bench/bench_translate.py --device "$device" \
        --precision fp32 bf16 --runs 3 --json "$out/bench_translate_cuda.json"
    step "Teach's fine-tune on $device" "$python" bench/bench_teach.py --effort quick \
        --json "$out/bench_teach_cuda.json" -- --device "$device"
} 2>&1 | tee "$log"

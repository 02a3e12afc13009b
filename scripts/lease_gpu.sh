#!/usr/bin/env bash
# Issue 63 §2, the first command of a GPU lease: the app on CUDA (§2.1,
# scripts/lease_cuda_checks.sh) on four cores while the teacher (§2.2,
# recipes/de-en-teacher/) prepares its data on the others and then trains on the GPU;
# its weights (the mean of its last four snapshots) come back in parts.
#
#   OUT=dir [CHECKS=0] [DISTILL_MINUTES=M] bash scripts/lease_gpu.sh [TEACHER_MINUTES] [TRAIN_WALL_SECONDS]
#   # the next call, for the rest of the parts (a call brings back at most four):
#   PARTS_FROM=4 OUT=dir/teacher bash scripts/lease_train.sh recipes/de-en-teacher/01-gpu-teacher.toml 5
#   # here, afterwards:
#   python scripts/lease_join.py FETCHED_TEACHER_FOLDERS... --out runs/teacher-01-bundle
#
# What travels (64 MiB a call): the tree without resources/rnn-model and
# resources/dictionary, and carried: data/prepared/corpora, data/prepared/valid.tsv,
# data/prepared/ding-terms.tsv.xz (a copy of the Ding term list) and .whl (platformdirs and
# pysbd, which the lent machines lack). $OUT gets eight files: the checks' log and two
# JSON files, and teacher/ with the training log and four parts.
# CHECKS=0 leaves the checks out (the first lease ran them). DISTILL_MINUTES=M then has
# the new teacher translate the corpora's German for M minutes (translator-train distill,
# beam 4, shortest sentences first) into $OUT/distilled.tsv.xz, beside its log; the
# teacher's parts are in $OUT/teacher before it starts. RECIPE= another teacher stage
# (INIT=BUNDLE warm-starts it: lease_train.sh), DISTILL_DATA= the corpora it translates
# (default: all), DISTILL_BATCH= its batch in tokens, DISTILL_PRECISION= its precision
# (default auto: fp32 on CUDA). With CHECKS=0 the teacher has every
# core.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:?set OUT to the folder whose files come back}"
minutes="${1:-5}"
wall="${2:-500}"
last_core=$(($(nproc) - 1))
pin() {  # pin CORES COMMAND...: run on those cores where taskset is there
    local cores="$1"
    shift
    if command -v taskset >/dev/null && [ "$last_core" -ge 7 ]; then
        taskset -c "$cores" "$@"
    else
        "$@"
    fi
}
recipe="${RECIPE:-recipes/de-en-teacher/01-gpu-teacher.toml}"
run="$("${PYTHON:-python3}" -c 'import sys; from pathlib import Path; from trainer.config import load_config
print(load_config(Path(sys.argv[1])).train.out_dir)' "$recipe")"  # as lease_train.sh finds it
teacher_cores="0-$((last_core - 4))"
[ "${CHECKS:-1}" = 0 ] && teacher_cores="0-$last_core"
OUT="$out/teacher" AVERAGE="${AVERAGE:-4}" TRAIN_WALL="$wall" pin "$teacher_cores" \
    bash scripts/lease_train.sh "$recipe" "$minutes" &
teacher=$!
if [ "${CHECKS:-1}" != 0 ]; then
    OUT="$out" pin "$((last_core - 3))-$last_core" bash scripts/lease_cuda_checks.sh
fi
wait "$teacher"
echo "teacher: exit $?"
bundle="$run/lease-pack/bundle"
if [ -n "${DISTILL_MINUTES:-}" ] && [ -d "$bundle" ]; then
    # shellcheck disable=SC2086  # DISTILL_DATA is a list of files
    python3 -m trainer distill --model "$bundle" --data ${DISTILL_DATA:-data/prepared/corpora/*.tsv.xz} \
        --out "$run/distilled.tsv" --device "${DEVICE:-cuda}" --max-minutes "$DISTILL_MINUTES" \
        --batch-tokens "${DISTILL_BATCH:-16000}" --precision "${DISTILL_PRECISION:-auto}" \
        >"$out/distill.log" 2>&1
    tail -n 2 "$out/distill.log"
    xz -T0 -6 -c "$run/distilled.tsv" >"$out/distilled.tsv.xz"
fi

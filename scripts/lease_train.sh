#!/usr/bin/env bash
# One command of a GPU lease (issue 63 §1): train CONFIG until TOTAL_MINUTES of training
# time in all (raise it with each command: 8, 16, 24 …), the run (checkpoints with the
# optimiser state, the prepared data: [train] cache_data = true) staying in its folder on
# the warm machine between commands; then the latest weights come back as an fp16 bundle,
# packed and cut into parts of at most 15 MiB under $OUT (a command brings back at most
# 64 MiB: PARTS_FROM=N asks for the parts from N on, without training, in a later call).
# AVERAGE=N brings back the mean of the run's last N snapshots ([train] keep_snapshots)
# instead of the last weights. TRAIN_WALL=S stops the training S seconds after it starts,
# data preparation included, as Ctrl-C would (the step finishes, a checkpoint is written),
# so that the export still fits in the command's time. INIT=BUNDLE warm-starts a new run
# from that bundle (translator-train train --init; with [train] grow a deeper model).
#
#   OUT=dir [DEVICE=cuda] [PYTHON=python3] [AVERAGE=N] [INIT=BUNDLE] bash scripts/lease_train.sh CONFIG TOTAL_MINUTES
#   python scripts/lease_join.py FOLDER_OF_PARTS... --out BUNDLE    # here, afterwards
#
# What travels must stay under 64 MiB: the tracked tree is about 54 MB, so move
# resources/rnn-model and resources/dictionary aside for the call and carry the prepared
# corpora (data/prepared/corpora, valid.tsv).
set -euo pipefail
cd "$(dirname "$0")/.."
config="$1"
total="$2"
out="${OUT:?set OUT to the folder whose files come back}"
python="${PYTHON:-python3}"
device="${DEVICE:-auto}"
parts_from="${PARTS_FROM:-}"
mkdir -p "$out"
run="$("$python" -c 'import sys; from pathlib import Path; from trainer.config import load_config
print(load_config(Path(sys.argv[1])).train.out_dir)' "$config")"
pack="$run/lease-pack"
if [ -z "$parts_from" ]; then
    resume=()
    if [ -f "$run/checkpoints/last.pt" ]; then
        resume=(--resume)
    elif [ -n "${INIT:-}" ]; then
        resume=(--init "$INIT")
    fi
    status=0
    wall=()
    [ -n "${TRAIN_WALL:-}" ] && wall=(timeout -s INT -k 60 "$TRAIN_WALL")
    "${wall[@]}" "$python" -m trainer train "$config" --device "$device" --max-minutes "$total" \
        "${resume[@]}" >"$out/train.log" 2>&1 || status=$?
    tail -n 3 "$out/train.log"
    [ -f "$run/checkpoints/last.pt" ] || exit "${status:-1}"
    rm -rf "$pack" && mkdir -p "$pack"
    weights="$run/checkpoints/last.pt"
    if [ -n "${AVERAGE:-}" ]; then
        "$python" -m trainer average "$run/checkpoints" --last "$AVERAGE" --out "$pack/mean.pt"
        weights="$pack/mean.pt"
    fi
    "$python" -m trainer export "$weights" --out "$pack/bundle" --fp16 \
        --overwrite --name "$(basename "$run")" >/dev/null
    rm -f "$pack/mean.pt"
    tar -C "$pack" -cf - bundle | split -b 15M -d -a 2 - "$pack/bundle.tar.part-"
    parts_from=0
fi
# At most 4 parts of 15 MiB a command, beside the log (64 MiB back in all).
ls "$pack"/bundle.tar.part-* | tail -n +"$((parts_from + 1))" | head -n 4 | while read -r part; do
    cp "$part" "$out/"
done
echo "parts: $(ls "$pack"/bundle.tar.part-* | wc -l) in all; sent from $parts_from"

#!/usr/bin/env bash
# Base model v3 (configs/transformer-v3-deep.toml): grow the bundled 3+3 model to a 6-layer
# encoder and train it with a learning-rate restart and cosine cool-down.
#   nohup bash scripts/train_v3_deep.sh [CONFIG] > runs/train_v3_deep.log 2>&1 &
# CONFIG: configs/transformer-v3-deep.toml (default), configs/transformer-v3-deep2.toml
# for the second cycle, configs/transformer-v4-dec4.toml (decoder grown to 4 layers) or
# configs/transformer-v5-mix.toml (the same, on a mix weighted towards everyday sentences)
# or configs/transformer-v6-mix.toml (its second cycle) or configs/transformer-v7-mix.toml
# (its third).
# Starts from INIT (default: the committed bundle, resources/model); resumes a stopped run.
set -euo pipefail
cd "$(dirname "$0")/.."
CONFIG="${1:-configs/transformer-v3-deep.toml}"
RUN="runs/$(basename "$CONFIG" .toml)"
TRAIN=.venv/bin/translator-train
[[ -f data/prepared/corpora/tatoeba.tsv.xz ]] || .venv/bin/python scripts/prepare_data.py
if [[ -f "$RUN/checkpoints/last.pt" ]]; then
    $TRAIN train "$CONFIG" --resume
else
    $TRAIN train "$CONFIG" --init "${INIT:-resources/model}"
fi
echo "done: $RUN/model"

#!/usr/bin/env bash
# Base model v3 (configs/transformer-v3-deep.toml): grow the bundled 3+3 model to a 6-layer
# encoder and train it with a learning-rate restart and cosine cool-down.
#   nohup bash scripts/train_v3_deep.sh > runs/train_v3_deep.log 2>&1 &
# Starts from INIT (default: the committed bundle, resources/model); resumes a stopped run.
set -euo pipefail
cd "$(dirname "$0")/.."
RUN=runs/transformer-v3-deep
TRAIN=.venv/bin/translator-train
[[ -f data/prepared/train.tsv.xz ]] || .venv/bin/python scripts/prepare_data.py
if [[ -f "$RUN/checkpoints/last.pt" ]]; then
    $TRAIN train configs/transformer-v3-deep.toml --resume
else
    $TRAIN train configs/transformer-v3-deep.toml --init "${INIT:-resources/model}"
fi
echo "done: $RUN/model"

#!/usr/bin/env bash
# Base model v2 (configs/transformer-v2.toml): continue training the bundled model.
# The first call warm-starts from resources/model (a new machine keeps only the committed
# bundle); later calls resume runs/transformer-v2 with a larger budget:
#   MINUTES=95 nohup bash scripts/train_v2.sh > runs/train_v2.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/.."
MINUTES="${MINUTES:-95}"
RUN=runs/transformer-v2
TRAIN=.venv/bin/translator-train
mkdir -p runs
[[ -f data/prepared/train.tsv.xz ]] || .venv/bin/python scripts/prepare_data.py
if [[ -f "$RUN/checkpoints/last.pt" ]]; then
    start=(--resume)
else
    start=(--init "${INIT:-resources/model}")
fi
$TRAIN train configs/transformer-v2.toml "${start[@]}" --max-minutes "$MINUTES"
echo "done: $RUN/model"

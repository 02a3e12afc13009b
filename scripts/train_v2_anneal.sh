#!/usr/bin/env bash
# Base model v2, stage 4 (configs/transformer-v2-anneal.toml): average the stage-3 run's last
# four snapshots, then cool the learning rate down to zero from there.
#   nohup bash scripts/train_v2_anneal.sh > runs/train_v2_anneal.log 2>&1 &
# Needs runs/transformer-v2 (stage 3); without it, INIT=resources/model starts from the bundle.
set -euo pipefail
cd "$(dirname "$0")/.."
RUN=runs/transformer-v2-anneal
TRAIN=.venv/bin/translator-train
[[ -f data/prepared/train.tsv.xz ]] || .venv/bin/python scripts/prepare_data.py
if [[ -f "$RUN/checkpoints/last.pt" ]]; then
    $TRAIN train configs/transformer-v2-anneal.toml --resume
else
    init="${INIT:-}"
    if [[ -z "$init" ]]; then
        $TRAIN average runs/transformer-v2/checkpoints --last 4 --out runs/avg4.pt
        $TRAIN export runs/avg4.pt --out runs/avg4-bundle --name de-en-base --overwrite
        init=runs/avg4-bundle
    fi
    $TRAIN train configs/transformer-v2-anneal.toml --init "$init"
fi
echo "done: $RUN/model"

#!/usr/bin/env bash
# Train the bundled base model from ../shared/data, the way the model card describes:
#   1. prepare the data (scripts/prepare_data.py) and one SentencePiece model for all runs;
#   2. train the three architectures on the same data for the same training-time budget
#      (COMPARE_MINUTES each) and benchmark each one's CPU latency;
#   3. continue the Transformer run (the architecture chosen by that comparison) until
#      MAIN_MINUTES of training time in all.
# Every step resumes where an interrupted earlier call stopped, so rerunning is safe.
#   COMPARE_MINUTES=10 MAIN_MINUTES=100 nohup bash scripts/train_base.sh > runs/train_base.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/.."
COMPARE_MINUTES="${COMPARE_MINUTES:-10}"
MAIN_MINUTES="${MAIN_MINUTES:-100}"
MAIN_ARCH="${MAIN_ARCH:-transformer}"
PY=.venv/bin/python
TRAIN=.venv/bin/translator-train
mkdir -p runs

[[ -f data/prepared/train.tsv.xz ]] || $PY scripts/prepare_data.py
[[ -f data/prepared/spm.model ]] ||
    $TRAIN spm --data data/prepared/train.tsv.xz --vocab-size 16000 --out data/prepared/spm.model

run() {  # run CONFIG MINUTES: train, or continue an earlier run, to MINUTES of training
    local cfg="configs/$1.toml" resume=()
    [[ -f "runs/$1/checkpoints/last.pt" ]] && resume=(--resume)
    $TRAIN train "$cfg" "${resume[@]}" --max-minutes "$2"
}

for arch in rnn-bahdanau rnn-luong transformer; do
    if [[ ! -f "runs/$arch/model/config.json" ]]; then
        run "$arch" "$COMPARE_MINUTES"
    fi
    # The comparison's latency figure: the same bench as the model card's, on this model.
    [[ -f "runs/$arch/bench.json" ]] ||
        $PY bench/bench_translate.py --model "runs/$arch/model" --runs 2 --threads 2 \
            --json "runs/$arch/bench.json"
    [[ -d "runs/$arch/model-compare" ]] || cp -r "runs/$arch/model" "runs/$arch/model-compare"
done

run "$MAIN_ARCH" "$MAIN_MINUTES"
echo "done: runs/$MAIN_ARCH/model"

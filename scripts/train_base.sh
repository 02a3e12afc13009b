#!/usr/bin/env bash
# Train the bundled base model from ../shared/data, the way the model card describes:
#   1. prepare the data (scripts/prepare_data.py) and one SentencePiece model for all runs;
#   2. the architecture comparison: train the three architectures on the same data for the
#      same training-time budget (COMPARE_MINUTES each, in runs/compare/<arch>) and
#      benchmark each one's CPU latency;
#   3. train the chosen architecture (MAIN_ARCH) in its own run, runs/<arch>, until
#      MAIN_MINUTES of training time in all.
# Every step resumes where an interrupted earlier call stopped, so rerunning is safe, and
# rerunning with a larger budget continues a run (that is how the later stages were made).
#   COMPARE_MINUTES=20 MAIN_MINUTES=150 nohup bash scripts/train_base.sh > runs/train_base.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/.."
COMPARE_MINUTES="${COMPARE_MINUTES:-20}"
MAIN_MINUTES="${MAIN_MINUTES:-150}"
MAIN_ARCH="${MAIN_ARCH:-transformer}"
PY=.venv/bin/python
TRAIN=.venv/bin/translator-train
mkdir -p runs/compare

[[ -f data/prepared/train.tsv.xz ]] || $PY scripts/prepare_data.py
[[ -f data/prepared/spm.model ]] ||
    $TRAIN spm --data data/prepared/train.tsv.xz --vocab-size 16000 --out data/prepared/spm.model

run() {  # run CONFIG OUT_DIR MINUTES: train, or continue an earlier run, to MINUTES of training
    local resume=()
    [[ -f "$2/checkpoints/last.pt" ]] && resume=(--resume)
    $TRAIN train "configs/$1.toml" --out-dir "$2" "${resume[@]}" --max-minutes "$3"
}

budget_reached() {  # budget_reached RUN_DIR MINUTES: the run's last log line is at MINUTES
    [[ -f "$1/log.jsonl" ]] && $PY - "$1/log.jsonl" "$2" <<'PYEOF'
import json, sys
last = json.loads(open(sys.argv[1]).read().splitlines()[-1])
sys.exit(0 if last["elapsed_s"] >= float(sys.argv[2]) * 60 - 30 else 1)
PYEOF
}

for arch in rnn-bahdanau rnn-luong transformer; do
    dir="runs/compare/$arch"
    budget_reached "$dir" "$COMPARE_MINUTES" || run "$arch" "$dir" "$COMPARE_MINUTES"
    # The comparison's latency figure: the same bench as the model card's, on this model.
    [[ -f "$dir/bench.json" ]] ||
        $PY bench/bench_translate.py --model "$dir/model" --runs 2 --threads 2 \
            --json "$dir/bench.json"
done

run "$MAIN_ARCH" "runs/$MAIN_ARCH" "$MAIN_MINUTES"
echo "done: runs/$MAIN_ARCH/model"

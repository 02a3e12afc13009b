#!/usr/bin/env bash
# The course's comparison (issue 51 §2; the report is docs/compare.md): three
# `translator-train compare` runs of four small models each, one setting changed at a
# time, all on the prepared training pairs for the same minutes:
#   cells      GRU, LSTM, peephole LSTM, coupled LSTM (additive attention)
#   scores     additive, dot, general, cosine (GRU)
#   locality   global, local-m, local-p (GRU, additive) and the Transformer
# The GRU with additive, global attention is in every table: its three runs show how far
# the scores move from run to run.
#
#   bash scripts/compare_course.sh                 # MINUTES=1 per model; OUT=runs/course
#   PARALLEL=1 bash scripts/compare_course.sh      # the three runs at once (one big GPU)
#   DATA=data/prepared/corpora/multi30k.tsv.xz TEST=multi30k-test2016.tsv \
#       bash scripts/compare_course.sh             # the course's small data set instead
#
# The test set (never trained on: compare removes it from the training pairs) is every
# 35th pair of Tatoeba v2021-08-07 and every 6th of newstest2014: short everyday
# sentences and long news ones, for BLEU by source length.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
SHARED=${SHARED:-../shared/data}
MINUTES=${MINUTES:-1}
OUT=${OUT:-runs/course}
TEST=${TEST:-$OUT/test.tsv}
C=configs/course
mkdir -p "$OUT"
if [[ ! -s $TEST ]]; then
    { xz -dc "$SHARED/tatoeba-test-deu-eng/tatoeba-test-v2021-08-07.deu-eng.tsv.xz" | awk 'NR % 35 == 0'
      xz -dc "$SHARED/wmt-news-deen/newstest2014.deu-eng.tsv.xz" | awk 'NR % 6 == 0'
    } > "$TEST"
fi
compare() {  # NAME CONFIG...
    local name=$1; shift
    "$PY" -m trainer compare "$@" --test "$TEST" --data "${DATA:-data/prepared/train.tsv.xz}" \
        --valid data/prepared/valid.tsv --minutes "$MINUTES" --out "$OUT/$name" \
        > "$OUT/$name.log" 2>&1
}
runs=(
    "cells $C/gru-additive.toml $C/lstm-additive.toml $C/lstm-peephole-additive.toml $C/lstm-coupled-additive.toml"
    "scores $C/gru-additive.toml $C/gru-dot.toml $C/gru-general.toml $C/gru-cosine.toml"
    "locality $C/gru-additive.toml $C/gru-additive-local-m.toml $C/gru-additive-local-p.toml $C/transformer-small.toml"
)
status=0
if [[ ${PARALLEL:-0} == 1 ]]; then
    pids=()
    for r in "${runs[@]}"; do compare $r & pids+=($!); done
    for p in "${pids[@]}"; do wait "$p" || status=1; done
else
    for r in "${runs[@]}"; do compare $r || status=1; done
fi
for r in "${runs[@]}"; do
    name=${r%% *}
    if [[ -s $OUT/$name/compare.md ]]; then cat "$OUT/$name/compare.md"; else tail -5 "$OUT/$name.log"; fi
done
exit $status

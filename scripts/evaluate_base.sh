#!/usr/bin/env bash
# Evaluate a bundle on the project's test sets and write its model card and metrics.
#   bash scripts/evaluate_base.sh [BUNDLE] [REPORT_DIR]
#   DOCS=docs/rnn-model bash scripts/evaluate_base.sh resources/rnn-model eval-reports/rnn
# Greedy decoding on every pair of each test set; beam 4 on the first BEAM_LIMIT pairs
# (beam search costs several times greedy on 2 CPU cores; 0 = every pair).
# Then the faithfulness bench (names, numbers, dates), the glossary bench, the
# latency/precision bench, the engines bench (PyTorch and CTranslate2, paired) and
# scripts/model_card.py, which writes MODEL_CARD.md
# and metrics.json into the bundle from these reports.
set -euo pipefail
cd "$(dirname "$0")/.."
MODEL="${1:-resources/model}"
OUT="${2:-eval-reports/base}"
DOCS="${DOCS:-docs/base-model}"   # where the plots go (the model card links them)
DATA="${DATA:-../shared/data}"
BEAM_LIMIT="${BEAM_LIMIT:-500}"
# PRECISIONS: those the latency bench measures (bf16 only pays with AMX; leave it out
# where time is short: PRECISIONS="fp32 int8").
PY=.venv/bin/python
mkdir -p "$OUT"

# TESTS: the test sets (all six by default; the three of the no-regression floors where
# time is short: TESTS="tatoeba-test-deu-eng/tatoeba-test-v2021-08-07
# wmt-news-deen/newstest2014 multi30k/test_2016_flickr").
TESTS="${TESTS:-tatoeba-test-deu-eng/tatoeba-test-v2021-08-07
    tatoeba-test-deu-eng/tatoeba-test-v2020-07-28
    wmt-news-deen/newstest2014
    wmt-news-deen/newstest2019
    multi30k/test_2016_flickr
    iwslt2017-deen/test}"
for test in $TESTS; do
    .venv/bin/translator-train eval --model "$MODEL" --test "$DATA/$test.deu-eng.tsv.xz" \
        --beam 4 --beam-limit "$BEAM_LIMIT" --device cpu --out "$OUT"
done
# The project's own test sets: the register (letters, e-mails, forms, shops; issue 46) and
# everyday text (instructions, recipes, messages, reviews, notices, prose; issue 60).
for own in register/register-test everyday/everyday-test; do
    .venv/bin/translator-train eval --model "$MODEL" --test "testsets/$own.deu-eng.tsv" \
        --beam 4 --beam-limit "$BEAM_LIMIT" --device cpu --out "$OUT"
done

$PY bench/bench_faithful.py --model "$MODEL" --json "$OUT/faithful.json"
$PY bench/bench_glossary.py --model "$MODEL" --json "$OUT/glossary.json"
$PY bench/bench_translate.py --model "$MODEL" --runs 3 --threads 2 --precision ${PRECISIONS:-fp32 int8 bf16} \
    --test "$DATA/multi30k/test_2016_flickr.deu-eng.tsv.xz" --json "$OUT/bench.json"
# CTranslate2 against PyTorch: Transformers only (CTranslate2 has no RNN).
arch=$($PY -c 'import json, sys; print(json.load(open(sys.argv[1]))["model"]["arch"])' "$MODEL/config.json")
if [[ $arch == transformer ]]; then
    $PY bench/bench_engines.py --model "$MODEL" --threads 2 \
        --test "$DATA/tatoeba-test-deu-eng/tatoeba-test-v2021-08-07.deu-eng.tsv.xz" --json "$OUT/engines.json"
fi
mkdir -p "$DOCS" && cp "$OUT"/*.png "$DOCS"/
$PY scripts/model_card.py --model "$MODEL" --reports "$OUT" --history "$DOCS/history.json"

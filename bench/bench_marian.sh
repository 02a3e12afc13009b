#!/usr/bin/env bash
# int8 latency of an imported model of opus-mt-de-en's shape beside the bundled model,
# on this machine's CPU (2 threads):  bash bench/bench_marian.sh
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PYTHONPATH=. .venv/bin/python bench/make_opus_like.py --out "$tmp/opus-like"
.venv/bin/translator-train import-marian "$tmp/opus-like" --out "$tmp/bundle" --name opus-mt-de-en-shape
for model in "$tmp/bundle" resources/model; do
    PYTHONPATH=. .venv/bin/python bench/bench_translate.py --model "$model" --precision int8 \
        --threads 2 --runs "${RUNS:-3}"
done

#!/usr/bin/env bash
# Set up (idempotent) and run the checks: ruff (lint + format) and the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --dev
.venv/bin/ruff check .
.venv/bin/ruff format --check .
export QT_QPA_PLATFORM=offscreen
exec .venv/bin/python -m pytest "$@"

#!/usr/bin/env bash
# Set up (idempotent) and run the translator. Arguments go to `translator-app`;
# with none, translate German from standard input.
#
#   bash scripts/run.sh translate "Guten Morgen! Wie geht es dir?"
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ "$#" -eq 0 ]; then
    set -- translate
fi
exec .venv/bin/translator-app "$@"

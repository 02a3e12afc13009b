#!/usr/bin/env bash
# Score snapshots of a training run on the dev sets, never on a test set, to choose the
# one that becomes the bundle (greedy, the bundle's settings: fp16, protect retry, the
# committed bundle's vocabulary shortlist, which serves the same tokenizer).
#   bash scripts/dev_scores.sh RUN_DIR STEP...
#   bash scripts/dev_scores.sh runs/transformer-v13-register 1000 1250 1300
# Dev sets: the register and everyday dev sets (testsets/), newstest2013 (news) and the mixed
# validation set (Tatoeba held out, Multi30k val, chat, Wikipedia), as
# scripts/prepare_data.py writes them (DEVS="FILE ..." for others); BASELINE=resources/model
# adds the current bundle.
set -euo pipefail
cd "$(dirname "$0")/.."
RUN="$1"
shift
DEVS="${DEVS:-testsets/register/register-dev.deu-eng.tsv testsets/everyday/everyday-dev.deu-eng.tsv data/prepared/news-dev.tsv data/prepared/valid.tsv}"
bundles=()
for step in "$@"; do
    out="$RUN/dev-bundles/step-$step"
    if [ ! -f "$out/config.json" ]; then
        .venv/bin/translator-train export "$RUN/checkpoints/step-$step.pt" --out "$out" \
            --overwrite --fp16 --protect retry --name "step-$step" >/dev/null
        cp resources/model/vmap.txt.xz "$out/"
    fi
    bundles+=("$out")
done
[ -n "${BASELINE:-}" ] && bundles+=("$BASELINE")
for bundle in "${bundles[@]}"; do
    for dev in $DEVS; do
        .venv/bin/translator-train eval --model "$bundle" --test "$dev" --beam 4 --beam-limit 1 \
            --device cpu --out "$RUN/dev-reports/$(basename "$bundle")" >/dev/null
    done
done
.venv/bin/python - "$RUN/dev-reports" "$DEVS" "${bundles[@]}" <<'PY'
import json, sys
from pathlib import Path
reports, bundles = Path(sys.argv[1]), sys.argv[3:]
devs = [Path(d).name.split(".")[0] for d in sys.argv[2].split()]
print(f"{'bundle':<28}" + "".join(f"{d:>14}" for d in devs) + f"{'mean':>10}")
left_rows = []
for b in bundles:
    scores, left = [], []
    for d in devs:
        rep = json.loads((reports / Path(b).name / f"{d}.json").read_text())
        greedy = next(iter(rep["models"].values()))["scores"]["greedy"]
        scores.append(greedy["bleu"])
        left.append(greedy.get("german_left", {}).get("per_100", float("nan")))
    mean = sum(scores) / len(scores)
    print(f"{b:<28}" + "".join(f"{s:>14.2f}" for s in scores) + f"{mean:>10.2f}")
    left_rows.append(f"{b:<28}" + "".join(f"{x:>14.2f}" for x in left))
print("German words left in the English, per 100 sentences:")
print("\n".join(left_rows))
PY

"""Add a trained stage to docs/base-model/history.json (the model card's record of how the
bundle was made), from its run folder: the log and the machine as the trainer wrote them.

    python scripts/history_stage.py --run runs/transformer-v17-register \
        --config recipes/de-en-base/18-register-weights.toml --name "v17 ..." \
        --command "translator-train recipe ..." --start "warm start from ..." \
        --precision "bf16 autocast ..." --bundle "Bundle v17: ..."

A stage of the same run is replaced, so running it again after a longer run is safe.
Then ``scripts/model_card.py`` writes the card from the history.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HISTORY = ROOT / "docs" / "base-model" / "history.json"


def stage_entry(args) -> dict:
    run = ROOT / args.run
    log_path, hardware_path = run / "log.jsonl", run / "hardware.json"
    if not hardware_path.is_file():
        raise SystemExit(f"{run}: no hardware.json (not a trainer's run folder)")
    # A run stopped before its first evaluation has no log: the stage is recorded without
    # curves (its dev scores, from scripts/dev_scores.sh, belong in --bundle).
    lines = log_path.read_text("utf-8").splitlines() if log_path.is_file() else []
    log = [json.loads(line) for line in lines if line.strip()]
    if not log:
        print(f"{log_path}: no evaluation logged; the stage is recorded without curves")
    return {
        "name": args.name,
        "run": args.run,
        "command": args.command,
        "config": args.config,
        "start": args.start,
        "precision": args.precision,
        "bundle": args.bundle,
        "log": log,
        "hardware": json.loads(hardware_path.read_text("utf-8")),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for flag in ("--run", "--config", "--name", "--command", "--start", "--precision", "--bundle"):
        ap.add_argument(flag, required=True)
    ap.add_argument("--history", type=Path, default=HISTORY)
    args = ap.parse_args(argv)
    history = json.loads(args.history.read_text("utf-8"))
    entry = stage_entry(args)
    stages = [s for s in history["stages"] if s["run"] != entry["run"]]
    history["stages"] = [*stages, entry]
    args.history.write_text(json.dumps(history, indent=1) + "\n", "utf-8")
    print(f"{args.history}: {len(history['stages'])} stages, the last {entry['name']!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

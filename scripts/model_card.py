"""Write a bundle's MODEL_CARD.md and metrics.json from the reports that measured it.

    python scripts/model_card.py --model resources/model --reports eval-reports/base
    python scripts/model_card.py --model resources/rnn-model --reports eval-reports/rnn \
        --history docs/rnn-model/history.json

Reads: the eval reports (``translator-train eval`` JSON) and ``bench.json`` in REPORTS;
``data/prepared/report.json`` (training data, counts, test-set removal); the runs of the
architecture comparison (``runs/<arch>/log.jsonl`` and ``bench.json``); the bundle's own
config.json. Every number in the card comes from one of these files; the published
OPUS-MT and tutorial scores are copied from ../shared/data/ANCHOR_SCORES.md into
resources/model_cards.json (with the rest of the card's prose that is data) and marked so.
The sections are built in scripts/card_sections.py and scripts/card_benches.py.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the card_* modules beside it

from card_benches import (
    engines_section,
    english_lines,
    faithful_section,
    glossary_section,
    speed_section,
)  # noqa: E402
from card_sections import (  # noqa: E402
    ROOT,
    cells_section,
    comparison_section,
    data_section,
    dev_pairs,
    hardware_text,
    limitations_section,
    load,
    plain_summary,
    recipe_of,
    results_section,
    train_files,
    trained_corpora,
    trained_on_terms,
    training_section,
)

from translator_app.core.engine.model_card import card_data  # noqa: E402
from translator_app.core.platform.paths import write_atomic  # noqa: E402


def parse_args(argv) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=ROOT / "resources" / "model")
    ap.add_argument("--reports", type=Path, default=ROOT / "eval-reports" / "base")
    ap.add_argument("--prepared", type=Path, default=ROOT / "data" / "prepared" / "report.json")
    ap.add_argument("--runs", type=Path, default=ROOT / "runs")
    ap.add_argument("--history", type=Path, default=ROOT / "docs" / "base-model" / "history.json")
    return ap.parse_args(argv)


def read_history(path: Path) -> dict:
    """history.json, each stage refreshed from its run where the run is on this machine."""
    history = load(path) or {"stages": [], "comparison": {}}
    for stage in history["stages"]:
        log_path = ROOT / stage["run"] / "log.jsonl"
        if log_path.exists():
            stage["log"] = [json.loads(x) for x in log_path.read_text().splitlines() if x.strip()]
        if hardware := load(ROOT / stage["run"] / "hardware.json"):  # written by the trainer
            stage["hardware"] = hardware
        stage["dev_pairs"] = dev_pairs(stage)
    return history


def main(argv=None) -> int:
    args = parse_args(argv)
    config = load(args.model / "config.json")
    if config is None:
        sys.exit(f"model_card: no bundle at {args.model}")
    data = load(args.prepared) or {}
    bench = load(args.reports / "bench.json")
    previous = load(args.model / "metrics.json") or {}  # the export's: averaged_steps
    history = read_history(args.history)
    machines = list(dict.fromkeys(hardware_text(st.get("hardware")) for st in history["stages"]))
    trained_on = " and ".join(machines) if machines else "an unrecorded machine"

    trained_files = train_files(history["stages"])  # read once from the stages' configs
    metrics: dict = {"test_sets": {}, "published": {}, "comparison": {}, "bench": bench or {}}
    results = results_section(args.reports, metrics, args.history.parent)  # plots beside it
    lines = [
        f"# {config.get('name', args.model.name)} — German→English",
        "",
        *plain_summary(metrics["test_sets"]),
        card_data()["intros"].get(config.get("name"), "")
        + " Every figure below comes from a command in this repository "
        "(`scripts/evaluate_base.sh`, which runs `translator-train eval` and "
        "`bench/bench_translate.py`, then this card's generator `scripts/model_card.py`). "
        "How the course's recurrent cells, attention scores and the Transformer compare "
        "under one budget: `docs/compare.md` (`translator-train compare`).",
        "",
        *results,
        *comparison_section(args.runs, history, bench, metrics),
        *training_section(config, args.model, history, previous, trained_on, metrics, args.history),
        *data_section(data, trained_files, recipe_of(history["stages"])),
    ]
    if bench:
        lines += speed_section(bench)
    if faithful := load(args.reports / "faithful.json"):
        lines += faithful_section(faithful, metrics)
    if glossary := load(args.reports / "glossary.json"):
        lines += glossary_section(glossary, metrics, trained_on_terms(history["stages"]))
    if engines := load(args.reports / "engines.json"):
        lines += engines_section(engines, metrics)
    if config["model"]["arch"] == "rnn":
        lines += cells_section(ROOT / "docs" / "compare" / "cells" / "compare.json")
    corpora = trained_corpora(data, trained_files)
    lines += limitations_section(metrics["training"]["minutes"], trained_on, corpora)
    lines += english_lines()
    write_atomic(args.model / "MODEL_CARD.md", "\n".join(lines) + "\n")
    write_atomic(args.model / "metrics.json", json.dumps(metrics, indent=2) + "\n")
    write_atomic(args.history, json.dumps(history, indent=1) + "\n")
    print(f"wrote {args.model / 'MODEL_CARD.md'} and metrics.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""scripts/model_card.py states facts from measurements: the machine comes from what the
trainer and the benchmark recorded, not from prose in the script."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "model_card.py"


def _model_card():
    spec = importlib.util.spec_from_file_location("model_card", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_card_names_the_recorded_machines(make_bundle, tmp_path):
    bundle = make_bundle()
    machine = {"cpu": "Test CPU 9000", "cpu_cores": 64, "torch_threads": 64, "features": ["avx2"]}
    gpu = {**machine, "cuda": "Test GPU"}
    log = [{"step": 10, "epoch": 0, "valid_loss": 2.0, "bleu": 12.5, "elapsed_s": 600.0}]
    history = {
        "stages": [
            {
                "name": "a",
                "run": "runs/none-a",
                "command": "x",
                "config": "none.toml",
                "start": "from scratch",
                "precision": "fp32",
                "log": log,
                "hardware": machine,
            },
            {
                "name": "b",
                "run": "runs/none-b",
                "command": "y",
                "config": "none.toml",
                "start": "warm start",
                "precision": "bf16",
                "log": log,
                "hardware": gpu,
            },
        ],
        "comparison": {},
    }
    (tmp_path / "history.json").write_text(json.dumps(history))
    reports = tmp_path / "reports"
    reports.mkdir()
    bench = {
        "command": "bench/bench_translate.py --threads 64",
        "hardware": machine,
        "precisions": {"int8": {"beam1_20w": {"p95_ms": 7.5}, "app_20w": {"p95_ms": 9.5}}},
    }
    (reports / "bench.json").write_text(json.dumps(bench))
    args = [
        "--model",
        str(bundle),
        "--reports",
        str(reports),
        "--history",
        str(tmp_path / "history.json"),
        "--runs",
        str(tmp_path),
        "--prepared",
        str(tmp_path / "none.json"),
    ]
    assert _model_card().main(args) == 0
    card = (bundle / "MODEL_CARD.md").read_text()
    assert "64 CPU cores (Test CPU 9000; avx2)" in card
    assert "with a GPU (Test GPU)" in card
    assert "bench/bench_translate.py --threads 64" in card and "| 7.5 | 9.5 |" in card
    assert "2 CPU cores" not in card and "EPYC" not in card
    assert "20.0 min of training" in card and "10.0 min, last dev BLEU 12.5" in card


def test_every_card_comes_from_one_template(tmp_path):
    """The trainer's, the importer's and the bundled model's cards share the template's
    shape; its prose comes from resources/model_cards.json."""
    from translator_app.core.engine.model_card import card_data, in_short, render

    card = render("T", ["Opening."], [("Empty", []), ("Kept", ["- a", "- b"])])
    assert card == "# T\n\nOpening.\n\n## Kept\n\n- a\n- b\n"
    data = card_data()
    assert "CC-BY 4.0" in data["licences"]["opus-mt"]
    labels = [s["label"] for s in data["test_sets"]]
    assert "newstest2014" in labels and len(set(labels)) == len(labels)
    summary = in_short({"newstest2014": 14.4, "Tatoeba v2021-08-07": 38.4})
    assert summary[2].startswith("- **Good at:** short everyday sentences (38)")
    assert summary[3].startswith("- **Weak at:** news articles (14)")


def test_the_app_shows_the_users_part_of_the_card():
    """Model → Model card speaks to users: no repository commands, no developer
    sections, and a results table narrow enough not to break words."""
    from translator_app.core.engine.model_card import for_users, render
    from translator_app.core.platform.paths import resources_dir

    card = (resources_dir() / "model" / "MODEL_CARD.md").read_text("utf-8")
    shown = for_users(card)
    assert "scripts/" in card and "scripts/" not in shown
    assert "translator-train" not in shown and "eval-reports/" not in shown
    assert "## In short" in shown and "## Limitations" in shown
    assert "## Choice of architecture" in card and "architecture" not in shown.split("##")[1]
    assert "## Training\n" not in shown and "## Engines" not in shown
    header = next(line for line in shown.splitlines() if line.startswith("| test set"))
    assert header.count("|") == 5 and "score (BLEU)" in header
    # Any card (a fine-tune's, an import's) goes through without losing its title.
    small = render("mine", ["Trained with `translator-train train`."], [("Training", ["- x"])])
    assert for_users(small).startswith("# mine") and "translator-train" not in for_users(small)


def test_the_rnn_card_claims_only_the_data_and_terms_its_recipe_trained_on():
    """The second bundled model (recipes/de-en-rnn) trained on train.tsv.xz alone and on no
    term annotations: its card must not list the register corpora as its data nor say it
    follows a glossary, although it shares the Transformer's pieces (term markers too)."""
    _model_card()  # puts scripts/ on the path for the card modules
    from card_benches import glossary_section
    from card_sections import train_files, trained_corpora, trained_on_terms

    rnn = [{"config": "recipes/de-en-rnn/01-bigru-additive.toml"}]
    base = [{"config": "recipes/de-en-base/20-register-balance.toml"}]
    assert train_files(rnn) == {"train.tsv.xz"}
    assert not trained_on_terms(rnn) and trained_on_terms(base)
    report = {"corpora": {"tatoeba": {"kept": 9}, "ding-phrases": {"kept": 99}}}
    assert set(trained_corpora(report, train_files(rnn))) == {"tatoeba"}
    assert set(trained_corpora(report, train_files(base))) == {"tatoeba", "ding-phrases"}
    bench = {"runs": {}, "terms": 43, "sentences": 129, "follows_glossary": True, "command": "x"}
    said = "\n".join(glossary_section(bench, {}, trained_on_terms(rnn)))
    assert "Not trained on term annotations" in said and "so it follows" not in said
    said = "\n".join(glossary_section(bench, {}, trained_on_terms(base)))
    assert "so it follows the user's glossary" in said


def test_a_word_in_angle_brackets_does_not_hide_the_rest_of_the_card(qapp):
    """An imported model's card says "a zero row for <pad>"; as an HTML tag, Qt's Markdown
    hid everything after it."""
    from PySide6.QtGui import QTextDocument

    from translator_app.core.engine.model_card import for_users

    card = "# M\n\nThe weights gain a zero row for <pad>; nothing was run.\n\n## In short\n\nGood."
    doc = QTextDocument()
    doc.setMarkdown(for_users(card))
    assert "a zero row for <pad>; nothing was run." in doc.toPlainText()
    assert "Good." in doc.toPlainText()

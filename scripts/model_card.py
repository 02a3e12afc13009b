"""Write a bundle's MODEL_CARD.md and metrics.json from the reports that measured it.

    python scripts/model_card.py --model resources/model --reports eval-reports/base

Reads: the eval reports (``translator-train eval`` JSON) and ``bench.json`` in REPORTS;
``data/prepared/report.json`` (training data, counts, test-set removal); the runs of the
architecture comparison (``runs/<arch>/log.jsonl`` and ``bench.json``); the bundle's own
config.json. Every number in the card comes from one of these files; the published
OPUS-MT and tutorial scores are copied from ../shared/data/ANCHOR_SCORES.md into
resources/model_cards.json (with the rest of the card's prose that is data) and marked so.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from translator_app.core.engine.model_card import card_data, in_short
from translator_app.core.platform.paths import write_atomic

ROOT = Path(__file__).resolve().parent.parent

DATA = card_data()  # resources/model_cards.json: the card's prose that is data
TEST_SETS = [(s["report"], s["label"], s["published"]) for s in DATA["test_sets"]]
ARCHS = list(DATA["architectures"].items())


# How the translator used its annotations in the faithfulness bench (its protect mode).
_PROTECT_TEXT = {
    "retry": " The translator (protect `retry`) decodes each sentence plain and, where "
    "that does not write its numbers, times, dates, names, places and units as their "
    "annotations would (2 p.m., €12.50, 1,150, Munich), again with them annotated, "
    "keeping the decode that loses fewer.",
    "always": " The translator (protect `always`) annotates the numbers, times, dates, "
    "names and places of every sentence.",
}


def load(path: Path):
    return json.loads(path.read_text("utf-8")) if path.exists() else None


def p95_20w(bench: dict | None, precision: str = "fp32", search: str = "beam1") -> float | None:
    try:
        return bench["precisions"][precision][f"{search}_20w"]["p95_ms"]
    except (KeyError, TypeError):
        return None


def hardware_text(h: dict | None) -> str:
    """A machine as measured by translator_app.core.platform.hardware.facts (trainer, bench)."""
    if not h:
        return "an unrecorded machine"
    features = ", ".join(h.get("features") or []) or "no AVX-512/AMX"
    text = f"{h.get('cpu_cores')} CPU cores ({h.get('cpu')}; {features})"
    return f"{text} with a GPU ({h['cuda']})" if h.get("cuda") else text


def dev_pairs(stage: dict) -> int | None:
    """How many dev pairs the stage's evaluations translated ([train] eval_sentences of
    its config, at most the dev set's size)."""
    from trainer.config import TrainConfig, read_config_chain
    from translator_app.core import ConfigError

    try:
        raw = read_config_chain(ROOT / stage["config"])  # a recipe stage: its base chain
    except (KeyError, ConfigError):
        return None
    wanted = raw.get("train", {}).get("eval_sentences", TrainConfig.eval_sentences)
    valid = raw.get("data", {}).get("valid")  # resolved against the file that sets it
    valid_path = Path(valid) if valid else None
    if valid_path and valid_path.exists():
        with open(valid_path, encoding="utf-8") as f:
            return min(wanted, sum(1 for line in f if line.strip()))
    return wanted


def parameters(bundle_dir: Path) -> int:
    from safetensors import safe_open

    path = bundle_dir / "model.safetensors"
    if not path.exists():
        return 0
    with safe_open(str(path), "pt") as f:
        # Tied weights are stored once, so this counts each parameter once.
        return sum(_prod(f.get_slice(k).get_shape()) for k in f.keys())  # noqa: SIM118 - not a dict


def _prod(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def fmt(x, digits=1) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def plain_summary(test_sets: dict) -> list[str]:
    """The card's opening, for users (the template's summary from the greedy BLEU of each
    kind of text)."""
    lines = in_short({label: s["greedy"]["bleu"] for label, s in test_sets.items()})
    return ["## In short", "", *lines, ""] if lines else []


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=ROOT / "resources" / "model")
    ap.add_argument("--reports", type=Path, default=ROOT / "eval-reports" / "base")
    ap.add_argument("--prepared", type=Path, default=ROOT / "data" / "prepared" / "report.json")
    ap.add_argument("--runs", type=Path, default=ROOT / "runs")
    ap.add_argument("--history", type=Path, default=ROOT / "docs" / "base-model" / "history.json")
    args = ap.parse_args(argv)
    config = load(args.model / "config.json")
    if config is None:
        sys.exit(f"model_card: no bundle at {args.model}")
    data = load(args.prepared) or {}
    bench = load(args.reports / "bench.json")
    previous = load(args.model / "metrics.json")  # the export's: validation, averaged_steps
    history = load(args.history) or {"stages": [], "comparison": {}}
    for stage in history["stages"]:  # a run still on this machine refreshes its stage
        log_path = ROOT / stage["run"] / "log.jsonl"
        if log_path.exists():
            stage["log"] = [json.loads(x) for x in log_path.read_text().splitlines() if x.strip()]
        if hardware := load(ROOT / stage["run"] / "hardware.json"):  # written by the trainer
            stage["hardware"] = hardware
        stage["dev_pairs"] = dev_pairs(stage)
    machines = list(dict.fromkeys(hardware_text(st.get("hardware")) for st in history["stages"]))
    trained_on = " and ".join(machines) if machines else "an unrecorded machine"

    metrics: dict = {"test_sets": {}, "published": {}, "comparison": {}, "bench": bench or {}}
    lines = [
        f"# {config.get('name', args.model.name)} — German→English",
        "",
        "The model bundled with the app. Every figure below comes from a command in this "
        "repository (`scripts/evaluate_base.sh`, which runs `translator-train eval` and "
        "`bench/bench_translate.py`, then this card's generator `scripts/model_card.py`).",
        "",
        "## Test results (sacreBLEU, detokenised, cased)",
        "",
        "| test set | pairs | BLEU greedy | chrF greedy | beam 4 pairs | BLEU beam 4 "
        "| chrF beam 4 | BLEU greedy, same pairs | published (not re-measured) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    signature = None
    for stem, label, published in TEST_SETS:
        rep = load(args.reports / f"{stem}.json")
        if rep is None:
            continue
        signature = rep["signatures"]
        scores = next(iter(rep["models"].values()))["scores"]
        g, b = scores["greedy"], scores.get("beam4", {})
        metrics["test_sets"][label] = {
            "greedy": {k: g[k] for k in ("bleu", "chrf", "pairs", "seconds")},
            "beam4": {
                k: b[k] for k in ("bleu", "chrf", "pairs", "seconds", "greedy_same_pairs") if k in b
            },
        }
        same = b.get("greedy_same_pairs", g if b.get("pairs") == g["pairs"] else {})
        metrics["published"][label] = published
        lines.append(
            f"| {label} | {g['pairs']} | {g['bleu']:.1f} | {g['chrf']:.1f} | {b.get('pairs')} | "
            f"{fmt(b.get('bleu'))} | {fmt(b.get('chrf'))} | {fmt(same.get('bleu'))} | {published} |"
        )
    lines[2:2] = plain_summary(metrics["test_sets"])
    # What beam search cost against greedy in these very evaluations (seconds per pair).
    ratios = [
        (t["beam4"]["seconds"] / t["beam4"]["pairs"])
        / (t["greedy"]["seconds"] / t["greedy"]["pairs"])
        for t in metrics["test_sets"].values()
        if t["beam4"].get("pairs") and t["greedy"]["seconds"] and t["beam4"].get("seconds")
    ]
    beam_cost = (
        f"per sentence it took {min(ratios):.1f} to {max(ratios):.1f} times as long as greedy here"
        if ratios
        else "it costs more than greedy"
    )
    if signature:
        lines += ["", f"Signatures: BLEU `{signature['bleu']}`, chrF `{signature['chrf']}`."]
    lines += [
        "",
        "Greedy decoding runs on every pair; beam 4 on the number of pairs shown, spread "
        f"evenly over the set ({beam_cost}), and the column "
        "after it scores greedy on those same pairs, so beam and greedy compare on equal "
        "terms. Published scores are from models trained on far "
        "more data (OPUS-MT: all of OPUS) or use tokenised, lower-cased BLEU (tutorial and "
        "IWSLT14 figures), so they are context, not like-for-like comparisons.",
        "",
        "BLEU by source length: `docs/base-model/<test set>.png` in the repository (copies "
        "of the plots the eval command writes to eval-reports/base/).",
    ]

    # ---------------------------------------------------------------- comparison
    # The comparison ran with the first stage's configs, on its machine.
    first = history["stages"][0] if history["stages"] else {}
    compare_machine = hardware_text(first.get("hardware"))
    compare_pairs = first.get("dev_pairs") or "n/a"
    lines += [
        "",
        "## Choice of architecture",
        "",
        "Same training data, same SentencePiece model, same batch size and the same budget of "
        f"training time (evaluation excluded), on {compare_machine} "
        f"(`scripts/train_base.sh`). Dev = the first {compare_pairs} pairs of "
        "`data/prepared/valid.tsv` (Multi30k val, BConTrasT "
        "dev, MLQE-PE dev and held-out Tatoeba pairs), greedy. Latency: "
        "`bench/bench_translate.py --runs 2 --threads 2` on each run's exported model, "
        "20-word sentences, greedy, p95, in fp32 and in int8 (the app's default on the "
        "CPU). A model this early in training often repeats itself, and its output length "
        "sets its latency, so the cost per output token and the tokens it emitted are shown "
        "too.",
        "",
        "| architecture | parameters | steps | dev loss | dev BLEU | dev chrF "
        "| p95 20 words fp32 (ms) | p95 20 words int8 (ms) | int8 ms/token | tokens out |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for arch, label in ARCHS:
        run_dir = args.runs / "compare" / arch
        log_path = run_dir / "log.jsonl"
        if not log_path.exists():
            continue
        evals = [json.loads(line) for line in log_path.read_text().splitlines() if line.strip()]
        final = [r for r in evals if "bleu" in r][-1]  # the evaluation at the budget's end
        arch_bench = load(run_dir / "bench.json")
        int8 = ((arch_bench or {}).get("precisions", {}).get("int8") or {}).get("beam1_20w", {})
        params = parameters(run_dir / "model")
        metrics["comparison"][arch] = {
            **{k: final.get(k) for k in ("step", "valid_loss", "bleu", "chrf", "elapsed_s")},
            "p95_ms_20w_greedy": p95_20w(arch_bench),
            "p95_ms_20w_greedy_int8": p95_20w(arch_bench, "int8"),
            "int8_ms_per_output_token": int8.get("ms_per_output_token"),
            "output_tokens_20w": int8.get("output_tokens"),
        }
        lines.append(
            f"| {label} | {fmt(params / 1e6 if params else None)} M | {final['step']} | "
            f"{final['valid_loss']:.3f} | {final['bleu']:.2f} | {final['chrf']:.1f} "
            f"| {fmt(p95_20w(arch_bench))} | {fmt(p95_20w(arch_bench, 'int8'))} "
            f"| {fmt(int8.get('ms_per_output_token'), 2)} | {fmt(int8.get('output_tokens'))} |"
        )
    if not metrics["comparison"] and history.get("comparison"):
        metrics["comparison"] = history["comparison"]  # the runs are not on this machine
        lines += [
            f"| {label} | | {c['step']} | {c['valid_loss']:.3f} | {c['bleu']:.2f} | "
            f"{c['chrf']:.1f} | {fmt(c['p95_ms_20w_greedy'])} | {fmt(c['p95_ms_20w_greedy_int8'])} "
            f"| {fmt(c['int8_ms_per_output_token'], 2)} | {fmt(c['output_tokens_20w'])} |"
            for arch, label in ARCHS
            if (c := history["comparison"].get(arch))
        ]
    history["comparison"] = metrics["comparison"]
    if metrics["comparison"]:
        comp = metrics["comparison"]
        minutes = next(iter(comp.values()))["elapsed_s"] / 60
        best = max(comp, key=lambda a: (comp[a]["bleu"] or 0, -comp[a]["valid_loss"]))
        lowest = min(comp, key=lambda a: comp[a]["valid_loss"])
        bundled_p95 = p95_20w(bench, "int8")
        lines += [
            "",
            f"Budget: {minutes:.0f} minutes of training each (runs in `runs/compare/`). "
            f"Best dev BLEU: **{best}**; lowest dev loss: **{lowest}**. The latency goal "
            "(p95 ≤ 50 ms, 20 words, greedy, 2 cores) is judged on the trained, bundled "
            f"model, whose output has a sensible length: {fmt(bundled_p95)} ms in int8 "
            "(see Speed below), "
            + ("within the goal." if (bundled_p95 or 1e9) <= 50 else "**over the goal**."),
        ]
        if best != "transformer":
            lines += [
                "",
                f"**The measurement favours {best}**, yet the bundle is a Transformer: its "
                "run had already been trained for longer before this comparison was rerun.",
            ]
        metrics["comparison_choice"] = best

    # ---------------------------------------------------------------- training
    evals_all = [(st, r) for st in history["stages"] for r in st["log"] if "bleu" in r]
    total_min = sum(st["log"][-1]["elapsed_s"] / 60 for st in history["stages"] if st["log"])
    steps_done = sum(st["log"][-1]["step"] for st in history["stages"] if st["log"])
    last = evals_all[-1][1] if evals_all else {}
    previous = previous or {}  # a card written before keeps them under "training"
    averaged = previous.get("averaged_steps") or previous.get("training", {}).get("averaged_steps")
    lines += [
        "",
        "## Training",
        "",
        f"- Architecture: `{json.dumps(config['model'])}`",
        f"- Parameters: {parameters(args.model) / 1e6:.1f} M; bundle "
        f"{sum(f.stat().st_size for f in args.model.iterdir()) / 1e6:.1f} MB "
        f"(weights {config['weights']['dtype']}).",
        f"- In all: {steps_done} steps, {total_min:.1f} min of training (evaluation "
        f"excluded) on {trained_on}. Stages (`docs/base-model/history.json` keeps their "
        "logs, the machine each ran on and the command as it was run; data from "
        "`scripts/prepare_data.py`; `translator-train recipe recipes/de-en-base --run N` "
        "reruns stage N):",
    ]
    for st in history["stages"]:
        if not st["log"]:
            continue
        end = st["log"][-1]
        lines.append(
            f"  - {st['name']}: `{st['config']}`, {st['start']}, "
            f"{st['precision']}; {end['step']} steps, {end.get('epoch', 'n/a')} full "
            f"epoch(s), {end['elapsed_s'] / 60:.1f} min, last dev BLEU {end.get('bleu', 'n/a')}."
        )
    if averaged:
        lines.append(
            f"- The bundle's weights are the average of {len(averaged)} checkpoints of the "
            f"last stage (steps {', '.join(map(str, averaged))}; `translator-train average`), "
            "which scored higher on dev than the last checkpoint alone."
        )
    if evals_all:
        lines += [
            "",
            "Dev = the first N pairs of `data/prepared/valid.tsv` (N as each stage's "
            "config asked, column dev pairs), greedy; minutes are training time since the "
            "first stage began.",
            "",
            "| stage | step | minutes | dev loss | dev BLEU | dev pairs |",
            "|---|---|---|---|---|---|",
        ]
        offset_min, offset_steps = 0.0, 0
        for st in history["stages"]:
            for r in st["log"]:
                if "bleu" in r:
                    lines.append(
                        f"| {st['name']} | {offset_steps + r['step']} | "
                        f"{offset_min + r['elapsed_s'] / 60:.0f} | {r['valid_loss']:.3f} | "
                        f"{r['bleu']:.2f} | {st.get('dev_pairs') or 'n/a'} |"
                    )
            if st["log"]:
                offset_min += st["log"][-1]["elapsed_s"] / 60
                offset_steps += st["log"][-1]["step"]
    metrics["training"] = {
        "stages": history["stages"],
        "minutes": round(total_min, 1),
        "steps": steps_done,
        "last_dev": last,
        **({"averaged_steps": averaged} if averaged else {}),
    }

    # ---------------------------------------------------------------- data
    lines += [
        "",
        "## Training data",
        "",
        "Built by `python scripts/prepare_data.py` from `../shared/data` (see each corpus "
        "README for origin). Tokenised corpora were detokenised with sacremoses.",
        "",
        "| corpus | licence (as stated) | pairs read | kept |",
        "|---|---|---|---|",
    ]
    for name, c in data.get("corpora", {}).items():
        lines.append(f"| {name} | {c['licence']} | {c['read']} | {c.get('kept', 0)} |")
    removed = data.get("removed_as_test", {})
    lines += [
        "",
        f"Training pairs: {data.get('train_pairs', 'n/a')}; validation pairs: "
        f"{data.get('valid_pairs', 'n/a')}.",
        "",
        "**Test sentences removed.** Every pair whose German or English side equals a "
        f"sentence of any of the {len(data.get('test_files', []))} test files (all Tatoeba "
        "test versions, all WMT news/general test sets, Multi30k tests, IWSLT dev/test, the "
        "MLQE-PE and BConTrasT test splits, the WMT15-sample val/test) was removed: "
        + ", ".join(f"{v} by {k.split('(')[1][:-1]}" for k, v in removed.items())
        + " (normalised = NFKC, case-folded, whitespace-collapsed). The Tatoeba corpus used "
        "is the copy that already omits the Tatoeba test sets.",
        "",
        "Not used as sentence pairs: IWSLT (test only; CC BY-NC-ND forbids derivatives), "
        "the Bible (archaic register), the Debian gettext catalogues (UI fragments; kept "
        "for fine-tuning). The Ding dictionary (TU Chemnitz, GPL-2+) is not trained on as "
        "pairs; since stage v8 its noun entries choose the terms of the inline term "
        "annotations (`[data] terms`). The WMT news test sets of the years that are neither "
        "test nor dev sets are trained on since v8 (`wmt-news`).",
        "",
        "Attribution: Tatoeba sentences from tatoeba.org via manythings.org/anki (CC-BY "
        "2.0); BConTrasT (Unbabel, CC-BY-SA 4.0); GNOME user docs (CC-BY-SA 3.0); "
        "LibreOffice help/UI (MPL-2.0); MLQE-PE (CC0); Ding dictionary (Frank Richter, TU "
        "Chemnitz, GPL-2+); Multi30k, Europarl, WMT15 sample, the WMT news test sets and "
        "Debian package descriptions as described in their READMEs.",
    ]

    # ---------------------------------------------------------------- speed
    if bench:
        machine = bench.get("hardware")
        threads = f", {machine['torch_threads']} threads" if machine else ""
        lines += ["", f"## Speed on {hardware_text(machine)}{threads}", ""]
        lines += [
            "| precision | p95 ms, 20 words, greedy | p95 ms, 20 words, the app's default "
            "search | BLEU Multi30k greedy |",
            "|---|---|---|---|",
        ]
        for prec, res in bench.get("precisions", {}).items():
            q = res.get("quality") or {}
            lines.append(
                f"| {prec} | {fmt(p95_20w(bench, prec))} | {fmt(p95_20w(bench, prec, 'app'))} "
                f"| {fmt(q.get('bleu'))} |"
            )
        prec = bench.get("precisions", {})
        if "int8" in prec and "fp32" in prec:
            int8_ms, fp32_ms = p95_20w(bench, "int8"), p95_20w(bench, "fp32")
            within = [p for p in ("fp32", "int8") if (p95_20w(bench, p) or 1e9) <= 50]
            if len(within) == 1:
                goal = f"the 50 ms goal being met only by {within[0]}"
            else:  # none or both: only these words, no item of an empty list
                goal = "both within the 50 ms goal" if within else "neither meets the 50 ms goal"
            lines += [
                "",
                f"The app and `translator-app translate` use precision `auto`: int8 dynamic "
                f"quantisation on the CPU (p95 {fmt(int8_ms)} ms against {fmt(fp32_ms)} ms "
                f"for fp32, {goal}, at the BLEU shown), fp32 on CUDA.",
            ]
        lines += [
            "",
            "The app's default search: beam and n-best of its default settings, with the "
            "alignment (the panel's other layers are computed when the user picks one).",
            "",
            "Command: `.venv/bin/python "
            + bench.get("command", "bench/bench_translate.py")
            + "` (run by `scripts/evaluate_base.sh`).",
        ]

    # ---------------------------------------------------------------- faithfulness
    faithful = load(args.reports / "faithful.json")
    if faithful:
        metrics["faithful"] = {
            name: res["by_category"]["all"] for name, res in faithful["searches"].items()
        }
        lines += [
            "",
            "## Names, numbers, times and dates",
            "",
            f"Issue 30's bench (`.venv/bin/python {faithful['command']}`, "
            f"{faithful['sentences']} written office and everyday sentences, kept out of "
            f"training; precision {faithful['precision']}): the share of required items "
            "(a name, a number in English format, a time, a date, a place's English name) "
            "found in the translation, and of sentences with every item kept. The app's "
            "default search puts first the best candidate that keeps every number."
            + _PROTECT_TEXT.get(faithful.get("protect_facts", ""), ""),
            "",
            "| search | items kept | sentences whole | "
            + " | ".join(
                c
                for c in sorted(next(iter(faithful["searches"].values()))["by_category"])
                if c != "all"
            )
            + " |",
            "|---|---|---|"
            + "---|" * (len(next(iter(faithful["searches"].values()))["by_category"]) - 1),
        ]
        for name, res in faithful["searches"].items():
            cats = res["by_category"]
            lines.append(
                f"| {name} (beam {res['beam']}) | {100 * cats['all']['items_kept']:.1f} % | "
                f"{100 * cats['all']['sentences_whole']:.1f} % | "
                + " | ".join(
                    f"{100 * cats[c]['items_kept']:.0f} %" for c in sorted(cats) if c != "all"
                )
                + " |"
            )
        lines += ["", "Per category: the share of items kept."]

    glossary = load(args.reports / "glossary.json")
    if glossary:
        metrics["glossary"] = {name: run["terms_used"] for name, run in glossary["runs"].items()}
        metrics["glossary_terms"] = glossary["terms"]
        metrics["glossary_multiword"] = {
            name: run["multiword_terms_used"]
            for name, run in glossary["runs"].items()
            if "multiword_terms_used" in run
        }
        lines += [
            "",
            "## Glossary",
            "",
            (
                "Trained on inline term annotations (a German term followed by the English "
                "it must become, between marker pieces; Dinu et al. 2019), so it follows the "
                "user's glossary (Model → Glossary…, `translator-app translate --glossary`)."
                if glossary["follows_glossary"]
                else "Not trained on term annotations: it cannot take a glossary."
            ),
            f"On {glossary['sentences']} sentences with {glossary['terms']} terms no "
            f"training data holds in this form (`.venv/bin/python {glossary['command']}`), "
            "the share of sentences whose English uses the term:",
            "",
            "| run | terms used | of them, English of several words |",
            "|---|---|---|",
        ]
        lines += [
            f"| {name} | {100 * run['terms_used']:.1f} % | "
            + (
                f"{100 * run['multiword_terms_used']:.1f} % |"
                if "multiword_terms_used" in run
                else "– |"
            )
            for name, run in glossary["runs"].items()
        ]

    engines = load(args.reports / "engines.json")
    if engines:
        metrics["engines"] = engines
        lines += [
            "",
            "## Engines",
            "",
            "Transformer bundles decode with CTranslate2; the PyTorch search is the "
            f"reference. On {hardware_text(engines.get('machine'))}, "
            f"{engines['threads']} threads, the same sentences through each engine in turn "
            f"(`.venv/bin/python {engines['command']}`), greedy:",
            "",
            "| engine | median ms/sentence | ms/token | batch sentences/s | same output as PyTorch fp32 | load to first translation |",
            "|---|---|---|---|---|---|",
        ]
        lines += [
            f"| {name} | {r['median_ms']:.1f} | {r['ms_per_token']:.2f} | "
            f"{r['batch_sentences_per_s']:.1f} | {100 * r['same_as_pytorch_fp32']:.0f} % | "
            f"{engines['load_s'][name]:.2f} s |"
            for name, r in engines["greedy"].items()
        ]
        app = engines["app_default_20_words"]
        lines += [
            "",
            "The app's default search with the alignment panel's attention, 20-word sentences, "
            "p95: "
            + "; ".join(
                f"{name} {r['p95_ms']:.0f} ms ({r['p95_over_greedy_ct2_int8']:.2f}x greedy "
                "CTranslate2 int8)"
                for name, r in app.items()
                if "p95_over_greedy_ct2_int8" in r
            )
            + ".",
        ]
        if engines.get("bleu"):
            b = engines["bleu"]
            lines += [
                "",
                f"BLEU, greedy, first {b['pairs']} pairs of {Path(b['test']).name}: "
                + "; ".join(f"{name} {b[name]:.2f}" for name in engines["greedy"])
                + ".",
            ]

    lines += [
        "",
        "## Limitations",
        "",
        f"A small model trained for {total_min / 60:.1f} hours on {trained_on}: expect "
        "errors on long and news-style sentences, rare words and names. It translates "
        "sentence by sentence without document context. The corpora it saw most: "
        + ", ".join(
            f"{name} ({c.get('kept', 0)} pairs)"
            for name, c in sorted(
                data.get("corpora", {}).items(), key=lambda kv: -kv[1].get("kept", 0)
            )[:3]
        )
        + ".",
    ]
    write_atomic(args.model / "MODEL_CARD.md", "\n".join(lines) + "\n")
    write_atomic(args.model / "metrics.json", json.dumps(metrics, indent=2) + "\n")
    write_atomic(args.history, json.dumps(history, indent=1) + "\n")
    print(f"wrote {args.model / 'MODEL_CARD.md'} and metrics.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())

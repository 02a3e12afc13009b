"""The sections of a bundle's MODEL_CARD.md, each built from the reports that measured it
(scripts/model_card.py puts them together and writes the card).

Each ``*_section`` function returns the card's lines for its section and records its
figures in ``metrics`` (which becomes metrics.json); none reads a figure from prose.
"""

from __future__ import annotations

import json
from pathlib import Path

from translator_app.core.engine.model_card import card_data, in_short
from translator_app.core.platform.hardware import recorded_int8_kind

ROOT = Path(__file__).resolve().parent.parent

DATA = card_data()  # resources/model_cards.json: the card's prose that is data
TEST_SETS = [(s["report"], s["label"], s["published"]) for s in DATA["test_sets"]]
ARCHS = list(DATA["architectures"].items())


def load(path: Path):
    return json.loads(path.read_text("utf-8")) if path.exists() else None


def p95_20w(
    bench: dict | None, precision: str = "fp32", search: str = "beam1", key: str = "p95_ms"
) -> float | None:
    """A 20-word figure of bench_translate: ``p95_ms`` to the first English (what the
    window shows first), ``final_p95_ms`` with the dictionary's words."""
    try:
        return bench["precisions"][precision][f"{search}_20w"][key]
    except (KeyError, TypeError):
        return None


def hardware_text(h: dict | None, int8: bool = False) -> str:
    """A machine as measured by translator_app.core.platform.hardware.facts (trainer, bench);
    ``int8``: with what CTranslate2's int8 ran on there (for figures of the translator)."""
    if not h:
        return "an unrecorded machine"
    features = ", ".join(h.get("features") or []) or "no AVX-512/AMX"
    backend = recorded_int8_kind(h) if int8 else ""
    features += f"; int8 on {backend}" if backend else ""
    text = f"{h.get('cpu_cores')} CPU cores ({h.get('cpu')}; {features})"
    return f"{text} with a GPU ({h['cuda']})" if h.get("cuda") else text


def dev_pairs(stage: dict) -> int | None:
    """How many dev pairs the stage's evaluations translated ([train] eval_sentences of
    its config, at most the dev set's size)."""
    from trainer.config import TrainConfig, read_config_chain
    from translator_app.core.models.config import ConfigError

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


def results_section(reports: Path, metrics: dict, plots: Path) -> list[str]:
    """The test sets' table (greedy and beam 4), with the BLEU and chrF signatures."""
    lines = [
        "## Test results (sacreBLEU, detokenised, cased)",
        "",
        "| test set | pairs | BLEU greedy | chrF greedy | beam 4 pairs | BLEU beam 4 "
        "| chrF beam 4 | BLEU greedy, same pairs | German words left / 100 sentences "
        "(words said from the dictionary) | published (not re-measured) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    signature, measured = None, set()
    for stem, label, published in TEST_SETS:
        rep = load(reports / f"{stem}.json")
        if rep is None:
            continue
        signature = rep["signatures"]
        model = next(iter(rep["models"].values()))
        scores = model["scores"]
        if rep.get("hardware") and model.get("engine"):
            measured.add(f"{model['engine']} on {hardware_text(rep['hardware'], int8=True)}")
        g, b = scores["greedy"], scores.get("beam4", {})
        left = g.get("german_left", {}).get("per_100")
        filled = g.get("dictionary_words_per_100")
        metrics["test_sets"][label] = {
            "greedy": {k: g[k] for k in ("bleu", "chrf", "pairs", "seconds")}
            | ({"german_left_per_100": left} if left is not None else {})
            | ({"dictionary_words_per_100": filled} if filled is not None else {}),
            "beam4": {
                k: b[k] for k in ("bleu", "chrf", "pairs", "seconds", "greedy_same_pairs") if k in b
            },
        }
        same = b.get("greedy_same_pairs", g if b.get("pairs") == g["pairs"] else {})
        metrics["published"][label] = published
        lines.append(
            f"| {label} | {g['pairs']} | {g['bleu']:.1f} | {g['chrf']:.1f} | {b.get('pairs')} | "
            f"{fmt(b.get('bleu'))} | {fmt(b.get('chrf'))} | {fmt(same.get('bleu'))} | "
            f"{fmt(left, 2)}{f' ({filled:.2f})' if filled is not None else ''} | {published} |"
        )
    if signature:
        lines += ["", f"Signatures: BLEU `{signature['bleu']}`, chrF `{signature['chrf']}`."]
    if measured:
        lines += [
            "",
            f"Translated with {' and '.join(sorted(measured))}. int8 rounds otherwise with "
            "another backend or instruction set, so on another CPU a word may differ "
            "(`bench/bench_int8_kinds.py` measures how often).",
        ]
    lines += [
        "",
        "Greedy decoding runs on every pair; beam 4 on the number of pairs shown, spread "
        f"evenly over the set ({_beam_cost(metrics['test_sets'])}), and the column "
        "after it scores greedy on those same pairs, so beam and greedy compare on equal "
        "terms. German words left: words of the greedy English that stand in the German "
        "source, are German dictionary words (Ding) and no English word "
        "(translator_app/core/faithful/german_left.py); in brackets, the words the model "
        "copied that the translator said with the dictionary's English instead, as the app "
        "does (a word that reads as a common word in the German, not a name: "
        "translator_app/core/faithful/copied_words.py). Published scores are from models "
        "trained on far "
        "more data (OPUS-MT: all of OPUS) or use tokenised, lower-cased BLEU (tutorial and "
        "IWSLT14 figures), so they are context, not like-for-like comparisons.",
        "",
        f"BLEU by source length: `{_rel(plots)}/<test set>.png` in the repository (copies "
        f"of the plots the eval command writes to {_rel(reports)}/).",
    ]
    return lines


def _beam_cost(test_sets: dict) -> str:
    """What beam search cost against greedy in these very evaluations (seconds per pair)."""
    ratios = [
        (t["beam4"]["seconds"] / t["beam4"]["pairs"])
        / (t["greedy"]["seconds"] / t["greedy"]["pairs"])
        for t in test_sets.values()
        if t["beam4"].get("pairs") and t["greedy"]["seconds"] and t["beam4"].get("seconds")
    ]
    if not ratios:
        return "it costs more than greedy"
    return (
        f"per sentence it took {min(ratios):.1f} to {max(ratios):.1f} times as long as greedy here"
    )


def comparison_section(runs: Path, history: dict, bench: dict | None, metrics: dict) -> list[str]:
    """The architecture comparison (runs/compare/<arch>, or the history's copy where the
    runs are not on this machine); it ran with the first stage's configs, on its machine."""
    first = history["stages"][0] if history["stages"] else {}
    lines = [
        "",
        "## Choice of architecture",
        "",
        "Same training data, same SentencePiece model, same batch size and the same budget of "
        f"training time (evaluation excluded), on {hardware_text(first.get('hardware'))} "
        f"(`scripts/train_base.sh`). Dev = the first {first.get('dev_pairs') or 'n/a'} pairs "
        "of `data/prepared/valid.tsv` (Multi30k val, BConTrasT "
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
    params = {}
    for arch, _label in ARCHS:
        if (measured := _compared_run(runs / "compare" / arch)) is not None:
            metrics["comparison"][arch], params[arch] = measured
    if not metrics["comparison"] and history.get("comparison"):
        metrics["comparison"] = history["comparison"]  # the runs are not on this machine
    history["comparison"] = metrics["comparison"]
    for arch, label in ARCHS:
        if c := metrics["comparison"].get(arch):
            p = params.get(arch)
            lines.append(
                f"| {label} |{' ' + fmt(p / 1e6) + ' M' if p else ''} | {c['step']} | "
                f"{c['valid_loss']:.3f} | {c['bleu']:.2f} | {c['chrf']:.1f} "
                f"| {fmt(c['p95_ms_20w_greedy'])} | {fmt(c['p95_ms_20w_greedy_int8'])} "
                f"| {fmt(c['int8_ms_per_output_token'], 2)} | {fmt(c['output_tokens_20w'])} |"
            )
    if not metrics["comparison"]:
        return []  # none on record (e.g. the RNN's card): no empty table
    return lines + _comparison_verdict(metrics, bench)


def _compared_run(run_dir: Path) -> tuple[dict, int] | None:
    """One comparison run's figures at its budget's end, and its parameter count."""
    log_path = run_dir / "log.jsonl"
    if not log_path.exists():
        return None
    evals = [json.loads(line) for line in log_path.read_text().splitlines() if line.strip()]
    final = [r for r in evals if "bleu" in r][-1]  # the evaluation at the budget's end
    arch_bench = load(run_dir / "bench.json")
    int8 = ((arch_bench or {}).get("precisions", {}).get("int8") or {}).get("beam1_20w", {})
    figures = {
        **{k: final.get(k) for k in ("step", "valid_loss", "bleu", "chrf", "elapsed_s")},
        "p95_ms_20w_greedy": p95_20w(arch_bench),
        "p95_ms_20w_greedy_int8": p95_20w(arch_bench, "int8"),
        "int8_ms_per_output_token": int8.get("ms_per_output_token"),
        "output_tokens_20w": int8.get("output_tokens"),
    }
    return figures, parameters(run_dir / "model")


def _comparison_verdict(metrics: dict, bench: dict | None) -> list[str]:
    comp = metrics["comparison"]
    minutes = next(iter(comp.values()))["elapsed_s"] / 60
    best = max(comp, key=lambda a: (comp[a]["bleu"] or 0, -comp[a]["valid_loss"]))
    lowest = min(comp, key=lambda a: comp[a]["valid_loss"])
    bundled_p95 = p95_20w(bench, "int8")
    lines = [
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
    return lines


def recipe_of(stages: list[dict]) -> str:
    """The recipe folder of the last stage's config (recipes/de-en-base, ...)."""
    return str(Path(stages[-1]["config"]).parent) if stages else "recipes/<recipe>"


def _rel(path: Path) -> str:
    path = Path(path).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def training_section(
    config: dict,
    model_dir: Path,
    history: dict,
    previous: dict,
    trained_on: str,
    metrics: dict,
    history_path: Path,
) -> list[str]:
    """Architecture, size, the stages as run (history.json) and the dev curve across them."""
    stages = history["stages"]
    recipe = recipe_of(stages)
    total_min = sum(st["log"][-1]["elapsed_s"] / 60 for st in stages if st["log"])
    steps_done = sum(st["log"][-1]["step"] for st in stages if st["log"])
    evals_all = [r for st in stages for r in st["log"] if "bleu" in r]
    # a card written before keeps them under "training"
    averaged = previous.get("averaged_steps") or previous.get("training", {}).get("averaged_steps")
    lines = [
        "",
        "## Training",
        "",
        f"- Architecture: `{json.dumps(config['model'])}`",
        f"- Parameters: {parameters(model_dir) / 1e6:.1f} M; bundle "
        f"{sum(f.stat().st_size for f in model_dir.iterdir()) / 1e6:.1f} MB "
        f"(weights {config['weights']['dtype']}).",
        f"- In all: {steps_done} steps, {total_min:.1f} min of training (evaluation "
        f"excluded) on {trained_on}. Stages (`{_rel(history_path)}` keeps their "
        "logs, the machine each ran on and the command as it was run; data from "
        f"`scripts/prepare_data.py`; `translator-train recipe {recipe} --run N` "
        "reruns stage N):",
    ]
    for st in stages:
        if st["log"]:
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
        lines += _dev_curve(stages)
    metrics["training"] = {
        "stages": stages,
        "minutes": round(total_min, 1),
        "steps": steps_done,
        "last_dev": evals_all[-1] if evals_all else {},
        **({"averaged_steps": averaged} if averaged else {}),
    }
    return lines


def _dev_curve(stages: list[dict]) -> list[str]:
    """Every evaluation of every stage, in steps and minutes since the first stage began."""
    lines = [
        "",
        "Dev = the first N pairs of `data/prepared/valid.tsv` (N as each stage's "
        "config asked, column dev pairs), greedy; minutes are training time since the "
        "first stage began.",
        "",
        "| stage | step | minutes | dev loss | dev BLEU | dev pairs |",
        "|---|---|---|---|---|---|",
    ]
    offset_min, offset_steps = 0.0, 0
    for st in stages:
        lines += [
            f"| {st['name']} | {offset_steps + r['step']} | "
            f"{offset_min + r['elapsed_s'] / 60:.0f} | {r['valid_loss']:.3f} | "
            f"{r['bleu']:.2f} | {st.get('dev_pairs') or 'n/a'} |"
            for r in st["log"]
            if "bleu" in r
        ]
        if st["log"]:
            offset_min += st["log"][-1]["elapsed_s"] / 60
            offset_steps += st["log"][-1]["step"]
    return lines


# Corpora of ../shared/data that the training data leaves out, and why; each is named in
# the card only while scripts/prepare_data.py's report does not list it as trained on.
_NOT_TRAINED = {
    "iwslt": "IWSLT (test only; CC BY-NC-ND forbids derivatives)",
    "bible": "the Bible (archaic register)",
}


def stage_data(stages: list[dict]) -> list[dict]:
    """Each stage's [data] table as its config (with its base chain) says today."""
    from trainer.config import read_config_chain
    from translator_app.core.models.config import ConfigError

    tables = []
    for st in stages:
        try:
            tables.append(read_config_chain(ROOT / st["config"]).get("data", {}))
        except (KeyError, ConfigError):
            continue
    return tables


def train_files(stages: list[dict]) -> set[str]:
    """The names of the data files the stages' configs train on (their [data] train)."""
    return {Path(f).name for table in stage_data(stages) for f in table.get("train", [])}


def trained_on_terms(stages: list[dict]) -> bool:
    """Whether any stage trained on inline term annotations ([data] terms)."""
    return any(table.get("terms") for table in stage_data(stages))


def data_section(data: dict, trained_files: set[str], recipe: str) -> list[str]:
    """The corpora as scripts/prepare_data.py reported them (only those in train.tsv.xz
    where the model trained on that file alone), and the test sentences removed."""
    corpora = trained_corpora(data, trained_files)
    base_only = trained_files == {"train.tsv.xz"}
    removed = data.get("removed_as_test", {})
    lines = [
        "",
        "## Training data",
        "",
        "Built by `python scripts/prepare_data.py` from `../shared/data` (see each corpus "
        "README for origin). Tokenised corpora were detokenised with sacremoses.",
        "",
        "| corpus | licence (as stated) | pairs read | kept |",
        "|---|---|---|---|",
        *(
            f"| {n} | {c['licence']} | {c['read']} | {c.get('kept', 0)} |"
            for n, c in corpora.items()
        ),
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
        "Not used as sentence pairs: "
        + "; ".join(why for name, why in _NOT_TRAINED.items() if name not in corpora)
        + (
            "; the register corpora that prepare_data.py writes under corpora/ only (Ding "
            "phrases, gettext, the project's own register sets): this model trained on "
            "`data/prepared/train.tsv.xz` alone."
            if base_only
            else ". Since stage v8 the Ding dictionary's noun entries (TU Chemnitz, GPL-2+) "
            "also choose the terms of the inline term annotations (`[data] terms`). A corpus "
            "in the table above is trained on only in the stages whose `[data] train` lists "
            f"it (`{recipe}/`)."
        ),
        "",
        "Attribution: Tatoeba sentences from tatoeba.org via manythings.org/anki (CC-BY "
        "2.0); BConTrasT (Unbabel, CC-BY-SA 4.0); GNOME user docs (CC-BY-SA 3.0); "
        "LibreOffice help/UI (MPL-2.0); MLQE-PE (CC0); Ding dictionary (Frank Richter, TU "
        "Chemnitz, GPL-2+); Multi30k, Europarl, WMT15 sample, the WMT news test sets, "
        "the Debian gettext catalogues and Debian package descriptions as described in "
        "their READMEs.",
    ]
    return lines


def trained_corpora(data: dict, trained_files: set[str]) -> dict:
    """The corpora of prepare_data.py's report the model trained on: those in train.tsv.xz
    where a stage trained on that file, and those a stage names under corpora/ (a corpus
    prepared for a later stage is left out)."""
    from prepare_data import EVERYDAY_TRAIN, REGISTER_TRAIN  # written under corpora/ only

    corpora = data.get("corpora", {})
    separate = {name for name, *_ in REGISTER_TRAIN + EVERYDAY_TRAIN}
    named = {f.split(".")[0] for f in trained_files}
    in_mix = "train.tsv.xz" in trained_files
    return {n: c for n, c in corpora.items() if n in named or (in_mix and n not in separate)}


def cells_section(compare_json: Path) -> list[str]:
    """The recurrent cells' training speed from the course comparison (docs/compare.md):
    the peephole and coupled LSTM are plain PyTorch, one step per time step."""
    report = load(compare_json)
    if not report:
        return []
    speeds = {m["model"].split()[0]: m["tokens_per_s"] for m in report["models"].values()}
    lines = ["", "## Recurrent cells", ""]
    lines.append(
        "Training speed of the cells this project offers (`rnn_type`), each with additive "
        f"attention, from the course comparison (`{_rel(compare_json)}`, "
        "docs/compare.md: the same data and time on one GPU shared by three runs), in "
        "training tokens/s: "
        + ", ".join(f"{cell} {tps:,}" for cell, tps in speeds.items())
        + ". GRU and LSTM run as cuDNN's or oneDNN's fused kernels; the peephole and the "
        "coupled LSTM are this project's cells in plain PyTorch, one Python step per time "
        "step, and train that much slower."
    )
    return lines


def limitations_section(minutes: float, trained_on: str, corpora: dict) -> list[str]:
    most = sorted(corpora.items(), key=lambda kv: -kv[1].get("kept", 0))[:3]
    return [
        "",
        "## Limitations",
        "",
        f"A small model trained for {minutes / 60:.1f} hours on {trained_on}: expect "
        "errors on long and news-style sentences, rare words and names. It translates "
        "sentence by sentence without document context. The corpora it saw most: "
        + ", ".join(f"{name} ({c.get('kept', 0)} pairs)" for name, c in most)
        + ".",
    ]

"""Write the tables of the docs that the code can say itself, so that they cannot drift.

    python scripts/doc_tables.py           # rewrite them
    python scripts/doc_tables.py --check   # exit 1 where a doc differs (tests/packaging/test_docs.py)

- docs/architecture.md, the core's rooms: the layers of ``CORE_LAYERS`` in
  tests/packaging/test_import_boundaries.py (the test that enforces them), each room with what it
  holds (ROOMS below: a room without a line here is an error).
- docs/engine.md, the limits kept beside their format: every module-level ``MAX_*``
  constant of translator_app outside core/limits.py, with its value as written.
- docs/postedit.md, the post-editing steps in the order they run (core/postedit/pipeline.py).

Each table sits between ``<!-- BEGIN generated:NAME -->`` and ``<!-- END generated:NAME -->``.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))  # the sibling module of the bench tables

from figure_tables import (  # noqa: E402
    CARD,
    card_with_english,
    english_variant_table,
    how_often_table,
    made_up_words_table,
    spelling_table,
    teach_table,
)

CORE = ROOT / "translator_app" / "core"

# What each room of the core holds (the layer table's last column).
ROOMS = {
    "limits": "the limits on the translator's input and its bundles, and the checks that "
    "enforce them (a file format's own limits live beside its reader: see docs/engine.md)",
    "platform": "the user's folders, bundled resources, CPU features and engines",
    "cli_common": "what both command lines (`translator-app`, `translator-train`) share",
    "text": "SentencePiece tokenizers with character spans; sentence splitting",
    "models": "RNN + Bahdanau/Luong attention, Transformer, `ModelConfig`, `build_model`",
    "data": "parallel-text readers (TSV, TMX, line pairs) and the corrections store",
    "dictionary": "Ding's entries looked up for inflected and compound German words "
    "(SQLite index, simplemma lemmas)",
    "language": "German and English word knowledge read from resources/language's tables "
    "(calendar, number words, units, measures, function words), one reader per list; "
    "the reader of amounts; which language a sentence is in (py3langid)",
    "values": "what a translation carries about its source, below every check that finds "
    "it: a fact of the German, a term found in it, a content word",
    "faithful": "numbers, dates, names and places kept; glossary and term annotations",
    "engine": "bundles, the PyTorch and CTranslate2 backends, one decode of a list of "
    "sentences, its immutable `Translation` values, the document pipeline",
    "postedit": "the post-editing pipeline: steps that propose other decodes or rewrite a "
    "candidate, in one ordered list, and the one judge that chooses among candidates",
    "api": "`Translator`: the model's search and the pipeline behind one call; every "
    "layer's attention, dropped words and word alternatives after it",
    "importers": "Marian / OPUS-MT downloads (Hugging Face folder, npz release) as bundles",
    "downloads": "the catalogue of published models, fetched (resumed, checksum-checked) and imported",
    "ipc": "what crosses between the app and the trainer's process: progress lines, "
    "translation files",
    "documents": ".docx and .odt read and written with their formatting, bounded while parsing",
}


def core_layers() -> tuple[tuple[str, ...], ...]:
    """CORE_LAYERS as tests/packaging/test_import_boundaries.py defines it (read, not imported)."""
    tree = ast.parse(
        (ROOT / "tests" / "packaging" / "test_import_boundaries.py").read_text("utf-8")
    )
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "CORE_LAYERS" for t in node.targets
        ):
            return ast.literal_eval(node.value)
    raise SystemExit("tests/packaging/test_import_boundaries.py defines no CORE_LAYERS")


def layers_table() -> str:
    rows = ["| layer | room | what it holds |", "|---|---|---|"]
    for layer, rooms in enumerate(core_layers()):
        for room in rooms:
            if room not in ROOMS:
                raise SystemExit(f"scripts/doc_tables.py: say what the room {room!r} holds")
            name = f"{room}.py" if (CORE / f"{room}.py").is_file() else f"{room}/"
            rows.append(f"| {layer} | `{name}` | {ROOMS[room]} |")
    return "\n".join(rows)


def format_limits() -> list[tuple[str, str, str]]:
    """(module, name, value as written) of each module-level MAX_* constant outside
    core/limits.py."""
    found = []
    for path in sorted((ROOT / "translator_app").rglob("*.py")):
        if path == CORE / "limits.py":
            continue
        source = path.read_text("utf-8")
        for node in ast.parse(source).body:
            if not isinstance(node, ast.Assign | ast.AnnAssign):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name) and re.fullmatch(r"_?MAX_[A-Z0-9_]+", t.id):
                    value = ast.get_source_segment(source, node.value)
                    found.append((path.relative_to(ROOT).as_posix(), t.id, value))
    return found


def limits_table() -> str:
    rows = ["| module | limit | value |", "|---|---|---|"]
    rows += [f"| `{m}` | `{name}` | `{value}` |" for m, name, value in format_limits()]
    return "\n".join(rows)


SPEEDS = ROOT / "docs" / "figures" / "model_speeds.json"


def speed_cell(speeds: dict, key: str) -> str:
    m = speeds["models"].get(key)
    if not m:
        return "not measured"
    how = " (estimate: random weights of its shape)" if m.get("random_weights") else ""
    return f"{m['ms_per_sentence']:.0f} ms per sentence{how}"


def models_table() -> str:
    """README's table of the models a user can have: the bundled one (its measured
    scores) and each catalogue entry (published scores with their source), with the
    speed bench/bench_model_speeds.py measured and the licence."""
    catalogue = json.loads((ROOT / "resources" / "model_catalogue.json").read_text("utf-8"))
    speeds = json.loads(SPEEDS.read_text("utf-8"))
    metrics = json.loads((ROOT / "resources" / "model" / "metrics.json").read_text("utf-8"))
    wanted = ("newstest2014", "newstest2019", "Tatoeba v2021-08-07")
    measured = ", ".join(f"{t} {metrics['test_sets'][t]['greedy']['bleu']:.1f}" for t in wanted)
    size = (ROOT / "resources" / "model" / "model.safetensors").stat().st_size / 1e6
    rows = [
        "| model | size | BLEU (source) | speed | licence |",
        "|---|---|---|---|---|",
        f"| bundled (`resources/model`) | {size:.0f} MB, included | {measured} (measured, "
        f"greedy: `resources/model/metrics.json`) | {speed_cell(speeds, 'bundled')} | MIT "
        "(the app); its data's licences: its model card |",
    ]
    for e in catalogue["models"]:
        scores = ", ".join(f"{s['test']} {s['bleu']:.1f}" for s in e["scores"])
        source = e["scores"][0]["source"] if e["scores"] else ""
        rows.append(
            f"| {e['name']} (`translator-app models get {e['id']}`) | {e['download_mb']:.0f} MB "
            f"download, about {e['disk_mb']:.0f} MB on disk | {scores} (published: {source}) "
            f"| {speed_cell(speeds, e['id'])} | {e['licence']} |"
        )
    rows.append("")
    rows.append(
        f"Speed: `{speeds['command']}` on {speeds['cpu']} ({speeds['threads']} threads, "
        f"{speeds['int8_kind']}), {speeds['date']}: {speeds['sentences']} everyday sentences "
        "translated one at a time as the app does, CTranslate2 int8."
    )
    return "\n".join(rows)


def features_table() -> str:
    """README's feature × model table, from engine/model_features.py (the list the window
    shows; tests/engine/test_imported_features.py tries each on an imported model)."""
    sys.path.insert(0, str(ROOT))
    from translator_app.core.engine.model_features import model_features

    rows = [
        "| feature | bundled model | imported Marian / OPUS-MT model |",
        "|---|---|---|",
    ]
    for ours, theirs in zip(model_features(True), model_features(False), strict=True):
        why = "yes" if theirs.works else f"no: {theirs.why}"
        rows.append(f"| {ours.name}: {ours.what} | {'yes' if ours.works else 'no'} | {why} |")
    return "\n".join(rows)


def steps_table() -> str:
    """docs/postedit.md's list of the pipeline's steps, in the order they run."""
    sys.path.insert(0, str(ROOT))
    from translator_app.core.postedit.pipeline import STEPS

    rows = ["| # | step | stage | what it does |", "|---|---|---|---|"]
    rows += [f"| {i} | `{s.name}` | {s.stage} | {s.does} |" for i, s in enumerate(STEPS, 1)]
    return "\n".join(rows)


def weights_table() -> str:
    """docs/postedit.md's list of the judge's weights (postedit/judge.WEIGHTS)."""
    sys.path.insert(0, str(ROOT))
    from translator_app.core.postedit.judge import WEIGHTS

    rows = ["| a candidate's cost for | weight | name in judge.py |", "|---|---:|---|"]
    rows += [f"| {what} | {value:g} | `{name}` |" for what, value, name in WEIGHTS]
    return "\n".join(rows)


PRICE = ROOT / "docs" / "figures" / "postedit_price.json"


def price_table() -> str:
    """docs/postedit.md's latency of post-editing, from bench/bench_postedit_price.py's JSON."""
    price = json.loads(PRICE.read_text("utf-8"))
    rows = [
        f"`{price['command']}` on an {price['machine']['cpu']} ({price['cpu']}; "
        f"{price['engine']}, int8 GEMM {price['machine'].get('int8_backend')}), "
        f"{price['sentences']} "
        f"newstest2019 sentences, one per call, {price.get('workers', 1)} decode(s) at once:",
        "",
        "| search | median ms | p95 ms | p95 / greedy |",
        "|---|---:|---:|---:|",
    ]
    for name, c in price["configs"].items():
        rows.append(
            f"| {name} | {c['median_ms']:.1f} | {c['p95_ms']:.1f} | {c['p95_ratio_to_greedy']:.2f}x |"
        )
    return "\n".join(rows)


BEAM_PRICE = ROOT / "docs" / "figures" / "beam_price.json"


def beam_price_table() -> str:
    """docs/postedit.md's BLEU and latency of smaller beams, from bench/bench_beam_price.py."""
    report = json.loads(BEAM_PRICE.read_text("utf-8"))
    rows = [
        f"`{report['command']}` on an {report['machine']['cpu']} ({report['cpu']}; "
        f"{report['engine']}), the first {report['sentences']} sentences of each set, one "
        f"per call, every step (the default beam is {report['default_beam']}):",
        "",
        "| set | beam | BLEU | chrF | p95 ms | p95 / greedy |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, s in report["sets"].items():
        for beam, r in s["beams"].items():
            rows.append(
                f"| {name} | {beam} | {r['bleu']:.2f} | {r['chrf']:.2f} | {r['p95_ms']:.1f} "
                f"| {r['p95_ratio_to_greedy']:.2f}x |"
            )
    return "\n".join(rows)


def _sets_named(report: dict) -> str:
    """The test sets a bench drew from, with how many sentences each gave."""
    return ", ".join(f"{name.split('.deu-eng')[0]} {n}" for name, n in report["sets"].items())


def _kept_by_steps(report: dict, what: str, marked: bool) -> list[str]:
    """A bench's table of ``what`` kept, BLEU, chrF and seconds per set of steps (and
    the sentences marked, where ``marked``)."""
    marks = " sentences marked |" if marked else ""
    rows = [
        f"| steps | {what} kept |{marks} BLEU | chrF | seconds |",
        f"|---|---:|{'---:|' if marked else ''}---:|---:|---:|",
    ]
    for name, c in report["configs"].items():
        count = f" {c['marked']} |" if marked else ""
        rows.append(
            f"| {name} | {c['kept']} / {c['numbers']} ({c['kept_percent']:.1f} %) "
            f"|{count} {c['bleu']:.2f} | {c['chrf']:.2f} | {c['seconds']:.1f} |"
        )
    return rows


NUMBER_WORDS = ROOT / "docs" / "figures" / "number_words.json"


def number_words_table() -> str:
    """docs/postedit.md's figures of the number steps, from bench/bench_number_words.py."""
    report = json.loads(NUMBER_WORDS.read_text("utf-8"))
    refs = report["references"]
    intro = (
        f"`{report['command']}` ({report['cpu']}): {report['sentences']} sentences of the "
        f"test sets whose German writes a number from thirteen up in words "
        f"({_sets_named(report)}); the references keep {refs['kept']} of their "
        f"{refs['numbers']} numbers as the check reads them."
    )
    return "\n".join([intro, "", *_kept_by_steps(report, "numbers", marked=False)])


AMOUNTS = ROOT / "docs" / "figures" / "amounts.json"


def amounts_table() -> str:
    """docs/postedit.md's figures of the step "amounts", from bench/bench_amounts.py."""
    report = json.loads(AMOUNTS.read_text("utf-8"))
    refs = report["references"]
    intro = (
        f"`{report['command']}` ({report['cpu']}): {report['sentences']} sentences of the "
        f"test sets whose German holds an amount the step gives in figures "
        f"({_sets_named(report)}); the references keep {refs['kept']} of their "
        f"{refs['numbers']} amounts as the bench reads them, and the fact check marks "
        f"{refs['marked']} of them."
    )
    return "\n".join([intro, "", *_kept_by_steps(report, "amounts", marked=True)])


FACT_SET = ROOT / "docs" / "figures" / "fact_set.json"
FACT_SET_HAND = ROOT / "docs" / "figures" / "fact_set_hand.json"


def fact_set_table() -> str:
    """docs/postedit.md's figures of the facts on both halves of the fact set, the one
    drawn from the test sets and the one written by hand, from bench/bench_fact_set.py."""
    halves = [("drawn from the test sets", json.loads(FACT_SET.read_text("utf-8")))]
    halves.append(("written by hand", json.loads(FACT_SET_HAND.read_text("utf-8"))))
    lines = [
        f"`{r['command']}` ({r['cpu']}): {r['sentences']} sentences ({_sets_named(r)})."
        for _, r in halves
    ]
    rows = []
    for half, r in halves:
        lost = r["facts"] - r["kept"] - r["marked"]
        rows.append(
            f"| {half} | {r['facts']} | {r['kept']} ({r['kept_percent']:.1f} %) "
            f"| {r['kept'] + r['marked']} ({r['kept_or_marked_percent']:.1f} %) | {lost} "
            f"| {r.get('not_read', '')} "
            f"| {_fixes(r)} | {r['references_marked']} of {r['sentences']} "
            f"| {r['seconds']:.1f} |"
        )
    return "\n".join(
        [
            *lines,
            "",
            "| half | facts the references say | kept | kept or marked | lost without a mark "
            "| not read in the German | marks offering a fix (it says the fact, it is closer to the reference) "
            "| references marked (false alarms) | seconds |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
            *rows,
        ]
    )


def _fixes(r: dict) -> str:
    """ "6 of 6 (6, 5)": the marks that offer a fix in the word menu, of the marked facts,
    and (in brackets) the fixes that say the fact and those closer to the reference than
    the English shown; blank in a report without them."""
    if "marks_offering_a_fix" not in r:
        return ""
    return (
        f"{r['marks_offering_a_fix']} of {r['marked']} "
        f"({r['fixes_saying_the_fact']}, {r['fixes_closer_to_the_reference']})"
    )


LANGUAGE_ID = ROOT / "docs" / "figures" / "language_id.json"


def language_id_table() -> str:
    """docs/postedit.md's figures of the step "other-languages" on the held-out sets,
    from bench/bench_language_id.py."""
    r = json.loads(LANGUAGE_ID.read_text("utf-8"))
    rows = [
        f"| {name} | {s['sentences']} | {s['german_taken_for_another']} "
        f"| {s['german_in_haste_taken_for_another']} "
        f"| {s['english_told']} ({100 * s['english_told'] / s['sentences']:.1f} %) "
        f"| {s['ms_per_sentence']:.2f} |"
        for name, s in r["sets"].items()
    ]
    alarms = [a for s in r["sets"].values() for a in s["alarms"]]
    return "\n".join(
        [
            f"`{r['command']}` ({r['cpu']}); languages {', '.join(r['languages'])}, sure at "
            f"{r['sure']}; the identifier loads in {r['load_seconds']} s.",
            "",
            "| set | pairs | German taken for another language | the same typed in haste "
            "| English told from German | ms a sentence |",
            "|---|---:|---:|---:|---:|---:|",
            *rows,
            "",
            "German taken for another language: "
            + ("; ".join(f"„{a}“" for a in alarms) if alarms else "none")
            + ".",
        ]
    )


TABLES = {
    "language-id": (ROOT / "docs" / "postedit.md", language_id_table),
    "english-variant": (ROOT / "docs" / "postedit.md", english_variant_table),
    "spelling": (ROOT / "docs" / "postedit.md", spelling_table),
    "steps": (ROOT / "docs" / "postedit.md", steps_table),
    "number-words": (ROOT / "docs" / "postedit.md", number_words_table),
    "amounts": (ROOT / "docs" / "postedit.md", amounts_table),
    "fact-set": (ROOT / "docs" / "postedit.md", fact_set_table),
    "how-often": (ROOT / "docs" / "postedit.md", how_often_table),
    "price": (ROOT / "docs" / "postedit.md", price_table),
    "beam-price": (ROOT / "docs" / "postedit.md", beam_price_table),
    "weights": (ROOT / "docs" / "postedit.md", weights_table),
    "made-up-words": (ROOT / "docs" / "benchmarks.md", made_up_words_table),
    "teach": (ROOT / "docs" / "benchmarks.md", teach_table),
    "models": (ROOT / "README.md", models_table),
    "features": (ROOT / "README.md", features_table),
    "layers": (ROOT / "docs" / "architecture.md", layers_table),
    "format-limits": (ROOT / "docs" / "engine.md", limits_table),
}


def with_table(text: str, name: str, table: str, doc: Path) -> str:
    begin, end = f"<!-- BEGIN generated:{name} -->", f"<!-- END generated:{name} -->"
    if begin not in text or end not in text:
        raise SystemExit(f"{doc}: no {begin} … {end} markers")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{begin}\n{table}\n{end}{tail}"


def stale_docs(write: bool) -> list[str]:
    """The docs whose generated tables differ from the code's (rewritten with ``write``)."""
    stale = []
    for name, (doc, make) in TABLES.items():
        text = doc.read_text("utf-8")
        new = with_table(text, name, make(), doc)
        if new != text:
            stale.append(f"{doc.relative_to(ROOT)} ({name})")
            if write:
                doc.write_text(new, "utf-8")
    text = CARD.read_text("utf-8")
    if (new := card_with_english(text)) != text:
        stale.append(f"{CARD.relative_to(ROOT)} (english)")
        if write:
            CARD.write_text(new, "utf-8")
    return stale


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if stale")
    args = ap.parse_args(argv)
    stale = stale_docs(write=not args.check)
    for doc in stale:
        print(f"{'stale' if args.check else 'rewrote'}: {doc}")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())

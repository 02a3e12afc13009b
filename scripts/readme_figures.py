"""Write README's figures of the bundled model from its measurement file, so that they
cannot drift from what was measured (issue 34).

    python scripts/readme_figures.py [--model resources/model] [--readme README.md]

Reads ``metrics.json`` of the bundle (written by scripts/model_card.py from the reports
of scripts/evaluate_base.sh) and replaces the block between ``<!-- figures -->`` and
``<!-- /figures -->`` in README: BLEU per test set, the faithfulness and glossary benches,
and latency, each with the command and the CPU it ran on; and the first screen's "good
at / weak at" lines between ``<!-- today -->`` and ``<!-- /today -->``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # card_sections beside it

from card_sections import hardware_text  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
START, END = "<!-- figures -->", "<!-- /figures -->"
TODAY, TODAY_END = "<!-- today -->", "<!-- /today -->"


def block(metrics: dict) -> str:
    lines = [
        START,
        "",
        "| test set (greedy, every pair, sacreBLEU) | BLEU | chrF |",
        "|---|---|---|",
    ]
    for name, t in metrics.get("test_sets", {}).items():
        lines.append(f"| {name} | {t['greedy']['bleu']:.1f} | {t['greedy']['chrf']:.1f} |")
    lines += [
        "",
        "Command: `bash scripts/evaluate_base.sh` (`translator-train eval` per test set).",
    ]
    faithful = metrics.get("faithful")
    if faithful:
        app = faithful.get("app default") or next(iter(faithful.values()))
        lines += [
            "",
            f"Names, numbers, times and dates (`bench/bench_faithful.py`, the app's default "
            f"search): {100 * app['items_kept']:.1f} % of required items kept, "
            f"{100 * app['sentences_whole']:.1f} % of sentences whole.",
        ]
    glossary = metrics.get("glossary")
    if glossary:
        used = {k: v for k, v in glossary.items() if k.startswith("with glossary")}
        if used:
            best = used.get("with glossary, app default", next(iter(used.values())))
            lines += [
                "",
                f"Glossary (`bench/bench_glossary.py`, {metrics.get('glossary_terms', 35)} "
                "terms no training data holds): "
                f"{100 * best:.1f} % of sentences use the term with the glossary (app's "
                f"default search), "
                f"{100 * glossary.get('without glossary, app default', 0):.1f} % without.",
            ]
    bench = metrics.get("bench") or {}
    p = bench.get("precisions", {}).get("int8")
    if p:
        lines += [
            "",
            f"Latency, int8, 20-word sentence, p95 on {hardware_text(bench.get('hardware'), int8=True)}, to "
            f"the first English: greedy {p['beam1_20w']['p95_ms']:.1f} ms, the app's default "
            f"search {p['app_20w']['p95_ms']:.1f} ms"
            + _with_dictionary(p)
            + f" (`.venv/bin/python {bench.get('command')}`).",
        ]
    engines = metrics.get("engines")
    if engines:
        g, app = engines["greedy"], engines["app_default_20_words"]
        layers = next((v for k, v in app.items() if k.startswith("panel's other layers")), None)
        ct2, torch8 = g["CTranslate2 int8"], g["PyTorch int8"]
        lines += [
            "",
            f"Engines, greedy int8 on {hardware_text(engines.get('machine'), int8=True)}: CTranslate2 "
            f"{ct2['ms_per_token']:.2f} ms per output token, PyTorch {torch8['ms_per_token']:.2f}; "
            f"the app's default search (CTranslate2 int8) "
            f"{app['CTranslate2 int8']['p95_ms']:.0f} ms p95 for 20 words, "
            f"{app['CTranslate2 int8']['p95_over_greedy_ct2_int8']:.2f}x greedy"
            + (
                f", the panel's other layers when picked {layers['p95_ms']:.0f} ms"
                if layers
                else ""
            )
            + "; load to the "
            f"first translation {engines['load_s']['CTranslate2 int8']:.2f} s "
            f"(`.venv/bin/python {engines['command']}`).",
        ]
    lines += ["", END]
    return "\n".join(lines)


def _with_dictionary(p: dict) -> str:
    """The same figures with the dictionary's words for copied German words (the
    window's follow-up; the command line waits for them), where the bench has them."""
    if "final_p95_ms" not in p["beam1_20w"]:
        return ""
    return (
        f"; with the dictionary's words for German words the model copied (the window's "
        f"follow-up) {p['beam1_20w']['final_p95_ms']:.1f} and "
        f"{p['app_20w']['final_p95_ms']:.1f} ms"
    )


def today(metrics: dict) -> str:
    """README's first screen: what the bundled model is good and weak at, in figures."""
    tests = metrics.get("test_sets", {})
    good = []
    if "Tatoeba v2021-08-07" in tests:
        bleu = tests["Tatoeba v2021-08-07"]["greedy"]["bleu"]
        good.append(f"everyday sentences (Tatoeba v2021-08-07: {bleu:.1f} BLEU)")
    faithful = (metrics.get("faithful") or {}).get("app default")
    if faithful:
        good.append(
            "keeping names, numbers, prices, times and dates "
            f"({100 * faithful['sentences_whole']:.1f} % of the bench's sentences whole)"
        )
    used = (metrics.get("glossary") or {}).get("with glossary, app default")
    if used is not None:
        good.append(f"your glossary ({100 * used:.1f} % of terms used)")
    p = (metrics.get("bench") or {}).get("precisions", {}).get("int8")
    if p:
        good.append(
            f"speed (the English of 20 words in {p['beam1_20w']['p95_ms']:.1f} ms, greedy, "
            "int8, 2 CPU cores)"
        )
    weak = []
    if "newstest2014" in tests:
        bleu = tests["newstest2014"]["greedy"]["bleu"]
        published = metrics.get("published", {}).get("newstest2014", "")
        weak.append(
            f"news and long, complex sentences (newstest2014: {bleu:.1f} BLEU, where "
            f"OPUS-MT reports up to {published.split(' ')[0]}: import it, see below)"
        )
    weak.append("names and places outside its lists when the model itself does not know them")
    lines = [TODAY, ""]
    if good:
        lines += [f"**Good at**: {'; '.join(good)}.", ""]
    lines += [f"**Weak at**: {'; '.join(weak)}.", "", TODAY_END]
    return "\n".join(lines)


def _replace(text: str, start: str, end: str, new: str, readme: Path) -> str:
    pattern = re.compile(re.escape(start) + ".*?" + re.escape(end), re.DOTALL)
    if not pattern.search(text):
        sys.exit(f"readme_figures: {readme} has no {start} ... {end} block")
    return pattern.sub(lambda _: new, text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=ROOT / "resources" / "model")
    ap.add_argument("--readme", type=Path, default=ROOT / "README.md")
    args = ap.parse_args(argv)
    metrics = json.loads((args.model / "metrics.json").read_text("utf-8"))
    text = args.readme.read_text("utf-8")
    text = _replace(text, START, END, block(metrics), args.readme)
    text = _replace(text, TODAY, TODAY_END, today(metrics), args.readme)
    args.readme.write_text(text, "utf-8")
    print(f"figures written into {args.readme}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

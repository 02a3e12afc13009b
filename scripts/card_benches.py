"""The card sections that report the benches (bench/bench_translate.py, bench_faithful,
bench_glossary, bench_engines); scripts/model_card.py puts them in the card.

Each ``*_section`` function returns the card's lines for its section and records its
figures in ``metrics`` (which becomes metrics.json).
"""

from __future__ import annotations

from pathlib import Path

from card_sections import ROOT, fmt, hardware_text, load, p95_20w

# How the translator used its annotations in the faithfulness bench (its protect mode).
_PROTECT_TEXT = {
    "retry": " The translator (protect `retry`) decodes each sentence plain and, where "
    "that does not write its numbers, times, dates, names, places and units as their "
    "annotations would (2 p.m., €12.50, 1,150, Munich), again with them annotated, "
    "keeping the decode that loses fewer.",
    "always": " The translator (protect `always`) annotates the numbers, times, dates, "
    "names and places of every sentence.",
}


def speed_section(bench: dict) -> list[str]:
    """p95 latency by precision (bench/bench_translate.py, run by evaluate_base.sh)."""
    machine = bench.get("hardware")
    threads = f", {machine['torch_threads']} threads" if machine else ""
    lines = [
        "",
        f"## Speed on {hardware_text(machine, int8=True)}{threads}",
        "",
        "| precision | p95 ms, 20 words, greedy | p95 ms, 20 words, the app's default "
        "search | the same with the dictionary's words (greedy / app) | BLEU Multi30k "
        "greedy |",
        "|---|---|---|---|---|",
    ]
    for prec, res in bench.get("precisions", {}).items():
        q = res.get("quality") or {}
        final = [p95_20w(bench, prec, search, "final_p95_ms") for search in ("beam1", "app")]
        lines.append(
            f"| {prec} | {fmt(p95_20w(bench, prec))} | {fmt(p95_20w(bench, prec, 'app'))} "
            f"| {fmt(final[0])} / {fmt(final[1])} | {fmt(q.get('bleu'))} |"
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
    return lines + [
        "",
        "The app's default search: beam and n-best of its default settings, with the "
        "alignment (the panel's other layers are computed when the user picks one). The "
        "window shows the first English at once and then, where the model copied a German "
        "word that the dictionary translates, the sentence decoded again with the "
        "dictionary's English (its follow-up); the command line waits for both.",
        "",
        "Command: `.venv/bin/python "
        + bench.get("command", "bench/bench_translate.py")
        + "` (run by `scripts/evaluate_base.sh`).",
    ]


def faithful_section(faithful: dict, metrics: dict) -> list[str]:
    """Issue 30's bench: names, numbers, times, dates and places kept, by search."""
    metrics["faithful"] = {
        name: res["by_category"]["all"] for name, res in faithful["searches"].items()
    }
    categories = sorted(next(iter(faithful["searches"].values()))["by_category"])
    categories.remove("all")
    lines = [
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
        "| search | items kept | sentences whole | " + " | ".join(categories) + " |",
        "|---|---|---|" + "---|" * len(categories),
    ]
    for name, res in faithful["searches"].items():
        cats = res["by_category"]
        lines.append(
            f"| {name} (beam {res['beam']}) | {100 * cats['all']['items_kept']:.1f} % | "
            f"{100 * cats['all']['sentences_whole']:.1f} % | "
            + " | ".join(f"{100 * cats[c]['items_kept']:.0f} %" for c in categories)
            + " |"
        )
    return lines + ["", "Per category: the share of items kept."]


def glossary_section(glossary: dict, metrics: dict, trained_on_terms: bool) -> list[str]:
    """bench_glossary: the share of sentences whose English uses the user's term.
    ``trained_on_terms``: a stage's [data] terms (the bench sees only that the
    tokenizer has the marker pieces, which a model can share without training on them)."""
    runs = glossary["runs"]
    metrics["glossary"] = {name: run["terms_used"] for name, run in runs.items()}
    metrics["glossary_terms"] = glossary["terms"]
    metrics["glossary_multiword"] = {
        name: run["multiword_terms_used"]
        for name, run in runs.items()
        if "multiword_terms_used" in run
    }
    lines = [
        "",
        "## Glossary",
        "",
        (
            "Trained on inline term annotations (a German term followed by the English "
            "it must become, between marker pieces; Dinu et al. 2019), so it follows the "
            "user's glossary (Model → Glossary…, `translator-app translate --glossary`)."
            if glossary["follows_glossary"] and trained_on_terms
            else "Not trained on term annotations"
            + (
                " (its pieces include their markers, from the SentencePiece model it "
                "shares): a glossary barely changes what it writes (below)."
                if glossary["follows_glossary"]
                else ": it cannot take a glossary."
            )
        ),
        f"On {glossary['sentences']} sentences with {glossary['terms']} terms no "
        f"training data holds in this form (`.venv/bin/python {glossary['command']}`), "
        "the share of sentences whose English uses the term:",
        "",
        "| run | terms used | of them, English of several words |",
        "|---|---|---|",
    ]
    for name, run in runs.items():
        multi = run.get("multiword_terms_used")
        multi_text = "–" if multi is None else f"{100 * multi:.1f} %"
        lines.append(f"| {name} | {100 * run['terms_used']:.1f} % | {multi_text} |")
    return lines


def engines_section(engines: dict, metrics: dict) -> list[str]:
    """bench_engines: CTranslate2 against the PyTorch reference, and the app's default."""
    metrics["engines"] = engines
    lines = [
        "",
        "## Engines",
        "",
        "Transformer bundles decode with CTranslate2; the PyTorch search is the "
        f"reference. On {hardware_text(engines.get('machine'), int8=True)}, "
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
    lines += [
        "",
        "The app's default search with the alignment panel's attention, 20-word sentences, "
        "p95: "
        + "; ".join(
            f"{name} {r['p95_ms']:.0f} ms ({r['p95_over_greedy_ct2_int8']:.2f}x greedy "
            "CTranslate2 int8)"
            for name, r in engines["app_default_20_words"].items()
            if "p95_over_greedy_ct2_int8" in r
        )
        + ".",
    ]
    if b := engines.get("bleu"):
        lines += [
            "",
            f"BLEU, greedy, first {b['pairs']} pairs of {Path(b['test']).name}: "
            + "; ".join(f"{name} {b[name]:.2f}" for name in engines["greedy"])
            + ".",
        ]
    return lines


ENGLISH_VARIANT = ROOT / "docs" / "figures" / "english_variant.json"


def english_paragraph(figures: dict) -> str:
    """Which English the model writes, from bench/bench_english_variant.py's figures:
    its spellings and titles, British against American, on the sets it translated."""
    count = {"british": 0, "american": 0}
    for s in figures["model"].values():
        for kind in ("spelling", "title", "date"):
            for variant in count:
                count[variant] += s["forms"][kind][variant]
    sets = " and ".join(
        f"{s['sentences']} {name} sentences" for name, s in figures["model"].items()
    )
    return (
        f"Its English mixes British and American: of the words, titles and dates written one "
        f"way in each, its translations of {sets} hold {count['american']} American and "
        f"{count['british']} British forms. Settings → English (or `translator-app translate "
        "--english`) writes one of them throughout."
    )


def english_lines() -> list[str]:
    """The paragraph on the model's English, closing "Limitations" (where measured)."""
    figures = load(ENGLISH_VARIANT)
    return ["", english_paragraph(figures)] if figures else []

"""What each post-editing step earns: the held-out test sets translated with every step,
with none, and with all but one, scored side by side.

    .venv/bin/python scripts/postedit_ablation.py --json docs/figures/postedit_ablation.json
    .venv/bin/python scripts/postedit_ablation.py --from-json docs/figures/postedit_ablation.json

For each step (core/postedit/pipeline.py) and each set: BLEU and chrF (sacrebleu) with all
steps less those without the step (a positive figure: the step helps), the sentences it
changes and how many of them come closer to the reference (sentence chrF) or move away,
the facts it keeps (numbers, dates, names the English loses: core/faithful/fact_check.py)
and the German words it stops copying (core/faithful/copied_words.py), and its price: the
extra sentences decoded and the extra seconds per 100 sentences. Beside them, the
detectors' false alarms on the reference English (facts a human translation "loses",
words it "copies"). The sets are held out: the test halves of the everyday and register
sets and the news test sets, never the dev sets the steps were written on.

The tables go into docs/postedit.md (between its generated markers) from the JSON, so
the page is regenerated without translating again (``--from-json``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import sacrebleu

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from translator_app.core import Translator, bundled_model_dir  # noqa: E402
from translator_app.core.data.corpus import read_pairs  # noqa: E402
from translator_app.core.dictionary.lookup import Dictionary  # noqa: E402
from translator_app.core.faithful.copied_words import (  # noqa: E402
    copied_common_words,
    names_in,
)
from translator_app.core.faithful.fact_check import missing_facts  # noqa: E402
from translator_app.core.faithful.glossary import Glossary, Term  # noqa: E402
from translator_app.core.faithful.senses import every_english  # noqa: E402
from translator_app.core.faithful.umlauts import without_umlauts  # noqa: E402
from translator_app.core.language.english import english_pattern  # noqa: E402
from translator_app.core.platform.hardware import describe_machine, facts  # noqa: E402
from translator_app.core.postedit.pipeline import STEPS  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from bench_faithful import SET as FAITHFUL  # noqa: E402
from bench_faithful import load_set  # noqa: E402
from bench_faithful import score as faithful_score  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
EVERYDAY = ROOT / "testsets" / "everyday" / "everyday-test.deu-eng.tsv"
REGISTER = ROOT / "testsets" / "register" / "register-test.deu-eng.tsv"
# name -> (file, how its German is given): as written; typed in haste (lower case, no
# umlauts: the step "umlauts"); closed by an emoji (the reference too: "symbols");
# with a glossary of one term per sentence taken from its reference English (a German
# noun and the dictionary sense its reference says: the steps that act on terms).
SETS = {
    "everyday-test": (EVERYDAY, "as written"),
    "register-test": (REGISTER, "as written"),
    "newstest2014": (DATA / "wmt-news-deen" / "newstest2014.deu-eng.tsv.xz", "as written"),
    "newstest2019": (DATA / "wmt-news-deen" / "newstest2019.deu-eng.tsv.xz", "as written"),
    "everyday-test, typed in haste": (EVERYDAY, "typed"),
    "everyday-test, closed by an emoji": (EVERYDAY, "emoji"),
    "everyday-test, a term each": (EVERYDAY, "term"),
    "register-test, a term each": (REGISTER, "term"),
}
EMOJI = " 👍"
_NOUN = re.compile(r"(?<![\w-])[A-ZÄÖÜ][a-zäöüß]{3,}(?![\w-])")
DOC = ROOT / "docs" / "postedit.md"
BEGIN, END = "<!-- BEGIN generated:ablation -->", "<!-- END generated:ablation -->"


@dataclass
class CountingBackend:
    """A translator's backend that counts the sentences (chunks) it is asked to decode."""

    inner: object
    decoded: int = 0

    def search(self, batch, options, should_stop=None):
        self.decoded += len(batch)
        return self.inner.search(batch, options, should_stop)

    def alternatives(self, *args):
        return self.inner.alternatives(*args)


@dataclass
class Run:
    """One set translated with one choice of steps."""

    english: list[str]
    seconds: float
    decoded: int
    bleu: float = 0.0
    chrf: float = 0.0
    facts_lost: int = 0
    copies: int = 0
    extra: dict = field(default_factory=dict)


def read_set(path: Path, limit: int) -> tuple[list[str], list[str]]:
    """The first ``limit`` pairs of a TSV (xz or plain): German, reference English."""
    pairs = [pair for _, pair in read_pairs(path)][:limit]
    return [de for de, _ in pairs], [en for _, en in pairs]


def reference_term(dictionary, german: str, reference: str) -> Term | None:
    """A glossary term for ``german`` taken from its ``reference``: its first noun (not
    its first word) one of whose dictionary senses (a word or two) the reference says,
    with that English; None where none is."""
    for m in list(_NOUN.finditer(german)):
        if m.start() == 0:
            continue
        for english in every_english(dictionary.lookup(m.group()).senses):
            if english and len(english.split()) <= 2 and english_pattern(english).search(reference):
                return Term(m.group(), english)
    return None


def variant(kind: str, german, refs, dictionary):
    """The set as ``kind`` gives it: (German, references, a glossary per sentence)."""
    if kind == "typed":
        return [without_umlauts(de.lower()) for de in german], refs, [None] * len(german)
    if kind == "emoji":
        return [de + EMOJI for de in german], [en + EMOJI for en in refs], [None] * len(german)
    if kind == "term":
        terms = [reference_term(dictionary, de, en) for de, en in zip(german, refs, strict=True)]
        kept = [i for i, t in enumerate(terms) if t is not None]
        glossaries = [Glossary((terms[i],)) for i in kept]
        return [german[i] for i in kept], [refs[i] for i in kept], glossaries
    return german, refs, [None] * len(german)


def translate(translator: Translator, counter: CountingBackend, german, steps, glossaries) -> Run:
    """``german`` translated one sentence at a time (as the window asks), each with its
    glossary, timed."""
    counter.decoded = 0
    start = time.perf_counter()
    english = [
        translator.translate([de], steps=steps, glossary=g)[0].text
        for de, g in zip(german, glossaries, strict=True)
    ]
    return Run(english, time.perf_counter() - start, counter.decoded)


def score(run: Run, german, refs, dictionary, names) -> Run:
    run.bleu = sacrebleu.corpus_bleu(run.english, [refs]).score
    run.chrf = sacrebleu.corpus_chrf(run.english, [refs]).score
    run.facts_lost = sum(
        len(missing_facts(de, en)) for de, en in zip(german, run.english, strict=True)
    )
    run.copies = sum(
        len(copied_common_words(dictionary, de, en, names))
        for de, en in zip(german, run.english, strict=True)
    )
    return run


def closer(a: list[str], b: list[str], refs: list[str]) -> tuple[int, int, int]:
    """Sentences that differ between ``a`` and ``b``, and how many of those ``a`` has
    closer to the reference than ``b`` (sentence chrF), and farther."""
    changed = better = worse = 0
    for x, y, ref in zip(a, b, refs, strict=True):
        if x == y:
            continue
        changed += 1
        sx = sacrebleu.sentence_chrf(x, [ref]).score
        sy = sacrebleu.sentence_chrf(y, [ref]).score
        better += sx > sy
        worse += sx < sy
    return changed, better, worse


def measure(args) -> dict:
    translator = Translator.load(args.model or bundled_model_dir(), device="cpu")
    counter = CountingBackend(translator.backend)
    translator.backend = counter
    dictionary = Dictionary.shipped()
    report = {
        "command": "scripts/postedit_ablation.py " + " ".join(sys.argv[1:]),
        "model": str(args.model or "resources/model"),
        "engine": translator.engine_name,
        "machine": facts(),
        "cpu": describe_machine(),
        "limit": args.limit,
        "sets": {},
    }
    print(report["cpu"], translator.engine_name, file=sys.stderr)
    choices = {"all": "all", "none": "none"} | {
        s.name: f"all,-{s.name}" for s in STEPS if s.default
    }
    for name, (path, kind) in SETS.items():
        if not path.is_file():
            print(f"{path}: not there, skipped", file=sys.stderr)
            continue
        german, refs, glossaries = variant(kind, *read_set(path, args.limit), dictionary)
        names = names_in(german)
        translate(translator, counter, german[:5], "all", glossaries[:5])  # warm up
        runs = {}
        for label, steps in choices.items():
            run = translate(translator, counter, german, steps, glossaries)
            runs[label] = score(run, german, refs, dictionary, names)
            print(f"{name} {label}: BLEU {runs[label].bleu:.2f}", file=sys.stderr)
        alarms = {
            "facts": sum(bool(missing_facts(de, en)) for de, en in zip(german, refs, strict=True)),
            "copies": sum(
                bool(copied_common_words(dictionary, de, en, names))
                for de, en in zip(german, refs, strict=True)
            ),
        }
        report["sets"][name] = {
            "sentences": len(german),
            "given": kind,
            "reference_alarms": alarms,
            "runs": {
                label: {
                    "bleu": round(r.bleu, 2),
                    "chrf": round(r.chrf, 2),
                    "facts_lost": r.facts_lost,
                    "copies": r.copies,
                    "seconds": round(r.seconds, 2),
                    "decoded": r.decoded,
                    "changed_better_worse": closer(runs["all"].english, r.english, refs)
                    if label != "all"
                    else [0, 0, 0],
                }
                for label, r in runs.items()
            },
        }
    report["faithful"] = faithful_runs(translator, choices)
    return report


def faithful_runs(translator: Translator, choices: dict[str, str]) -> dict:
    """bench/faithful.jsonl (names, numbers, prices, times, dates, places and codes in
    everyday sentences kept out of training) with each choice of steps: the share of
    required items kept and of sentences whole, as bench_faithful.py scores them. The
    facts steps' gain, which BLEU on news hardly sees: a fact is a few characters."""
    items = load_set(FAITHFUL)
    german = [item["de"] for item in items]
    out = {"sentences": len(items), "runs": {}}
    for label, steps in choices.items():
        english = [t.text for t in translator.translate(german, steps=steps)]
        total = faithful_score(items, english)["by_category"]["all"]
        out["runs"][label] = {
            "items": total["items"],
            "kept": total["kept"],
            "whole": total["whole"],
        }
        print(f"faithful {label}: {total['kept']} of {total['items']} kept", file=sys.stderr)
    return out


def faithful_table(faithful: dict) -> list[str]:
    """The faithful set's rows: all steps less all but each (items kept, sentences whole)."""
    runs, full = faithful["runs"], faithful["runs"]["all"]
    out = [
        f"### bench/faithful.jsonl ({faithful['sentences']} sentences)",
        "",
        f"All steps: {full['kept']} of {full['items']} required items kept, "
        f"{full['whole']} sentences whole; none (the model's own search): "
        f"{runs['none']['kept']} kept, {runs['none']['whole']} whole. Each row: what the "
        "step keeps (all steps less all but that step); steps that change nothing here "
        "are left out.",
        "",
        "| step | items kept | sentences whole |",
        "|---|---:|---:|",
    ]
    rows = [("all vs none", runs["none"])] + [
        (f"`{step.name}`", runs[step.name]) for step in STEPS if step.name in runs
    ]
    for label, r in rows:
        items, whole = full["kept"] - r["kept"], full["whole"] - r["whole"]
        if items or whole or label == "all vs none":
            out.append(f"| {label} | {items:+d} | {whole:+d} |")
    return out + [""]


def tables(report: dict) -> str:
    """The markdown of the report: one table per set, a row per step."""
    out = [
        f"Measured by `{report['command']}` on an {report['machine']['cpu']} ({report['cpu']}; "
        f"{report['engine']}, int8 GEMM {report['machine'].get('int8_backend')}), the "
        f"first {report['limit']} sentences of each set, one sentence per call as the "
        "window asks. Each row: all steps less all but that step (positive: the step "
        "helps); changed = sentences whose English the step changes, better/worse = of "
        "those, how many it brings closer to the reference or farther (sentence chrF); "
        "facts kept and copies removed count facts and German words; decodes and seconds "
        "per 100 sentences are its price.",
        "",
    ]
    for name, s in report["sets"].items():
        runs, n = s["runs"], s["sentences"]
        full = runs["all"]
        alarms = s["reference_alarms"]
        out += [
            f"### {name} ({n} sentences)",
            "",
            f"All steps: BLEU {full['bleu']:.2f}, chrF {full['chrf']:.2f}; none (the model's "
            f"own search): BLEU {runs['none']['bleu']:.2f}, chrF {runs['none']['chrf']:.2f}. "
            f"On the reference English the fact check fires on {alarms['facts']} sentences "
            f"and the copied-word check on {alarms['copies']} (false alarms).",
            "",
            "| step | BLEU | chrF | changed | better / worse | facts kept | copies removed "
            "| decodes / 100 | s / 100 |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        rows = [("all vs none", runs["none"])] + [
            (f"`{step.name}`", runs[step.name]) for step in STEPS if step.name in runs
        ]
        for label, r in rows:
            changed, better, worse = r["changed_better_worse"]
            out.append(
                f"| {label} | {full['bleu'] - r['bleu']:+.2f} | {full['chrf'] - r['chrf']:+.2f} "
                f"| {changed} | {better} / {worse} | {r['facts_lost'] - full['facts_lost']:+d} "
                f"| {r['copies'] - full['copies']:+d} "
                f"| {100 * (full['decoded'] - r['decoded']) / n:+.0f} "
                f"| {100 * (full['seconds'] - r['seconds']) / n:+.2f} |"
            )
        out.append("")
    if "faithful" in report:
        out += faithful_table(report["faithful"])
    return "\n".join(out).rstrip() + "\n"


def write_doc(report: dict) -> None:
    text = DOC.read_text("utf-8")
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    DOC.write_text(text[:start] + "\n" + tables(report) + text[end:], "utf-8")
    print(f"rewrote: {DOC.relative_to(ROOT)}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=None, help="bundle (default: the bundled)")
    ap.add_argument("--limit", type=int, default=300, help="sentences per set (default 300)")
    ap.add_argument("--json", type=Path, default=None, help="write the figures here")
    ap.add_argument("--from-json", type=Path, default=None, help="only rewrite docs from this")
    args = ap.parse_args(argv)
    if args.from_json is not None:
        report = json.loads(args.from_json.read_text("utf-8"))
    else:
        report = measure(args)
        if args.json is not None:
            args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", "utf-8")
    write_doc(report)
    print(tables(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())

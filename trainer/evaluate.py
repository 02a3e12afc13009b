"""Evaluation with sacreBLEU: BLEU and chrF, greedy and beam, BLEU by sentence length.

The length plot is the one of Bahdanau et al. (2015, Fig. 2): corpus BLEU of the
sentences in each source-length bucket.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path

from sacrebleu.metrics import BLEU, CHRF

from translator_app.core.faithful.german_left import GermanLeftCheck, german_left_report
from translator_app.core.platform.paths import write_atomic

LENGTH_BUCKETS = ((1, 10), (11, 20), (21, 30), (31, 40), (41, 50), (51, 10_000))


def score_translations(hyps: Sequence[str], refs: Sequence[str]) -> dict[str, float]:
    return {
        "bleu": BLEU().corpus_score(list(hyps), [list(refs)]).score,
        "chrf": CHRF().corpus_score(list(hyps), [list(refs)]).score,
    }


def signatures() -> dict[str, str]:
    """sacreBLEU's signatures of the default BLEU and chrF (they are known once a metric
    has scored something, hence the one-sentence warm-up)."""
    out = {}
    for name, metric in (("bleu", BLEU()), ("chrf", CHRF())):
        metric.corpus_score(["a"], [["a"]])
        out[name] = str(metric.get_signature())
    return out


def bleu_by_length(sources: Sequence[str], hyps: Sequence[str], refs: Sequence[str]) -> list[dict]:
    rows = []
    for lo, hi in LENGTH_BUCKETS:
        idx = [i for i, s in enumerate(sources) if lo <= len(s.split()) <= hi]
        if not idx:
            continue
        bleu = BLEU().corpus_score([hyps[i] for i in idx], [[refs[i] for i in idx]]).score
        label = f"{lo}-{hi}" if hi < 10_000 else f">{lo - 1}"
        rows.append({"words": label, "sentences": len(idx), "bleu": round(bleu, 2)})
    return rows


def bleu_by_kind(kinds: Sequence[str], hyps: Sequence[str], refs: Sequence[str]) -> dict:
    """Corpus BLEU of each kind of text in a set whose pairs are labelled (the everyday
    set's ``.kinds.txt``): kind -> {"sentences", "bleu"}, in the order kinds first appear."""
    out = {}
    for kind in dict.fromkeys(kinds):
        idx = [i for i, k in enumerate(kinds) if k == kind]
        bleu = BLEU().corpus_score([hyps[i] for i in idx], [[refs[i] for i in idx]]).score
        out[kind] = {"sentences": len(idx), "bleu": round(bleu, 2)}
    return out


def read_kinds(test: Path, pairs: int) -> list[str] | None:
    """The kind of each pair of ``test`` from the ``NAME.kinds.txt`` beside it (one label a
    line), or None where there is none. A file of another length is an error."""
    path = test.with_name(test.name.split(".")[0] + ".kinds.txt")
    if not path.is_file():
        return None
    kinds = path.read_text(encoding="utf-8").split()
    if len(kinds) != pairs:
        raise ValueError(f"{path}: {len(kinds)} kinds for {pairs} test pairs")
    return kinds


def spread_subset(n: int, limit: int) -> list[int]:
    """Indices of ``limit`` pairs spread evenly over ``n`` (all of them when ``limit`` is 0
    or at least ``n``). Test sets are often ordered (Tatoeba's by sentence id, some by
    length), so their first N pairs are no sample of the whole set."""
    if not limit or limit >= n:
        return list(range(n))
    return [i * n // limit for i in range(limit)]


def evaluate_translator(
    translator,
    pairs: Sequence[tuple[str, str]],
    beam: int,
    beam_limit: int = 0,
    german_left: GermanLeftCheck | None = None,
    kinds: Sequence[str] | None = None,
) -> dict:
    """Greedy and beam translations of ``pairs``: scores, timing, by-length BLEU (greedy
    only where ``beam`` is 1: a second, identical search would double the time and the
    plot's lines).
    ``beam_limit``: beam search on N pairs spread over the set only (it costs several times
    greedy); the beam result then also holds greedy's scores on those same pairs
    (``greedy_same_pairs``), so the two searches are compared on equal terms.
    ``german_left``: each search also counts the German words left in its English that
    the reference does not keep too (core/faithful/german_left.py); ``kinds``: a label per pair, for BLEU by kind."""
    result = {}
    greedy_hyps: list[str] = []
    searches = (("greedy", 1), (f"beam{beam}", beam)) if beam > 1 else (("greedy", 1),)
    for name, b in searches:
        idx = spread_subset(len(pairs), beam_limit if b > 1 else 0)
        sources = [pairs[i][0] for i in idx]
        refs = [pairs[i][1] for i in idx]
        start = time.perf_counter()
        translations = translator.translate(sources, beam=b)
        seconds = time.perf_counter() - start
        hyps = [t.text for t in translations]
        # German words the model copied, said with the dictionary's English instead
        # (core/faithful/copied_words.py; the bundle's search setting).
        filled = sum(u.dictionary and u.kept for t in translations for u in t.terms)
        result[name] = {
            **{k: round(v, 2) for k, v in score_translations(hyps, refs).items()},
            "seconds": round(seconds, 1),
            "pairs": len(idx),
            "dictionary_words_per_100": round(100 * filled / max(len(idx), 1), 2),
            "by_length": bleu_by_length(sources, hyps, refs),
            "examples": [
                {"source": s, "reference": r, "translation": h}
                for s, r, h in list(zip(sources, refs, hyps, strict=True))[:5]
            ],
        }
        result[name]["translations"] = hyps  # cmd_eval writes them beside the report
        if kinds is not None:
            result[name]["by_kind"] = bleu_by_kind([kinds[i] for i in idx], hyps, refs)
        if german_left is not None:
            result[name]["german_left"] = german_left_report(german_left, sources, hyps, refs)
        if b == 1:
            greedy_hyps = hyps
        elif len(idx) < len(pairs):
            same = score_translations([greedy_hyps[i] for i in idx], refs)
            result[name]["greedy_same_pairs"] = {k: round(v, 2) for k, v in same.items()}
    return result


def plot_by_length(report: dict, path: Path) -> bool:
    """BLEU against source length, one line per model and search. False (no plot) where
    matplotlib is not installed (the trainer runs without the app's [gui] extra)."""
    try:
        import matplotlib
    except ImportError:
        return False

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=110)
    for model_name, model_report in report["models"].items():
        for search, res in model_report["scores"].items():
            rows = res["by_length"]
            ax.plot(
                [r["words"] for r in rows],
                [r["bleu"] for r in rows],
                marker="o",
                label=f"{model_name} ({search})",
            )
    ax.set_xlabel("source sentence length (words)")
    ax.set_ylabel("BLEU")
    ax.set_title(f"BLEU by sentence length: {Path(report['test']).name}")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


def write_report(report: dict, json_path: Path, png_path: Path) -> bool:
    """The JSON report and the plot; False where the plot could not be drawn."""
    write_atomic(json_path, json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return plot_by_length(report, png_path)

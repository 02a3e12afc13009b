"""Which English the bundled model writes, and what the steps "british" and "american"
(core/language/variants.py) change on English that is written in one variant already.

    .venv/bin/python bench/bench_english_variant.py [--sentences 300] [--json F]

1. The model's own English: the German of everyday-dev and newstest2013 translated with
   the app's default steps; of the words, titles and dates spelt one way in one variant
   and another way in the other, how many are British and how many American.
2. False alarms: the English of Europarl (British: the EU Parliament's) made British,
   and of the IWSLT 2017 validation set (TED talks) and GNOME's user documentation
   (both American) made American: each edit
   there changes a text already in that variant, so their count per 1,000 words bounds
   the steps' false alarms from above (some are the text's own mixed spellings). The
   edits are listed, to read.
3. The round trip: each reference made into the other variant and back; a word that
   does not come back is an edit that cannot be undone.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from translator_app.core.data.corpus import read_pairs  # noqa: E402
from translator_app.core.language.variants import (  # noqa: E402
    AMERICAN,
    BRITISH,
    edits,
    edits_by_kind,
    in_variant,
)
from translator_app.core.platform.hardware import describe_machine  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
MODEL_SETS = (
    ROOT / "testsets" / "everyday" / "everyday-dev.deu-eng.tsv",
    DATA / "wmt-news-deen" / "newstest2013.deu-eng.tsv.xz",
)
# (set, the variant its English is written in, lines skipped): Europarl's first 3,000
# lines were read while writing english-words.tsv's british-too ("connection" ->
# "connexion"), so the figures come from the lines after them.
REFERENCE_SETS = (
    (DATA / "europarl-comtrans" / "deu-eng.tsv.xz", BRITISH, 3000),
    (DATA / "iwslt2017-deen" / "validation.deu-eng.tsv.xz", AMERICAN, 0),
    (DATA / "gnome-user-docs-deen" / "gnome-help-43.deu-eng.tsv.xz", AMERICAN, 0),
)


def _pairs(path: Path, n: int, skip: int = 0) -> list[tuple[str, str]]:
    return [pair for _, pair in read_pairs(path)][skip : skip + n]


def forms(texts: list[str]) -> dict[str, dict[str, int]]:
    """Per kind, how many forms of each variant ``texts`` hold: a form the British
    step would change is American, one the American step would change British."""
    out = {}
    for kind in ("spelling", "title", "date"):
        american = sum(len(edits_by_kind(t, BRITISH)[kind]) for t in texts)
        british = sum(len(edits_by_kind(t, AMERICAN)[kind]) for t in texts)
        out[kind] = {"british": british, "american": american}
    return out


def model_english(n: int) -> dict:
    from translator_app.core import Translator

    translator = Translator.load(ROOT / "resources" / "model", device="cpu")
    report = {}
    for path in MODEL_SETS:
        german = [de for de, _ in _pairs(path, n)]
        english = [t.text for t in translator.translate(german)]
        report[path.name.split(".")[0]] = {"sentences": len(german), "forms": forms(english)}
    return report


def false_alarms(n: int) -> dict:
    report = {}
    for path, variant, skip in REFERENCE_SETS:
        english = [en for _, en in _pairs(path, n, skip)]
        words = sum(len(t.split()) for t in english)
        changed = [(t, e) for t in english for e in edits(t, variant)]
        other = AMERICAN if variant == BRITISH else BRITISH
        lost = Counter()
        for t in english:
            there = in_variant(t, other)
            if in_variant(there, variant) != in_variant(t, variant):
                lost.update(
                    w
                    for w, b in zip(t.split(), in_variant(there, variant).split(), strict=False)
                    if w != b
                )
        report[path.parent.name] = {
            "variant": variant,
            "lines_skipped": skip,
            "sentences": len(english),
            "words": words,
            "edits": len(changed),
            "edits_per_1000_words": round(1000 * len(changed) / max(words, 1), 2),
            "edited": sorted(
                Counter(t[b:e] + " → " + new for t, (b, e, new) in changed).items(),
                key=lambda kv: -kv[1],
            )[:15],
            "round_trip_lost": lost.most_common(10),
        }
    return report


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sentences", type=int, default=300, help="of each set the model translates")
    ap.add_argument("--references", type=int, default=3000, help="of each reference set")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    report = {
        "command": "python bench/bench_english_variant.py "
        f"--sentences {args.sentences} --references {args.references}",
        "cpu": describe_machine(),
        "model": model_english(args.sentences),
        "references": false_alarms(args.references),
    }
    text = json.dumps(report, indent=1, ensure_ascii=False)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

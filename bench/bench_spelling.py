"""German written in capitals (a sign, a notice), without any (a hasty message) or without
umlauts (a keyboard without ä, ö, ü, ß), read as German writes it
(core/faithful/casing.py, core/faithful/umlauts.py) or as it stands.

    .venv/bin/python bench/bench_spelling.py [--model DIR] [--beam N] [--show 8] [SET ...]

For each dev set (a TSV of German and English; default: the everyday and register dev
sets), every German sentence is written in capitals (str.upper), in lower case
(str.lower) and with ae, oe, ue, ss for ä, ö, ü, ß, and translated with the bundled model
as the app translates it, once read as it stands and once as German writes it; each is
scored by sacreBLEU against the references, beside the sentences as written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import sacrebleu

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from app_search import translations_with  # noqa: E402

from translator_app.core import Translator  # noqa: E402
from translator_app.core.data.corpus import read_pairs  # noqa: E402
from translator_app.core.faithful.umlauts import without_umlauts  # noqa: E402

STEP = "umlauts"  # the step measured
SETS = [
    ROOT / "testsets" / "everyday" / "everyday-dev.deu-eng.tsv",
    ROOT / "testsets" / "register" / "register-dev.deu-eng.tsv",
]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sets", nargs="*", type=Path, default=SETS)
    ap.add_argument("--model", type=Path, default=ROOT / "resources" / "model")
    ap.add_argument("--beam", type=int, default=None, help="the bundle's search by default")
    ap.add_argument("--show", type=int, default=8)
    args = ap.parse_args(argv)
    translator = Translator.load(args.model, device="cpu")
    beam = args.beam or translator.options.beam
    for path in args.sets:
        pairs = [pair for _, pair in read_pairs(path)]
        german, refs = [de for de, _ in pairs], [[en for _, en in pairs]]
        written = translations_with(translator, german, beam)
        print(f"\n{path.name}: {len(pairs)} sentences, beam {beam}")
        print(f"  {'as written':40} BLEU {sacrebleu.corpus_bleu(written, refs).score:.2f}")
        for case, change in [
            ("in capitals", str.upper),
            ("in lower case", str.lower),
            ("without umlauts", without_umlauts),
        ]:
            changed = [change(de) for de in german]
            as_they_stand = translations_with(translator, changed, beam, f"all,-{STEP}")
            recased = translations_with(translator, changed, beam)
            for how, hyps in [
                ("read as it stands", as_they_stand),
                ("as German writes it", recased),
            ]:
                name = f"{case}, {how}"
                print(f"  {name:40} BLEU {sacrebleu.corpus_bleu(hyps, refs).score:.2f}")
            rows = zip(changed, as_they_stand, recased, strict=True)
            for de, a, b in list(rows)[: args.show]:
                print(f"    {de}\n      as it stands: {a}\n      as German:    {b}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Lines without closing punctuation (headings, a form's fields, list items, captions), read
by the model as they are and with a full stop after them (core/engine/closing_stop.py).

    .venv/bin/python bench/bench_closing_stop.py [--model DIR] [--beam N ...] [--show 8] [SET ...]

For each dev set (a TSV of German and English; default: the register dev set,
newstest2013 as data/prepared/news-dev.tsv and Multi30k's validation split), the lines
whose German ends in a letter or digit are translated with the bundled model as the app
translates them (dictionary's words in) at each beam size, once read as they are and once
with the full stop, and scored by sacreBLEU against their references; the sentences that
differ are shown.
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
from translator_app.core.engine.closing_stop import needs_stop  # noqa: E402

STEP = "closing-stop"  # the step measured
SETS = [
    ROOT / "testsets" / "register" / "register-dev.deu-eng.tsv",
    ROOT / "data" / "prepared" / "news-dev.tsv",
    ROOT.parent / "shared" / "data" / "multi30k" / "val.deu-eng.tsv.xz",
]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sets", nargs="*", type=Path, default=SETS)
    ap.add_argument("--model", type=Path, default=ROOT / "resources" / "model")
    ap.add_argument("--beam", type=int, nargs="+", default=[1, 5])
    ap.add_argument("--show", type=int, default=8)
    args = ap.parse_args(argv)
    translator = Translator.load(args.model, device="cpu")
    for path in args.sets:
        if not path.is_file():
            print(f"{path}: not there, skipped", file=sys.stderr)
            continue
        pairs = [pair for _, pair in read_pairs(path)]
        open_lines = [(de, en) for de, en in pairs if needs_stop(de)]
        german = [de for de, _ in open_lines]
        refs = [[en for _, en in open_lines]]
        print(f"\n{path.name}: {len(open_lines)} of {len(pairs)} lines end without punctuation")
        for beam in args.beam:
            as_is = translations_with(translator, german, beam, f"all,-{STEP}")
            stopped = translations_with(translator, german, beam)
            before = sacrebleu.corpus_bleu(as_is, refs).score
            after = sacrebleu.corpus_bleu(stopped, refs).score
            changed = [(d, a, b) for d, a, b in zip(german, as_is, stopped, strict=True) if a != b]
            print(
                f"  beam {beam}: BLEU {before:.2f} as is, {after:.2f} with the full stop; "
                f"{len(changed)} changed"
            )
            for de, a, b in changed[: args.show if beam == args.beam[0] else 0]:
                print(f"    {de}\n      as is: {a}\n      stop:  {b}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

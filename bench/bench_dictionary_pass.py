"""What the dictionary's words cost a whole text (issue 60): the model's English for a
dev set in one call, then the dictionary pass over it (core/postedit/dictionary_words.py:
the sentences that copied a German word decoded again with the dictionary's English),
as `translator-app translate`, documents and the window's follow-up run them.

    .venv/bin/python bench/bench_dictionary_pass.py [--model DIR] [--beam 1 5] [--runs 3]
        [--limit N] [SET]

Prints, per beam, the median seconds of the first English and of the pass, how many
decodes the pass made and how many sentences they held, and how many sentences it
changed. SET: a TSV of German and English (default: the everyday dev set).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from translator_app.core import Translator  # noqa: E402
from translator_app.core.data.corpus import read_pairs  # noqa: E402
from translator_app.core.platform.hardware import describe_machine  # noqa: E402

EVERYDAY_DEV = ROOT / "testsets" / "everyday" / "everyday-dev.deu-eng.tsv"


def _timed_pass(translator: Translator, texts: list[str], beam: int):
    """(seconds of the first English, seconds of the pass, sizes of the pass's decodes,
    sentences changed)."""
    start = time.perf_counter()
    first = translator.translate(texts, beam=beam, nbest=beam, dictionary_words=False)
    between = time.perf_counter()
    sizes: list[int] = []
    decode = translator._translate

    def counted(some, *args, **kwargs):
        sizes.append(len(some))
        return decode(some, *args, **kwargs)

    translator._translate = counted  # type: ignore[method-assign]
    try:
        worded = translator.add_dictionary_words(texts, first, beam=beam, nbest=beam)
    finally:
        del translator._translate
    end = time.perf_counter()
    changed = sum(a.text != b.text for a, b in zip(first, worded, strict=True))
    return between - start, end - between, sizes, changed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("set", nargs="?", type=Path, default=EVERYDAY_DEV)
    parser.add_argument("--model", type=Path, default=ROOT / "resources" / "model")
    parser.add_argument("--beam", type=int, nargs="+", default=[1, 5])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    texts = [de for _, (de, _) in read_pairs(args.set)][: args.limit]
    translator = Translator.load(args.model)
    print(describe_machine())
    print(f"{args.set.name}: {len(texts)} sentences, {translator.engine_name}")
    translator.translate(texts[:8])  # the dictionary's index and the engine warm
    print("beam  first English (s)  dictionary pass (s)  decodes  their sentences  changed")
    for beam in args.beam:
        runs = [_timed_pass(translator, texts, beam) for _ in range(args.runs)]
        first = statistics.median(r[0] for r in runs)
        passed = statistics.median(r[1] for r in runs)
        _, _, sizes, changed = runs[-1]
        print(
            f"{beam:>4}  {first:17.2f}  {passed:19.2f}  {len(sizes):7}  {sum(sizes):15}  {changed:7}"
        )


if __name__ == "__main__":
    main()

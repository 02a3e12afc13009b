"""Write the small data that Teach ships with the app (issue 33): resources/teach/.

    replay.tsv   everyday pairs the base model trained on, mixed into every fine-tune so
                 that it keeps what it knew (replay)
    general.tsv  everyday pairs scored before and after a fine-tune, so forgetting shows:
                 the first 1,000 pairs of the Tatoeba v2021-08-07 test set, the set
                 bench/bench_teach.py measures with (so the dialog's verdict and the
                 bench agree); used for evaluation only, never trained on

Both from Tatoeba (CC-BY 2.0 FR); the replay pairs from the manythings.org export with
every sentence of a test set and of the validation set removed (exact and normalised
match), as in prepare_data.py. Needs data/prepared (python scripts/prepare_data.py).

    python scripts/make_teach_data.py [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from prepare_data import TEST_GLOBS, TRAIN, Detokenizer, load  # noqa: E402

from translator_app.core.data.corpus import Blocklist, read_all  # noqa: E402

REPLAY_PAIRS = 1500
GENERAL_PAIRS = 1000
GENERAL_TEST = "tatoeba-test-deu-eng/tatoeba-test-v2021-08-07.deu-eng.tsv.xz"
MAX_WORDS = 20


def write_tsv(path: Path, pairs: list[tuple[str, str]]) -> None:
    path.write_text("".join(f"{de}\t{en}\n" for de, en in pairs), "utf-8")
    print(f"{path.relative_to(ROOT)}: {len(pairs)} pairs")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--prepared", type=Path, default=ROOT / "data" / "prepared")
    ap.add_argument("--out", type=Path, default=ROOT / "resources" / "teach")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    tests = Blocklist()
    for f in sorted(f for g in TEST_GLOBS for f in args.data.glob(g)):
        tests.add(read_all([f]))
    name, rel, tokenised, licence = TRAIN[0]
    assert name == "tatoeba", TRAIN[0]
    tatoeba = [
        (de, en)
        for de, en in load(args.data, rel, tokenised, Detokenizer())
        if de and en and not tests.match(de, en)
    ]
    held = set(read_all([args.prepared / "valid.tsv"]))
    general = list(read_all([args.data / GENERAL_TEST]))
    replay = sorted({p for p in tatoeba if p not in held and len(p[0].split()) <= MAX_WORDS})
    random.Random(args.seed).shuffle(replay)
    args.out.mkdir(parents=True, exist_ok=True)
    write_tsv(args.out / "replay.tsv", replay[:REPLAY_PAIRS])
    write_tsv(args.out / "general.tsv", general[:GENERAL_PAIRS])
    (args.out / "README.md").write_text(README.format(licence=licence), "utf-8")
    return 0


README = """# Teach's data

Written by `python scripts/make_teach_data.py`; read by `translator-train finetune`.

- `replay.tsv`: everyday pairs the base model trained on, mixed into every fine-tune so
  that the new model keeps what the base knew.
- `general.tsv`: the first 1,000 pairs of the Tatoeba v2021-08-07 test set, translated
  before and after a fine-tune, so forgetting shows; the set `bench/bench_teach.py`
  measures with, so that the dialog's verdict and the bench agree. Evaluation only:
  never trained on.

Source: the Tatoeba corpus (tatoeba.org; replay via the manythings.org export), {licence}
FR; every sentence of a test set and of the validation set removed from the replay pairs
(exact and normalised match).
"""


if __name__ == "__main__":
    raise SystemExit(main())

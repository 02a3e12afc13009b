"""What a user waits for with each model the app offers, on this CPU: the bundled model,
and a model of each catalogue entry's shape (random weights of OPUS-MT de-en's exact
shape: no real download can be made here), imported and timed as the app translates.

    .venv/bin/python bench/bench_model_speeds.py --out docs/figures/model_speeds.json

A model with random weights rarely stops early, so each of its sentences is capped at
the length (tokens) the trained bundled model writes for the same sentences: its figure
is the time of a sentence of that length, an estimate of the trained model's (marked so
wherever it is shown). The timing is the app's own
(core/downloads/getting.py: ``timed_translations`` of ``SPEED_SENTENCES``, one at a
time, after a warm-up; the install-time measurement calls it too). README's model table is written from the output (scripts/doc_tables.py).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def time_model(bundle: Path, sentences: tuple[str, ...], runs: int, **choices) -> dict:
    """ms per sentence and per output token of ``bundle`` translated as the app does
    (its own search, changed by ``choices``)."""
    from translator_app.core.api.translator import Translator
    from translator_app.core.downloads.getting import timed_translations

    translator = Translator.load(bundle, device="cpu")
    best, tokens = timed_translations(translator, sentences, runs, **choices)
    return {
        "engine": translator.engine_name,
        "ms_per_sentence": round(1000 * best / len(sentences), 1),
        "ms_per_token": round(1000 * best / max(tokens, 1), 2),
        "tokens_per_sentence": round(tokens / len(sentences), 1),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=3, help="the best of this many passes")
    args = ap.parse_args()
    sys.path[:0] = [str(ROOT)]
    from translator_app.core.downloads.catalogue import load_catalogue
    from translator_app.core.downloads.getting import SPEED_SENTENCES
    from translator_app.core.importers.marian import import_marian
    from translator_app.core.platform.hardware import cpu_name, int8_kind
    from translator_app.core.platform.paths import bundled_model_dir

    bundled = time_model(bundled_model_dir(), SPEED_SENTENCES, args.runs)
    models = {"bundled": bundled}
    with tempfile.TemporaryDirectory() as tmp:
        env = os.environ | {"PYTHONPATH": str(ROOT)}
        folder = Path(tmp) / "opus-like"
        subprocess.run(
            [sys.executable, str(ROOT / "bench/make_opus_like.py"), "--out", str(folder)],
            check=True,
            env=env,
            stdout=subprocess.DEVNULL,
        )
        bundle = import_marian(folder, Path(tmp) / "bundle", name="opus-mt-de-en shape")
        # Random weights never stop early: cap each sentence at the length the trained
        # bundled model writes for it, so the time is one of a sentence of that length.
        length = round(bundled["tokens_per_sentence"])
        shaped = time_model(bundle, SPEED_SENTENCES, args.runs, max_len_a=0.0, max_len_b=length)
        shaped["random_weights"] = True
        for entry in load_catalogue():
            if "d_model 512, 8 heads, feed-forward 2048" in entry.architecture:
                models[entry.id] = shaped
    result = {
        "command": "python bench/bench_model_speeds.py --out docs/figures/model_speeds.json",
        "cpu": cpu_name(),
        "int8_kind": int8_kind(),
        "threads": os.cpu_count(),
        "date": datetime.date.today().isoformat(),
        "sentences": len(SPEED_SENTENCES),
        "models": models,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", "utf-8")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

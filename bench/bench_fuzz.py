"""Fuzz the translator with hostile input and report crashes, time and memory.

    .venv/bin/python bench/bench_fuzz.py [--model DIR] [--n 2000] [--app]

Inputs (seeded, so a run can be repeated): random Unicode from every plane (lone
surrogates included), random bytes decoded as the command line does (surrogateescape),
word salad of German words, digits, punctuation, emoji, combining marks and line breaks
up to 5,000 characters (lengths log-uniform), and very long single lines (5,000-20,000
characters of prose, digits, one word, combining accents or emoji). Each goes through
``Translator.translate_document`` (what the command line and, sentence by sentence, the
app run). ``--app`` uses the window's default search instead of greedy (the model's beam
and n-best, the attention of every layer and head).

Prints per kind of input: count, crashes (any exception), outputs holding U+FFFD, inputs
whose characters are not all in some sentence, and the median / p99 / max seconds per
input; then the process's peak memory. The goal (#15): 0 crashes, every input under 2 s
and the whole run under 1 GB on 2 CPU cores.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path

import torch
from bench_translate import peak_rss_mb  # the same measure as the latency benchmark

from translator_app.core import Translator, bundled_model_dir
from translator_app.core.api.translator import InvalidTextWarning
from translator_app.core.platform.hardware import describe_machine

WORDS = [
    "der",
    "die",
    "das",
    "und",
    "ist",
    "nicht",
    "ein",
    "eine",
    "Haus",
    "Auto",
    "Straße",
    "groß",
    "klein",
    "heute",
    "morgen",
    "Bundesregierung",
    "Donaudampfschifffahrt",
    "z.",
    "B.",
    "Dr.",
    "Müller",
    "3.",
    "Oktober",
    "GmbH",
    "&",
    "Co.",
    "KG",
    "schön",
    "über",
    "Größe",
    "Fuß",
    "ß",
    "Ä",
    "Ö",
    "Ü",
    "100",
    "€",
    "5,5",
    "%",
    "1.000.000",
    "—",
    "–",
    "„Hallo“",
    "»Welt«",
    "(Klammer)",
    "https://example.org/a?b=c",
    "user@example.org",
    "#hashtag",
    "@name",
    "...",
    "?!",
    ";",
    ":",
    "/",
    "\\",
    "|",
    "😀",
    "🇩🇪",
    "👍🏽",
    "👨\u200d👩\u200d👧",
    "Привет",
    "你好",
    "مرحبا",
    "שלום",
    "ﷺ",
    "\u202e",
    "\u200b",
    "\t",
]
COMBINING = "\u0301\u0308\u0327\u20dd\u0489"


def random_unicode(rng: random.Random) -> str:
    n = rng.randint(1, 500)
    chars = []
    for _ in range(n):
        plane = rng.random()
        if plane < 0.5:
            cp = rng.randint(0x20, 0x2FFF)
        elif plane < 0.8:
            cp = rng.randint(0x3000, 0xFFFF)  # includes lone surrogates D800-DFFF
        else:
            cp = rng.randint(0x10000, 0x10FFFF)
        chars.append(chr(cp))
    return "".join(chars)


def random_bytes(rng: random.Random) -> str:
    raw = bytes(rng.getrandbits(8) for _ in range(_log_uniform(rng, 1, 2000)))
    return raw.decode("utf-8", "surrogateescape")  # as sys.argv holds undecodable bytes


def _log_uniform(rng: random.Random, low: int, high: int) -> int:
    """Lengths spread evenly over orders of magnitude: short inputs are what people type,
    the long tail still reaches ``high``."""
    return int(math.exp(rng.uniform(math.log(low), math.log(high + 1))))


def word_salad(rng: random.Random) -> str:
    limit = _log_uniform(rng, 1, 5000)
    parts, size = [], 0
    while size < limit:
        r = rng.random()
        if r < 0.75:
            w = rng.choice(WORDS)
        elif r < 0.85:
            w = str(rng.randint(0, 10 ** rng.randint(1, 12)))
        elif r < 0.9:
            w = rng.choice("abcde") + "".join(
                rng.choice(COMBINING) for _ in range(rng.randint(1, 30))
            )
        elif r < 0.95:
            w = rng.choice([".", "!", "?", "\n", "\n\n", "  ", "..."])
        else:
            w = rng.choice(WORDS).upper()
        parts.append(w)
        size += len(w) + 1
    return " ".join(parts)[:limit]


def long_line(rng: random.Random) -> str:
    kind = rng.choice(["prose", "digits", "one-word", "accents", "emoji"])
    n = rng.randint(5_000, 20_000)
    if kind == "prose":
        unit = "Das ist ein Satz über das Wetter in Berlin, der kein Ende nimmt und "
    elif kind == "digits":
        unit = "1234567890"
    elif kind == "one-word":
        unit = "Donaudampfschifffahrtsgesellschaft"
    elif kind == "accents":
        unit = "a" + "\u0301" * 50
    else:
        unit = "😀🙈🇩🇪"
    return (unit * (n // len(unit) + 1))[:n]


KINDS: dict[str, tuple[Callable[[random.Random], str], float]] = {
    "random unicode": (random_unicode, 0.3),
    "random bytes": (random_bytes, 0.3),
    "word salad": (word_salad, 0.35),
    "long line": (long_line, 0.05),
}


def covered(text: str, segments) -> bool:
    """Every non-space character of ``text`` lies in exactly one segment."""
    inside = "".join(text[s.start : s.end] for s in segments)
    return "".join(inside.split()) == "".join(text.split())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--model", type=Path, default=bundled_model_dir())
    ap.add_argument("--n", type=int, default=2000, help="inputs in all")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--precision", default="auto")
    ap.add_argument(
        "--app",
        action="store_true",
        help="the window's search: the model's beam and n-best, all layers",
    )
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: PyTorch's choice)")
    args = ap.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)

    # Lone surrogates are replaced with a warning each; here they are expected.
    warnings.simplefilter("ignore", InvalidTextWarning)
    translator = Translator.load(args.model, "cpu", args.precision)
    search = dict(all_layers=True) if args.app else dict(beam=1)  # app: the model's beam
    print(f"machine: {describe_machine()}, torch threads {torch.get_num_threads()}")
    print(f"model: {args.model} ({translator.precision}); search {search}; seed {args.seed}")
    base_rss = peak_rss_mb()

    rng = random.Random(args.seed)
    names, weights = list(KINDS), [w for _, w in KINDS.values()]
    stats = {k: {"n": 0, "crash": 0, "fffd": 0, "uncovered": 0, "times": []} for k in KINDS}
    failures: list[str] = []
    over_2s: list[int] = []  # lengths of the inputs that took longer than 2 s
    slowest = (0.0, "", "")
    for i in range(args.n):
        kind = rng.choices(names, weights)[0]
        text = KINDS[kind][0](rng)
        s = stats[kind]
        s["n"] += 1
        start = time.perf_counter()
        try:
            doc = translator.translate_document(text, **search)
        except Exception as e:  # noqa: BLE001 - counting crashes is the point
            s["crash"] += 1
            if len(failures) < 5:
                failures.append(f"input {i} ({kind}, {len(text)} chars): {type(e).__name__}: {e}")
                traceback.print_exc()
            continue
        seconds = time.perf_counter() - start
        s["times"].append(seconds)
        if seconds > 2:
            over_2s.append(len(text))
        if seconds > slowest[0]:
            slowest = (seconds, kind, f"{len(text)} chars")
        if "\ufffd" in doc.output:
            s["fffd"] += 1
        if not covered(text, doc.segments):
            s["uncovered"] += 1

    print(f"\n{'input kind':<16}{'n':>6}{'crashes':>9}{'U+FFFD':>8}{'uncovered':>11}"
          f"{'median s':>10}{'p99 s':>8}{'max s':>8}")  # fmt: skip
    all_times = []
    for kind, s in stats.items():
        t = sorted(s["times"]) or [0.0]
        all_times += t
        p99 = t[min(len(t) - 1, int(0.99 * len(t)))]
        print(
            f"{kind:<16}{s['n']:>6}{s['crash']:>9}{s['fffd']:>8}{s['uncovered']:>11}"
            f"{statistics.median(t):>10.3f}{p99:>8.3f}{max(t):>8.3f}"
        )
    crashes = sum(s["crash"] for s in stats.values())
    print(
        f"\ninputs {args.n}; crashes {crashes}; max {max(all_times):.2f} s "
        f"({slowest[1]}, {slowest[2]}); inputs over 2 s: {len(over_2s)}"
        + (f" (the shortest {min(over_2s):,} characters)" if over_2s else "")
        + "; "
        f"peak memory {peak_rss_mb():.0f} MB (after loading the model: {base_rss:.0f} MB)"
    )
    for f in failures:
        print("  " + f)


if __name__ == "__main__":
    main()

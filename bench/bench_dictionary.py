"""The dictionary under every word (issue 51 §4): how many inflected forms find their
entry, how long a look-up takes, and the memory it adds.

    .venv/bin/python bench/bench_dictionary.py [--show 10] [--json FILE]

bench/data/dictionary-forms.tsv holds 200 German word forms written for this bench
(plurals, datives, past tenses, participles, comparatives, compounds Ding lacks) with the
lemma whose entry each must find. A form finds it where a sense (or the form's headword)
names the lemma (for a compound, or a longer last part ending in it). Floors: >= 95 % found; look-up p95 <= 20 ms (after the first, which
loads the lemmatiser); <= 50 MB of resident memory added. The index is built first
where the cache lacks it (reported apart: once per install).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from translator_app.core.dictionary.ding import forms  # noqa: E402
from translator_app.core.dictionary.lookup import Dictionary, LookupResult  # noqa: E402
from translator_app.core.platform.hardware import describe_machine, facts  # noqa: E402

DATA = Path(__file__).with_name("data") / "dictionary-forms.tsv"
FLOORS = {"found": 0.95, "p95_ms": 20.0, "added_mb": 50.0}


def rss_mb() -> float:
    """Resident memory now (Linux /proc; 0 elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except OSError:
        return 0.0
    import os

    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def read_forms(path: Path = DATA) -> list[tuple[str, str]]:
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) != 2:
            raise ValueError(f"{path}:{n}: expected form <TAB> lemma")
        rows.append((cols[0].strip(), cols[1].strip()))
    return rows


def finds(result: LookupResult, lemma: str) -> bool:
    """Whether a sense of ``result`` is the entry of ``lemma``; for a compound Ding lacks,
    also of a longer last part that ends in it („Kinderzimmertür“: „Zimmertür“)."""
    want = lemma.casefold()
    for s in result.senses:
        for text in (s.german, s.headword):
            for f in forms(text):
                f = f.casefold()
                if f == want or (result.compound and f.endswith(want)):
                    return True
    return False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--show", type=int, default=10, help="print N misses")
    ap.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = ap.parse_args(argv)
    rows = read_forms()
    before = rss_mb()
    dictionary = Dictionary.bundled()
    start = time.perf_counter()
    built = dictionary.ensure_index()
    build_s = time.perf_counter() - start
    start = time.perf_counter()
    dictionary.lookup(rows[0][0])
    first_ms = (time.perf_counter() - start) * 1000
    times, misses = [], []
    for form, lemma in rows:
        start = time.perf_counter()
        result = dictionary.lookup(form)
        times.append((time.perf_counter() - start) * 1000)
        if not finds(result, lemma):
            misses.append((form, lemma, [s.german for s in result.senses[:2]]))
    added = rss_mb() - before
    found = 1 - len(misses) / len(rows)
    p95 = statistics.quantiles(times, n=20)[-1]
    ok = found >= FLOORS["found"] and p95 <= FLOORS["p95_ms"] and added <= FLOORS["added_mb"]
    print(describe_machine())
    if built:
        print(f"index built first: {build_s:.1f} s (once per install)")
    print(f"forms found: {len(rows) - len(misses)} of {len(rows)} ({found:.1%}; floor 95 %)")
    print(
        f"look-up: first {first_ms:.0f} ms (loads the lemmatiser), then p50 "
        f"{statistics.median(times):.1f} ms, p95 {p95:.1f} ms (floor 20 ms)"
    )
    print(f"memory added: {added:.0f} MB (floor 50 MB)")
    print("floors met" if ok else "floors NOT met")
    for form, lemma, got in misses[: args.show]:
        print(f"    {form} (wanted {lemma}): {got or 'nothing'}")
    if args.json:
        report = {
            "command": "bench/bench_dictionary.py " + " ".join(argv or sys.argv[1:]),
            "machine": facts(),
            "forms": len(rows),
            "found": found,
            "first_ms": first_ms,
            "p50_ms": statistics.median(times),
            "p95_ms": p95,
            "added_mb": added,
            "floors": FLOORS,
            "misses": misses,
        }
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

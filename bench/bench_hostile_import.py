"""Hostile OPUS-MT downloads: does the importer refuse each one quickly, in bounded
memory, with one sentence that names the file? (issue 35)

    .venv/bin/python bench/bench_hostile_import.py [--timeout 60]

Builds every case of bench/hostile_marian.py (YAML alias bombs, 4 GiB decompression
bombs, NaN and infinite weights, values that used to surface as raw Python errors) in a
temporary folder, imports each in a fresh process (as ``translator-train import-marian``
does) and prints per case the wall time, the process's peak memory (resident, including
Python and PyTorch themselves) and the first line of its message. The goal: every case
refused in under 5 s and 500 MB, with a message naming the file. The time to build a case
is not counted.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from hostile_marian import CASES  # noqa: E402

CHILD = """
import json, sys
from pathlib import Path
from translator_app.core.importers.marian import MarianImportError, import_marian
try:
    import_marian(Path(sys.argv[1]), Path(sys.argv[2]))
    print(json.dumps({"refused": False, "message": "imported"}))
except MarianImportError as e:
    print(json.dumps({"refused": True, "message": str(e)}))
"""


def run_case(src: Path, out: Path, timeout: float) -> dict:
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(src), str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.send_signal(signal.SIGKILL)
            pid, status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.02)
    seconds = time.perf_counter() - start
    stdout, stderr = proc.stdout.read(), proc.stderr.read()
    proc.returncode = os.waitstatus_to_exitcode(status)
    result = {"seconds": round(seconds, 2), "peak_mb": round(usage.ru_maxrss / 1024)}
    if seconds > timeout:
        return result | {"refused": False, "message": f"still running after {timeout:.0f} s"}
    try:
        return result | json.loads(stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        last = (stderr.strip().splitlines() or ["(no output)"])[-1]
        return result | {"refused": False, "message": f"crashed: {last}"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds before a case is killed")
    ap.add_argument("--json", type=Path, default=None, help="write the results here")
    args = ap.parse_args(argv)
    results = {}
    print(f"{'case':<40} {'s':>6} {'MB':>6}  message (first line)")
    for name, build in CASES.items():
        with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
            src = build(Path(tmp))
            r = run_case(src, Path(tmp) / "bundle", args.timeout)
            r["names_the_file"] = src.name in r["message"] or any(
                p.name in r["message"] for p in (src.iterdir() if src.is_dir() else [src])
            )
            r["message"] = r["message"].replace(tmp, "<tmp>").splitlines()[0]
        results[name] = r
        ok = r["refused"] and r["seconds"] < 5 and r["peak_mb"] < 500 and r["names_the_file"]
        print(
            f"{name:<40} {r['seconds']:>6.2f} {r['peak_mb']:>6} {'' if ok else 'FAIL '}{r['message'][:150]}"
        )
    passed = sum(
        r["refused"] and r["seconds"] < 5 and r["peak_mb"] < 500 and r["names_the_file"]
        for r in results.values()
    )
    print(f"\n{passed} of {len(results)} cases refused in < 5 s and < 500 MB, naming the file")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", "utf-8")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())

"""Join the parts of a bundle that a GPU lease's commands brought back
(scripts/lease_train.sh) and check it loads.

    python scripts/lease_join.py FOLDER [FOLDER ...] --out BUNDLE

Each FOLDER holds some of the parts ``bundle.tar.part-NN`` (one command brings back at
most four); the parts are joined in order, a missing one is named, and the bundle is
unpacked (tar's "data" filter: no links or paths out of the folder) and loaded once."""

from __future__ import annotations

import argparse
import io
import re
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def joined(folders: list[Path]) -> bytes:
    """The parts of every folder, in order; ValueError naming a missing part."""
    parts = {}
    for folder in folders:
        for path in folder.glob("bundle.tar.part-*"):
            m = re.fullmatch(r"bundle\.tar\.part-(\d+)", path.name)
            if m:
                parts[int(m.group(1))] = path
    if not parts:
        raise ValueError("no parts (bundle.tar.part-NN) in " + ", ".join(map(str, folders)))
    missing = sorted(set(range(max(parts) + 1)) - set(parts))
    if missing:
        raise ValueError(f"part {missing[0]:02d} is missing (ask with PARTS_FROM={missing[0]})")
    return b"".join(parts[i].read_bytes() for i in sorted(parts))


def main(argv: list[str] | None = None) -> int:
    from translator_app.core.engine.bundle import load_bundle

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    if args.out.exists():
        print(f"error: {args.out} exists; choose another --out", file=sys.stderr)
        return 1
    try:
        data = joined(args.folders)
        with tempfile.TemporaryDirectory(dir=args.out.parent) as tmp:
            with tarfile.open(fileobj=io.BytesIO(data)) as tar:
                tar.extractall(tmp, filter="data")
            (Path(tmp) / "bundle").rename(args.out)
        bundle = load_bundle(args.out, "cpu")
    except (ValueError, OSError, tarfile.TarError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}: {bundle.name}, {bundle.config.arch}, {len(data) / 1e6:.1f} MB packed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

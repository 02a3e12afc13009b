"""Size of a built app folder and its largest parts: ``size_report.py dist/translator-app``.

Prints the total, the largest files, and the total per top-level package under the
libraries folder (``_internal/``), so a change in what gets bundled shows up.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

MB = 1024 * 1024


def report(folder: Path, top: int = 12) -> str:
    files = [(p.stat().st_size, p) for p in folder.rglob("*") if p.is_file() and not p.is_symlink()]
    total = sum(size for size, _ in files)
    lines = [f"{folder}: {total / MB:.0f} MB in {len(files)} files", "", "largest files:"]
    for size, path in sorted(files, reverse=True)[:top]:
        lines.append(f"  {size / MB:8.1f} MB  {path.relative_to(folder)}")

    groups: dict[str, int] = defaultdict(int)
    internal = folder / "_internal"
    for size, path in files:
        rel = path.relative_to(internal if internal in path.parents else folder)
        groups[rel.parts[0] if len(rel.parts) > 1 else "(top-level files)"] += size
    lines += ["", "by package:"]
    for name, size in sorted(groups.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"  {size / MB:8.1f} MB  {name}")
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) != 2 or not Path(sys.argv[1]).is_dir():
        sys.exit("usage: size_report.py APP_FOLDER")
    print(report(Path(sys.argv[1])))

"""A run's prepared data kept in its folder (``[train] cache_data = true``), so that a
resumed run does not read, filter and tokenise its corpora again: about 4 minutes on 2
cores for the base mix, which a GPU lease's 10-minute commands cannot spare (issue 63 §1).

Plain arrays (NumPy ``.npz``, token ids as uint32 with row offsets) and JSON, never a
pickle. The cache is used only where its key matches: the data config, the seed, the
tokenizer and every data file's path, size and modification time.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from array import array
from pathlib import Path

import numpy as np

from trainer.config import DataConfig
from trainer.dataset import Encoded
from trainer.prepare import Prepared
from translator_app.core.platform.paths import write_atomic

CACHE_DIR = "data-cache"


def cache_key(d: DataConfig, seed: int, tokenizer_files: dict[str, bytes]) -> str:
    """What the prepared data depends on, as one hash."""
    files = [*d.train, d.valid, *d.exclude_test]
    stats = []
    for name in files:
        if not name:
            continue
        st = Path(name).stat()
        stats.append((str(Path(name).resolve()), st.st_size, st.st_mtime_ns))
    described = {
        "data": dataclasses.asdict(d),
        "seed": seed,
        "tokenizer": {k: hashlib.sha256(v).hexdigest() for k, v in tokenizer_files.items()},
        "files": stats,
    }
    return hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()


def save(run_dir: Path, key: str, data: Prepared) -> None:
    """Write ``data`` under ``run_dir``/data-cache (the key file last: a cache cut short
    by a kill has no key and is never used)."""
    folder = Path(run_dir) / CACHE_DIR
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "key").unlink(missing_ok=True)
    arrays = {}
    for name, encoded in (("train", data.train), ("valid", data.valid)):
        for side in ("src", "tgt"):
            rows = getattr(encoded, side)
            arrays[f"{name}_{side}"] = np.fromiter(
                (i for row in rows for i in row), dtype=np.uint32
            )
            arrays[f"{name}_{side}_lengths"] = np.array([len(r) for r in rows], dtype=np.uint32)
    tmp = folder / "arrays.tmp.npz"
    np.savez(tmp, **arrays)
    tmp.replace(folder / "arrays.npz")
    text = {"valid_pairs": data.valid_pairs, "report_pairs": data.report_pairs, "info": data.info}
    write_atomic(folder / "text.json", json.dumps(text, ensure_ascii=False))
    write_atomic(folder / "key", key)


def load(run_dir: Path, key: str) -> Prepared | None:
    """The cached data where its key is ``key``; None where there is none, another or a
    damaged one (the data is then prepared again)."""
    folder = Path(run_dir) / CACHE_DIR
    try:
        if (folder / "key").read_text() != key:
            return None
        with np.load(folder / "arrays.npz", allow_pickle=False) as z:
            encoded = {
                name: Encoded(*(_rows(z, f"{name}_{side}") for side in ("src", "tgt")))
                for name in ("train", "valid")
            }
        text = json.loads((folder / "text.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError):
        return None
    pairs = [tuple(p) for p in text["valid_pairs"]]
    report = [tuple(p) for p in text["report_pairs"]]
    return Prepared(encoded["train"], encoded["valid"], pairs, text["info"], report)


def _rows(z, name: str) -> list[array]:
    flat, lengths = z[name], z[f"{name}_lengths"]
    ends = np.cumsum(lengths, dtype=np.int64)
    if len(ends) and ends[-1] != len(flat):
        raise ValueError(f"{name}: the row lengths do not add up")
    starts = ends - lengths
    flat = flat.astype(np.int32)
    return [array("i", flat[a:b].tobytes()) for a, b in zip(starts, ends, strict=True)]

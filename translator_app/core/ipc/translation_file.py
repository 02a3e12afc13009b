"""Translations on disk, so that one process can hand what it translated to another.

The fine-tune translates its held-out sentences with the base and the new model anyway
(to score them); it writes the first few here, attention included, and the app's Teach
dialog shows them without loading either model again. The arrays go into a safetensors
file, everything else into its JSON metadata: nothing is unpickled on reading.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from safetensors import SafetensorError, safe_open
from safetensors.numpy import save

from translator_app.core.engine.translation import Candidate, Translation
from translator_app.core.faithful.fact_check import missing_facts
from translator_app.core.platform.paths import write_atomic

META_KEY = "translations"
# Held-out sentences a fine-tune writes here, translated by both models, for the Teach
# dialog to show (translator-train finetune --heldout-count; the app asks for these).
SHOWN_SENTENCES = 5


def save_translations(
    path: Path, columns: dict[str, Sequence[Translation]], extra: dict | None = None
) -> None:
    """Write named lists of translations (e.g. "base", "finetuned") and ``extra`` (any
    JSON) to ``path``, atomically."""
    tensors: dict[str, np.ndarray] = {}
    records: dict[str, list] = {}
    for name, translations in columns.items():
        records[name] = []
        for i, t in enumerate(translations):
            candidates = []
            for k, c in enumerate(t.nbest):
                key = f"{name}.{i}.{k}"
                tensors[f"{key}.attention"] = np.ascontiguousarray(c.attention, dtype=np.float32)
                if c.layers is not None:
                    tensors[f"{key}.layers"] = np.ascontiguousarray(c.layers, dtype=np.float32)
                candidates.append(
                    {
                        "key": key,
                        "text": c.text,
                        "target_ids": c.target_ids,
                        "target_pieces": c.target_pieces,
                        "target_spans": c.target_spans,
                        "score": c.score,
                        "logprob": c.logprob,
                    }
                )
            records[name].append(
                {
                    "source": t.source,
                    "source_ids": t.source_ids,
                    "source_pieces": t.source_pieces,
                    "source_spans": t.source_spans,
                    "nbest": candidates,
                }
            )
    meta = {META_KEY: json.dumps({"columns": records, "extra": extra or {}}, ensure_ascii=False)}
    write_atomic(Path(path), save(tensors, metadata=meta))


def load_translations(path: Path) -> tuple[dict[str, list[Translation]], dict]:
    """The columns and the extra JSON written by :func:`save_translations`; a file that
    is not one raises ValueError naming it."""
    try:
        with safe_open(str(path), "np") as f:
            meta = json.loads((f.metadata() or {})[META_KEY])
            arrays = {k: f.get_tensor(k) for k in f.keys()}  # noqa: SIM118 - not a dict
        columns = {
            name: [_translation(r, arrays) for r in records]
            for name, records in meta["columns"].items()
        }
    except (OSError, SafetensorError, KeyError, TypeError, ValueError) as e:
        raise ValueError(f"{path}: not a translations file ({e})") from None
    return columns, meta.get("extra", {})


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.array(a, dtype=np.float32)
    a.flags.writeable = False  # as the translator's: shared between threads, never changed
    return a


def _spans(rows) -> tuple[tuple[int, int], ...]:
    return tuple((int(s), int(e)) for s, e in rows)


def _translation(r: dict, arrays: dict[str, np.ndarray]) -> Translation:
    nbest = tuple(
        Candidate(
            text=c["text"],
            target_ids=tuple(c["target_ids"]),
            target_pieces=tuple(c["target_pieces"]),
            target_spans=_spans(c["target_spans"]),
            attention=_frozen(arrays[f"{c['key']}.attention"]),
            score=float(c["score"]),
            logprob=float(c["logprob"]),
            layers=_frozen(arrays[f"{c['key']}.layers"])
            if f"{c['key']}.layers" in arrays
            else None,
        )
        for c in r["nbest"]
    )
    return Translation(
        source=r["source"],
        source_ids=tuple(r["source_ids"]),
        source_pieces=tuple(r["source_pieces"]),
        source_spans=_spans(r["source_spans"]),
        nbest=nbest,
        issues=tuple(missing_facts(r["source"], nbest[0].text)) if nbest else (),
    )

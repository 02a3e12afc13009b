"""The catalogue of published models: ``resources/model_catalogue.json`` → entries.

    >>> [e.id for e in load_catalogue()]
    ['opus-mt-de-en']

The catalogue is data: each entry names its source repository and the commit it was
checked at, the files to fetch (with the SHA-256 its publisher shows, where it shows
one), sizes, licence, attribution and published scores with their source.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from translator_app.core.platform.paths import resources_dir

CATALOGUE_FILE = "model_catalogue.json"
CATALOGUE_ENV = "TRANSLATOR_CATALOGUE"  # another catalogue file (an organisation's own)
_SHA256 = re.compile(r"[0-9a-f]{64}")
_REVISION = re.compile(r"[0-9a-f]{40}")


class CatalogueError(Exception):
    """A catalogue file that cannot be read: one line naming the file and the problem."""


@dataclass(frozen=True)
class Score:
    test: str
    bleu: float
    source: str


@dataclass(frozen=True)
class CatalogueEntry:
    """One published model. ``files``: name → the SHA-256 its publisher shows, or None
    (then the size and git blob id of the source's listing are checked)."""

    id: str
    name: str
    source: str
    repo: str
    revision: str
    page: str
    files: dict[str, str | None]
    download_mb: float
    disk_mb: float
    licence: str
    attribution: str
    architecture: str
    trained_on: str
    scores: tuple[Score, ...]

    def score_text(self) -> str:
        """ "newstest2014 34.0, newstest2019 40.1 BLEU" (the published scores, in order)."""
        return ", ".join(f"{s.test} {s.bleu:.1f}" for s in self.scores) + " BLEU"


_TEXT_FIELDS = ("id", "name", "source", "repo", "revision", "page", "licence", "attribution")
_TEXT_FIELDS += ("architecture", "trained_on")


def _entry(raw: dict, where: Path) -> CatalogueEntry:
    try:
        entry = CatalogueEntry(
            **{k: str(raw[k]) for k in _TEXT_FIELDS},
            files={str(k): (None if v is None else str(v)) for k, v in dict(raw["files"]).items()},
            download_mb=float(raw["download_mb"]),
            disk_mb=float(raw["disk_mb"]),
            scores=tuple(
                Score(str(s["test"]), float(s["bleu"]), str(s["source"])) for s in raw["scores"]
            ),
        )
    except (KeyError, TypeError, ValueError) as e:
        raise CatalogueError(f"{where}: an entry lacks or mistypes {e}") from None
    if entry.source != "huggingface":
        raise CatalogueError(f"{where}: {entry.id}: unknown source {entry.source!r}")
    if not _REVISION.fullmatch(entry.revision):
        raise CatalogueError(f"{where}: {entry.id}: the revision must be a 40-digit commit id")
    bad = [n for n, h in entry.files.items() if h is not None and not _SHA256.fullmatch(h)]
    if bad or not entry.files or any("/" in n or n.startswith(".") for n in entry.files):
        raise CatalogueError(f"{where}: {entry.id}: a file name or checksum is malformed")
    return entry


def load_catalogue(path: Path | None = None) -> list[CatalogueEntry]:
    """The entries of the catalogue file: ``path``, else ``TRANSLATOR_CATALOGUE``'s,
    else the package's own."""
    path = path or Path(os.environ.get(CATALOGUE_ENV) or resources_dir() / CATALOGUE_FILE)
    try:
        raw = json.loads(path.read_text("utf-8"))
        entries = [_entry(r, path) for r in raw["models"]]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as e:
        raise CatalogueError(f"{path}: cannot be read ({e})") from None
    if not entries:  # an empty list would read as "nothing to offer" with no reason
        raise CatalogueError(f"{path}: lists no models")
    ids = [e.id for e in entries]
    if len(set(ids)) != len(ids):
        raise CatalogueError(f"{path}: two entries share an id")
    return entries


def find_entry(name: str, entries: list[CatalogueEntry]) -> CatalogueEntry:
    """The entry called ``name`` (its id, case-insensitive), or a CatalogueError listing
    the ids there are."""
    for e in entries:
        if e.id.lower() == name.strip().lower():
            return e
    known = ", ".join(e.id for e in entries) or "none"
    raise CatalogueError(f"no model called {name!r} in the catalogue (there are: {known})")

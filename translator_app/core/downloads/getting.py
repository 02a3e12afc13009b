"""A catalogue entry → a model in the user's models folder: listed, fetched, checked,
imported; and the installed ones listed and removed.

    path = get_model(find_entry("opus-mt-de-en", load_catalogue()), on_progress=print)

Files arrive in the cache (``downloads/ID/``), never in the models folder, so a
half-finished download is never offered as a model; one download of an entry runs at a
time (a lock with the process id); the disk's free space is checked before the first
byte. The source is Hugging Face, or the address in ``TRANSLATOR_MODEL_SOURCE`` (a
mirror, or the tests' own server).
"""

from __future__ import annotations

import datetime
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import requests

from translator_app.core.downloads.catalogue import CatalogueEntry
from translator_app.core.downloads.transfer import (
    DownloadError,
    RemoteFile,
    fetch,
    http_problem,
    network_problem,
    new_session,
)
from translator_app.core.platform.paths import (
    create_lock,
    free_bytes,
    free_model_folder,
    safe_name,
    stale_lock,
    user_cache_dir,
    user_models_dir,
    write_atomic,
)

DEFAULT_SOURCE = "https://huggingface.co"
SOURCE_ENV = "TRANSLATOR_MODEL_SOURCE"
SPACE_MARGIN_BYTES = 50 * 1024**2
# The import writes the weights once more (as float32 safetensors, the published size),
# and the first translation converts them for CTranslate2 (int8, about a quarter).
IMPORT_FACTOR = 1.3


def source_url() -> str:
    return os.environ.get(SOURCE_ENV, "").rstrip("/") or DEFAULT_SOURCE


@dataclass(frozen=True)
class Progress:
    """How far a download is: bytes of the whole model, and the speed over the last
    seconds (bytes per second; 0 until it is known)."""

    file: str
    done: int
    total: int
    speed: float
    stage: str = "downloading"  # "downloading" | "importing" | "measuring"

    def seconds_left(self) -> float | None:
        return (self.total - self.done) / self.speed if self.speed > 0 else None

    def text(self) -> str:
        """ "120.5 of 301.2 MB, 4.1 MB/s, about 44 s left" (or what the stage is)."""
        if self.stage != "downloading":
            return {
                "importing": "Importing the model…",
                "measuring": "Measuring its speed on this computer…",
            }[self.stage]
        line = f"{self.done / 1e6:.1f} of {self.total / 1e6:.1f} MB"
        if self.speed > 0:
            left = self.seconds_left() or 0
            when = f"{left / 60:.0f} min" if left >= 90 else f"{left:.0f} s"
            line += f", {self.speed / 1e6:.1f} MB/s, about {when} left"
        return line


def staging_dir(entry: CatalogueEntry) -> Path:
    return user_cache_dir() / "downloads" / safe_name(entry.id)


def remote_files(session: requests.Session, entry: CatalogueEntry, source: str) -> list[RemoteFile]:
    """The entry's files as the source lists them at the pinned revision: sizes and
    checksums (the catalogue's SHA-256 where it pins one, which the listing must agree
    with)."""
    url = f"{source}/api/models/{entry.repo}/tree/{entry.revision}"
    try:
        r = session.get(url, timeout=(15, 60))
    except requests.RequestException as e:
        raise DownloadError(
            f"The model list could not be read: {network_problem(e, url)}."
        ) from None
    if r.status_code >= 400:
        raise DownloadError(f"The model list could not be read: {http_problem(r, entry.repo)}.")
    try:
        listing = {i["path"]: i for i in r.json() if i.get("type") == "file"}
    except (ValueError, TypeError, KeyError, AttributeError):
        raise DownloadError(f"{r.url} did not answer with a file list.") from None
    files = []
    for name, pinned in entry.files.items():
        item = listing.get(name)
        if item is None:
            raise DownloadError(f"{entry.repo} has no {name} at the catalogue's revision.")
        lfs = item.get("lfs") or {}
        if pinned and lfs.get("oid") not in (None, pinned):
            raise DownloadError(
                f"The source's checksum of {name} differs from the one its publisher showed; "
                "refused."
            )
        size = int(lfs.get("size", item.get("size", -1)))
        file_url = f"{source}/{entry.repo}/resolve/{entry.revision}/{quote(name)}"
        sha = pinned or lfs.get("oid")
        oid = None if (sha or lfs) else item.get("oid")
        files.append(RemoteFile(name, file_url, size, sha256=sha, git_oid=oid))
    return files


def installed_models() -> dict[str, Path]:
    """Catalogue id → the bundle in the user's models folder fetched for it."""
    found: dict[str, Path] = {}
    folder = user_models_dir()
    if not folder.is_dir():
        return found
    for child in sorted(folder.iterdir()):
        try:
            config = json.loads((child / "config.json").read_text("utf-8"))
            found.setdefault(config["origin"]["catalogue_id"], child)
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return found


def _check_space(folder: Path, needed: int, what: str) -> None:
    free = free_bytes(folder)
    if free is not None and free < needed + SPACE_MARGIN_BYTES:
        raise DownloadError(
            f"{what} needs {(needed + SPACE_MARGIN_BYTES) / 1e6:.0f} MB in {folder}, which "
            f"has {free / 1e6:.0f} MB free; free some space and try again."
        )


class _Meter:
    """Turns written bytes into :class:`Progress` reports, at most ten a second."""

    def __init__(self, total: int, done: int, report: Callable[[Progress], None]) -> None:
        self.total, self.done, self.report = total, done, report
        self.file = ""
        self.window: list[tuple[float, int]] = [(time.monotonic(), done)]
        self.last = 0.0

    def __call__(self, n: int) -> None:
        self.done += n
        now = time.monotonic()
        if n > 0 and now - self.last < 0.1 and self.done < self.total:
            return
        self.last = now
        self.window = [w for w in self.window if now - w[0] < 5.0] + [(now, self.done)]
        (t0, d0), (t1, d1) = self.window[0], self.window[-1]
        speed = (d1 - d0) / (t1 - t0) if t1 - t0 > 0.5 else 0.0
        self.report(Progress(self.file, self.done, self.total, max(speed, 0.0)))


def _provenance(entry: CatalogueEntry, source: str):
    from translator_app.core.importers.marian import Provenance

    today = datetime.date.today().isoformat()
    return Provenance(
        how=(
            f"Fetched from {source}/{entry.repo} (revision {entry.revision[:10]}) on {today} "
            "with Model → Get models…; every file was checked against its published size "
            "and checksum before the import."
        ),
        origin_lines=(
            f"- {entry.name}: {entry.page}",
            f"- licence: {entry.licence}",
            f"- authors: {entry.attribution}",
            f"- trained on: {entry.trained_on}",
        ),
        score_lines=tuple(
            f"- published: {s.test} {s.bleu:.1f} BLEU ({s.source})" for s in entry.scores
        ),
        origin={
            "catalogue_id": entry.id,
            "source": f"{source}/{entry.repo}",
            "revision": entry.revision,
            "fetched": today,
            "licence": entry.licence,
        },
    )


def _hold(lock: Path) -> bool:
    """Take the download's lock, taking over one a killed process left."""
    for _ in range(2):
        if create_lock(lock):
            return True
        if not stale_lock(lock):
            return False
        lock.unlink(missing_ok=True)
    return False


def _import(entry: CatalogueEntry, folder: Path, source: str) -> Path:
    from translator_app.core.engine.bundle import BundleError
    from translator_app.core.importers.marian import import_marian
    from translator_app.core.importers.marian_common import MarianImportError

    out = free_model_folder(entry.id)
    try:
        return import_marian(folder, out, name=entry.name, provenance=_provenance(entry, source))
    except (MarianImportError, BundleError) as e:
        raise DownloadError(f"The downloaded files could not be imported: {e}.") from None


def get_model(
    entry: CatalogueEntry,
    *,
    on_progress: Callable[[Progress], None] = lambda p: None,
    cancelled: Callable[[], bool] = lambda: False,
    session: requests.Session | None = None,
) -> Path:
    """Download, check and import ``entry``; returns the new bundle's folder. Raises
    DownloadError (one sentence) where anything fails; what arrived stays in the cache
    for the next call to resume, except a file that failed its check."""
    if entry.id in (have := installed_models()):
        raise DownloadError(f"{entry.name} is already installed in {have[entry.id]}.")
    source = source_url()
    folder = staging_dir(entry)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        user_models_dir().mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise DownloadError(f"Cannot write {e.filename or folder}: {e.strerror or e}.") from None
    lock = folder / ".lock"
    if not _hold(lock):
        raise DownloadError(
            f"{entry.name} is already being downloaded (by this or another window)."
        )
    try:
        session = session or new_session()
        files = remote_files(session, entry, source)
        total = sum(f.size for f in files)
        held = sum(_held_bytes(folder / f.name, f.size) for f in files)
        _check_space(folder, total - held + int(total * IMPORT_FACTOR), entry.name)
        meter = _Meter(total, held, on_progress)
        for f in files:
            meter.file = f.name
            fetch(session, f, folder / f.name, on_bytes=meter, cancelled=cancelled)
        on_progress(Progress("", total, total, 0.0, stage="importing"))
        out = _import(entry, folder, source)
        on_progress(Progress("", total, total, 0.0, stage="measuring"))
        record_speed(out)
    finally:
        lock.unlink(missing_ok=True)
    shutil.rmtree(folder, ignore_errors=True)
    return out


# Everyday sentences of several lengths, timed one at a time as the window translates.
SPEED_SENTENCES = (
    "Wir treffen uns morgen um acht Uhr am Bahnhof.",
    "Kannst du mir bitte sagen, wo der nächste Supermarkt ist?",
    "Die Regierung hat gestern neue Gesetze für den Klimaschutz beschlossen.",
    "Ich habe heute leider keine Zeit, weil ich zum Arzt muss.",
    "Das Hotel war sauber, ruhig und nur zehn Minuten vom Strand entfernt.",
)


def timed_translations(translator, sentences, runs: int = 1, **choices) -> tuple[float, int]:
    """(seconds of the fastest of ``runs`` passes, output tokens of a pass) translating
    ``sentences`` one at a time as the window does, after one warm-up that also converts
    the model for CTranslate2; ``choices`` change the model's search (Translator.translate)."""
    translator.translate(list(sentences[:1]), **choices)
    best, tokens = float("inf"), 0
    for _ in range(runs):
        start, tokens = time.perf_counter(), 0
        for sentence in sentences:
            [t] = translator.translate([sentence], **choices)
            tokens += len(t.best.target_ids) if t.best else 0
        best = min(best, time.perf_counter() - start)
    return best, tokens


def measure_speed(bundle: Path) -> dict:
    """Milliseconds per sentence of ``bundle`` on this computer, as the app translates
    (its engine and precision, one sentence at a time, after one warm-up that also
    converts the model for CTranslate2), with the CPU and engine it was measured on."""
    from translator_app.core.api.translator import Translator
    from translator_app.core.platform.hardware import cpu_name

    translator = Translator.load(bundle, device="cpu")
    seconds, _ = timed_translations(translator, SPEED_SENTENCES)
    return {
        "ms_per_sentence": round(1000 * seconds / len(SPEED_SENTENCES), 1),
        "sentences": len(SPEED_SENTENCES),
        "cpu": cpu_name(),
        "threads": os.cpu_count(),
        "engine": translator.engine_name,
        "measured": datetime.date.today().isoformat(),
    }


def record_speed(bundle: Path) -> None:
    """Add ``speed_here`` (:func:`measure_speed`) to the bundle's metrics.json; a model
    that cannot be timed keeps its metrics as they are, and `models list` and the
    Get models dialog then show no speed for it (a translation error would show on load)."""
    from translator_app.core.engine.bundle import BundleError

    path = bundle / "metrics.json"
    try:
        metrics = json.loads(path.read_text("utf-8"))
        metrics["speed_here"] = measure_speed(bundle)
        write_atomic(path, json.dumps(metrics, indent=2) + "\n")
    except (OSError, ValueError, RuntimeError, BundleError):
        return


def speed_text(bundle: Path) -> str:
    """ "120 ms per sentence here (CPU name)", or '' where it was not measured."""
    try:
        speed = json.loads((bundle / "metrics.json").read_text("utf-8"))["speed_here"]
        return f"{speed['ms_per_sentence']:.0f} ms per sentence here ({speed['cpu']})"
    except (OSError, ValueError, KeyError, TypeError):
        return ""


def _held_bytes(dest: Path, size: int) -> int:
    """Bytes of a file already here: the whole file, or a part to resume."""
    for p in (dest, dest.with_name(dest.name + ".part")):
        if p.is_file():
            return min(p.stat().st_size, size)
    return 0


def remove_model(entry: CatalogueEntry) -> list[Path]:
    """Remove what was fetched for ``entry``: its bundle and any unfinished download.
    Returns what went; DownloadError where it is being downloaded now or was not there."""
    gone = []
    folder = staging_dir(entry)
    if (folder / ".lock").exists() and not stale_lock(folder / ".lock"):
        raise DownloadError(f"{entry.name} is being downloaded now; cancel that first.")
    bundle = installed_models().get(entry.id)
    for path in (bundle, folder):
        if path is not None and path.exists():
            shutil.rmtree(path)
            gone.append(path)
    if not gone:
        raise DownloadError(f"{entry.name} is not installed.")
    return gone

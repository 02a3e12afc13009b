"""Running a fine-tune for the app: reading the user's data first, then
``translator-train finetune`` as a separate process (never in the GUI process).

The data are read here, before anything starts, so the user sees what will be used:
pairs kept, pairs dropped and why, and every unreadable file with ``file:line``. The
process reports its progress as JSON lines (``--progress json``); a cancelled or failed
run leaves nothing behind: its work folder and any half-written bundle are removed, and
the bundle folder only ever appears complete (the trainer writes it atomically).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, Signal

from translator_app.core.data.corpus import (
    DataError,
    FilterReport,
    base_suffix,
    filter_pairs,
    partner,
    read_pairs,
)
from translator_app.core.data.corrections import Pair, write_tsv
from translator_app.core.ipc.progress_lines import Done, Note, StepProgress, decode
from translator_app.core.ipc.translation_file import SHOWN_SENTENCES, load_translations
from translator_app.core.platform.paths import claim, safe_name

MIN_PAIRS = 10


def trainer_command() -> list[str]:
    """How to start ``translator-train``: the built app has one executable (``train``
    is its trainer command); from the sources, the trainer package of this Python."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "train"]
    return [sys.executable, "-m", "trainer"]


@dataclass(frozen=True)
class DataPreview:
    """What reading the chosen data gave. ``errors``: ``file:line: problem`` lines."""

    pairs: tuple[Pair, ...]
    read: int
    dropped: tuple[tuple[str, int], ...]
    errors: tuple[str, ...]
    sources: tuple[tuple[str, int], ...]  # (file name or "your corrections", pairs read)

    @property
    def problem(self) -> str:
        """Why training cannot start with these data ('' when it can)."""
        if self.errors:
            return "Fix or remove the files with errors first."
        if len(self.pairs) < MIN_PAIRS:
            return f"At least {MIN_PAIRS} usable pairs are needed; there are {len(self.pairs)}."
        return ""

    def origin(self) -> str:
        """Where the pairs came from, in a model card's words: "bakery.tsv (22 pairs),
        your corrections (3 pairs)"."""
        return ", ".join(f"{name} ({n} pair{'s' if n != 1 else ''})" for name, n in self.sources)

    def summary(self) -> str:
        lines = [f"{name}: {n} pair{'s' if n != 1 else ''} read" for name, n in self.sources]
        lines.append(f"Pairs kept: {len(self.pairs)} of {self.read}")
        lines += [f"  dropped {n}: {why}" for why, n in self.dropped]
        lines += [f"Error: {e}" for e in self.errors]
        return "\n".join(lines)


def preview_data(
    paths: list[str], corrections: list[Pair], typed: list[Pair] | None = None
) -> DataPreview:
    """Read every file (TSV, ``.de`` with its ``.en``, TMX), add the corrections and the
    pairs ``typed`` in the dialog, and filter them as the trainer will. A file with an
    error contributes nothing."""
    given = {Path(p) for p in paths}
    collected: list[Pair] = []
    errors: list[str] = []
    sources: list[tuple[str, int]] = []
    for p in map(Path, paths):
        if base_suffix(p) == ".en" and partner(p, ".de") in given:
            continue  # read with its .de file
        try:
            pairs = [pair for _, pair in read_pairs(p)]
        except DataError as e:
            errors.append(str(e))
            continue
        collected += pairs
        sources.append((p.name, len(pairs)))
    for name, given_pairs in (("your corrections", corrections), ("pairs typed here", typed)):
        if given_pairs:
            collected += given_pairs
            sources.append((name, len(given_pairs)))
    report = FilterReport()
    kept = filter_pairs(collected, report=report)
    return DataPreview(
        pairs=tuple(kept),
        read=report.read,
        dropped=tuple(Counter(report.dropped).most_common()),
        errors=tuple(errors),
        sources=tuple(sources),
    )


HELDOUT_FILE = "heldout-translations.safetensors"


@dataclass(frozen=True)
class FinetuneJob:
    base: str  # the bundle to start from (never written)
    out: Path  # the new bundle; must not exist
    work: Path  # data files, checkpoints: removed after the run
    name: str
    effort: str  # "quick" or "thorough": steps and learning rate follow (trainer/teach_recipe.py)
    device: str
    train_pairs: tuple[Pair, ...]
    heldout_pairs: tuple[Pair, ...]  # the verdict's pairs: scored before and after only
    stop_pairs: tuple[Pair, ...] = ()  # choose the checkpoint (default: part of the data)
    epochs: int = 0  # Advanced: this many epochs instead of the effort's steps
    lr: float = 0.0  # Advanced: this learning rate instead of the effort's
    origin: str = ""  # what the pairs came from, for the model card: "bakery.tsv (22 pairs)"

    def arguments(self) -> list[str]:
        return [
            "finetune",
            "--model", self.base,
            "--data", str(self.work / "train.tsv"),
            *(["--valid", str(self.work / "stop.tsv")] if self.stop_pairs else []),
            "--report", str(self.work / "heldout.tsv"),
            "--out", str(self.out),
            "--name", self.name,
            *(["--data-origin", self.origin] if self.origin else []),
            "--effort", self.effort,
            *(["--epochs", str(self.epochs)] if self.epochs else []),
            *(["--lr", f"{self.lr:g}"] if self.lr else []),
            "--device", self.device,
            "--work-dir", str(self.work / "checkpoints"),
            "--progress", "json",
            "--heldout-out", str(self.work / HELDOUT_FILE),
            "--heldout-count", str(SHOWN_SENTENCES),
        ]  # fmt: skip


class FinetuneProcess(QObject):
    """One ``translator-train finetune`` run. Signals carry plain values:
    ``progress(dict)`` per JSON progress line, ``output(str)`` per other line, and once
    ``finished(ok, text)`` where text is the new bundle's path or what went wrong."""

    progress = Signal(object)  # StepProgress
    output = Signal(str)
    finished = Signal(bool, str)

    def __init__(self, job: FinetuneJob, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.job = job
        self.result: Done | None = None
        # The held-out translations (columns, extra) of translation_file, or why not.
        self.comparison: tuple[dict, dict] | str | None = None
        self.cancelled = False
        self._stdout = b""
        self._stderr: list[str] = []
        self.process = QProcess(self)
        self.process.readyReadStandardOutput.connect(self._read_stdout)
        self.process.readyReadStandardError.connect(self._read_stderr)
        self.process.finished.connect(self._on_finished)
        self.process.errorOccurred.connect(self._on_error)

    def start(self) -> None:
        job = self.job
        if job.out.exists():
            raise FileExistsError(f"{job.out} already exists")
        claim(job.work)  # removed at the next start if the app is killed mid-run
        write_tsv(job.work / "train.tsv", list(job.train_pairs))
        write_tsv(job.work / "heldout.tsv", list(job.heldout_pairs))
        if job.stop_pairs:
            write_tsv(job.work / "stop.tsv", list(job.stop_pairs))
        env = QProcessEnvironment.systemEnvironment()
        env.insert("PYTHONUNBUFFERED", "1")
        env.insert("PYTHONIOENCODING", "utf-8")
        self.process.setProcessEnvironment(env)
        program, *args = trainer_command()
        self.process.start(program, args + job.arguments())

    def cancel(self) -> None:
        """Stop the run; the base model is untouched and nothing of the run is left."""
        if self.process.state() == QProcess.NotRunning:
            return
        self.cancelled = True
        self.process.kill()
        self.process.waitForFinished(10_000)

    def _read_stdout(self) -> None:
        self._stdout += bytes(self.process.readAllStandardOutput())
        *lines, self._stdout = self._stdout.split(b"\n")
        for raw in lines:
            line = raw.decode("utf-8", "replace").rstrip()
            message = decode(line)
            if isinstance(message, Done):
                self.result = message
            elif isinstance(message, Note):
                self.output.emit(message.text)
            elif isinstance(message, StepProgress):
                self.progress.emit(message)
            elif line:
                self.output.emit(line)

    def _read_stderr(self) -> None:
        text = bytes(self.process.readAllStandardError()).decode("utf-8", "replace")
        for line in text.splitlines():
            if line.strip():
                self._stderr = (self._stderr + [line.strip()])[-20:]
                self.output.emit(line.rstrip())

    def _on_error(self, error) -> None:
        if error == QProcess.FailedToStart:
            self._finish(False, f"The trainer could not be started ({self.process.errorString()}).")

    def _on_finished(self, code: int, _status) -> None:
        self._read_stdout()
        if self.cancelled:
            self._finish(False, "Cancelled; the base model is unchanged.")
        elif code == 0 and self.result is not None:
            if self.result.translations:  # read before the work folder goes
                try:
                    self.comparison = load_translations(Path(self.result.translations))
                except ValueError as e:
                    self.comparison = str(e)
            self._finish(True, self.result.bundle)
        else:
            errors = [line for line in self._stderr if line.startswith("error:")]
            why = (errors or self._stderr or [f"exit status {code}"])[-1]
            self._finish(False, f"The fine-tune failed: {why}")

    def _finish(self, ok: bool, text: str) -> None:
        if not ok:
            remove_leftovers(self.job.out)
        shutil.rmtree(self.job.work, ignore_errors=True)
        self.finished.emit(ok, text)


def remove_leftovers(out: Path) -> None:
    """A stopped run's bundle: the finished folder and the trainer's temporary siblings."""
    shutil.rmtree(out, ignore_errors=True)
    if out.parent.is_dir():
        for tmp in out.parent.glob(f".{out.name}.*"):
            if tmp.is_dir() and not tmp.is_symlink():
                shutil.rmtree(tmp, ignore_errors=True)
            else:  # the claim marker (.NAME.claim)
                tmp.unlink(missing_ok=True)


def rename_bundle(path: Path, new_name: str) -> Path:
    """Rename a fine-tuned bundle's folder (its name in the model list)."""
    if not new_name.strip(" ._"):
        raise ValueError("the name is empty")
    clean = safe_name(new_name, keep_spaces=True)
    target = path.with_name(clean)
    if target.exists():
        raise FileExistsError(f"a model named {clean} already exists")
    os.replace(path, target)
    return target

"""A large plain-text file translated as a stream (issue 47, section 4): a block of
paragraphs at a time, each block written to ``.NAME.translator-PID.part`` beside the target as soon
as it is translated and the whole renamed into place at the end, with progress after
every block. Memory holds one block, not the file; an error leaves the user's earlier file.

One writer per target (issue 65 §2): ``.NAME.writing`` beside it holds the writer's
process id; a second translation into the same file is refused while that process runs,
and the files of a writer that was killed are removed when the next one starts.
"""

from __future__ import annotations

import codecs
import errno
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from translator_app.core.engine.text_document import DocumentTranslation
from translator_app.core.platform.paths import (
    OWNERLESS_LOCK_S,
    create_lock,
    file_age,
    pid_alive,
    pid_in,
    temporary_name,
)

BLOCK_PARAGRAPHS = 32  # a block: a few seconds of work on 2 cores, progress between


class NotText(ValueError):
    """The file is not UTF-8 text: the message names it and how far it was read."""


@dataclass(frozen=True)
class DocumentProgress:
    """How far a streamed translation is: paragraphs (lines) done of all, rate, time left."""

    done: int
    total: int
    seconds: float
    unit: str = "paragraphs"  # what is counted: a rich document's sentences
    # how many were done when ``seconds`` began to count: the rate is of those since
    # (a document's first part comes after loading and reading, which say nothing of it)
    since: int = 0

    @property
    def rate(self) -> float:
        return (self.done - self.since) / self.seconds if self.seconds > 0 else 0.0

    def line(self) -> str:
        if not self.rate:  # nothing to reckon with yet
            return f"{self.done:,} of {self.total:,} {self.unit}"
        left = (self.total - self.done) / self.rate
        return (
            f"{self.done:,} of {self.total:,} {self.unit} ({self.rate:.1f}/s, {_clock(left)} left)"
        )


def _clock(seconds: float) -> str:
    s = int(seconds)
    return (
        f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
    )


def _paragraphs(path: Path) -> Iterator[str]:
    """The file's lines (CRLF read as LF, a BOM dropped), decoded as they are read."""
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    pending, read = "", 0
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            try:
                pending += decoder.decode(block)
            except UnicodeDecodeError:
                raise NotText(f"{path}: not UTF-8 text (after line {read})") from None
            *lines, pending = pending.split("\n")
            read += len(lines)
            yield from (line.removesuffix("\r") for line in lines)
    try:
        pending += decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        raise NotText(f"{path}: not UTF-8 text (its last line)") from None
    if pending:
        yield pending.removesuffix("\r")


def count_paragraphs(path: Path) -> int:
    """The number of lines, a last one without a line break included (one pass, bytes)."""
    lines, last = 0, b"\n"
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            lines += block.count(b"\n")
            last = block[-1:]
    return lines + (last != b"\n")


class _BlockWriter:
    """Translates one block of paragraphs at a time into ``out``, counting as it goes."""

    def __init__(self, out, translate_text, on_block, total: int) -> None:
        self.out, self.translate_text, self.on_block = out, translate_text, on_block
        self.total, self.done, self.sentences = total, 0, 0
        self.start = time.monotonic()

    def write(self, block: list[str]) -> None:
        doc = self.translate_text("\n".join(block))
        self.out.write(doc.output + "\n")
        self.out.flush()
        self.done += len(block)
        self.sentences += len(doc.segments)
        elapsed = time.monotonic() - self.start
        self.on_block(doc, DocumentProgress(self.done, max(self.total, self.done), elapsed))


class OutputBusy(OSError):
    """Another running translation writes the same output file."""


def claim_output(target: Path, wait: float = 3.0) -> Path:
    """Make this process the one writer of ``target``: its lock file, which the caller
    removes when done. Raises OutputBusy where a running process holds it; removes the
    lock and partial file of one that is gone (killed) and claims it then.

    The lock is made whole with the writer's id in it (a hard link of a written file,
    which fails where the lock exists), so a second process never sees it empty and
    takes it over: four started at one instant held it together before. A lock that
    names no process a second after it was made (a power cut, a file system without
    links) is a leftover."""
    lock = target.with_name(f".{target.name}.writing")
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if create_lock(lock):
            return lock
        owner = pid_in(lock)
        if owner is not None and owner != os.getpid() and pid_alive(owner):
            raise OutputBusy(
                errno.EBUSY,
                f"another translation (process {owner}) is writing this file; "
                "wait for it to finish or choose another output",
                str(target),
            ) from None
        if owner is None and file_age(lock) < OWNERLESS_LOCK_S:
            time.sleep(0.02)  # being made this instant
            continue
        if owner is not None:
            target.with_name(temporary_name(target.name, "part", owner)).unlink(missing_ok=True)
        lock.unlink(missing_ok=True)
    raise OutputBusy(errno.EBUSY, "could not claim the file: it changes hands", str(target))


def translate_stream(
    source: Path,
    target: Path,
    translate_text: Callable[[str], DocumentTranslation],
    on_block: Callable[[DocumentTranslation, DocumentProgress], None] = lambda doc, progress: None,
    block_paragraphs: int = 0,
) -> int:
    """Translate the UTF-8 text file ``source`` into ``target`` block by block; returns
    the number of sentences. ``on_block`` sees each block's translation and the progress.
    Raises NotText (naming the file and line) and OSError."""
    block_paragraphs = block_paragraphs or BLOCK_PARAGRAPHS
    total = count_paragraphs(source)
    lock = claim_output(target)
    part = target.with_name(temporary_name(target.name, "part"))
    try:
        with _naming(target):
            with open(part, "w", encoding="utf-8", newline="\n") as out:
                writer = _BlockWriter(out, translate_text, on_block, total)
                block: list[str] = []
                for line in _paragraphs(source):
                    block.append(line)
                    if len(block) == block_paragraphs:
                        writer.write(block)
                        block = []
                if block or not total:  # the rest; an empty file is one empty line
                    writer.write(block)
            os.replace(part, target)
    finally:
        part.unlink(missing_ok=True)
        lock.unlink(missing_ok=True)
    return writer.sentences


@contextmanager
def _naming(target: Path) -> Iterator[None]:
    """Name ``target`` in an OSError of writing it that names no file (a full disk:
    ENOSPC has no file name, and the message then named the input)."""
    try:
        yield
    except OSError as e:
        if e.filename or e.errno is None or isinstance(e, OutputBusy):
            raise
        raise OSError(e.errno, e.strerror, str(target)) from e

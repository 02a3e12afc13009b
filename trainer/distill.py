"""Sequence-level distillation data (Kim & Rush 2016; issue 63 §2.3): the German of the
training corpora translated by a larger model (the teacher), written as a corpus the fast
model then trains on beside the original pairs.

    translator-train distill --model TEACHER --data FILE... --out distilled.tsv
        [--beam 4] [--device cuda] [--max-minutes M] [--chunk 4096] [--batch-tokens 16000]

The teacher's own beam search writes the English, with no post-editing step (issue 87):
the student learns the model's translations, and the app post-edits the student's.
Each distinct German sentence of the files is translated once, shortest first (similar
lengths share a batch), and written as ``German<TAB>English`` lines, a chunk at a time,
flushed to disk. A run stopped by its time budget, a kill or Ctrl-C goes on where the file
ends when started again with the same files: the order is fixed by the sentences, and a
line cut short by a kill is dropped. That is what a GPU lease's 10-minute commands need.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from translator_app.core.data.corpus import read_all


def german_sentences(files: list[Path]) -> list[str]:
    """The distinct German sides of ``files`` (stripped, without tabs or line breaks, not
    empty), shortest first; ties keep their first-seen order."""
    seen: dict[str, None] = {}
    for de, _ in read_all(files):
        de = " ".join(de.split())
        if de:
            seen.setdefault(de, None)
    return sorted(seen, key=len)


def done_lines(out: Path, expected: list[str]) -> int:
    """How many of ``expected``'s sentences ``out`` already holds, in order; a last line
    without its line break (a write cut short) is cut off the file. A file that holds
    other sentences is an error, not something to append to."""
    if not out.exists():
        return 0
    data = out.read_bytes()
    whole = data[: data.rfind(b"\n") + 1]
    if len(whole) != len(data):
        with open(out, "r+b") as f:
            f.truncate(len(whole))
    lines = whole.decode("utf-8").splitlines()
    for i, line in enumerate(lines):
        de = line.split("\t", 1)[0]
        if i >= len(expected) or de != expected[i]:
            raise ValueError(
                f"{out}, line {i + 1}: {de[:60]!r} is not the sentence this run translates "
                "there; give the same --data as the run that wrote it, or another --out"
            )
    return len(lines)


def distill(
    translator,
    sentences: list[str],
    out: Path,
    *,
    beam: int,
    chunk: int,
    batch_tokens: int,
    max_minutes: float,
    log=print,
) -> int:
    """Translate ``sentences`` after those ``out`` holds into ``out``; returns how many it
    holds at the end. Stops after the first chunk that ends past ``max_minutes`` (0: no
    limit), so every run writes at least one chunk."""
    start = time.perf_counter()
    done = done_lines(out, sentences)
    if done:
        log(f"{out} holds {done} of {len(sentences)} sentences; going on from there")
    budget = max_minutes * 60 if max_minutes > 0 else float("inf")
    with open(out, "a", encoding="utf-8", newline="\n") as f:
        while done < len(sentences):
            some = sentences[done : done + chunk]
            english = translator.translate(
                some, beam=beam, nbest=1, batch_tokens=batch_tokens, steps="none"
            )
            f.writelines(
                f"{de}\t{' '.join(t.text.split())}\n" for de, t in zip(some, english, strict=True)
            )
            f.flush()
            os.fsync(f.fileno())
            done += len(some)
            rate = done / max(1e-9, time.perf_counter() - start)
            log(f"{done}/{len(sentences)} sentences ({rate:.0f}/s in this run)")
            if time.perf_counter() - start >= budget:
                break
    return done


def cmd_distill(args) -> int:
    from translator_app.core import Translator

    if args.chunk < 1 or args.beam < 1:
        raise ValueError("--chunk and --beam must be at least 1")
    sentences = german_sentences(args.data)
    if not sentences:
        raise ValueError("no German sentences in " + ", ".join(map(str, args.data)))
    translator = Translator.load(args.model, args.device, args.precision)
    print(f"teacher: {args.model} ({translator.engine_name}); {len(sentences)} sentences")
    done = distill(
        translator,
        sentences,
        args.out,
        beam=args.beam,
        chunk=args.chunk,
        batch_tokens=args.batch_tokens,
        max_minutes=args.max_minutes,
    )
    left = len(sentences) - done
    print(f"{args.out}: {done} sentences" + (f"; {left} left: run again to go on" if left else ""))
    return 0

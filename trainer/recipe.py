"""A recipe: the stages of one model in order, each a config that changes the one before.

    translator-train recipe recipes/de-en-base                 # list the stages
    translator-train recipe recipes/de-en-base --show 11       # one stage's whole config
    translator-train recipe recipes/de-en-base --run 11        # train and export stage 11
    translator-train recipe recipes/de-en-base --from 9        # stages 9, 10, 11 ...
    translator-train recipe recipes/de-en-base --run 11 --dry-run   # the commands only

A stage is a file ``NN-what-it-does.toml`` whose ``base`` names the stage before it (or a
shared base), so it states only what it changes (trainer/config.py: read_config_chain).
Its ``[stage]`` table says how it starts and what becomes its bundle:

    [stage]
    summary = "one line: what this stage does and why"
    start = "scratch" | "previous" | "previous:average-N"   # the previous stage's bundle,
                                                            # or the mean of its last N
    export = "best" | "last" | "average-N" | "step-N"       # which weights become the bundle
    fp16 = true                                             # bundle weights in half precision
    protect = "retry"                                       # the bundle's search setting
    coverage_penalty = 0.3                                  # its beam search's coverage
                                                            # penalty (GNMT's beta)

Stages are sized in steps, not minutes, so a rerun on another machine trains the same
model. A stage whose run folder holds a checkpoint resumes; one whose bundle
(``<out_dir>/bundle``) exists is done and skipped.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from trainer.config import load_config, read_config_chain
from translator_app.core.limits import PROTECT_MODES, check_search
from translator_app.core.models.config import ConfigError

_STAGE_FILE = re.compile(r"^(\d{2})-[a-z0-9-]+\.toml$")
_START = re.compile(r"^(scratch|previous|previous:average-[1-9]\d*)$")
_EXPORT = re.compile(r"^(best|last|average-[1-9]\d*|step-[1-9]\d*)$")


@dataclass(frozen=True)
class Stage:
    number: int
    path: Path
    summary: str
    start: str
    export: str
    fp16: bool
    protect: str | None
    coverage_penalty: float | None
    out_dir: Path
    steps: int

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def bundle(self) -> Path:
        return self.out_dir / "bundle"

    @property
    def done(self) -> bool:
        return (self.bundle / "config.json").is_file()


def _stage(path: Path) -> Stage:
    raw = read_config_chain(path)
    table = raw.get("stage")
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: has no [stage] table (summary, start, export)")
    keys = {"summary", "start", "export", "fp16", "protect", "coverage_penalty"}
    unknown = sorted(set(table) - keys)
    if unknown:
        raise ConfigError(f"{path}: [stage] has unknown keys {', '.join(unknown)}")
    start, export = str(table.get("start", "previous")), str(table.get("export", "best"))
    if not _START.match(start):
        raise ConfigError(
            f"{path}: [stage] start={start!r}: scratch, previous or previous:average-N"
        )
    if not _EXPORT.match(export):
        raise ConfigError(f"{path}: [stage] export={export!r}: best, last, average-N or step-N")
    protect = table.get("protect")
    if protect is not None and protect not in PROTECT_MODES:
        raise ConfigError(f"{path}: [stage] protect must be one of {', '.join(PROTECT_MODES)}")
    coverage = table.get("coverage_penalty")
    if coverage is not None:
        if isinstance(coverage, bool) or not isinstance(coverage, int | float):
            raise ConfigError(f"{path}: [stage] coverage_penalty must be a number")
        check_search(coverage_penalty=coverage)
    cfg = load_config(path)
    return Stage(
        number=int(path.name[:2]),
        path=path,
        summary=str(table.get("summary", "")),
        start=start,
        export=export,
        fp16=bool(table.get("fp16", False)),
        protect=protect,
        coverage_penalty=coverage,
        out_dir=Path(cfg.train.out_dir),
        steps=cfg.train.steps,
    )


def stages(folder: Path) -> list[Stage]:
    """The recipe's stages, in order (files named NN-what-it-does.toml)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ConfigError(f"{folder}: is not a recipe folder")
    found = sorted(p for p in folder.iterdir() if _STAGE_FILE.match(p.name))
    if not found:
        raise ConfigError(f"{folder}: holds no stage files (NN-what-it-does.toml)")
    out = [_stage(p) for p in found]
    numbers = [s.number for s in out]
    if len(set(numbers)) != len(numbers):
        raise ConfigError(f"{folder}: two stage files share a number")
    return out


def _tool(*args: str) -> list[str]:
    return [sys.executable, "-m", "trainer", *args]


def _average(run: Path, last: str, out: Path) -> list[str]:
    """The mean of the last ``last`` snapshots of ``run``, as a checkpoint at ``out``."""
    return _tool("average", str(run / "checkpoints"), "--last", last, "--out", str(out))


def stage_commands(
    stage: Stage, previous: Stage | None, init: Path | None = None
) -> list[list[str]]:
    """The commands that train and export ``stage`` (resuming where its run stopped);
    ``init`` replaces the previous stage's bundle as the start."""
    cmds: list[list[str]] = []
    checkpoint = stage.out_dir / "checkpoints" / "last.pt"
    if checkpoint.is_file():
        cmds.append(_tool("train", str(stage.path), "--resume"))
    elif stage.start == "scratch":
        cmds.append(_tool("train", str(stage.path)))
    else:
        if init is None:
            if previous is None:
                raise ConfigError(
                    f"{stage.name} starts from the stage before it, and there is none: "
                    "pass --init BUNDLE"
                )
            init = previous.bundle
            if stage.start.startswith("previous:average-"):
                n = stage.start.split("-")[-1]
                mean = previous.out_dir / f"average-{n}.pt"
                init = previous.out_dir / f"average-{n}-bundle"
                cmds.append(_average(previous.out_dir, n, mean))
                cmds.append(_tool("export", str(mean), "--out", str(init), "--overwrite"))
            elif not previous.done:
                raise ConfigError(
                    f"{stage.name} starts from {previous.name}'s bundle ({previous.bundle}), "
                    "which is missing: run that stage first, or pass --init BUNDLE (the "
                    "committed resources/model is the recipe's last exported stage)"
                )
        cmds.append(_tool("train", str(stage.path), "--init", str(init)))
    if stage.export.startswith("average-"):
        weights = stage.out_dir / f"{stage.export}.pt"
        cmds.append(_average(stage.out_dir, stage.export.split("-")[-1], weights))
    else:
        weights = stage.out_dir / "checkpoints" / f"{stage.export}.pt"
    # The bundle is named after its recipe (de-en-base, de-en-rnn): the app shows it.
    name = stage.path.parent.name
    export = _tool(
        "export", str(weights), "--out", str(stage.bundle), "--overwrite", "--name", name
    )
    if stage.fp16:
        export.append("--fp16")
    if stage.protect:
        export += ["--protect", stage.protect]
    if stage.coverage_penalty is not None:
        export += ["--coverage-penalty", str(stage.coverage_penalty)]
    cmds.append(export)
    return cmds


def _execute(cmd: list[str]) -> None:
    done = subprocess.run(cmd)
    if done.returncode:
        raise ValueError(
            f"translator-train {cmd[3]} stopped with exit status {done.returncode}; the same "
            "recipe command resumes"
        )


def describe_stages(all_stages: Sequence[Stage]) -> str:
    lines = []
    for s in all_stages:
        state = "done" if s.done else ("started" if (s.out_dir / "checkpoints").is_dir() else "")
        lines.append(f"{s.name:<32} {s.steps:>6} steps  {state:<7}  {s.summary}")
    return "\n".join(lines)


def run_recipe(
    folder: Path,
    *,
    run: int | None = None,
    start_from: int | None = None,
    init: Path | None = None,
    dry_run: bool = False,
    execute: Callable[[list[str]], None] | None = None,
    out=print,
) -> int:
    """Run one stage (``run``) or every stage from ``start_from`` on; skip those done."""
    all_stages = stages(folder)
    by_number = {s.number: s for s in all_stages}
    first = run if run is not None else start_from
    if first not in by_number:
        raise ConfigError(f"{folder}: has no stage {first:02d}; stages: {sorted(by_number)}")
    chosen = [s for s in all_stages if s.number == first or (run is None and s.number > first)]
    execute = execute or _execute
    for k, stage in enumerate(chosen):
        if stage.done:
            out(f"{stage.name}: done ({stage.bundle})")
            continue
        index = all_stages.index(stage)
        previous = all_stages[index - 1] if index else None
        cmds = stage_commands(stage, previous, init if k == 0 else None)
        out(f"{stage.name}: {stage.summary}")
        for cmd in cmds:
            out("  translator-train " + " ".join(cmd[3:]))
            if not dry_run:
                execute(cmd)
    return 0


def show(folder: Path, number: int) -> str:
    """A stage's whole config, its base chain applied, as JSON."""
    for s in stages(folder):
        if s.number == number:
            return json.dumps(read_config_chain(s.path), indent=2, ensure_ascii=False)
    raise ConfigError(f"{folder}: has no stage {number:02d}")

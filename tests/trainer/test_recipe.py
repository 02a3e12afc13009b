"""The base model's recipe: stages in order, each changing the one before (issue 34)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trainer.cli import main as train_main
from trainer.config import load_config
from trainer.recipe import run_recipe, stages
from translator_app.core.models.config import ConfigError

ROOT = Path(__file__).parents[2]
RECIPE = ROOT / "recipes" / "de-en-base"


def test_the_base_recipe_lists_its_stages_in_order():
    found = stages(RECIPE)
    assert [s.number for s in found] == list(range(1, len(found) + 1))
    assert found[0].start == "scratch"
    assert all(s.start.startswith("previous") for s in found[1:])
    assert all(s.summary for s in found)
    # Each stage file states only what it changes: far shorter than a whole config.
    for s in found[1:]:
        text = s.path.read_text("utf-8")
        assert text.startswith("#") and 'base = "' in text and len(text.splitlines()) < 45
    last = load_config(found[-1].path)
    assert (last.model.enc_layers, last.model.dec_layers) == (6, 4)
    assert last.data.facts_share == 1.0
    # Issue 46: the register corpora are in the mix, weighted.
    weights = {Path(f).name: r for f, r in zip(last.data.train, last.data.repeat, strict=True)}
    assert weights["ding-phrases.tsv.xz"] >= 1 and weights["gettext.tsv.xz"] >= 1
    assert last.train.max_minutes == 0  # sized in steps, not minutes
    # The model card's history points at the stage files.
    history = json.loads((ROOT / "docs" / "base-model" / "history.json").read_text("utf-8"))
    for stage in history["stages"]:
        assert (ROOT / stage["config"]).is_file(), stage["config"]


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, "utf-8")
    return path


STAGE_01 = """
[stage]
summary = "from scratch"
start = "scratch"
[model]
arch = "transformer"
d_model = 32
enc_layers = 2
[data]
train = ["a.tsv", "b.tsv"]
repeat = [1, 1]
valid = "valid.tsv"
[train]
out_dir = "runs/one"
steps = 10
lr = 1e-3
"""


def test_a_stage_changes_only_what_it_names(tmp_path):
    _write(tmp_path, "01-start.toml", STAGE_01)
    sub = tmp_path / "more"
    sub.mkdir()
    two = _write(
        sub,
        "02-more.toml",
        'base = "../01-start.toml"\n[model]\nenc_layers = 4\n[data]\nrepeat = [3, 1]\n'
        '[train]\nout_dir = "runs/two"\n',
    )
    cfg = load_config(two)
    assert cfg.model.enc_layers == 4 and cfg.model.d_model == 32  # tables merge by key
    assert list(cfg.data.repeat) == [3, 1]  # lists replace
    assert cfg.train.lr == 1e-3 and cfg.train.steps == 10
    # Each path is resolved against the file that sets it.
    assert Path(cfg.data.train[0]) == (tmp_path / "a.tsv").resolve()
    assert Path(cfg.train.out_dir) == (sub / "runs" / "two").resolve()
    # A chain that comes back to itself is refused, naming the file.
    loop = _write(tmp_path, "03-loop.toml", 'base = "04-loop.toml"\n')
    _write(tmp_path, "04-loop.toml", 'base = "03-loop.toml"\n')
    with pytest.raises(ConfigError, match="comes back to itself"):
        load_config(loop)


def _recipe(tmp_path: Path) -> Path:
    folder = tmp_path / "recipe"
    folder.mkdir()
    _write(folder, "01-start.toml", STAGE_01)
    _write(
        folder,
        "02-grow.toml",
        'base = "01-start.toml"\n[stage]\nsummary = "grow"\nstart = "previous"\n'
        'export = "average-2"\nfp16 = true\nprotect = "always"\ncoverage_penalty = 0.3\n'
        '[model]\nenc_layers = 4\n[train]\nout_dir = "runs/two"\n',
    )
    _write(
        folder,
        "03-cool.toml",
        'base = "02-grow.toml"\n[stage]\nsummary = "cool"\nstart = "previous:average-3"\n'
        'export = "best"\n[train]\nout_dir = "runs/three"\n',
    )
    return folder


def _run(folder: Path, **kwargs) -> list[list[str]]:
    ran: list[list[str]] = []
    run_recipe(folder, execute=ran.append, out=lambda *_: None, **kwargs)
    return [cmd[3:] for cmd in ran]  # without "python -m trainer"


def test_run_trains_exports_resumes_and_skips(tmp_path):
    folder = _recipe(tmp_path)
    runs = folder / "runs"
    one = _run(folder, run=1)
    assert one == [
        ["train", str(folder / "01-start.toml")],
        [
            "export",
            str(runs / "one/checkpoints/best.pt"),
            "--out",
            str(runs / "one/bundle"),
            "--overwrite",
            "--name",
            folder.name,  # the bundle is named after its recipe
        ],
    ]
    # Stage 2 starts from stage 1's bundle, which is missing: a clear error, or --init.
    with pytest.raises(ConfigError, match="01-start's bundle .* missing"):
        _run(folder, run=2)
    two = _run(folder, run=2, init=Path("resources/model"))
    assert two[0] == ["train", str(folder / "02-grow.toml"), "--init", "resources/model"]
    assert two[1] == [
        "average",
        str(runs / "two/checkpoints"),
        "--last",
        "2",
        "--out",
        str(runs / "two/average-2.pt"),
    ]
    assert two[2][-5:] == ["--fp16", "--protect", "always", "--coverage-penalty", "0.3"]
    # Stage 1 done (its bundle exists), stage 2 stopped midway: --from 1 skips the first,
    # resumes the second, and starts the third from the mean of the second's snapshots.
    (runs / "one/bundle").mkdir(parents=True)
    (runs / "one/bundle/config.json").write_text("{}")
    (runs / "two/checkpoints").mkdir(parents=True)
    (runs / "two/checkpoints/last.pt").write_bytes(b"")
    cmds = _run(folder, start_from=1)
    assert cmds[0] == ["train", str(folder / "02-grow.toml"), "--resume"]
    third = [c for c in cmds if str(folder / "03-cool.toml") in c][0]
    assert third[-2:] == ["--init", str(runs / "two/average-3-bundle")]
    assert [
        "average",
        str(runs / "two/checkpoints"),
        "--last",
        "3",
        "--out",
        str(runs / "two/average-3.pt"),
    ] in cmds


def test_a_stage_exports_the_snapshot_of_a_named_step(tmp_path):
    folder = _recipe(tmp_path)
    _write(
        folder,
        "04-pick.toml",
        'base = "03-cool.toml"\n[stage]\nsummary = "pick"\nexport = "step-1250"\n'
        '[train]\nout_dir = "runs/four"\n',
    )
    cmds = _run(folder, run=4, init=Path("resources/model"))
    runs = folder / "runs"
    assert cmds[-1][:4] == [
        "export",
        str(runs / "four/checkpoints/step-1250.pt"),
        "--out",
        str(runs / "four/bundle"),
    ]


def test_bad_stages_are_refused_by_name(tmp_path, capsys):
    folder = _recipe(tmp_path)
    _write(folder, "04-bad.toml", 'base = "03-cool.toml"\n[stage]\nstart = "yesterday"\n')
    with pytest.raises(ConfigError, match="04-bad.toml.*start='yesterday'"):
        stages(folder)
    _write(folder, "04-bad.toml", 'base = "03-cool.toml"\n[stage]\nexport = "step-x"\n')
    with pytest.raises(ConfigError, match="04-bad.toml.*step-N"):
        stages(folder)
    (folder / "04-bad.toml").unlink()
    assert train_main(["recipe", str(folder)]) == 0
    listing = capsys.readouterr().out
    assert listing.index("01-start") < listing.index("02-grow") < listing.index("03-cool")
    assert train_main(["recipe", str(folder), "--run", "7"]) != 0
    assert "has no stage 07" in capsys.readouterr().err

"""Dependencies flow one way: gui -> core <- trainer. The engine (translator_app/core)
imports neither the app nor the trainer nor Qt; the app reaches the trainer only as a
separate process; the trainer never imports the app's GUI or Qt. Read from the source
(every import statement, also those inside functions), so that it cannot drift.

Inside the engine, rooms (sub-packages) are layered: a module imports its own room and
the rooms of lower layers only, and no modules import each other in a circle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    found = set()
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the file's package
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            elif node.module:
                module = node.module
            else:
                continue
            found.add(module)
            # ``from package import module`` imports the module, not only the package:
            # recorded as such, a circle through it is seen (bundle <-> bundle_torch was not).
            found.update(
                f"{module}.{a.name}" for a in node.names if is_module(f"{module}.{a.name}")
            )
    return found


def is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


RULES = [
    ("translator_app/core", ("translator_app.gui", "trainer", "PySide6", "matplotlib")),
    ("translator_app/gui", ("trainer",)),
    ("translator_app/cli.py", ("trainer", "PySide6")),
    # The trainer depends on the engine only; matplotlib (Agg) plots eval reports.
    ("trainer", ("translator_app.gui", "translator_app.cli", "PySide6")),
]


@pytest.mark.parametrize("where, forbidden", RULES, ids=[r[0] for r in RULES])
def test_imports_flow_one_way(where, forbidden):
    target = ROOT / where
    files = [target] if target.is_file() else sorted(target.rglob("*.py"))
    assert files
    bad = [
        f"{f.relative_to(ROOT)} imports {m}"
        for f in files
        for m in sorted(imported_modules(f))
        if any(m == x or m.startswith(x + ".") for x in forbidden)
    ]
    assert not bad, "\n".join(bad)


# translator_app/core's rooms, lowest layer first. Rooms of one layer do not import each
# other; a module may import its own room and every lower layer.
CORE_LAYERS = (
    ("limits",),
    ("platform", "cli_common"),
    ("text", "models", "data"),
    ("language",),
    ("dictionary",),
    ("values",),
    ("faithful",),
    ("engine",),
    ("postedit",),
    ("api",),
    ("importers", "ipc", "documents"),
    ("downloads",),
)
CORE = ROOT / "translator_app" / "core"


def core_room(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if parts[:2] == ["translator_app", "core"] and len(parts) > 2 else None


def core_imports() -> dict[str, set[str]]:
    """Each core module (dotted) -> the core modules it imports."""
    graph = {}
    for f in sorted(CORE.rglob("*.py")):
        if f.name == "__init__.py":
            continue
        name = ".".join(f.relative_to(ROOT).with_suffix("").parts)
        graph[name] = {m for m in imported_modules(f) if core_room(m)}
    return graph


def test_every_core_module_lives_in_a_layered_room():
    layer_of = {room: i for i, rooms in enumerate(CORE_LAYERS) for room in rooms}
    graph = core_imports()
    unknown = sorted({core_room(m) for m in graph} - set(layer_of))
    assert not unknown, f"rooms missing from CORE_LAYERS: {unknown}"
    bad = [
        f"{m} imports {d}"
        for m, deps in graph.items()
        for d in sorted(deps)
        if core_room(d) != core_room(m) and layer_of[core_room(d)] >= layer_of[core_room(m)]
    ]
    assert not bad, "\n".join(bad)


def test_no_import_cycles_in_the_core():
    graph = core_imports()
    state: dict[str, str] = {}
    cycles = []

    def visit(m: str, path: list[str]) -> None:
        state[m] = "open"
        for d in sorted(graph.get(m, ())):
            if d not in graph:  # a package (its __init__) or a name, not a module
                continue
            if state.get(d) == "open":
                cycles.append(" -> ".join(path[path.index(d) :] + [d]))
            elif d not in state:
                visit(d, path + [d])
        state[m] = "done"

    for m in graph:
        if m not in state:
            visit(m, [m])
    assert not cycles, "\n".join(cycles)


def test_the_engine_and_trainer_install_without_the_gui_extra():
    """PySide6 and matplotlib are the [gui] extra: the base dependencies must not need
    them, and the trainer's eval runs without matplotlib (no plot)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    base = " ".join(project["dependencies"]).lower()
    assert "pyside6" not in base and "matplotlib" not in base
    gui = " ".join(project["optional-dependencies"]["gui"]).lower()
    assert "pyside6" in gui and "matplotlib" in gui


def test_eval_report_without_matplotlib(tmp_path, monkeypatch):
    import builtins

    from trainer.evaluate import write_report

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.split(".")[0] == "matplotlib":
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    report = {"test": "x.tsv", "models": {}}
    assert write_report(report, tmp_path / "r.json", tmp_path / "r.png") is False
    assert (tmp_path / "r.json").is_file() and not (tmp_path / "r.png").exists()


@pytest.mark.subprocess
def test_the_window_shows_before_pytorch_loads():
    """Importing the window (and the worker) must not import PyTorch: it takes 1-2 s on
    a 2-core machine, which the worker thread spends behind the shown window."""
    import os
    import subprocess
    import sys

    code = (
        "import sys; import translator_app.gui.window.app, translator_app.gui.window.window; "
        "print(sorted(m for m in ('torch', 'ctranslate2') if m in sys.modules))"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


# translator_app/gui's rooms (issue 62 §2), its folders, lowest first: a module may
# import its own room and the rooms below it, never one above (the window assembles the
# views, the dialogs and Teach; they never reach back into it).
GUI_ROOMS = ("shared", "translating", "views", "dialogs", "teach", "window")


def test_every_gui_module_lives_in_a_layered_room():
    gui = ROOT / "translator_app" / "gui"
    loose = sorted(f.name for f in gui.glob("*.py") if f.name != "__init__.py")
    assert not loose, f"gui modules outside a room: {loose}"
    rooms = sorted(d.name for d in gui.iterdir() if (d / "__init__.py").is_file())
    assert sorted(GUI_ROOMS) == rooms, f"name the rooms in GUI_ROOMS: {rooms}"
    layer = {room: i for i, room in enumerate(GUI_ROOMS)}
    bad = []
    for f in sorted(gui.glob("*/*.py")):
        room = f.parent.name
        for module in imported_modules(f):
            parts = module.split(".")
            inside = parts[:2] == ["translator_app", "gui"] and len(parts) > 2
            if inside and parts[2] in layer and layer[parts[2]] > layer[room]:
                bad.append(f"{room}/{f.name} imports {module} (a room above)")
    assert not bad, "\n".join(bad)

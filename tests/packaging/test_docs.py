"""The docs say what the code and the measurements say (issue 50 §5): the tables that can
be generated are, and these tests fail where a doc was left behind."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generated_tables_match_the_code():
    """docs/architecture.md's layers (CORE_LAYERS of the boundary test) and
    docs/engine.md's format limits (every MAX_* outside limits.py)."""
    stale = _script("doc_tables").stale_docs(write=False)
    assert not stale, f"run: python scripts/doc_tables.py ({', '.join(stale)})"


def test_a_new_limit_or_room_makes_the_docs_stale(tmp_path, monkeypatch):
    """The check can fail: a limit added beside its reader, or a room without a line."""
    tables = _script("doc_tables")
    limits = tables.limits_table()
    monkeypatch.setattr(tables, "format_limits", lambda: [("x.py", "MAX_NEW", "1")])
    assert tables.limits_table() != limits
    monkeypatch.setattr(tables, "ROOMS", {k: v for k, v in tables.ROOMS.items() if k != "ipc"})
    with pytest.raises(SystemExit, match="ipc"):
        tables.layers_table()


def test_readme_figures_are_the_bundles_measurements(tmp_path):
    """README's figures block and first screen, as scripts/readme_figures.py writes them
    from the bundle's metrics.json: a hand-typed figure would differ."""
    figures = _script("readme_figures")
    readme = tmp_path / "README.md"
    shutil.copy(ROOT / "README.md", readme)
    assert figures.main(["--readme", str(readme)]) == 0
    assert readme.read_text("utf-8") == (ROOT / "README.md").read_text("utf-8"), (
        "run: python scripts/readme_figures.py"
    )
    metrics = json.loads((ROOT / "resources" / "model" / "metrics.json").read_text("utf-8"))
    first = next(iter(metrics["test_sets"].values()))["greedy"]["bleu"]
    assert f"{first:.1f}" in readme.read_text("utf-8")


def window_parts_in_docs() -> dict[str, str]:
    """docs/architecture.md's table of the window's parts: class -> module path."""
    text = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    section = text.split("## The window's parts", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|") for line in section.splitlines() if line.startswith("| `")]
    return {r[1].strip().strip("`"): r[2].strip().strip("`") for r in rows}


def window_parts_in_code() -> set[str]:
    """The classes MainWindow builds and keeps (``self.x = SomeClass(...)``)."""
    import ast

    tree = ast.parse((ROOT / "translator_app" / "gui" / "window" / "window.py").read_text("utf-8"))
    return {
        node.value.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id[0].isupper()
        and any(isinstance(t, ast.Attribute) for t in node.targets)
    }


def test_the_window_parts_table_names_every_part_where_it_lives():
    documented = window_parts_in_docs()
    for name, module in documented.items():
        source = (ROOT / "translator_app" / module).read_text("utf-8")
        assert f"class {name}(" in source or f"class {name}:" in source, (name, module)
    widgets = {"QTimer", "QDockWidget", "QLabel", "QPlainTextEdit", "QPushButton"}
    widgets |= {"QSplitter", "QProgressBar", "QWidget", "AlignmentPanel", "NoticeBar"}
    stores = {"History", "CorrectionsStore", "WindowCommands"}
    missing = window_parts_in_code() - widgets - stores - set(documented)
    assert not missing, f"docs/architecture.md's window parts lack {sorted(missing)}"


# Paths a doc names in backticks, from the repository's top folders (and gui/, core/ as
# the docs write them inside translator_app/).
_DOC_PATH = re.compile(r"`([^`\s]+)`")
_TOP = (
    "translator_app/", "trainer/", "tests/", "scripts/", "bench/", "packaging/", "recipes/",
    "resources/", "docs/", "configs/", "testsets/", "gui/", "core/",
)  # fmt: skip


def missing_paths(text: str) -> list[str]:
    """The repository paths named in ``text`` that do not exist (a trailing ``.name``
    after a module, as in `trainer/allocator.bound_native_caches`, names the module)."""
    missing = []
    for m in _DOC_PATH.finditer(text):
        path = m.group(1).split("::")[0].split(":")[0].rstrip(".,")
        if not path.startswith(_TOP) or any(c in path for c in "*<>{}$"):
            continue
        module = re.sub(r"\.[A-Za-z_]\w*$", ".py", path)
        options = [path, module, f"translator_app/{path}", f"translator_app/{module}"]
        if not any((ROOT / p).exists() for p in options):
            missing.append(path)
    return missing


def test_every_path_the_docs_name_exists():
    """A moved or renamed module leaves no stale path in README or docs/ (issue 62 §5:
    engine.md named core/ct2.py a room move after it had gone)."""
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    stale = {d.name: p for d in docs if (p := missing_paths(d.read_text("utf-8")))}
    assert not stale
    assert missing_paths("in `translator_app/core/ct2.py` and `gui/words.py`") == [
        "translator_app/core/ct2.py",
        "gui/words.py",
    ]


def test_readme_names_every_room_of_the_core():
    row = next(line for line in (ROOT / "README.md").read_text("utf-8").splitlines()
               if line.startswith("| `translator_app/core/` |"))  # fmt: skip
    rooms = sorted(p.name for p in (ROOT / "translator_app" / "core").iterdir()
                   if (p / "__init__.py").is_file())  # fmt: skip
    assert rooms and [r for r in rooms if f"`{r}/`" not in row] == []


def test_the_readme_api_example_runs_and_gives_words_and_attention():
    """README's "The engine's API" example, run as it stands in a fresh process with the
    bundled model (issue 62 §4): it prints the English, the German and English words and
    an [English words, German words] attention."""
    import subprocess
    import sys
    from ast import literal_eval

    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme[readme.index("## The engine's API") :]
    start = section.index("```python\n") + 10
    code = section[start : section.index("\n```", start)]
    assert len(code.strip().splitlines()) <= 6  # the example stays small
    shown = code.replace("print(", "print(repr(words.attention.shape),", 1)
    done = subprocess.run(
        [sys.executable, "-c", shown], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    shape, english, german, english_words = done.stdout.splitlines()[:4]
    assert "Schneider" in german and "Mai" in german and "<term>" not in german
    assert "May" in english and "Schneider" in english_words
    assert shape == repr((len(literal_eval(english_words)), len(literal_eval(german))))

"""Files end where a concept ends (issue 87), not where a line count does: the layering
of rooms (test_import_boundaries.py) says which concepts may use which; this says that
a concept is not spread over files. A module's private names (a leading underscore) are
the inside of its concept: no other module imports them; a module that needs one holds
a concept split in two, or the name is part of the concept's contract and is public.
Every module opens with its contract, a docstring (a ``__main__`` that only runs a
``main`` is the entry point its package's docstring describes).

Read from the source (ast), so that the rules cannot drift from what is on disk.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("translator_app", "trainer", "scripts", "bench", "packaging")


def python_files() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py"))


def private_imports(path: Path) -> list[str]:
    """``path``'s imports of another module's private names, as "module: name"."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{node.module}: {alias.name}")
    return found


def test_no_module_imports_the_private_names_of_another():
    reached = {
        p.relative_to(ROOT).as_posix(): names
        for p in python_files()
        if (names := private_imports(p))
    }
    assert not reached, f"private names imported across modules: {reached}"


def test_every_module_opens_with_its_contract():
    bare = [
        p.relative_to(ROOT).as_posix()
        for p in python_files()
        if p.read_text("utf-8").strip()
        and p.name != "__main__.py"
        and not ast.get_docstring(ast.parse(p.read_text("utf-8")))
    ]
    assert not bare, f"modules without a docstring: {bare}"


def test_the_check_sees_a_private_name_imported(tmp_path, monkeypatch):
    """The check itself: an import of ``_helper`` is found, of ``helper`` or ``__all__``
    not."""
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    (tmp_path / "m.py").write_text(
        '"""M."""\nfrom a.b import helper, _helper\nfrom a import __all__\n'
    )
    assert private_imports(tmp_path / "m.py") == ["a.b: _helper"]

"""The tui package's floors: `present` (Rich only) under both `app` (Textual) and `cli`
(plain commands), and one door from `cli` into `app` (`cli/launch.py`, lazily).

Read from the source (every import statement, at any depth), and checked once in a
fresh interpreter: importing every plain command and the presentation layer loads
no Textual.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

TUI = Path(__file__).resolve().parents[2] / "tui"
# What the presentation layer may import besides the standard library.
PRESENT_MAY = ("hooktui.tap", "hooktui.replay", "hooktui.tui.present", "rich", "msgspec")
LAUNCH = TUI / "cli" / "launch.py"


def _modules(folder: str) -> list[Path]:
    return sorted((TUI / folder).rglob("*.py"))


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(module imported, at module level) for every import in the file."""
    tree = ast.parse(path.read_text(), str(path))
    top = set()
    for node in tree.body:
        if isinstance(node, ast.If):  # `if TYPE_CHECKING:` imports count as top level
            top.update(id(n) for n in node.body)
        top.add(id(node))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
            found += [(name, id(node) in top) for name in [node.module, *names]]
    return found


def _has(module: str, name: str) -> bool:
    """`from module import name` works: a name in it, or a submodule of it."""
    if hasattr(importlib.import_module(module), name):
        return True
    try:
        return importlib.util.find_spec(f"{module}.{name}") is not None
    except ModuleNotFoundError:  # not a package
        return False


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


@pytest.mark.parametrize("path", _modules("present"), ids=lambda p: p.name)
def test_the_presentation_layer_imports_only_rich_and_the_core(path: Path) -> None:
    for name, _ in _imports(path):
        root = name.split(".")[0]
        if root in sys.stdlib_module_names or root == "__future__":
            continue
        assert any(_under(name, allowed) for allowed in PRESENT_MAY), (path.name, name)


@pytest.mark.parametrize("path", _modules("app"), ids=lambda p: str(p.relative_to(TUI)))
def test_the_apps_never_import_the_plain_commands(path: Path) -> None:
    for name, _ in _imports(path):
        assert not _under(name, "hooktui.tui.cli"), (path.name, name)


@pytest.mark.parametrize("path", _modules("cli"), ids=lambda p: p.name)
def test_the_plain_commands_reach_the_apps_only_through_launch(path: Path) -> None:
    for name, top in _imports(path):
        assert not _under(name, "textual"), (path.name, name)
        if _under(name, "hooktui.tui.app"):
            assert path == LAUNCH and not top, (path.name, name)


@pytest.mark.parametrize("path", sorted(TUI.rglob("*.py")), ids=lambda p: str(p.relative_to(TUI)))
def test_every_hooktui_name_imported_exists(path: Path) -> None:
    """Imports inside functions too (they run only when a command needs them): a module
    or a name that moved is found here, not by a user's `hooktui replay --merge`."""
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            module, names = node.module, [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            module, names = "", [alias.name for alias in node.names]
        else:
            continue
        for name in [module] if module else names:
            if _under(name, "hooktui"):
                assert importlib.util.find_spec(name) is not None, (path.name, name)
        if module and _under(module, "hooktui"):  # each name: a submodule, or in the module
            for name in names:
                assert _has(module, name), (path.name, module, name)


def test_the_plain_commands_and_the_presentation_layer_load_no_textual() -> None:
    names = [
        ".".join(("hooktui", "tui", *p.relative_to(TUI).with_suffix("").parts))
        for p in [*_modules("cli"), *_modules("present")]
        if p.stem != "__init__"
    ]
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"

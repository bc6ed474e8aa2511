"""No class of the dashboard (tui/) is over the method cap: a class past it is a part waiting to be cut out.

(Issue 23: `WatchApp` plus 8 mixins had 105 methods on one `self`.) Counted as
the `def`s in a class's own body, properties and handlers included; a mixin
would dodge the count, so a class docstring saying what it is mixed into (or what
"the app has") fails too: a part names its dependencies instead.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("tui",)
CAP = 30
MIXIN_SAYINGS = ("mixed into", "the app has", "the screen has")


def _classes():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    yield path.relative_to(ROOT), node


def _methods(node: ast.ClassDef) -> int:
    return sum(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) for n in node.body)


def test_the_packages_have_classes_to_count() -> None:
    counts = {f"{path}:{node.name}": _methods(node) for path, node in _classes()}
    # The count is of real classes: the big ones are seen (a broken walk would pass).
    assert counts["tui/app/watch_screen.py:WatchScreen"] > 20
    assert len(counts) > 100


def test_no_class_is_over_the_method_cap() -> None:
    over = [
        f"{path}:{node.lineno} {node.name} has {n} methods"
        for path, node in _classes()
        if (n := _methods(node)) > CAP
    ]
    assert not over, f"over {CAP} methods (cut a part out, not a mixin):\n" + "\n".join(over)


def test_no_class_is_mixed_into_another() -> None:
    mixed = [
        f"{path}:{node.lineno} {node.name}"
        for path, node in _classes()
        if any(said in (ast.get_docstring(node) or "").lower() for said in MIXIN_SAYINGS)
    ]
    assert not mixed, "mixins (give the part its own state, name its dependencies):\n" + "\n".join(
        mixed
    )

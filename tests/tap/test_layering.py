"""Every part of the tap stands on a floor, and imports only what is below it.

The floors, bottom first, are written down once (FLOORS); a module of `tap/`
belongs to its sub-package (`tap/record/x.py` is `record`) or, at the top of
`tap/`, is a part of its own (`model`). A part imports parts on lower floors
only: never one on its own floor, never one above it, so no cycle between parts
can form. Every import counts, those inside functions too (the tap defers many
to keep its hot path light: deferred, they still tie one part to another).

Around the tap: `tap` <- `replay` <- `tui` (DESIGN.md), and nothing in `tap/`
imports textual, rich or watchfiles.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TAP = REPO / "tap"

# Bottom first. A new part goes on the lowest floor that holds everything it imports.
FLOORS: tuple[tuple[str, ...], ...] = (
    # the contract's words and the leaves: they import nothing of the tap
    ("canonical", "version", "command", "base", "guards"),
    # one adapter per runtime, and the registry
    ("runtimes",),
    # the record: it opens older records with their runtime's parser
    ("model",),
    # writing a record; reading streams (reader, tailer, filters, view model)
    ("record", "read"),
    # hook calls grouped into tool calls, combined by each runtime's rule
    ("toolcall",),
    # http hooks as commands; breakpoints (the tap's side and the dashboard's)
    ("httphook", "hold"),
    # what `hooktui tap` runs on every call, handing the record to the recorder
    ("hotpath",),
    # the settings editor: wraps hooks in the tap and http hooks in httphook
    ("install",),
    # every configured hook as its runtime reads it (settings read as install does), and
    # `try`'s dry runs through the tap
    ("inventory",),
)
# The top-level packages, bottom first: each imports only those before it.
PRODUCT = ("tap", "replay", "tui")
UI_LIBRARIES = ("textual", "rich", "watchfiles")


def floor_of() -> dict[str, int]:
    return {part: level for level, parts in enumerate(FLOORS) for part in parts}


def module_of(path: Path) -> str:
    """`hooktui.tap.record.recorder` for tap/record/recorder.py (a package: its name)."""
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["hooktui", *parts])


def imports(path: Path) -> set[str]:
    """Every module `path` imports, wherever in it: `from a import b` gives a.b and a."""
    tree = ast.parse(path.read_text(), str(path))
    package = module_of(path) if path.name == "__init__.py" else module_of(path).rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def part_of(module: str) -> str | None:
    """The tap part a module belongs to (`record`, `model`), None outside `hooktui.tap.`."""
    parts = module.split(".")
    if parts[:2] != ["hooktui", "tap"] or len(parts) < 3:
        return None
    return parts[2]


def tap_parts() -> set[str]:
    """What `tap/` holds: its sub-packages and its top-level modules."""
    parts = {p.name for p in TAP.iterdir() if (p / "__init__.py").is_file()}
    return parts | {p.stem for p in TAP.glob("*.py") if p.stem != "__init__"}


def part_edges() -> dict[tuple[str, str], list[str]]:
    """(importer, imported) -> where, for each import from one tap part into another."""
    edges: dict[tuple[str, str], list[str]] = {}
    known = tap_parts()
    for path in sorted(TAP.rglob("*.py")):
        here = part_of(module_of(path))
        for module in imports(path):
            there = part_of(module)
            if there in known and here is not None and there != here:
                edges.setdefault((here, there), []).append(str(path.relative_to(REPO)))
    return edges


def cycles(edges) -> list[list[str]]:
    """Each cycle of the part graph once, as the parts along it."""
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
    found, seen = [], set()

    def walk(node: str, path: list[str]) -> None:
        for nxt in sorted(graph.get(node, ())):
            if nxt == path[0]:
                key = frozenset(path)
                if key not in seen:
                    seen.add(key)
                    found.append([*path, nxt])
            elif nxt not in path and nxt > path[0]:  # each cycle from its smallest part
                walk(nxt, [*path, nxt])

    for start in sorted(graph):
        walk(start, [start])
    return found


def upward(edges) -> list[str]:
    floors = floor_of()
    return [
        f"{a} (floor {floors[a]}) imports {b} (floor {floors[b]}): {', '.join(sorted(set(where)))}"
        for (a, b), where in sorted(edges.items())
        if floors[b] >= floors[a]
    ]


def test_every_part_of_the_tap_is_on_exactly_one_floor():
    listed = [part for parts in FLOORS for part in parts]
    assert len(listed) == len(set(listed)), "a part is on two floors"
    assert set(listed) == tap_parts(), (
        "put each new part of tap/ on a floor (FLOORS), and take gone ones off"
    )


def test_no_cycle_between_parts_of_the_tap():
    assert cycles(part_edges()) == []


def test_each_part_imports_only_parts_below_it():
    assert upward(part_edges()) == []


def test_the_checks_themselves_catch_a_cycle_and_an_upward_import():
    edges = {("hotpath", "hold"): ["a"], ("hold", "hotpath"): ["b"], ("base", "model"): ["c"]}
    assert cycles(edges) == [["hold", "hotpath", "hold"]]
    found = upward(edges)
    assert len(found) == 2 and found[0].startswith("base (floor 0) imports model (floor 2)")
    assert found[1].startswith("hold (floor 5) imports hotpath (floor 6)")
    assert imports(Path(__file__)) >= {"ast", "pathlib", "pathlib.Path", "pytest"}


@pytest.mark.parametrize("top", PRODUCT)
def test_the_top_level_packages_import_only_those_below_them(top):
    above = PRODUCT[PRODUCT.index(top) :]
    bad = sorted(
        f"{path.relative_to(REPO)}: {module}"
        for path in (REPO / top).rglob("*.py")
        for module in imports(path)
        if module.split(".")[:2] in [["hooktui", name] for name in above if name != top]
    )
    assert bad == []


def test_the_tap_imports_no_ui_library():
    bad = sorted(
        f"{path.relative_to(REPO)}: {module}"
        for path in TAP.rglob("*.py")
        for module in imports(path)
        if module.split(".")[0] in UI_LIBRARIES
    )
    assert bad == []

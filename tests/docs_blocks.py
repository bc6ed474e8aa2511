"""The blocks of README.md and docs/*.md that are made from the code they describe.

Each block sits between an opening `<!-- NAME: ... -->` line and `<!-- /NAME -->`;
tests/test_docs.py fails when one is not what its maker makes today.

    python -m tests.docs_blocks          # rewrite every block (and the verdict table)
    python -m tests.docs_blocks --check  # exit 1, naming each stale block

The verdict-agreement table (docs/verdict-agreement.md) has its own maker,
`python -m tests.e2e.agreement`, run by this one too; the screenshot
(docs/watch.svg) is rewritten by `pytest tests/tui/test_readme_screenshot.py
--snapshot-update`.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from hooktui.tap.read import effects, filter_terms
from hooktui.tap.runtimes import registry

from tests.guarantee import docs as guarantee
from tests.tap.test_layering import FLOORS, PRODUCT

ROOT = Path(__file__).resolve().parents[1]


def runtimes_table() -> str:
    """The runtimes `hooktui install` knows, in the registry's order: where their hooks live."""
    rows = [
        "| runtime | `hooktui install` | wraps | project settings | user settings (`--user`) |",
        "|---|---|---|---|---|",
    ]
    for name in registry.installable():
        runtime = registry.ADAPTERS[name]
        layout = runtime.settings
        assert layout is not None  # installable() holds only runtimes with settings
        wraps = "command and http hooks" if layout.http else "command hooks"
        if layout.hook_files is not None:
            wraps = "hook files (one per event)"
        elif layout.runner:
            wraps = "command hooks, run by hooktui's plugin"
        project = ", ".join(f"`{f}`" for f in layout.project_files)
        home = "/".join(part for part in ("~", layout.user_dir) if part)
        user = ", ".join(
            f"`{home}/{f}`"
            + (f" (`${layout.user_file_env[f]}` when set)" if f in layout.user_file_env else "")
            for f in layout.user_files
        )
        if layout.user_dir_env:
            moved = "/".join(p for p in (f"${layout.user_dir_env}", layout.user_dir_env_child) if p)
            user += f" (or under `{moved}`)"
        rows.append(f"| {runtime.title} | `{name}` | {wraps} | {project} | {user} |")
    return "\n".join(rows)


def role(path: Path) -> str:
    """The first paragraph of a module's docstring, on one line: what it is for."""
    doc = ast.get_docstring(ast.parse(path.read_text())) or ""
    summary = " ".join(doc.split("\n\n")[0].split())
    assert summary, f"{path.relative_to(ROOT)}: say its role in a docstring"
    return summary.replace("|", "\\|")


def _packages(folder: Path) -> list[Path]:
    """`folder` and every package below it, each followed by its own."""
    below = sorted(p.parent for p in folder.glob("*/__init__.py"))
    return [folder, *(q for p in below for q in _packages(p))]


def layout_table() -> str:
    """Every package (and each top-level module of the tap, a part of its own), what it
    is for (its docstring), and the tap's floors (tests/tap/test_layering.py)."""
    rows = ["| folder | installed as | floor | role |", "|---|---|---|---|"]

    def row(path: Path, floor: str) -> None:
        rel = path.relative_to(ROOT)
        name = ".".join(["hooktui", *rel.with_suffix("").parts])
        shown = f"`{rel.as_posix()}{'/' if path.is_dir() else ''}`"
        source = path / "__init__.py" if path.is_dir() else path
        rows.append(f"| {shown} | `{name}` | {floor} | {role(source)} |")

    tap = ROOT / "tap"
    row(tap, "")
    for level, parts in enumerate(FLOORS):
        for part in parts:
            module = tap / f"{part}.py"
            if module.is_file():
                row(module, str(level))
            else:
                for package in _packages(tap / part):
                    row(package, str(level))
    for top in PRODUCT[1:]:
        for package in _packages(ROOT / top):
            row(package, "")
    return "\n".join(rows)


def merge_table() -> str:
    """Each runtime's rule for several hooks on one call, from its descriptor."""
    rows = ["| runtime | how its hooks on one call run and combine | from |", "|---|---|---|"]
    for name in registry.RUNTIMES:
        rule = registry.ADAPTERS[name].merge
        text = rule.summary().replace("|", "\\|")
        rows.append(f"| {registry.ADAPTERS[name].title} | {text} | {rule.basis or '–'} |")
    return "\n".join(rows)


def sources_table() -> str:
    """Where each runtime reads hooks from, in its order, from its descriptor."""
    rows = ["| runtime | its hook sources, in the order it reads them |", "|---|---|"]
    for name in registry.RUNTIMES:
        runtime = registry.ADAPTERS[name]
        if not runtime.hook_sources:
            rows.append(f"| {runtime.title} | none: {runtime.sources_note} |")
            continue
        parts = []
        for source in runtime.hook_sources:
            base = {"project": "", "user": f"~/{runtime.settings.user_dir}/", "home": "~/", "/": ""}
            where = f"`{base.get(source.base, '')}{source.path}`"
            if source.layout:
                where += f" ({registry.ADAPTERS[source.layout].title}'s format)"
            if source.base == "home" and source.path in runtime.settings.user_file_env:
                where += f" (`${runtime.settings.user_file_env[source.path]}` when set)"
            parts.append(f"{source.scope} {where}")
        rows.append(f"| {runtime.title} | {'; '.join(parts)} |")
    return "\n".join(rows)


class Block(NamedTuple):
    path: str  # relative to the repository's root
    name: str  # the marker's name
    make: Callable[[], str]


BLOCKS = (
    Block("README.md", "runtimes", runtimes_table),
    Block("docs/records.md", "answer-effects", effects.readme_block),
    Block("docs/filter.md", "filter-terms", filter_terms.readme_block),
    Block("docs/guarantee.md", "guarantee-matrix", guarantee.table),
    Block("README.md", "guarantee", guarantee.readme_paragraph),
    Block("docs/layout.md", "layout", layout_table),
    Block("docs/toolcalls.md", "merge-rules", merge_table),
    Block("docs/toolcalls.md", "hook-sources", sources_table),
)


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"(<!-- {re.escape(name)}:[^\n]*-->\n)(.*?)(\n<!-- /{re.escape(name)} -->)", re.S
    )


def current(block: Block) -> str:
    """The block's text as the file holds it (AssertionError when its markers are gone)."""
    m = _pattern(block.name).search((ROOT / block.path).read_text())
    assert m, f"{block.path} lost its {block.name} markers"
    return m.group(2)


def spliced(block: Block, text: str) -> str:
    """`text` with the block between its markers made afresh."""
    return _pattern(block.name).sub(lambda m: m.group(1) + block.make() + m.group(3), text, count=1)


def main(argv: list[str]) -> int:
    from tests.e2e import agreement

    stale = [f"{b.path}: {b.name}" for b in BLOCKS if current(b) != b.make()]
    if "--check" in argv:
        if agreement.main(["--check"]):
            stale.append("docs/verdict-agreement.md: verdict-agreement")
        for line in stale:
            print(f"stale: {line} (python -m tests.docs_blocks)")
        return 1 if stale else 0
    for block in BLOCKS:
        path = ROOT / block.path
        path.write_text(spliced(block, path.read_text()))
    return agreement.main([])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

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

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from hooktui.tap.read import effects, filter_terms
from hooktui.tap.runtimes import registry

from tests.guarantee import docs as guarantee

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
        project = ", ".join(f"`{f}`" for f in layout.project_files)
        user = ", ".join(f"`~/{layout.user_dir}/{f}`" for f in layout.user_files)
        if layout.user_dir_env:
            user += f" (or under `${layout.user_dir_env}`)"
        rows.append(f"| {runtime.title} | `{name}` | {wraps} | {project} | {user} |")
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

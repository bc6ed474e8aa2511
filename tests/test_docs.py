"""The README stays a front page and the docs stay whole: generated blocks fresh,
every relative link and anchor pointing at something that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests import docs_blocks

ROOT = docs_blocks.ROOT
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("block", docs_blocks.BLOCKS, ids=lambda b: f"{b.path}:{b.name}")
def test_generated_block_is_fresh(block: docs_blocks.Block) -> None:
    assert docs_blocks.current(block) == block.make(), "stale: python -m tests.docs_blocks"


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub makes of a page's headings (lower case, punctuation dropped)."""
    heads = re.findall(r"^#+ (.+)$", page.read_text(), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve(page: Path) -> None:
    broken = []
    for target in LINK.findall(page.read_text()):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists() or (anchor and anchor not in _anchors(dest)):
            broken.append(target)
    assert not broken, f"{page.name}: links to nothing: {broken}"


def test_readme_is_a_front_page() -> None:
    # Reference text belongs in docs/ (a few lines in the README at most).
    lines = (ROOT / "README.md").read_text().count("\n")
    assert lines <= 320, f"README.md has {lines} lines: move reference text into docs/"

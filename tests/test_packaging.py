"""What `pip install .` installs is the whole tree: every package under tap/, replay/
and tui/ is in pyproject's list.

setuptools cannot discover packages through the `package-dir` mapping that puts
the three folders under `hooktui` (its finder names them `tap.*`), so the list
is kept by hand and checked here; an editable install would not notice a
missing entry, a wheel would lack the package.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_every_package_of_the_tree_is_listed_in_pyproject():
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {folder: name for name, folder in setuptools["package-dir"].items()}
    found = {
        ".".join([folders[top], *init.parent.relative_to(REPO / top).parts])
        for top in folders
        for init in (REPO / top).rglob("__init__.py")
        if "__snapshots__" not in init.parts
    }
    assert sorted(found) == sorted(setuptools["packages"])

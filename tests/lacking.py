"""Running hooktui in an environment that lacks some packages, for real.

The environment is this venv's site-packages less the named distributions: a folder
of links to every other entry, read by a Python started without `site` (`-I -S`), so
the missing packages are simply not there to import (no stub, no patched import)."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

RUN = (
    "import site, sys; site.addsitedir(sys.argv[1]); "
    "from hooktui.tui.cli.main import main; sys.exit(main(sys.argv[2:]))"
)


def _top(name: str) -> str:
    """`distributed-2026.11.0.dist-info` -> `distributed`; `duckdb` -> `duckdb`."""
    return name.split("-")[0].split(".")[0].lower()


def site_without(where: Path, missing: set[str]) -> Path:
    site = Path(sysconfig.get_paths()["purelib"])
    folder = where / "site"
    folder.mkdir(exist_ok=True)
    for entry in site.iterdir():
        if _top(entry.name) not in missing:
            (folder / entry.name).symlink_to(entry)
    return folder


def run_without(
    where: Path, missing: set[str], *args: str, timeout: float = 120, cwd: Path | None = None
) -> subprocess.CompletedProcess:
    """`hooktui ARGS` where the `missing` packages are not installed."""
    site = site_without(where, missing)
    return subprocess.run(
        [sys.executable, "-I", "-S", "-c", RUN, str(site), *args],
        capture_output=True,
        text=True,
        cwd=cwd or where,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )


def importable(where: Path, module: str) -> bool:
    """Can `module` be imported in the environment `site_without` made in `where`?"""
    code = f"import site, sys; site.addsitedir(sys.argv[1]); import {module}"
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, str(where / "site")],
        capture_output=True,
        timeout=60,
    )
    return proc.returncode == 0

"""Where a runtime's hook sources are on this machine: each `HookSource` of its
descriptor, resolved against a project folder, HOME and the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from hooktui.tap.install.files import user_file, user_folder
from hooktui.tap.runtimes.descriptor import Runtime
from hooktui.tap.runtimes.merge import HookSource


def user_dir(runtime: Runtime, environ: Mapping[str, str]) -> Path:
    if runtime.settings is None:
        return Path(environ.get("HOME") or os.path.expanduser("~"))
    return user_folder(runtime.settings, environ)


def base_of(
    runtime: Runtime,
    source: HookSource,
    project: Path,
    environ: Mapping[str, str],
    root: Path = Path("/"),
) -> Path:
    if source.base == "project":
        return project
    if source.base == "user":
        return user_dir(runtime, environ)
    if source.base == "home":
        return Path(environ.get("HOME") or os.path.expanduser("~"))
    return root


def paths_of(
    runtime: Runtime,
    source: HookSource,
    project: Path,
    environ: Mapping[str, str],
    root: Path = Path("/"),
) -> list[Path]:
    """The files this source names here: its glob's matches in order, or the one path
    it names (which may not exist: the inventory says so). `root` stands for `/` (a
    test's system folders)."""
    if source.env and environ.get(source.env):
        return [Path(environ[source.env])]
    base = base_of(runtime, source, project, environ, root)
    pattern = source.path.lstrip("/") if source.base == "/" else source.path
    if "*" not in pattern:
        return [_moved(runtime, base / pattern, project, environ)]
    found = sorted(p for p in base.glob(pattern) if p.is_file())
    return found or [base / pattern]


def _moved(runtime: Runtime, path: Path, project: Path, environ: Mapping[str, str]) -> Path:
    """A user file a variable of its own moves (`Layout.user_file_env`): where it is now."""
    layout = runtime.settings
    if layout is None or not layout.user_file_env:
        return path
    home = user_folder(layout, environ)
    for name in layout.user_file_env:
        if path == home / name:
            return user_file(layout, name, environ, project)
    return path

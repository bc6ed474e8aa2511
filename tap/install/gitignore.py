"""A backup git must ignore when git ignores the file it is a backup of.

A runtime's per-person settings file is kept out of git: it holds what one
person allows and exports (tokens among them). Its backup, written beside it as
`<name>.hooktui-backup`, holds the same bytes under a name no ignore rule
covers, so `git add .` would take it. When git ignores the
original, the backup's own path goes into the repository's `info/exclude`
(local to the clone, never committed, never shared). Best effort: without git,
or outside a repository, there is nothing to keep it out of.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

_SPECIAL = "\\*?[!# "  # characters a gitignore pattern reads as syntax


def keep_out_of_git(original: Path, backup: Path) -> str | None:
    """Exclude `backup` when git ignores `original` and not it; the message to show."""
    where = str(original.parent)
    if _git(where, "check-ignore", "-q", "--", original.name) is None:
        return None  # not ignored, not a repository, or no git
    if _git(where, "check-ignore", "-q", "--", backup.name) is not None:
        return None  # already ignored
    top = _git(where, "rev-parse", "--show-toplevel")
    exclude = _git(where, "rev-parse", "--git-path", "info/exclude")
    if not top or not exclude:
        return None
    exclude_path = Path(where, exclude)
    rel = os.path.relpath(os.path.realpath(backup), os.path.realpath(top))
    line = "/" + "".join("\\" + c if c in _SPECIAL else c for c in rel.replace(os.sep, "/"))
    try:
        exclude_path.parent.mkdir(parents=True, exist_ok=True)
        old = exclude_path.read_bytes() if exclude_path.exists() else b""
        sep = b"" if not old or old.endswith(b"\n") else b"\n"
        with open(exclude_path, "ab") as f:
            f.write(sep + line.encode("utf-8", "surrogateescape") + b"\n")
    except OSError:
        return None
    return f"git ignores {original.name}: its backup is excluded too ({exclude_path})"


def _git(cwd: str, *args: str) -> str | None:
    """git's stdout when it exits 0, else None (git missing, not a repository, no match)."""
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "surrogateescape").strip()

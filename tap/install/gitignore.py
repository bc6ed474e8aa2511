"""Settings files and git: a backup git never takes, a shared file said to be shared.

Install writes a backup beside the file it edits, `<name>.hooktui-backup`,
under a name no ignore rule covers, so `git add .` would take it: the team's
file with this machine's state, or a per-person file's tokens. Its own path
goes into the repository's `info/exclude` instead: local to this clone, never
committed or shared, and no tracked file (a `.gitignore`) changes for it. The
backup stays beside its original, where uninstall and the user look for it.
Best effort: without git, or outside a repository, there is nothing to keep
it out of.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

_SPECIAL = "\\*?[!# "  # characters a gitignore pattern reads as syntax


def keep_out_of_git(original: Path, backup: Path) -> str | None:
    """Exclude `backup` from its repository unless git ignores it already; what to say."""
    where = str(original.parent)
    if _git(where, "rev-parse", "--is-inside-work-tree") != "true":
        return None  # not a repository, or no git
    if _git(where, "check-ignore", "-q", "--", backup.name) is not None:
        return None  # already ignored
    top = _git(where, "rev-parse", "--show-toplevel")
    exclude = _git(where, "rev-parse", "--git-path", "info/exclude")
    if not top or not exclude:
        return None
    exclude_path = Path(os.path.realpath(Path(where, exclude)))
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
    return f"the backup is kept out of git (a line in {exclude_path}, this clone's alone)"


def tracked(path: Path) -> bool:
    """Is `path` in git's index: a file everyone with the repository shares?"""
    found = _git(str(path.parent), "ls-files", "--error-unmatch", "--", path.name)
    return found is not None


def _git(cwd: str, *args: str) -> str | None:
    """git's stdout when it exits 0, else None (git missing, not a repository, no match)."""
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "surrogateescape").strip()


def shared_warning(path: Path, runtime: str, twins: dict[str, str], hooktui: str) -> list[str]:
    """Lines to say before wrapping a file git tracks, offering the per-person file."""
    if not tracked(path):
        return []
    lines = [
        f"warning: {path} is tracked by git, a file your team shares: wrapping writes this "
        f"machine's paths ({hooktui}) into it; do not commit it (`hooktui uninstall "
        f"{runtime}` restores it byte for byte)"
    ]
    twin = twins.get(path.name)
    if twin and not tracked(path.with_name(twin)):
        local = path.with_name(twin)
        lines.append(
            f"  hooks for you alone belong in {local} (read as well, never tracked): move "
            f"them there and run `hooktui install {runtime} --settings {local}`"
        )
    else:
        lines.append(
            f"  hooks for you alone belong in your user-wide settings: `hooktui install "
            f"{runtime} --user`"
        )
    return lines

"""Settings files: where a runtime keeps them, reading one as its runtime does, writing safely.

The kind of a file (JSON, JSON with comments, TOML) is the runtime's fact,
never the extension's: Claude Code reads JSON whatever the file is called.
"""

from __future__ import annotations

import json
import os
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hooktui.tap.install.jsonedit import json_view
from hooktui.tap.runtimes.descriptor import Layout

BACKUP_SUFFIX = ".hooktui-backup"


class InstallError(Exception):
    """A problem the user must fix; `code` is the exit status to use."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Settings:
    path: Path
    kind: str  # "json" | "toml"
    raw: bytes
    text: str
    data: Any
    comments: bool = False  # JSON with // and /* */ comments (the runtime strips them)


# ------------------------------------------------------------------ where they live


def _git_top(start: Path) -> Path | None:
    for d in (start, *start.parents):
        if (d / ".git").exists():
            return d
    return None


def user_folder(layout: Layout, environ: Mapping[str, str]) -> Path:
    """The runtime's user folder: `user_dir` under HOME, or where its variable moves it."""
    home = Path(environ.get("HOME") or os.path.expanduser("~"))
    moved = environ.get(layout.user_dir_env) if layout.user_dir_env else None
    if moved and layout.user_dir_env_child:
        return (
            Path(moved, layout.user_dir_env_child)
            if moved.startswith("/")
            else home / layout.user_dir
        )
    return Path(moved) if moved else home / layout.user_dir


def user_file(
    layout: Layout, name: str, environ: Mapping[str, str], cwd: Path | None = None
) -> Path:
    """Where the user file `name` (of `user_files`) is: under the user folder, or where
    its own variable moves it (`user_file_env`)."""
    variable, _, child = layout.user_file_env.get(name, "").partition("/")
    moved = environ.get(variable, "").strip() if variable else ""
    if not moved:
        return user_folder(layout, environ) / name
    return (Path.cwd() if cwd is None else cwd) / moved / child  # an absolute `moved` wins


def candidate_groups(
    layout: Layout, *, user: bool = False, cwd: Path | None = None, environ: dict | None = None
) -> list[list[Path]]:
    """Where the runtime's settings may live: one group of files per folder, nearest first."""
    env = os.environ if environ is None else environ
    here = Path.cwd() if cwd is None else cwd
    if user:
        base = user_folder(layout, env)
        return [
            [p for name in layout.user_files for p in _user_matching(layout, base, name, env, here)]
        ]
    roots = [here]
    top = _git_top(here)
    if top is not None and top != here:
        roots.append(top)
    return [[p for rel in layout.project_files for p in _matching(root, rel)] for root in roots]


def _user_matching(
    layout: Layout, base: Path, name: str, environ: Mapping[str, str], cwd: Path
) -> list[Path]:
    if name in layout.user_file_env:
        return [user_file(layout, name, environ, cwd)]
    return _matching(base, name)


def _matching(base: Path, rel: str) -> list[Path]:
    """`base / rel`; a pattern (`hooks/*.json`: a runtime reading every such file) gives
    the files it matches, or itself when none does (named in "looked for")."""
    if "*" not in rel:
        return [base / rel]
    return sorted(base.glob(rel)) or [base / rel]


def kind_of(layout: Layout, path: Path) -> str | None:
    """The kind the runtime reads this file as, when its name decides it."""
    name = path.name.removesuffix(BACKUP_SUFFIX)
    if name in layout.file_formats:
        return layout.file_formats[name]
    return layout.formats[0] if len(layout.formats) == 1 else None


# ------------------------------------------------------------------ reading


def _parse(kind: str, text: str, comments: bool) -> Any:
    if kind == "toml":
        return tomllib.loads(text)
    return json.loads(json_view(text, comments))


def load_settings(path: Path, layout: Layout) -> Settings:
    """Read and parse as the runtime would; InstallError(code 2) when it cannot."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InstallError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InstallError(f"{path}: not valid UTF-8; left untouched") from None
    known = kind_of(layout, path)
    kinds = (known,) if known else layout.formats
    problems = []
    for kind in kinds:
        comments = layout.comments and kind == "json"
        try:
            data = _parse(kind, text, comments)
        except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
            problems.append(f"not valid {kind.upper()} ({exc})")
            continue
        except RecursionError:
            raise InstallError(
                f"{path}: nested too deeply to read; left untouched", code=2
            ) from None
        if not isinstance(data, dict):
            raise InstallError(
                f"{path}: expected a {kind.upper()} object at the top; left untouched"
            )
        return Settings(path, kind, raw, text, data, comments)
    raise InstallError(f"{path}: {'; '.join(problems)}; left untouched")


# ------------------------------------------------------------------ writing


def write_atomic(
    path: Path,
    data: bytes,
    like: os.stat_result | None = None,
    *,
    follow: bool = True,
    expect: bytes | None = None,
) -> None:
    """Temp file beside `path`, fsync, rename over it: a reader sees old or new, never half.

    The new file gets the mode and, when we may give it, the owner of `like`
    (or of the file it replaces): root editing a user's settings leaves them the user's.
    `follow=False` replaces a symbolic link at `path` instead of writing where it
    points (a backup: a link planted there must not aim our write at another file).
    With `expect`, the file must still hold those bytes just before the rename: a
    program (the runtime) that wrote it meanwhile would otherwise lose its write.
    """
    target = Path(os.path.realpath(path)) if follow else Path(os.path.abspath(path))
    if like is None:
        try:
            like = target.stat()
        except FileNotFoundError:
            like = None
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            # The new file's own owner, not ours: a setgid folder gives it the folder's
            # group, which a mode like 0640 would let read the user's settings.
            made = os.fstat(f.fileno())
            if like is not None and (like.st_uid, like.st_gid) != (made.st_uid, made.st_gid):
                try:
                    os.fchown(f.fileno(), like.st_uid, like.st_gid)
                except PermissionError:
                    pass  # not root: the file stays ours, as any editor would leave it
            os.fchmod(f.fileno(), like.st_mode & 0o7777 if like else 0o644)
            os.fsync(f.fileno())
        if expect is not None and _current(target) != expect:
            raise InstallError(
                f"{path}: changed while hooktui was editing it (another program wrote it); "
                "left as that program wrote it: run the command again",
                code=1,
            )
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    try:  # the rename itself durable; a folder we may write but not read stays unsynced
        dfd = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def _current(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def file_stat(path: Path) -> os.stat_result:
    return os.stat(os.path.realpath(path))

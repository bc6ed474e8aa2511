"""The programs `watch_open_scale.py` opens streams with: hooktui watch, lnav, Toolong.

Each viewer is a command line for a file plus how it was found. A tool that is
missing is skipped with one line saying how to get it: lnav is the Debian
package `lnav` (`apt-get install lnav`); Toolong (PyPI `toolong`, command `tl`)
pins an old Textual, so it gets a venv of its own, made on demand under a cache
directory with the ordinary `pip` client.

How each shows the newest record first, with no key pressed (checked at 160x45):
- `hooktui watch FILE` follows the stream and selects the newest call.
- lnav opens a file it does not know as a log format in its TEXT view, at the
  bottom (its status line reads 100%); run with a private HOME so the user's
  configuration and saved sessions play no part.
- Toolong opens a single file in TAIL mode, scrolled to the end.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "hooktui-bench"


@dataclass(frozen=True)
class Viewer:
    name: str
    argv: list[str]  # the stream's path is appended
    env: dict[str, str]  # set for this viewer only (through env(1), which execs it)
    family: str  # "hooktui", "lnav" or "toolong"

    def command(self, path: Path) -> list[str]:
        pre = ["env", *(f"{k}={v}" for k, v in self.env.items())] if self.env else []
        return [*pre, *self.argv, str(path)]


def hooktui_viewers(specs: list[str]) -> list[Viewer]:
    """`LABEL=PATH` (or a bare PATH) per --hooktui; default: the hooktui beside this Python."""
    if not specs:
        specs = [f"hooktui={Path(sys.executable).with_name('hooktui')}"]
    viewers = []
    for spec in specs:
        name, _, path = spec.rpartition("=")
        name = name or "hooktui"
        if not os.access(path, os.X_OK):
            raise SystemExit(f"--hooktui {spec}: {path} is not an executable hooktui")
        viewers.append(Viewer(name, [path, "watch"], {}, "hooktui"))
    return viewers


def lnav_viewer(home: Path) -> Viewer | str:
    found = shutil.which("lnav")
    if not found:
        return "lnav: not installed, skipped (Debian/Ubuntu: apt-get install lnav)"
    home.mkdir(parents=True, exist_ok=True)
    return Viewer("lnav", [found], {"HOME": str(home)}, "lnav")


def toolong_viewer(given: str | None, install: bool) -> Viewer | str:
    tl = Path(given) if given else CACHE / "toolong-venv" / "bin" / "tl"
    if not tl.exists() and not given and install:
        problem = _install_toolong(tl.parent.parent)
        if problem:
            return f"toolong: {problem}, skipped"
    if not os.access(tl, os.X_OK):
        how = "pass --toolong PATH_TO_tl" if given else "run without --no-install"
        return f"toolong: {tl} not found, skipped ({how})"
    return Viewer("toolong", [str(tl)], {}, "toolong")


def _install_toolong(venv: Path) -> str:
    """A venv of Toolong's own (it pins a Textual older than hooktui's)."""
    print(f"toolong: installing into {venv} (once; a cache) ...", flush=True)
    steps = [
        [sys.executable, "-m", "venv", "--clear", str(venv)],
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "toolong"],
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["failed"])[-1]
            return f"could not install ({last})"
    return ""

"""The hostile conditions: what the machine, the project or a dashboard does to a call.

CONDITIONS is the matrix's other table. Each condition prepares the cell before
`install` runs (files in the project, variables, a dashboard), spoils it after
(the venv deleted), or runs the runtime's shell in a mount namespace of the
cell's own (a full disk, a /tmp of its own), or a dashboard of one kind runs. `closed`: the form kinds for which
the bare answer is impossible under it (the http POST needs hooktui): there the
runtime must get a blocking answer for its guard event, with one line naming the
cause and the fix. `replaces`: form kinds the condition stands in for (a
dashboard condition is the dashboard of a held call).
"""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import hooktui.tap
import pytest

from tests.guarantee import dashboards
from tests.guarantee.harness import Cell

# A module the project holds in place of the standard one: it answers "allow" the
# moment it is imported (the agent itself can write such a file).
SHADOW = "import os\nos.write(1, b'{}\\n')\nos._exit(0)\n"
SHADOWED = ("json", "socket", "ssl", "select", "http", "urllib", "hooktui")


def _nothing(cell: Cell) -> None:
    pass


def _shadow(cell: Cell) -> None:
    for name in SHADOWED:
        if name in ("hooktui", "http", "urllib"):
            package = cell.project / name
            package.mkdir(exist_ok=True)
            (package / "__init__.py").write_text(SHADOW)
        else:
            (cell.project / f"{name}.py").write_text(SHADOW)


def _venv_gone(cell: Cell) -> None:
    shutil.rmtree(cell.venv.root)


def _python_gone(cell: Cell) -> None:
    cell.venv.python.unlink()


def _package_gone(cell: Cell) -> None:
    shutil.rmtree(cell.venv.site / "site-packages" / "hooktui")


def _private_ca(cell: Cell) -> None:
    cell.env["NODE_EXTRA_CA_CERTS"] = cell.ca_file


def _proxy(cell: Cell) -> None:
    dead = f"http://127.0.0.1:{dashboards.dead_port()}"
    for name in ("HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"):
        cell.env[name] = dead
    cell.env["NO_PROXY"] = cell.env["no_proxy"] = "127.0.0.1,localhost"


def _login(shell: str) -> Callable[[Cell], None]:
    def prepare(cell: Cell) -> None:
        path = shutil.which(shell)
        if not path:  # CI installs them (.ci/run), and there a missing one fails
            why = f"{shell} is not installed (apt-get install fish tcsh)"
            assert not os.environ.get("HOOKTUI_REQUIRE_SHELLS"), why
            pytest.skip(why)
        cell.login_shell = cell.env["SHELL"] = path

    return prepare


def _stale_socket(cell: Cell) -> None:
    """The socket a killed dashboard left: the file is there, nobody listens."""
    folder = os.path.join(cell.env["XDG_RUNTIME_DIR"], "hooktui")
    os.mkdir(folder, 0o700)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(os.path.join(folder, "hold.sock"))
    sock.close()


def _squatted(cell: Cell) -> None:
    """No XDG_RUNTIME_DIR, and another user made /tmp/hooktui-<uid> first, open to all,
    with a socket in it (in a /tmp of the cell's own)."""
    del cell.env["XDG_RUNTIME_DIR"]
    place = f"/tmp/hooktui-{os.getuid()}"
    cell.namespace = (
        f"{_fresh_tmp_keeping(cell)} && "
        f"mkdir -m 777 {place} && : > {place}/hold.sock && "
        f"chown -R {dashboards.OTHER_UID} {place}"
    )


def _fresh_tmp_keeping(cell: Cell) -> str:
    """A shell snippet: an empty /tmp, through which this hooktui (a clone and venv may
    live under /tmp) and the cell's CA are still reached, as they are on the machine."""
    needed = [Path(hooktui.tap.__file__).resolve().parents[1], Path(sys.prefix)]
    needed += [Path(cell.ca_file)] if cell.ca_file else []
    tops = sorted({p.parts[2] for p in needed if p.is_absolute() and p.parts[1:2] == ("tmp",)})
    old = cell.root / "old-tmp"
    old.mkdir()
    steps = [f"mount --bind /tmp {shlex.quote(str(old))}", "mount -t tmpfs tmpfs /tmp"]
    for top in tops:
        there, here = shlex.quote(str(old / top)), shlex.quote(f"/tmp/{top}")
        steps.append(f"mkdir {here} && mount --bind {there} {here}")
    return " && ".join(steps)


def _full_disk(cell: Cell) -> None:
    state = cell.env["XDG_STATE_HOME"]
    cell.namespace = (
        f"mount -t tmpfs -o size=1m tmpfs {state} && "
        f"(head -c 2M /dev/zero > {state}/fill) 2>/dev/null; true"
    )


@dataclass(frozen=True)
class Condition:
    name: str
    what: str  # one line of docs/guarantee.md
    headline: str  # the README's words for it (conditions may share them)
    family: str  # the test module that runs it
    prepare: Callable[[Cell], None] = _nothing
    spoil: Callable[[Cell], None] = _nothing
    closed: tuple[str, ...] = ()
    dashboard: str = ""  # a dashboard of this kind (dashboards.py) is running
    replaces: tuple[str, ...] = ()
    outside_tmp: bool = False  # the cell's folder may not be under /tmp
    recorded: bool = True  # the call can be recorded (--wait: before it answers)
    parallel: int = 1  # calls at once (on two cores)
    only: tuple[str, ...] = ()  # the forms it runs on ((): all), and why
    only_why: str = ""


_GONE = ("http",)  # bare is the runtime's own POST; wrapped, it needs hooktui
_HELD = ("held",)

CONDITIONS: tuple[Condition, ...] = (
    Condition("plain", "nothing hostile", "", "setup"),
    Condition(
        "shadow-modules",
        "the project holds json.py, socket.py, ssl.py, select.py, http/, urllib/ and hooktui/",
        "a project shadowing json, socket, ssl or hooktui",
        "setup",
        prepare=_shadow,
    ),
    Condition(
        "venv-gone",
        "hooktui's venv deleted",
        "hooktui's venv or Python gone",
        "setup",
        spoil=_venv_gone,
        closed=_GONE,
        recorded=False,
    ),
    Condition(
        "python-gone",
        "the Python of hooktui's venv deleted",
        "hooktui's venv or Python gone",
        "setup",
        spoil=_python_gone,
        closed=_GONE,
        recorded=False,
    ),  # fmt: skip
    Condition(
        "package-gone",
        "hooktui's package gone from its venv (the Python left)",
        "hooktui's venv or Python gone",
        "setup",
        spoil=_package_gone,
        closed=_GONE,
        recorded=False,
    ),  # fmt: skip
    Condition(
        "private-ca",
        "the http hook's server has a private CA, trusted by NODE_EXTRA_CA_CERTS",
        "a private CA",
        "network",
        prepare=_private_ca,
    ),  # fmt: skip
    Condition(
        "proxy",
        "HTTP(S)_PROXY set to a dead proxy, NO_PROXY naming the hook's host",
        "HTTPS_PROXY/NO_PROXY",
        "network",
        prepare=_proxy,
    ),  # fmt: skip
    Condition(
        "login-fish",
        "the user's login shell is fish",
        "a fish or tcsh login shell",
        "setup",
        prepare=_login("fish"),
    ),
    Condition(
        "login-tcsh",
        "the user's login shell is tcsh",
        "a fish or tcsh login shell",
        "setup",
        prepare=_login("tcsh"),
    ),
    Condition(
        "stale-socket",
        "a breakpoint socket a killed dashboard left",
        "a stale or squatted breakpoint socket",
        "dashboard",
        prepare=_stale_socket,
    ),  # fmt: skip
    Condition(
        "squatted-dir",
        "no XDG_RUNTIME_DIR, and another user made /tmp/hooktui-<uid> first",
        "a stale or squatted breakpoint socket",
        "dashboard",
        prepare=_squatted,
        outside_tmp=True,
        replaces=_HELD,
    ),  # fmt: skip
    Condition(
        "dashboard-stopped",
        "a dashboard holding breakpoints, stopped (SIGSTOP)",
        "a dashboard stopped, slow or killed",
        "stopped",
        dashboard="stopped",
        replaces=_HELD,
    ),  # fmt: skip
    Condition(
        "dashboard-slow",
        "a dashboard that trickles its reply a byte at a time",
        "a dashboard stopped, slow or killed",
        "slow",
        dashboard="slow",
        replaces=_HELD,
    ),  # fmt: skip
    Condition(
        "dashboard-killed",
        "a dashboard killed (SIGKILL) while it holds the call",
        "a dashboard stopped, slow or killed",
        "dashboard",
        dashboard="killed",
        replaces=_HELD,
    ),  # fmt: skip
    Condition(
        "load-80",
        "80 calls at once on two cores, a dashboard listening",
        "80 calls at once on two cores",
        "load",
        dashboard="listening",
        parallel=80,
        only=("claude-code/command", "claude-code/held"),
        only_why="each costs seconds of both cores; the forms differ in the line, not the load",
    ),  # fmt: skip
    Condition(
        "full-disk",
        "the stream's disk is full (a 1 MiB tmpfs)",
        "a full disk",
        "setup",
        prepare=_full_disk,
        recorded=False,
    ),  # fmt: skip
)

CONDITION_NAMES = tuple(c.name for c in CONDITIONS)

"""Shared test helpers: where the installed `hooktui` command is, and reading streams."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from tests.waits import WAIT_S

HOOKTUI = str(Path(sys.executable).with_name("hooktui"))


@pytest.fixture
def hooktui() -> str:
    """Absolute path of the installed `hooktui` script (the same one runtimes call)."""
    return HOOKTUI


def wait_for_lines(path: Path, count: int, timeout: float = WAIT_S) -> list[bytes]:
    """Complete lines of `path` once it holds at least `count` of them.

    The tap writes its record after the hook's answer has gone back (so the
    runtime is not kept waiting), so a test reads the stream by waiting for it.
    """
    deadline = time.monotonic() + timeout
    lines: list[bytes] = []
    while time.monotonic() < deadline:
        if path.exists():
            data = path.read_bytes()
            lines = data.split(b"\n")[:-1]  # only lines with their newline
            if len(lines) >= count:
                return lines
        time.sleep(0.02)
    raise AssertionError(f"{path}: expected {count} lines, found {len(lines)} after {timeout}s")


def wait_for_records(path: Path, count: int, timeout: float = WAIT_S) -> list[dict]:
    return [json.loads(line) for line in wait_for_lines(path, count, timeout)]


@pytest.fixture
def snap_compare(snap_compare):
    """pytest-textual-snapshot's `snap_compare`, with nothing left to chance.

    A snapshot is taken the moment `run_before` returns: a tab underline or a
    scroll still sliding, or a text cursor in its blink, would be caught half-way
    and differ run to run. So animations are off, and the cursors of the inputs
    on screen stop blinking (shown steadily) before the picture is taken.
    """
    import inspect

    from textual.app import App

    def compare(app, *args, run_before=None, **kwargs) -> bool:
        if isinstance(app, App):
            app.animation_level = "none"

        async def settled(pilot) -> None:
            if run_before is not None:
                result = run_before(pilot)
                if inspect.isawaitable(result):
                    await result
            editors = list(pilot.app.screen.query("Input, TextArea"))
            for widget in editors:
                widget.cursor_blink = False
            await pilot.pause()
            # A TextArea keys its cached lines by whether the cursor is *blinking*
            # visible, so a line drawn in the blink's "off" half (a loaded machine
            # gets there) stays cached without its cursor: draw them afresh.
            for widget in editors:
                widget.notify_style_update()
                widget.refresh()
            await pilot.pause()

        return snap_compare(app, *args, run_before=settled, **kwargs)

    return compare


def pytest_configure(config) -> None:
    """The suite never sees the user's machine: taps the tests start keep their cache
    of compiled redaction patterns ($XDG_CACHE_HOME), write to the default stream
    ($XDG_STATE_HOME) and look for a dashboard's breakpoints ($XDG_RUNTIME_DIR) in
    folders of the test run's own (the last two per test process); never in ~/.cache,
    ~/.local/state or the user's runtime folder, where a live or dead dashboard of
    theirs would hold the suite's calls."""
    if "HOOKTUI_TEST_HOME" not in os.environ:  # xdist's workers inherit the controller's
        import atexit
        import shutil
        import tempfile

        os.environ["HOOKTUI_TEST_HOME"] = tempfile.mkdtemp(prefix="hooktui-test-")
        atexit.register(shutil.rmtree, os.environ["HOOKTUI_TEST_HOME"], True)
    base = Path(os.environ["HOOKTUI_TEST_HOME"])
    mine = base / os.environ.get("PYTEST_XDIST_WORKER", "main")
    folders = {
        "XDG_CACHE_HOME": base / "cache",  # shared: compiled once for the whole run
        "XDG_STATE_HOME": mine / "state",
        "XDG_RUNTIME_DIR": mine / "run",
    }
    for name, folder in folders.items():
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.environ[name] = str(folder)
    os.environ.pop("HOOKTUI_STREAM", None)


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config, items) -> None:
    """`--dist loadgroup` (pyproject): each test goes to whichever worker is free, but
    tests sharing something costly stay on one worker, which makes it once. Tests
    sharing a CLI session say so with their own `xdist_group` (tests/e2e/batch.py);
    those using a fixture of ours wider than a test (scope="module") share its module's."""
    for item in items:
        if marks := list(item.iter_markers("xdist_group")):
            for mark in marks:
                name = str(mark.args[0] if mark.args else mark.kwargs.get("name", ""))
                # xdist finds the group after the last "@", and only past the last "]"
                assert not {"@", "]"} & set(name), f"{item.nodeid}: xdist_group {name!r}"
            continue
        defs = getattr(item, "_fixtureinfo", None)
        shared = defs is not None and any(
            d.scope != "function" and d.func.__module__.startswith("tests.")
            for chain in defs.name2fixturedefs.values()
            for d in chain
        )
        if shared:
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto` (pyproject's addopts): two workers per core this process may use, or
    what PYTEST_XDIST_AUTO_NUM_WORKERS says. The suite mostly waits on subprocesses."""
    wanted = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "")
    return int(wanted) if wanted.isdigit() else 2 * usable_cpus()


def usable_cpus() -> int:
    """The cores this process may run on: its CPU affinity, and a cgroup's CPU quota (a
    container started with --cpus=2 on a big host sees all the host's cores)."""
    count = len(os.sched_getaffinity(0))
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()
        if quota != "max":
            count = min(count, max(1, -(-int(quota) // int(period))))
    except (OSError, ValueError):
        pass  # no cgroup v2 quota here
    return count


def process_alive(pid: int) -> bool:
    """Whether `pid` runs: a zombie (its parent has not reaped it yet) or a process
    gone between the two looks counts as dead."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:  # gone, even between open and read (ESRCH)
        return False
    return state not in ("Z", "X")

"""Shared test helpers: where the installed `hooktui` command is, and reading streams."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

HOOKTUI = str(Path(sys.executable).with_name("hooktui"))


@pytest.fixture
def hooktui() -> str:
    """Absolute path of the installed `hooktui` script (the same one runtimes call)."""
    return HOOKTUI


def wait_for_lines(path: Path, count: int, timeout: float = 15.0) -> list[bytes]:
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


def wait_for_records(path: Path, count: int, timeout: float = 15.0) -> list[dict]:
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
    """The suite never sees the user's machine: taps and dashboards it starts keep
    their state (the default stream), their runtime files (a dashboard's breakpoint
    socket, the fallback error log) and their cache (compiled redaction patterns) in
    folders of the test process's own, never in ~/.local/state, $XDG_RUNTIME_DIR or
    /tmp/hooktui-<uid>, where a dashboard the user runs (or one that died) lives."""
    import atexit
    import shutil
    import tempfile

    if "HOOKTUI_TEST_CACHE" not in os.environ:  # xdist's workers inherit the controller's
        os.environ["HOOKTUI_TEST_CACHE"] = tempfile.mkdtemp(prefix="hooktui-test-cache-")
        atexit.register(shutil.rmtree, os.environ["HOOKTUI_TEST_CACHE"], True)
    os.environ["XDG_CACHE_HOME"] = os.environ["HOOKTUI_TEST_CACHE"]
    for name, prefix in (("XDG_RUNTIME_DIR", "hkrun"), ("XDG_STATE_HOME", "hkstate")):
        # Short (a socket path holds 107 bytes), and one per process: each xdist
        # worker gets its own.
        os.environ[name] = tempfile.mkdtemp(prefix=prefix, dir="/tmp")
        atexit.register(shutil.rmtree, os.environ[name], True)
    os.environ.pop("HOOKTUI_STREAM", None)


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto` (pyproject's addopts): two workers per core, or what
    PYTEST_XDIST_AUTO_NUM_WORKERS says. The suite mostly waits on subprocesses."""
    wanted = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "")
    return int(wanted) if wanted.isdigit() else 2 * (os.cpu_count() or 1)


def process_alive(pid: int) -> bool:
    """Whether `pid` runs: a zombie (its parent has not reaped it yet) or a process
    gone between the two looks counts as dead."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:  # gone, even between open and read (ESRCH)
        return False
    return state not in ("Z", "X")

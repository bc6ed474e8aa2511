"""Real taps against a real HoldServer: shared by the tap, watch and e2e breakpoint tests."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.conftest import HOOKTUI
from tests.waits import WAIT_S

REQUEST = {
    "session_id": "s-hold",
    "hook_event_name": "PreToolUse",
    "cwd": "/tmp",
    "tool_name": "Bash",
    "tool_input": {"command": "git push --force"},
    "tool_use_id": "toolu_hold",
}
# A guard that lets everything through (no output, exit 0: Claude Code's allow).
ALLOW_ALL = ["sh", "-c", "cat >/dev/null"]


def private_runtime_dir() -> str:
    """An XDG_RUNTIME_DIR of the test's own (short: a socket path holds 107 bytes)."""
    return tempfile.mkdtemp(prefix="hk", dir="/tmp")


@contextmanager
def holding_server(breakpoint: str = "tool:Bash") -> Iterator[tuple[object, str]]:
    """(a HoldServer with `breakpoint` set, its XDG_RUNTIME_DIR), for a module-scoped
    stream (a fixture that cannot take monkeypatch); the variable is put back after."""
    from hooktui.tap.hold.server import HoldServer

    runtime_dir = private_runtime_dir()
    old = os.environ.get("XDG_RUNTIME_DIR")
    os.environ["XDG_RUNTIME_DIR"] = runtime_dir
    server = HoldServer()
    try:
        server.set_breakpoint(breakpoint)
        yield server, runtime_dir
    finally:
        server.close()
        if old is None:
            os.environ.pop("XDG_RUNTIME_DIR", None)
        else:
            os.environ["XDG_RUNTIME_DIR"] = old


def start_tap(
    stream: Path,
    runtime_dir: str,
    request: dict | None = None,
    *,
    timeout_ms: int | None = 60_000,
    hook: list[str] | None = None,
) -> subprocess.Popen:
    """`hooktui tap` on one call, as a runtime runs it; its stdin is written and closed."""
    args = [HOOKTUI, "tap", "--stream", str(stream), "--wait"]
    if timeout_ms is not None:
        args += ["--timeout-ms", str(timeout_ms)]
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime_dir)
    proc = subprocess.Popen(
        [*args, "--", *(hook or ALLOW_ALL)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(request or REQUEST).encode())
    proc.stdin.close()
    proc.stdin = None  # written: communicate() must not flush it
    return proc


def finish(proc: subprocess.Popen, timeout: float = WAIT_S) -> tuple[bytes, bytes, int]:
    out, err = proc.communicate(timeout=timeout)
    return out, err, proc.returncode


def wait_for(predicate, timeout: float = WAIT_S, step: float = 0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError("timed out waiting")


def records(stream: Path) -> list[dict]:
    if not stream.exists():
        return []
    return [json.loads(line) for line in stream.read_text().splitlines()]

"""A tap keeps output back only for a dashboard that is alive, in a directory of the
user's own, and never more of it than it can hold (issue 19).

- a socket a killed dashboard left behind (its lock free) is nobody: output streams;
- a live dashboard: output is kept back, but past HELD it streams all the same;
- two dashboards starting over a stale socket: exactly one holds breakpoints;
- /tmp/hooktui-<uid> made by another user first is passed over by the tap.
"""

from __future__ import annotations

import json
import os
import select
import socket
import subprocess
import sys
import time
from pathlib import Path

from hooktui.tap.hotpath.capture import HELD

from tests.conftest import HOOKTUI
from tests.hold_helpers import holding_server, private_runtime_dir

STREAMS_S = 20.0  # how long the test waits to see output arrive before the hook ends


def talking_hook(flag: Path, first: str) -> list[str]:
    """Prints `first`, then waits for `flag` (at most 30 s) before it prints `second`."""
    wait = f"i=0; while [ ! -e {flag} ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done"
    return ["sh", "-c", f"cat >/dev/null; {first}; {wait}; printf second"]


def streams(env: dict, tmp_path: Path, first: str, want: int) -> bool:
    """Whether `want` bytes of the hook's output reach the runtime before the hook ends."""
    flag = tmp_path / "go"
    tap = subprocess.Popen(
        [HOOKTUI, "tap", "--stream", str(tmp_path / "s.jsonl"), "--timeout-ms", "60000", "--",
         *talking_hook(flag, first)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )  # fmt: skip
    tap.stdin.write(b"{}")
    tap.stdin.close()
    got, deadline = 0, time.monotonic() + STREAMS_S
    while got < want and time.monotonic() < deadline:
        if select.select([tap.stdout], [], [], 0.1)[0]:
            got += len(os.read(tap.stdout.fileno(), 1 << 20))
    flag.touch()
    rest = tap.stdout.read()
    tap.wait(timeout=60)
    assert rest.endswith(b"second") and tap.returncode == 0
    return got >= want


def test_a_killed_dashboards_socket_is_nobody(tmp_path):
    run = private_runtime_dir()
    folder = Path(run, "hooktui")
    folder.mkdir(mode=0o700)
    (folder / "hold.lock").touch()  # its lock file stays, nobody holds it
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(folder / "hold.sock"))
    stale.close()
    assert streams(dict(os.environ, XDG_RUNTIME_DIR=run), tmp_path, "printf first", 5)


def test_output_kept_back_for_a_dashboard_streams_past_what_it_can_hold(tmp_path):
    with holding_server("tool:Bash") as (_server, run):
        big = f"head -c {HELD + 1} /dev/zero"
        assert streams(dict(os.environ, XDG_RUNTIME_DIR=run), tmp_path, big, HELD + 1)


DASHBOARD = """
import sys
from hooktui.tap.hold.server import HoldError, HoldServer
server = HoldServer()
sys.stdin.readline()  # both start together
try:
    server.set_breakpoint("tool:Bash")
    print("holds", flush=True)
except HoldError as exc:
    print("refused" if "another dashboard" in str(exc) else f"broke: {exc}", flush=True)
sys.stdin.read()
"""


def test_two_dashboards_over_a_stale_socket_one_holds(tmp_path):
    for _ in range(3):
        run = private_runtime_dir()
        folder = Path(run, "hooktui")
        folder.mkdir(mode=0o700)
        stale = socket.socket(socket.AF_UNIX)
        stale.bind(str(folder / "hold.sock"))
        stale.close()
        env = dict(os.environ, XDG_RUNTIME_DIR=run)
        both = [
            subprocess.Popen(
                [sys.executable, "-c", DASHBOARD],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                text=True,
            )  # fmt: skip
            for _ in range(2)
        ]
        for p in both:  # imported and waiting: now both at once
            p.stdin.write("go\n")
        for p in both:
            p.stdin.flush()
        said = [p.stdout.readline().strip() for p in both]
        for p in both:
            p.communicate("", timeout=30)
        assert sorted(said) == ["holds", "refused"], said


def test_a_dashboard_directory_open_to_others_is_passed_over(tmp_path):
    """Someone else's (or an open) directory where the socket would be: even with a
    socket and a held lock in it, the tap keeps nothing back for it."""
    folder = Path(private_runtime_dir(), "hooktui")
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o777)
    lock = os.open(folder / "hold.lock", os.O_RDWR | os.O_CREAT, 0o600)
    os.lockf(lock, os.F_TLOCK, 0)  # held (by this process: the tap is another)
    squatter = socket.socket(socket.AF_UNIX)
    squatter.bind(str(folder / "hold.sock"))
    squatter.listen(1)
    try:
        env = dict(os.environ, XDG_RUNTIME_DIR=str(folder.parent))
        assert streams(env, tmp_path, "printf first", 5)
    finally:
        squatter.close()
        os.close(lock)


def test_a_held_call_whose_tap_is_killed_is_recorded(tmp_path):
    """SIGKILL to a tap while a dashboard holds its call: the call is recorded all the
    same, as it would be unheld (issue 19: it was never recorded)."""
    import signal

    from tests.conftest import wait_for_records
    from tests.hold_helpers import REQUEST, wait_for

    stream = tmp_path / "s.jsonl"
    with holding_server("tool:Bash") as (server, run):
        tap = subprocess.Popen(
            [HOOKTUI, "tap", "--stream", str(stream), "--timeout-ms", "60000", "--",
             "sh", "-c", "cat >/dev/null; echo DENY"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=dict(os.environ, XDG_RUNTIME_DIR=run),
        )  # fmt: skip
        tap.stdin.write(json.dumps(REQUEST).encode())
        tap.stdin.close()
        wait_for(server.held)
        tap.send_signal(signal.SIGKILL)
        tap.wait(timeout=30)
        (record,) = wait_for_records(stream, 1)
    assert record["held"]["released_by"] == "tap-killed"
    assert record["decision"] == "allow"  # the hook's own answer, never sent: recorded

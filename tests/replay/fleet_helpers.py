"""Sessions for the fleet replay tests: a fleet's repetitive traffic, built as the tap
writes records (the guard runs for real when replayed), and a Dask cluster of separate
processes, as a team runs one, on loopback."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from hooktui.tap.model import HookInfo, Record, encode_record

from tests.conftest import HOOKTUI
from tests.replay.helpers import COMMANDS as REPLAY_COMMANDS
from tests.replay.helpers import PYTHON, V1, request_for, write_guard
from tests.waits import WAIT_S

# A fleet repeats itself: six commands, many times, each call with its own ids.
COMMANDS = [*REPLAY_COMMANDS, "npm test"]


def recorded(decision: str, reason: str, command: str, cwd: str, n: int, hook: list[str]) -> Record:
    request = request_for("claude-code", command, cwd, n=n)
    request["session_id"] = f"sess-{n % 3}"
    return Record(
        id=f"rec{n:05d}",
        ts=f"2026-12-0{1 + n % 5}T10:{n % 60:02d}:00Z",
        runtime="claude-code",
        event="pre_tool_use",
        native_event="PreToolUse",
        tool_name="Bash",
        decision=decision,
        reason=reason,
        summary=command,
        session_id=request["session_id"],
        tool_call_id=request["tool_use_id"],
        cwd=cwd,
        tool_input=request["tool_input"],
        request=request,
        hook=HookInfo(argv=hook, cwd=cwd, label="guard.py"),
    )


def v1_verdict(command: str) -> tuple[str, str]:
    for word, (decision, reason) in V1.items():
        if word in command:
            return decision, reason
    return "allow", ""


def fleet_session(path: Path, guard: Path, n: int, cwd: Path, *, noise: bool = True) -> Path:
    """`n` calls recorded with the V1 guard, plus (with `noise`) what a real stream
    holds: a blank line, a line that is not a record, and a torn last line."""
    with open(path, "wb") as f:
        for i in range(n):
            command = COMMANDS[i % len(COMMANDS)]
            decision, reason = v1_verdict(command)
            hook = [PYTHON, str(guard)]
            f.write(encode_record(recorded(decision, reason, command, str(cwd), i, hook)))
            if noise and i == n // 3:
                f.write(b"\n{not a record}\n")
        if noise:
            f.write(b'{"v": 2, "id": "torn')
    return path


def guard_pair(where: Path) -> tuple[Path, Path]:
    """The guard as recorded (V1) and an edited one: rm -rf allowed, curl denied."""
    v1 = write_guard(where / "guard.py", V1)
    v2 = write_guard(
        where / "guard_v2.py",
        {"push --force": ("deny", "no force pushes"), "curl": ("deny", "no pipe to shell")},
    )
    return v1, v2


def replay(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HOOKTUI, "replay", *args],
        capture_output=True,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )


def report(proc: subprocess.CompletedProcess) -> dict:
    """The JSON report less what names the run (session, fleet figures), and the tool
    calls: their outcomes need every hook of a call, which a local replay has and a
    fleet part (a byte range) has not."""
    out = json.loads(proc.stdout)
    out.pop("session")
    out.pop("fleet", None)
    out.pop("calls", None)
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Scheduler:
    """`dask scheduler` and one `dask worker` (two threads), separate processes on
    loopback: what `--cluster tcp://HOST:8786` meets on a team's cluster."""

    def __init__(self, where: Path) -> None:
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        bin_dir = Path(sys.executable).parent
        common = dict(cwd=where, start_new_session=True, stdin=subprocess.DEVNULL)
        self.log = open(where / "dask.log", "wb")
        self.procs = [
            subprocess.Popen(
                [
                    bin_dir / "dask",
                    "scheduler",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--no-dashboard",
                ],
                stdout=self.log,
                stderr=subprocess.STDOUT,
                **common,
            ),
        ]
        self.procs.append(
            subprocess.Popen(
                [
                    bin_dir / "dask",
                    "worker",
                    self.address,
                    "--nworkers",
                    "1",
                    "--nthreads",
                    "2",
                    "--no-dashboard",
                    "--host",
                    "127.0.0.1",
                ],
                stdout=self.log,
                stderr=subprocess.STDOUT,
                **common,
            )
        )
        self._wait_ready(timeout=120)

    def _wait_ready(self, timeout: float) -> None:
        from distributed import Client

        deadline = time.monotonic() + timeout
        with Client(self.address, timeout=timeout) as client:
            while not client.nthreads():
                assert time.monotonic() < deadline, "the dask worker never joined"
                time.sleep(0.2)

    def close(self) -> None:
        for proc in reversed(self.procs):
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for proc in self.procs:
            try:
                proc.wait(timeout=WAIT_S)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=WAIT_S)
        self.log.close()

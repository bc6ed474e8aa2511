"""Blocking reads and waits with a deadline: a test that would hang fails in seconds.

pytest-timeout (pyproject) ends any test that runs too long; these fail sooner,
saying what was awaited, and leave no process behind.
"""

from __future__ import annotations

import io
import os
import select
import signal
import subprocess
import threading
import time
from typing import IO, AnyStr

# Long enough for a loaded 2-core machine, short enough that a hang shows at once.
WAIT_S = 60.0


def read_line(pipe: IO[AnyStr], timeout: float = WAIT_S) -> AnyStr:
    """The next line of a subprocess's pipe (as `pipe.readline()` gives it, "" at its
    end), or AssertionError once `timeout` has passed without one.

    Reads the descriptor a byte at a time, so nothing past the line is taken from
    it: a later `communicate()` or `read()` of the same pipe gets the rest. Use it
    before any buffered read of that pipe.
    """
    return _read(pipe, timeout, lambda data: data.endswith(b"\n"), size=1)


def read_rest(pipe: IO[AnyStr], timeout: float = WAIT_S) -> AnyStr:
    """All that is left in a pipe up to its end (as `pipe.read()` gives it), or
    AssertionError once `timeout` has passed before the end (a process still holding
    it). Use it before any buffered read of that pipe."""
    return _read(pipe, timeout, lambda data: False)


def read_some(pipe: IO[bytes] | int, size: int = 1 << 16, timeout: float = WAIT_S) -> bytes:
    """Up to `size` bytes of a pipe or descriptor as they come (b"" at its end), or
    AssertionError once `timeout` has passed with none."""
    fd = pipe if isinstance(pipe, int) else pipe.fileno()
    _readable(fd, time.monotonic() + timeout, b"")
    return os.read(fd, size)


def _read(pipe: IO[AnyStr], timeout: float, done, size: int = 1 << 16) -> AnyStr:
    """The pipe's bytes until `done(bytes so far)` or its end, as the pipe's type."""
    fd = pipe.fileno()
    data = bytearray()
    deadline = time.monotonic() + timeout
    while not done(data):
        _readable(fd, deadline, data)
        chunk = os.read(fd, size)
        if not chunk:
            break
        data += chunk
    if isinstance(pipe, io.TextIOBase):
        return data.decode(pipe.encoding or "utf-8")  # type: ignore[return-value]
    return bytes(data)  # type: ignore[return-value]


def _readable(fd: int, deadline: float, so_far: bytes | bytearray) -> None:
    left = deadline - time.monotonic()
    if left <= 0 or not select.select([fd], [], [], left)[0]:
        raise AssertionError(f"the pipe gave no more by its deadline; read: {bytes(so_far)!r}")


def finish(proc: subprocess.Popen, timeout: float = WAIT_S) -> tuple:
    """`proc.communicate()` within `timeout`; past it the process (and its group, when
    it leads one) is killed and the test fails saying so."""
    _forget_closed_stdin(proc)
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        stop(proc)
        raise AssertionError(f"{proc.args!r} still ran after {timeout}s: killed") from None


def stop(proc: subprocess.Popen) -> None:
    """Kill `proc` (its group too, when it leads one) and reap it: nothing left behind."""
    if proc.poll() is None:
        try:
            if os.getpgid(proc.pid) == proc.pid:
                os.killpg(proc.pid, signal.SIGKILL)
            else:
                proc.kill()
        except ProcessLookupError:
            pass
    _forget_closed_stdin(proc)
    try:
        proc.communicate(timeout=WAIT_S)
    except (subprocess.TimeoutExpired, ValueError):
        pass  # a pipe held by a grandchild: the process itself is gone


def wait_pid(pid: int, timeout: float = WAIT_S) -> int:
    """`os.waitpid(pid, 0)`'s status once the child `pid` has ended, or AssertionError
    once `timeout` has passed (the child is then killed and reaped)."""
    fd = os.pidfd_open(pid)
    try:
        if not select.select([fd], [], [], timeout)[0]:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise AssertionError(f"process {pid} still ran after {timeout}s: killed")
    finally:
        os.close(fd)
    return os.waitpid(pid, 0)[1]


def _forget_closed_stdin(proc: subprocess.Popen) -> None:
    """communicate() flushes the stdin it holds, and fails on one the test has closed."""
    if proc.stdin is not None and proc.stdin.closed:
        proc.stdin = None


def join(thread: threading.Thread, timeout: float = WAIT_S) -> None:
    """`thread.join()` within `timeout`, else AssertionError. Start such threads with
    `daemon=True`, so one left blocked cannot keep the test process from ending."""
    thread.join(timeout)
    assert not thread.is_alive(), f"thread {thread.name} still ran after {timeout}s"

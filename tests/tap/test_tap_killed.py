"""The runtime SIGKILLs the tap at the hook's timeout: the call is still recorded.

Codex does exactly this (it starts the hook command in a session of its own
and kills the whole group at the timeout); the tap's watchdog, forked once the
hook has run half its timeout, records the call instead. Real processes only:
the tests find the tap's children in /proc, as a runtime would not need to.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import HOOKTUI, wait_for_records
from tests.waits import WAIT_S, finish, read_line

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="finds processes through /proc and pidfds"
)

CODEX_REQUEST = {
    "session_id": "s-killed",
    "turn_id": "t1",
    "transcript_path": None,
    "cwd": "/tmp",
    "hook_event_name": "PreToolUse",
    "model": "gpt-test",
    "tool_name": "Bash",
    "tool_input": {"command": "make deploy"},
    "tool_use_id": "call_1",
}


def wait_until(predicate, what: str, timeout: float = WAIT_S):
    """Poll `predicate` until it returns something truthy (a wait, not a timing check)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"gave up waiting for {what}")


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def session_of(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    return int(stat.rsplit(b")", 1)[1].split()[3])


def forked(pid: int, tap_pid: int) -> bool:
    """Whether `pid` is a fork of the tap (its command line), not the hook it started
    (which leads a session of its own too when the tap leads one, as here)."""
    line = cmdline_of(pid)
    return line is not None and line == cmdline_of(tap_pid)


def cmdline_of(pid: int) -> bytes | None:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None


def watchdog_of(tap_pid: int) -> int | None:
    """The tap's child that is a fork of it and leads a session of its own.

    Only once the hook has exec'd: until then the hook is such a child too (it
    leads its own session before its exec), and on a loaded machine a test saw
    it, took it for the watchdog and killed the tap before the watchdog existed.
    """
    hook = hook_of(tap_pid)
    if hook is None:
        return None
    return next(
        (p for p in children(tap_pid) if p != hook and forked(p, tap_pid) and session_of(p) == p),
        None,
    )


def hook_of(tap_pid: int) -> int | None:
    """The tap's child that runs the hook (it has exec'd: its command line is its own)."""
    return next((p for p in children(tap_pid) if not forked(p, tap_pid)), None)


def exited(pidfd: int) -> bool:
    return bool(select.select([pidfd], [], [], 0)[0])


def start_tap(stream: Path, timeout_ms: int, *hook: str) -> subprocess.Popen:
    # A session of its own, as Codex starts its hook commands.
    return subprocess.Popen(
        [HOOKTUI, "tap", "--timeout-ms", str(timeout_ms), "--stream", str(stream), "--", *hook],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def test_group_killed_at_timeout_is_recorded_with_what_arrived(tmp_path):
    """Codex's way: SIGKILL to the whole group at the timeout."""
    stream = tmp_path / "s.jsonl"
    request = json.dumps(CODEX_REQUEST).encode()
    # Prints, waits for the watchdog, then reads the rest of the request and
    # prints again: both halves of each stream straddle the watchdog's fork.
    script = (
        'echo early; while [ "$(wc -w < /proc/$PPID/task/$PPID/children)" -lt 2 ]; '
        "do sleep 0.02; done; cat >/dev/null; echo late >&2; echo late; exec sleep 30"
    )
    started = time.monotonic()
    tap = start_tap(stream, 1000, "sh", "-c", script)
    tap.stdin.write(request[:20])
    tap.stdin.flush()
    hook = wait_until(lambda: hook_of(tap.pid), "the hook")
    hook_fd = os.pidfd_open(hook)
    wait_until(lambda: watchdog_of(tap.pid), "the watchdog")
    tap.stdin.write(request[20:])
    tap.stdin.close()
    assert tap.stdout.read(len(b"early\nlate\n")) == b"early\nlate\n"
    # The runtime's clock started when it spawned the tap.
    time.sleep(max(0.0, started + 1.0 - time.monotonic()))
    os.killpg(tap.pid, signal.SIGKILL)
    assert tap.wait(timeout=WAIT_S) == -signal.SIGKILL

    (record,) = wait_for_records(stream, 1)
    assert record["runtime"] == "codex" and record["event"] == "pre_tool_use"
    assert record["decision"] == "failure" and record["failure"] == "timeout"
    assert record["effect"] == "proceeds"  # a Codex timeout lets the tool run
    assert record["timed_out"] is True
    assert record["signal"] == signal.SIGKILL and record["exit_code"] is None
    assert "killed the hook command, the tap, at its 1000 ms timeout" in record["failure_detail"]
    assert record["request"] == CODEX_REQUEST
    assert record["stdout"]["data"] == "early\nlate\n"
    assert record["stderr"]["data"] == "late\n"
    assert record["duration_ms"] > 0
    assert record["hook"]["timeout_ms"] == 1000
    wait_until(lambda: exited(hook_fd), "the hook to be gone")
    os.close(hook_fd)
    assert not (tmp_path / "s.jsonl.errors").exists()


def test_tap_alone_killed_takes_the_hook_with_it(tmp_path):
    """SIGKILL to the tap's pid only: the orphaned hook is killed too, as it would have been."""
    stream = tmp_path / "s.jsonl"
    started = time.monotonic()
    tap = start_tap(stream, 1000, "sleep", "30")
    tap.stdin.write(json.dumps(CODEX_REQUEST).encode())
    tap.stdin.close()
    hook = wait_until(lambda: hook_of(tap.pid), "the hook")
    hook_fd = os.pidfd_open(hook)
    wait_until(lambda: watchdog_of(tap.pid), "the watchdog")
    time.sleep(max(0.0, started + 1.0 - time.monotonic()))
    tap.kill()
    tap.wait(timeout=WAIT_S)

    wait_until(lambda: exited(hook_fd), "the sleeping hook to be gone")
    os.close(hook_fd)
    (record,) = wait_for_records(stream, 1)
    assert record["failure"] == "timeout" and record["timed_out"] is True
    assert record["request"] == CODEX_REQUEST
    assert record["hook"]["argv"] == ["sleep", "30"]


def test_a_hook_leading_its_own_group_loses_the_whole_group(tmp_path):
    stream = tmp_path / "s.jsonl"
    pidfile = tmp_path / "grandchild.pid"
    started = time.monotonic()
    # The tap leads its session (as Codex starts it): so does the hook, as it would bare.
    tap = start_tap(stream, 1000, "sh", "-c", f"sleep 30 & echo $! > {pidfile}; wait")
    tap.stdin.close()
    wait_until(lambda: pidfile.exists() and pidfile.read_text().strip(), "the grandchild")
    grandchild_fd = os.pidfd_open(int(pidfile.read_text()))
    hook = wait_until(lambda: hook_of(tap.pid), "the hook")
    assert session_of(hook) == hook
    wait_until(lambda: watchdog_of(tap.pid), "the watchdog")
    time.sleep(max(0.0, started + 1.0 - time.monotonic()))
    tap.kill()
    tap.wait(timeout=WAIT_S)

    wait_until(lambda: exited(grandchild_fd), "the hook's group to be gone")
    os.close(grandchild_fd)
    (record,) = wait_for_records(stream, 1)
    assert record["failure"] == "timeout"


def test_killed_short_of_the_timeout_is_a_signal_not_a_timeout(tmp_path):
    stream = tmp_path / "s.jsonl"
    tap = start_tap(stream, 8000, "sleep", "30")
    tap.stdin.write(json.dumps(CODEX_REQUEST).encode())
    tap.stdin.close()
    wait_until(lambda: watchdog_of(tap.pid), "the watchdog")  # at half the timeout
    os.killpg(tap.pid, signal.SIGKILL)
    tap.wait(timeout=WAIT_S)

    (record,) = wait_for_records(stream, 1)
    assert record["decision"] == "failure" and record["failure"] == "signal"
    assert record["timed_out"] is False and record["signal"] == signal.SIGKILL
    assert "short of its timeout" in record["failure_detail"]
    assert record["effect"] == "proceeds"


def test_a_slow_hook_that_answers_is_recorded_once(tmp_path):
    """The watchdog started, then the hook answered: the tap records, the watchdog does not."""
    stream = tmp_path / "s.jsonl"
    go = tmp_path / "go"
    answer = '{"decision":"block","reason":"slow but sure"}'
    script = f"cat >/dev/null; while [ ! -e {go} ]; do sleep 0.02; done; printf '%s' '{answer}'"
    tap = start_tap(stream, 1000, "sh", "-c", script)
    tap.stdin.write(json.dumps(CODEX_REQUEST).encode())
    tap.stdin.close()
    watchdog = wait_until(lambda: watchdog_of(tap.pid), "the watchdog")
    watchdog_fd = os.pidfd_open(watchdog)
    go.touch()
    out, err = finish(tap)
    assert (out, err, tap.wait(timeout=WAIT_S)) == (answer.encode(), b"", 0)

    wait_until(lambda: exited(watchdog_fd), "the dismissed watchdog to exit")
    os.close(watchdog_fd)
    (record,) = wait_for_records(stream, 1)
    assert record["decision"] == "deny" and record["reason"] == "slow but sure"
    assert record["timed_out"] is False and record["failure_detail"] == ""
    # A watchdog writes before it exits, and it has exited: no second line is coming.
    assert stream.read_bytes().count(b"\n") == 1


def test_a_catchable_signal_at_the_timeout_counts_the_taps_own_start_up(tmp_path):
    """Claude Code's way (SIGTERM, passed on to the hook), with a timeout so short that
    the tap's start-up is a good part of it: the runtime's clock started at the spawn."""
    stream = tmp_path / "s.jsonl"
    started = time.monotonic()
    tap = start_tap(stream, 200, "sh", "-c", "cat >/dev/null; echo started; exec sleep 30")
    tap.stdin.write(json.dumps(CODEX_REQUEST).encode())
    tap.stdin.close()
    assert read_line(tap.stdout) == b"started\n"
    time.sleep(max(0.0, started + 0.2 - time.monotonic()))
    tap.send_signal(signal.SIGTERM)
    assert tap.wait(timeout=WAIT_S) == -signal.SIGTERM

    (record,) = wait_for_records(stream, 1)
    assert record["failure"] == "timeout" and record["timed_out"] is True
    assert record["signal"] == signal.SIGTERM
    assert "watchdog" not in record["failure_detail"]  # the tap recorded it itself

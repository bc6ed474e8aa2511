"""Signals reach the hook as they would bare: the dispositions a caller hands down,
and none that the tap's own plumbing raises.

A caller that ignores SIGCHLD (a daemon that never waits for its children) makes
its children start with it ignored. The tap cannot keep it so (the kernel would
reap the hook for it and its exit status would be lost) and posix_spawn cannot
start a program with a signal ignored that the starter does not ignore: the
hook used to start with SIGCHLD at its default, and a hook whose children are
reaped for it bare (a wait gets ECHILD, subprocess reports 0) answered otherwise
through the tap.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import HOOKTUI, wait_for_records
from tests.waits import WAIT_S, read_line

REQUEST = b'{"hook_event_name": "PreToolUse", "tool_name": "Bash"}'
# A guard whose answer depends on SIGCHLD: the exit status of a check it runs.
HOOK = """
import os, signal, subprocess, sys
if sys.stdin:  # None where the caller closed fd 0
    sys.stdin.read()
status = dict(line.split(":", 1) for line in open("/proc/self/status"))
blocked, ignored = int(status["SigBlk"], 16), int(status["SigIgn"], 16)
# glibc's posix_spawn leaves its own signals 32 and 33 ignored: not compared.
print(blocked, ignored & ~0x180000000)  # nowhere, where the caller closed fd 1
check = subprocess.run(["sh", "-c", "exit 2"]).returncode
print("check:", check, file=sys.stderr)
sys.exit(2 if check == 2 else 0)
"""


def tap_line(stream: Path) -> list[str]:
    """As the line `install` writes starts the tap."""
    return [sys.executable, "-I", "-S", "-X", "utf8", HOOKTUI, "tap", "--stream", str(stream)]


@pytest.mark.parametrize("closed", [None, 0, 1])
def test_a_caller_that_ignores_sigchld_starts_the_hook_with_it_ignored(tmp_path, closed):
    hook = tmp_path / "hook.py"
    hook.write_text(HOOK)
    command = [sys.executable, str(hook)]

    def caller():  # ignores SIGCHLD, blocks SIGUSR2, maybe closes a standard fd
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_SETMASK, [signal.SIGUSR2])  # only it
        if closed is not None:
            os.close(closed)

    stream = tmp_path / "s.jsonl"
    results = []
    for argv in (command, [*tap_line(stream), "--", *command]):
        done = subprocess.run(
            argv, input=REQUEST, capture_output=True, timeout=60, preexec_fn=caller
        )
        results.append((done.stdout, done.stderr, done.returncode))
    bare, tapped = results
    assert tapped == bare
    assert bare[1:] == (b"check: 0\n", 0)  # its child was reaped for it
    if closed != 1:
        blocked, ignored = bare[0].split()
        assert int(ignored) & 1 << signal.SIGCHLD - 1
        assert int(blocked) == 1 << signal.SIGUSR2 - 1
    (record,) = wait_for_records(stream, 1)
    assert record["exit_code"] == 0 and record["stderr"]["data"] == "check: 0\n"


def watchdog_of(tap: int) -> int:
    """The tap's watchdog once it runs: its child that leads a session of its own."""
    for _ in range(6000):  # a minute, on a machine however loaded
        for entry in os.listdir("/proc"):
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except (OSError, ValueError):
                continue
            if entry.isdigit() and int(fields[1]) == tap and int(fields[3]) == int(entry):
                return int(entry)
        time.sleep(0.01)
    raise AssertionError(f"tap {tap} started no watchdog")


def test_a_watchdog_gone_before_the_hook_answers_is_no_signal_to_the_hook(tmp_path):
    """The tap hands what arrives to its watchdog over a pipe; with the watchdog gone
    (killed, out of memory) that write fails with EPIPE, and the kernel's SIGPIPE
    for it went on to the hook as if the runtime had sent it: the guard died by it."""
    go, then, stream = tmp_path / "go", tmp_path / "then", tmp_path / "s.jsonl"
    wait = "until [ -e {} ]; do sleep 0.01; done"
    script = (
        f"cat >/dev/null; {wait.format(go)}; echo deny; {wait.format(then)}; echo why >&2; exit 2"
    )
    hook = ["sh", "-c", script]
    # With a 100 ms timeout the watchdog starts 50 ms in; the hook waits for it.
    tap = subprocess.Popen(
        [*tap_line(stream), "--timeout-ms", "100", "--", *hook],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    tap.stdin.close()
    tap.stdin = None
    try:
        os.kill(watchdog_of(tap.pid), signal.SIGKILL)
        go.touch()
        assert read_line(tap.stdout) == b"deny\n"  # fed to the watchdog's closed pipe first
        then.touch()
        out, err = tap.communicate(timeout=60)
    finally:
        tap.kill()
        tap.wait(timeout=WAIT_S)
    assert (out, err, tap.returncode) == (b"", b"why\n", 2)
    (record,) = wait_for_records(stream, 1)
    assert record["exit_code"] == 2 and record["signal"] is None

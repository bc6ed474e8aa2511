"""Signal dispositions a caller hands down reach the hook as they would bare.

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
from pathlib import Path

import pytest

from tests.conftest import HOOKTUI, wait_for_records

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
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR2])
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

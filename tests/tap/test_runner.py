"""run_hook: the runner replay uses (same spawn and poll loop as the tap)."""

from __future__ import annotations

import os
import signal
import sys
import time

from hooktui.replay.runner import run_hook
from hooktui.tap.canonical import Outcome

from tests.conftest import process_alive
from tests.waits import WAIT_S


def test_feeds_stdin_and_captures_both_pipes():
    outcome = run_hook(["sh", "-c", "cat; echo oops >&2; exit 3"], b'{"x": 1}')
    assert isinstance(outcome, Outcome)
    assert outcome.stdout == b'{"x": 1}'
    assert outcome.stderr == b"oops\n"
    assert outcome.exit_code == 3 and outcome.signal is None
    assert not outcome.timed_out and outcome.spawn_error == ""
    assert outcome.duration_ms > 0


def test_cwd_and_env(tmp_path):
    outcome = run_hook(
        ["sh", "-c", 'pwd; echo "$HOOKTUI_REPLAY"'],
        b"",
        cwd=str(tmp_path),
        env={"PATH": os.environ["PATH"], "HOOKTUI_REPLAY": "1"},
    )
    assert outcome.stdout == f"{tmp_path}\n1\n".encode()


def test_missing_and_unexecutable_commands(tmp_path):
    missing = run_hook(["no-such-hook-xyz"], b"{}")
    assert missing.exit_code == 127 and "command not found" in missing.spawn_error
    script = tmp_path / "h.sh"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o644)
    for kw in ({}, {"cwd": str(tmp_path)}):  # posix_spawn and fork/exec paths
        denied = run_hook([str(script)], b"{}", **kw)
        assert denied.exit_code == 126 and denied.spawn_error
    assert run_hook(["no-such-hook-xyz"], b"", cwd=str(tmp_path)).exit_code == 127


def test_killed_by_signal():
    outcome = run_hook(["sh", "-c", "kill -TERM $$"], b"")
    assert outcome.signal == signal.SIGTERM and outcome.exit_code is None


def test_timeout_kills_the_whole_group(tmp_path):
    pidfile = tmp_path / "grandchild.pid"
    outcome = run_hook(
        ["sh", "-c", f"sleep 60 & echo $! > {pidfile}; echo started; wait"],
        b"",
        timeout_s=1.5,  # room for `sh` to start and print on a loaded machine
        new_session=True,
    )
    assert outcome.timed_out
    assert outcome.signal == signal.SIGKILL
    assert outcome.stdout == b"started\n"
    grandchild = int(pidfile.read_text())
    # The background sleep was in the hook's group, so it dies too (SIGKILL is
    # delivered asynchronously: give it a moment; a survivor would sleep 60 s).
    deadline = time.monotonic() + WAIT_S
    while process_alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not process_alive(grandchild)


def test_timeout_of_a_hook_that_closed_its_pipes():
    outcome = run_hook(["sh", "-c", "exec >&- 2>&-; sleep 60"], b"", timeout_s=0.3)
    assert outcome.timed_out and outcome.signal == signal.SIGKILL


def test_background_child_holding_the_pipes_does_not_hang(tmp_path):
    # The hook exits at once; its child keeps stdout open for 5 s.
    outcome = run_hook(["sh", "-c", "sleep 5 & echo answered"], b"")
    assert outcome.exit_code == 0
    assert outcome.stdout == b"answered\n"
    assert not outcome.timed_out


def test_big_request_and_big_output_together():
    request = b"r" * (3 << 20)
    code = "import sys,os\nd=sys.stdin.buffer.read()\nos.write(1,d)\nos.write(2,d[:1<<20])\n"
    outcome = run_hook([sys.executable, "-c", code], request)
    assert outcome.stdout == request
    assert outcome.stderr == request[: 1 << 20]


def test_hook_that_reads_nothing_of_a_big_request():
    outcome = run_hook(["sh", "-c", "echo ignored"], b"x" * (4 << 20))
    assert outcome.stdout == b"ignored\n" and outcome.exit_code == 0


def test_missing_working_directory_is_named(tmp_path):
    outcome = run_hook(["true"], b"", cwd=str(tmp_path / "gone"))
    assert outcome.exit_code == 126
    assert f"cannot run in {tmp_path / 'gone'}" in outcome.spawn_error


def test_command_is_looked_up_on_the_given_path(tmp_path):
    (tmp_path / "only-here").write_text("#!/bin/sh\necho found\n")
    (tmp_path / "only-here").chmod(0o755)
    env = {"PATH": f"{tmp_path}:/usr/bin:/bin"}
    assert run_hook(["only-here"], b"", env=env).stdout == b"found\n"
    assert run_hook(["only-here"], b"").exit_code == 127


def test_hook_that_closes_its_output_before_reading_gets_the_whole_request():
    code = (
        "import os, sys\nos.close(1); os.close(2)\n"
        "data = sys.stdin.buffer.read()\n"
        "sys.exit(0 if len(data) == 1 << 20 else 1)\n"
    )
    outcome = run_hook([sys.executable, "-c", code], b"q" * (1 << 20))
    assert outcome.exit_code == 0

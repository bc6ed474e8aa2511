"""No record lost to a group kill: the recorder leaves the hook's group before the tap exits."""

from __future__ import annotations

import os
import signal

from tests.conftest import HOOKTUI, wait_for_records
from tests.waits import wait_pid

CALLS = 50


def test_a_caller_that_kills_the_group_right_after_reaping_the_tap_loses_no_record(tmp_path):
    """As a runtime that cleans up a hook's process group the moment the hook command
    has exited, without waiting for the end of its output."""
    stream = tmp_path / "s.jsonl"
    argv = [HOOKTUI, "tap", "--stream", str(stream), "--", "cat"]
    null = os.open(os.devnull, os.O_WRONLY)
    for i in range(CALLS):
        r, w = os.pipe()
        os.write(w, b'{"hook_event_name": "PreToolUse", "n": %d}' % i)
        os.close(w)
        actions = [(os.POSIX_SPAWN_DUP2, r, 0), (os.POSIX_SPAWN_DUP2, null, 1)]
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions, setsid=True)
        os.close(r)
        status = wait_pid(pid)
        try:
            os.killpg(pid, signal.SIGKILL)  # the tap led the group: whoever is left in it
        except ProcessLookupError:
            pass
        assert os.waitstatus_to_exitcode(status) == 0
    os.close(null)
    records = wait_for_records(stream, CALLS, timeout=60)
    assert sorted(r["request"]["n"] for r in records) == list(range(CALLS))

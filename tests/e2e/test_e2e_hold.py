"""Breakpoints inside the real Claude Code: a held call denied from the dashboard
blocks the tool; one let go at the deadline does what the hook said.

The dashboard is its UI-free side (tap/hold/server.py) in this process; the
tap runs where Claude Code runs its hooks (`hooktui install`), in the CLI's
network namespace: the socket is a path on the shared filesystem.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from hooktui.tap.hold import answers
from hooktui.tap.hold.server import HoldServer

from tests.conftest import wait_for_records
from tests.e2e.drivers import DRIVERS, ORIGINAL
from tests.e2e.harness import Run, Sandbox, hook_command, hooktui, skip_reason
from tests.hold_helpers import private_runtime_dir, wait_for

RUNTIME = "claude-code"
_skip = skip_reason(RUNTIME)
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))
DRIVER = DRIVERS[RUNTIME]
HOOK_DENY = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "the guard says no",
    }
}


@pytest.fixture
def runtime_dir(monkeypatch) -> str:
    path = private_runtime_dir()
    monkeypatch.setenv("XDG_RUNTIME_DIR", path)  # the dashboard's; the CLI gets it below
    return path


def _run_held(sb: Sandbox, runtime_dir: str, pre_answer: dict, pre_timeout: int) -> Run:
    """Claude Code with its Bash hooks tapped, the tap seeing the dashboard's socket."""
    sb.fresh_run_dirs()
    sb.answer("pre", **pre_answer)
    sb.answer("post")
    DRIVER.write_settings(
        sb, hook_command(sb.hooks, "pre"), hook_command(sb.hooks, "post"), pre_timeout
    )
    settings = DRIVER.settings_path(sb)
    res = hooktui("install", RUNTIME, "--settings", str(settings), "--stream", str(sb.stream))
    assert res.returncode == 0, res.stderr
    env = DRIVER.env(sb) | {"XDG_RUNTIME_DIR": runtime_dir}
    return sb.run("held", RUNTIME, DRIVER.argv(sb), env, DRIVER.script(ORIGINAL))


def _pre_record(sb: Sandbox) -> dict:
    records = wait_for_records(sb.stream, 1)
    return next(r for r in records if r["native_event"] == "PreToolUse")


def test_a_held_call_denied_from_the_dashboard_blocks_the_tool(sandbox: Sandbox, runtime_dir):
    server = HoldServer()
    server.set_breakpoint("tool:Bash event:pre")
    released: list[bool] = []

    def person() -> None:  # the dashboard's user: deny the first held call
        call = wait_for(lambda: server.held(), timeout=60)[0]
        released.append(server.release(call.number, answers.deny(call, "held and denied")))

    thread = threading.Thread(target=person, daemon=True)
    thread.start()
    try:
        run = _run_held(sandbox, runtime_dir, {}, pre_timeout=30)  # the hook allows
    finally:
        thread.join(timeout=5)
        server.close()
    assert released == [True], run.describe()
    assert not (sandbox.project / "marker-original").exists(), run.describe()
    result = DRIVER.tool_result(run)
    assert result["is_error"] and "held and denied" in result["content"], result
    assert "post" not in run.hook_calls  # the tool never ran
    record = _pre_record(sandbox)
    assert record["decision"] == "allow"  # the hook's own answer, as it was
    assert record["held"]["released_by"] == "person"
    assert record["held"]["sent"]["decision"] == "deny"


def test_a_held_call_let_go_at_the_deadline_does_what_the_hook_said(sandbox: Sandbox, runtime_dir):
    server = HoldServer()
    server.set_breakpoint("tool:Bash event:pre")
    try:
        # A 4 s timeout: held 2 s, then the hook's deny goes through by itself.
        run = _run_held(sandbox, runtime_dir, {"stdout": json.dumps(HOOK_DENY)}, pre_timeout=4)
    finally:
        server.close()
    assert not (sandbox.project / "marker-original").exists(), run.describe()
    result = DRIVER.tool_result(run)
    assert result["is_error"] and "the guard says no" in result["content"], result
    record = _pre_record(sandbox)
    assert record["decision"] == "deny"
    assert record["held"]["released_by"] == "deadline" and "sent" not in record["held"]
    assert record["hook"]["timeout_ms"] == 4000
    assert 1000 < record["held"]["held_ms"] < 4000


def test_without_a_dashboard_the_tapped_call_is_not_held(sandbox: Sandbox, runtime_dir):
    run = _run_held(sandbox, runtime_dir, {}, pre_timeout=30)
    assert (sandbox.project / "marker-original").exists(), run.describe()
    assert "held" not in _pre_record(sandbox)
    assert not Path(runtime_dir, "hooktui", "hold.sock").exists()

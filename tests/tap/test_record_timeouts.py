"""Timed out or not, by the timeout the runtime that called applies (the recorder's
judge): a guest runtime's own default for hooks in another runtime's settings.

Seen on the real CLIs (tests/e2e/ORACLE.md): Copilot 1.0.102 stops a
`.claude/settings.json` hook with no timeout at its own 30 s (Claude Code's default is
600 s), and lets the tool run; Continue CLI's runner stops reading at the timeout, and
what the hook prints later reaches nobody."""

from __future__ import annotations

import json
import os

import pytest
from hooktui.tap.record.judge import judge
from hooktui.tap.record.tapcall import Captured, TapCall

PRE = {
    "session_id": "s",
    "cwd": "/p",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "ls"},
}
COPILOT_CLAUDE = {**PRE, "timestamp": "2026-12-07T00:00:00.000Z"}  # Copilot's Claude dialect
CONTINUE = {**PRE, "transcript_path": "", "tool_use_id": "t"}
DENY = json.dumps(
    {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}
).encode()


@pytest.fixture
def environ(monkeypatch):
    """The hook's environment (the recorder reads the caller from its own)."""

    def set_env(**values: str) -> None:
        for key in ("COPILOT_CLI", "CONTINUE_PROJECT_DIR", "AI_AGENT", "CLAUDECODE"):
            monkeypatch.delenv(key, raising=False)
        for key, value in values.items():
            monkeypatch.setenv(key, value)

    return set_env


def _call(**more) -> TapCall:
    return TapCall(argv=["sh", "-c", "guard"], runtime="claude-code", **more)


def test_a_guest_runtime_stops_a_hook_at_its_own_default(environ):
    """Installed as Claude Code's (600 s, a default), run by Copilot: killed at 30 s."""
    environ(COPILOT_CLI="1")
    call = _call(
        signal=15, forwarded=True, duration_ms=29_990, timeout_ms=600_000, timeout_default=True
    )
    judged = judge(call, COPILOT_CLAUDE)
    assert judged.call.runtime == "copilot" and judged.timed_out
    assert (judged.verdict["decision"], judged.verdict["failure"]) == ("failure", "timeout")
    assert judged.verdict["effect"] == "proceeds"  # a Copilot timeout fails open
    assert (judged.timeout_ms, judged.timeout_source) == (30_000, "default")


def test_a_configured_timeout_is_the_one_whatever_runs_it(environ):
    environ(COPILOT_CLI="1")
    call = _call(signal=15, forwarded=True, duration_ms=29_990, timeout_ms=600_000)
    judged = judge(call, COPILOT_CLAUDE)
    assert not judged.timed_out  # not its timeout: a crash, and Copilot fails closed
    assert (judged.verdict["failure"], judged.verdict["effect"]) == ("signal", "blocks")


def test_what_a_hook_printed_after_its_timeout_reached_nobody(environ):
    """Continue's runner stops reading at the timeout and signals the tap, whose hook's
    own child may print on until it ends (seen: the deny came 4 s later)."""
    environ(CONTINUE_PROJECT_DIR="/p")
    late = _call(
        signal=15, forwarded=True, duration_ms=6_270, timeout_ms=2_000, stdout=Captured(DENY)
    )
    judged = judge(late, CONTINUE)
    assert judged.call.runtime == "continue-cli" and judged.timed_out
    assert (judged.verdict["decision"], judged.verdict["failure"]) == ("failure", "timeout")
    in_time = _call(exit_code=0, duration_ms=1_500, timeout_ms=2_000, stdout=Captured(DENY))
    assert judge(in_time, CONTINUE).verdict["decision"] == "deny"


def test_a_hook_wrapped_by_hand_times_out_at_the_runtimes_default(environ):
    """`hooktui tap -- CMD` tells the tap no timeout: the runtime's own default counts,
    and a runtime that has none (Cursor) times nothing out."""
    environ()
    assert judge(_call(signal=15, forwarded=True, duration_ms=600_000), PRE).timed_out
    assert not judge(_call(signal=15, forwarded=True, duration_ms=500_000), PRE).timed_out
    cursor = {"hook_event_name": "beforeShellExecution", "conversation_id": "c", "command": "ls"}
    call = TapCall(argv=["sh"], runtime="cursor", signal=15, forwarded=True, duration_ms=9e6)
    assert not judge(call, cursor).timed_out
    assert os.environ.get("COPILOT_CLI") is None

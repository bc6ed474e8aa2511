"""Codex 0.171 beyond the tool calls: Stop/SubagentStop, compaction, Interrupt,
SessionStart/End, and the timeouts it clamps. Requests are the ones the real
Codex 0.171.0 sent (tests/tap/fixtures/captured/codex); what each answer does is
from its embedded output schemas and what the real runtime did (ORACLE.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hooktui.tap.runtimes import ADAPTERS
from hooktui.tap.runtimes.codex import SESSION_SOURCES

from tests.tap.fixtures import check, failed, out, specific

A = ADAPTERS["codex"]
CAPTURED = Path(__file__).parent / "fixtures" / "captured" / "codex"
UNSUPPORTED = failed("unsupported", "proceeds")


def captured(event: str) -> dict:
    return json.loads((CAPTURED / f"{event}.json").read_text())["request"]


CASES = [
    # Stop / SubagentStop: a block's reason is the model's next prompt (pinned:
    # codex-stop-block, codex-stop-exit2, codex-subagent-stop-block).
    ("stop-block", "Stop", out({"decision": "block", "reason": "go on"}), "deny"),
    ("stop-exit2", "Stop", out(stderr="go on\n", exit=2), "deny"),
    ("stop-exit2-no-prompt", "Stop", out(exit=2), failed("exit_code", "proceeds")),
    ("stop-block-no-reason", "Stop", out({"decision": "block"}), UNSUPPORTED),
    ("stop-approve", "Stop", out({"decision": "approve"}), failed("invalid_json", "proceeds")),
    ("stop-hso", "Stop", out(specific("Stop", additionalContext="x")), UNSUPPORTED),
    ("subagent-stop-block", "SubagentStop", out({"decision": "block", "reason": "r"}), "deny"),
    # PreCompact / PostCompact: only the universal fields; a block fails the hook
    # and compaction happens (pinned: codex-pre-compact-block-ignored).
    ("precompact-block", "PreCompact", out({"decision": "block", "reason": "no"}), UNSUPPORTED),
    ("precompact-exit2", "PreCompact", out(stderr="no", exit=2), failed("exit_code", "proceeds")),
    ("precompact-message", "PreCompact", out({"systemMessage": "m"}), "allow"),
    ("postcompact-context", "PostCompact", out(specific("PostCompact")), UNSUPPORTED),
    # Interrupt: systemMessage only; non-JSON stdout is an error.
    ("interrupt-message", "Interrupt", out({"systemMessage": "bye"}), "allow"),
    ("interrupt-empty", "Interrupt", out(), "allow"),
    ("interrupt-text", "Interrupt", out("bye\n"), failed("invalid_json", "proceeds")),
    ("interrupt-other-field", "Interrupt", out({"continue": False}), UNSUPPORTED),
    ("interrupt-exit2", "Interrupt", out(stderr="x", exit=2), failed("exit_code", "proceeds")),
    # SessionStart: context, no decision; SessionEnd: the answer is not read.
    ("start-text", "SessionStart", out("remember\n"), "allow"),
    ("start-block", "SessionStart", out({"decision": "block", "reason": "r"}), UNSUPPORTED),
    ("start-exit2", "SessionStart", out(stderr="x", exit=2), failed("exit_code", "proceeds")),
    ("end-anything", "SessionEnd", out({"decision": "block", "reason": "r"}), "allow"),
    ("end-exit1", "SessionEnd", out(exit=1), failed("exit_code", "proceeds")),
]


@pytest.mark.parametrize(
    ("event", "outcome", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_codex_event_verdicts(event, outcome, expected) -> None:
    call = A.parse(captured(event))
    assert call.native_event == event
    check(A.judge(call, outcome), {"decision": expected} if isinstance(expected, str) else expected)


def test_session_start_context_from_text_and_json() -> None:
    call = A.parse(captured("SessionStart"))
    assert A.judge(call, out("remember\n")).context == "remember"
    answer = specific("SessionStart", additionalContext="ctx")
    assert A.judge(call, out(answer)).context == "ctx"


def test_session_start_sources_are_codex_s() -> None:
    """The captured request's source is one of the five Codex 0.171 names."""
    assert captured("SessionStart")["source"] in SESSION_SOURCES
    assert SESSION_SOURCES == ("startup", "resume", "clear", "compact", "fork")
    for source in SESSION_SOURCES:  # each a session event, read the same way
        call = A.parse({**captured("SessionStart"), "source": source})
        assert (call.event, A.judge(call, out()).decision) == ("session", "allow")


@pytest.mark.parametrize(
    ("event", "configured", "applied"),
    [
        ("SessionEnd", None, 3000),
        ("SessionEnd", 10, 3000),
        ("SessionEnd", 2, 2000),
        ("Interrupt", 60, 3000),
        ("Stop", 10, 10_000),
        ("Stop", None, 600_000),
    ],
)
def test_session_end_and_interrupt_timeouts_are_clamped_to_3s(event, configured, applied) -> None:
    """Codex says `clamping SessionEnd hook timeout to 3s` (seen on 0.171.0)."""
    assert A.timeouts.applied(configured, event) == applied
    assert A.timeout_for(event) == (3000 if event != "Stop" else 600_000)


def test_the_events_codex_runs() -> None:
    assert set(A.events) == {
        "PreToolUse",
        "PermissionRequest",
        "PostToolUse",
        "PreCompact",
        "PostCompact",
        "SessionStart",
        "SessionEnd",
        "UserPromptSubmit",
        "SubagentStart",
        "SubagentStop",
        "Stop",
        "Interrupt",
    }


def test_the_handler_types_codex_runs() -> None:
    """codex-rs HookHandlerConfig: Command, Prompt, Agent, McpTool. Only command handlers
    run a command the tap can wrap; the descriptor says the others exist (install
    lists them as not wrapped)."""
    assert A.settings.handler_types == ("command", "prompt", "agent", "mcp_tool")
    assert A.settings.type_key == "type"

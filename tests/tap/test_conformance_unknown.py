"""The unknown adapter: best-effort parsing and the generic reading of an answer."""

from __future__ import annotations

import pytest
from hooktui.tap.runtimes import ADAPTERS

from tests.tap.fixtures import check, failed, out

A = ADAPTERS["unknown"]

REQ = {"hook_event_name": "BeforeSomething", "tool_name": "shell", "tool_input": {"command": "ls"}}

CASES = [
    ("exit0-empty", out(), {"decision": "allow"}),
    ("exit0-text", out("hello"), {"decision": "allow"}),
    ("exit0-invalid-json", out("{nope"), {"decision": "allow"}),
    ("exit2-stderr", out(stderr="no way\n", exit=2), {"decision": "deny", "reason": "no way"}),
    ("exit1", out(exit=1), failed("exit_code", "proceeds")),
    (
        "exit42",
        out("{}", exit=42),
        failed("exit_code", "proceeds"),
    ),
    ("signal", out(signal=9), failed("signal", "proceeds")),
    (
        "timeout",
        out(timeout=True),
        failed("timeout", "proceeds"),
    ),
    (
        "spawn",
        out(spawn="ENOENT"),
        failed("spawn_error", "proceeds"),
    ),
    # Every known spelling of a decision is honoured.
    (
        "decision-deny",
        out({"decision": "deny", "reason": "r"}),
        {"decision": "deny", "reason": "r"},
    ),
    (
        "decision-block",
        out({"decision": "block", "reason": "r"}),
        {"decision": "deny", "reason": "r"},
    ),
    ("decision-allow", out({"decision": "allow"}), {"decision": "allow"}),
    ("decision-approve", out({"decision": "approve"}), {"decision": "allow"}),
    ("decision-ask", out({"decision": "ask"}), {"decision": "ask"}),
    (
        "permission-deny",
        out({"permission": "deny", "agent_message": "m"}),
        {"decision": "deny", "reason": "m"},
    ),
    (
        "claude-pd-deny",
        out(
            {"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "x"}}
        ),
        {"decision": "deny", "reason": "x"},
    ),
    (
        "claude-pd-defer",
        out({"hookSpecificOutput": {"permissionDecision": "defer"}}),
        {"decision": "ask"},
    ),
    (
        "claude-updated-input",
        out(
            {
                "hookSpecificOutput": {
                    "permissionDecision": "allow",
                    "updatedInput": {"command": "ls -a"},
                }
            }
        ),
        {"decision": "modify", "updated_input": {"command": "ls -a"}},
    ),
    (
        "gemini-tool-input",
        out({"hookSpecificOutput": {"tool_input": {"command": "ls -a"}}}),
        {"decision": "modify", "updated_input": {"command": "ls -a"}},
    ),
    (
        "basis-modify",
        out({"decision": "modify", "input": {"command": "ls -a"}}),
        {"decision": "modify", "updated_input": {"command": "ls -a"}},
    ),
    (
        "basis-replace",
        out({"decision": "replace", "output": "x"}),
        {"decision": "replace", "updated_output": "x"},
    ),
    (
        "continue-false",
        out({"continue": False, "stopReason": "halt"}),
        {"decision": "deny", "reason": "halt"},
    ),
    (
        "context",
        out({"hookSpecificOutput": {"additionalContext": "c"}}),
        {"decision": "allow", "context": "c"},
    ),
]


@pytest.mark.parametrize(("outcome", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_unknown_verdicts(outcome, expected):
    check(A.judge(A.parse(REQ), outcome), expected)


def test_parse_is_best_effort():
    call = A.parse(REQ)
    assert (call.runtime, call.event, call.native_event) == ("unknown", "other", "BeforeSomething")
    assert (call.tool_name, call.tool_input) == ("shell", {"command": "ls"})
    assert (
        A.parse({"event": "pre_tool_use", "input": {"x": 1}, "workspace": "/w"}).event
        == "pre_tool_use"
    )
    basis_like = A.parse(
        {"event": "post_tool_use", "input": {"x": 1}, "output": "o", "workspace": "/w"}
    )
    assert (basis_like.tool_input, basis_like.tool_output, basis_like.cwd) == ({"x": 1}, "o", "/w")
    assert A.parse({"hook_event_name": "AfterTool"}).event == "post_tool_use"
    assert A.parse({"hook_event_name": "beforeSubmitPrompt", "prompt": "p"}).prompt == "p"
    cursorish = A.parse({"command": "npm i", "conversation_id": "c"})
    assert (cursorish.tool_input, cursorish.session_id) == ({"command": "npm i"}, "c")
    fp = A.parse({"metadata": {"agent_id": "rev"}})
    assert fp.agent_id == "rev"


@pytest.mark.parametrize("raw", ["plain text", "", None, 3, [1, 2]])
def test_parse_non_objects(raw):
    call = A.parse(raw)
    assert (call.runtime, call.event, call.tool_name) == ("unknown", "other", "")

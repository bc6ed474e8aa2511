"""Gemini CLI: request fixtures x hook answers -> the verdict Gemini CLI (0.61) reaches."""

from __future__ import annotations

import json

from hooktui.tap.runtimes import ADAPTERS

from tests.tap.fixtures import check_case, failed, out, request, specific, verdict_table

A = ADAPTERS["gemini-cli"]

PRE = "gemini_before_shell"
POST = "gemini_after_shell"

CASES = [
    ("exit0-empty", PRE, out(), {"decision": "allow"}),
    ("allow", PRE, out({"decision": "allow"}), {"decision": "allow"}),
    ("approve", PRE, out({"decision": "approve"}), {"decision": "allow"}),
    (
        "deny",
        PRE,
        out({"decision": "deny", "reason": "no ls"}),
        {"decision": "deny", "reason": "no ls"},
    ),
    (
        "block-alias",
        PRE,
        out({"decision": "block", "reason": "no ls"}),
        {"decision": "deny", "reason": "no ls"},
    ),
    (
        "ask-in-code",
        PRE,
        out({"decision": "ask", "reason": "sure?"}),
        {"decision": "ask", "reason": "sure?"},
    ),
    ("no-decision", PRE, out({"systemMessage": "hi"}), {"decision": "allow"}),
    ("unknown-decision-ignored", PRE, out({"decision": "maybe"}), {"decision": "allow"}),
    (
        "claude-style-ignored",
        PRE,
        out(specific("PreToolUse", permissionDecision="deny", permissionDecisionReason="x")),
        {"decision": "allow"},
    ),
    # tool_input replaces the arguments, it does not merge into them (the docs say
    # merged): pinned against the real Gemini CLI 0.61.0 (tests/e2e rewrite case).
    (
        "tool-input-replaces",
        PRE,
        out(
            {
                "decision": "allow",
                "hookSpecificOutput": {
                    "hookEventName": "BeforeTool",
                    "tool_input": {"command": "ls"},
                },
            }
        ),
        {"decision": "modify", "updated_input": {"command": "ls"}},  # description, dir_path dropped
    ),
    (
        "tool-input-no-decision",
        PRE,
        out({"hookSpecificOutput": {"tool_input": {"command": "ls"}}}),
        {"decision": "modify", "updated_input": {"command": "ls"}},
    ),
    (
        "deny-beats-tool-input",
        PRE,
        out(
            {
                "decision": "deny",
                "reason": "r",
                "hookSpecificOutput": {"tool_input": {"command": "ls"}},
            }
        ),
        {"decision": "deny", "reason": "r"},
    ),
    (
        "continue-false",
        PRE,
        out({"continue": False, "stopReason": "enough"}),
        {"decision": "deny", "reason": "enough"},
    ),
    (
        "context",
        PRE,
        out({"hookSpecificOutput": {"additionalContext": "c"}}),
        {"decision": "allow", "context": "c"},
    ),
    (
        "double-encoded",
        PRE,
        out(json.dumps(json.dumps({"decision": "deny", "reason": "r"}))),
        {"decision": "deny", "reason": "r"},
    ),
    ("json-array", PRE, out("[1]"), {"decision": "allow"}),
    # Exit codes
    (
        "exit2-stderr",
        PRE,
        out(stderr="blocked by policy", exit=2),
        {"decision": "deny", "reason": "blocked by policy"},
    ),
    (
        "exit3-text",
        PRE,
        out("nope, not that", exit=3),
        {"decision": "deny", "reason": "nope, not that"},
    ),
    ("exit3-stderr", PRE, out(stderr="nope", exit=3), {"decision": "deny", "reason": "nope"}),
    # exit >= 3 with text on both streams: stdout is the reason, stderr is not.
    # Pinned against the real Gemini CLI 0.61.0 (tests/e2e exit3-plain-text).
    (
        "exit3-stdout-over-stderr",
        PRE,
        out("E2E-EXIT3-OUT", "E2E-EXIT3", exit=3),
        {"decision": "deny", "reason": "E2E-EXIT3-OUT"},
    ),
    (
        "exit4-stdout-over-stderr",
        PRE,
        out("no\n", "diagnostic", exit=4),
        {"decision": "deny", "reason": "no"},
    ),
    (
        "exit1-warning",
        PRE,
        out(stderr="warn", exit=1),
        failed("exit_code", "proceeds"),
    ),
    (
        "exit1-empty",
        PRE,
        out(exit=1),
        failed("exit_code", "proceeds"),
    ),
    ("exit2-no-output", PRE, out(exit=2), {"decision": "allow"}),
    (
        "exit2-json-allow",
        PRE,
        out({"decision": "allow"}, "also this", exit=2),
        {"decision": "allow"},
    ),
    (
        "exit2-json-on-stderr",
        PRE,
        out(stderr=json.dumps({"decision": "deny", "reason": "r"}), exit=2),
        {"decision": "deny", "reason": "r"},
    ),
    (
        "exit1-json-deny-honoured",
        PRE,
        out({"decision": "deny", "reason": "r"}, exit=1),
        {"decision": "deny", "reason": "r"},
    ),
    ("exit0-plain-text", PRE, out("just saying"), {"decision": "allow"}),
    ("exit0-stderr-text", PRE, out(stderr="diagnostic"), {"decision": "allow"}),
    (
        "timeout",
        PRE,
        out(timeout=True, signal=15),
        failed("timeout", "proceeds"),
    ),
    (
        "signal",
        PRE,
        out(signal=9),
        failed("signal", "proceeds"),
    ),
    (
        "spawn",
        PRE,
        out(spawn="ENOENT"),
        failed("spawn_error", "proceeds"),
    ),
    # AfterTool: deny replaces the result with the reason
    (
        "after-deny",
        POST,
        out({"decision": "deny", "reason": "secret"}),
        {"decision": "deny", "reason": "secret"},
    ),
    ("after-allow", POST, out({"decision": "allow"}), {"decision": "allow"}),
    (
        "after-tool-input-ignored",
        POST,
        out({"hookSpecificOutput": {"tool_input": {"command": "x"}}}),
        {"decision": "allow"},
    ),
    # AfterAgent: deny = retry; continue: false = stop (what the hook gates)
    (
        "after-agent-deny",
        "gemini_after_agent",
        out({"decision": "deny", "reason": "answer in French"}),
        {"decision": "deny", "reason": "answer in French"},
    ),
    (
        "after-agent-continue-false",
        "gemini_after_agent",
        out({"continue": False, "stopReason": "enough"}),
        {"decision": "allow", "reason": "enough"},
    ),
    # BeforeAgent
    (
        "agent-deny",
        "gemini_before_agent",
        out({"decision": "deny", "reason": "off topic"}),
        {"decision": "deny", "reason": "off topic"},
    ),
    (
        "agent-context",
        "gemini_before_agent",
        out({"hookSpecificOutput": {"additionalContext": "repo is X"}}),
        {"decision": "allow", "context": "repo is X"},
    ),
]


@verdict_table(CASES)
def test_gemini_verdicts(fixture, outcome, expected):
    check_case(A, fixture, outcome, expected)


def test_parse_gemini_requests():
    call = A.parse(request(PRE))
    assert (call.runtime, call.event, call.native_event) == (
        "gemini-cli",
        "pre_tool_use",
        "BeforeTool",
    )
    assert call.tool_name == "run_shell_command"
    assert call.tool_input["command"] == "ls -la"
    assert (call.session_id, call.cwd) == ("g-sess", "/repo")
    post = A.parse(request(POST))
    assert post.event == "post_tool_use"
    assert post.tool_output["llmContent"] == "KEY=1" and post.is_error is False
    agent = A.parse(request("gemini_before_agent"))
    assert (agent.event, agent.prompt) == ("user_prompt", "summarize the repo")
    assert A.parse(request("gemini_session_start")).event == "session"
    assert A.parse(request("gemini_before_model")).event == "other"
    assert A.parse({"hook_event_name": "AfterAgent"}).event == "stop"


def test_settings():
    assert A.default_timeout_ms == 60_000
    assert {"GEMINI_PROJECT_DIR", "GEMINI_SESSION_ID", "CLAUDE_PROJECT_DIR"} <= set(A.env_vars)

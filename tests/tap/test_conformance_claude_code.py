"""Claude Code: request fixtures x hook answers -> the verdict Claude Code reaches."""

from __future__ import annotations

import pytest
from hooktui.tap.adapters import ADAPTERS

from tests.tap.fixtures import check, out, request

A = ADAPTERS["claude-code"]

PRE = "claude_pre_bash"
POST = "claude_post_bash"
PROMPT = "claude_prompt"
NEW_INPUT = {"command": "git status --short", "description": "Show status"}

CASES = [
    # Exit codes
    ("exit0-empty", PRE, out(), {"decision": "allow", "reason": "", "context": ""}),
    ("exit0-whitespace", PRE, out("  \n"), {"decision": "allow"}),
    (
        "exit2-deny-stderr",
        PRE,
        out(stderr="rm is not allowed here\n", exit=2),
        {"decision": "deny", "reason": "rm is not allowed here"},
    ),
    (
        "exit2-stdout-ignored",
        PRE,
        out({"hookSpecificOutput": {"permissionDecision": "allow"}}, "blocked", exit=2),
        {"decision": "deny", "reason": "blocked"},
    ),
    ("exit2-empty-stderr", PRE, out(exit=2), {"decision": "deny", "reason": ""}),
    (
        "exit1-failure",
        PRE,
        out(stderr="boom", exit=1),
        {"decision": "failure", "failure": "exit_code", "effect": "proceeds", "detail": "exit 1"},
    ),
    (
        "exit1-json-deny-ignored",
        PRE,
        out({"hookSpecificOutput": {"permissionDecision": "deny"}}, exit=1),
        {"decision": "failure", "failure": "exit_code", "effect": "proceeds"},
    ),
    (
        "exit3-failure",
        PRE,
        out(exit=3),
        {"decision": "failure", "failure": "exit_code", "effect": "proceeds"},
    ),
    (
        "exit127",
        PRE,
        out(stderr="sh: x: not found", exit=127),
        {"decision": "failure", "failure": "exit_code", "effect": "proceeds"},
    ),
    (
        "signal",
        PRE,
        out(signal=9),
        {"decision": "failure", "failure": "signal", "effect": "proceeds"},
    ),
    (
        "timeout",
        PRE,
        out(timeout=True, signal=15),
        {"decision": "failure", "failure": "timeout", "effect": "proceeds"},
    ),
    (
        "spawn",
        PRE,
        out(spawn="No such file", exit=127),
        {"decision": "failure", "failure": "spawn_error", "effect": "proceeds"},
    ),
    # Plain text
    ("text-pre-ignored", PRE, out("looks fine to me\n"), {"decision": "allow", "context": ""}),
    (
        "text-prompt-context",
        PROMPT,
        out("Remember: tests first\n"),
        {"decision": "allow", "context": "Remember: tests first"},
    ),
    (
        "text-session-context",
        "claude_session_start",
        out("branch: main"),
        {"decision": "allow", "context": "branch: main"},
    ),
    ("json-array-is-text", PRE, out("[1, 2]"), {"decision": "allow"}),
    (
        "invalid-json",
        PRE,
        out('{"hookSpecificOutput": '),
        {"decision": "failure", "failure": "invalid_json", "effect": "proceeds"},
    ),
    # permissionDecision
    (
        "pd-allow",
        PRE,
        out({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}),
        {"decision": "allow"},
    ),
    (
        "pd-deny",
        PRE,
        out(
            {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": "no force push",
                }
            }
        ),
        {"decision": "deny", "reason": "no force push"},
    ),
    (
        "pd-ask",
        PRE,
        out(
            {
                "hookSpecificOutput": {
                    "permissionDecision": "ask",
                    "permissionDecisionReason": "confirm?",
                }
            }
        ),
        {"decision": "ask", "reason": "confirm?"},
    ),
    (
        "pd-defer",
        PRE,
        out({"hookSpecificOutput": {"permissionDecision": "defer"}}),
        {"decision": "ask", "reason": "defer"},
    ),
    (
        "pd-unknown",
        PRE,
        out({"hookSpecificOutput": {"permissionDecision": "maybe"}}),
        {"decision": "failure", "failure": "unsupported", "effect": "proceeds"},
    ),
    (
        "pd-allow-updated",
        PRE,
        out({"hookSpecificOutput": {"permissionDecision": "allow", "updatedInput": NEW_INPUT}}),
        {"decision": "modify", "updated_input": NEW_INPUT},
    ),
    (
        "updated-alone",
        PRE,
        out({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": NEW_INPUT}}),
        {"decision": "modify", "updated_input": NEW_INPUT},
    ),
    (
        "pd-ask-updated",
        PRE,
        out({"hookSpecificOutput": {"permissionDecision": "ask", "updatedInput": NEW_INPUT}}),
        {"decision": "ask", "updated_input": NEW_INPUT},
    ),
    (
        "pd-context",
        PRE,
        out(
            {
                "hookSpecificOutput": {
                    "permissionDecision": "allow",
                    "additionalContext": "ran in CI",
                }
            }
        ),
        {"decision": "allow", "context": "ran in CI"},
    ),
    (
        "pd-wins-over-legacy",
        PRE,
        out(
            {
                "decision": "approve",
                "hookSpecificOutput": {
                    "permissionDecision": "deny",
                    "permissionDecisionReason": "x",
                },
            }
        ),
        {"decision": "deny", "reason": "x"},
    ),
    # Legacy
    (
        "legacy-approve",
        PRE,
        out({"decision": "approve", "reason": "ok"}),
        {"decision": "allow", "reason": "ok"},
    ),
    (
        "legacy-block",
        PRE,
        out({"decision": "block", "reason": "nope"}),
        {"decision": "deny", "reason": "nope"},
    ),
    (
        "gemini-style-allow",
        PRE,
        out({"decision": "allow"}),
        {"decision": "failure", "failure": "unsupported", "effect": "proceeds"},
    ),
    # continue: false stops Claude altogether: nothing runs.
    (
        "continue-false",
        PRE,
        out({"continue": False, "stopReason": "quota reached"}),
        {"decision": "deny", "reason": "quota reached"},
    ),
    ("continue-false-bare", POST, out({"continue": False}), {"decision": "deny"}),
    ("continue-true", PRE, out({"continue": True, "suppressOutput": True}), {"decision": "allow"}),
    # PostToolUse
    (
        "post-block",
        POST,
        out({"decision": "block", "reason": "secret in output"}),
        {"decision": "deny", "reason": "secret in output"},
    ),
    (
        "post-exit2",
        POST,
        out(stderr="leaked a token", exit=2),
        {"decision": "deny", "reason": "leaked a token"},
    ),
    (
        "post-updated-output",
        POST,
        out(
            {
                "hookSpecificOutput": {
                    "hookEventName": "PostToolUse",
                    "updatedToolOutput": {"stdout": "[redacted]", "stderr": ""},
                }
            }
        ),
        {"decision": "replace", "updated_output": {"stdout": "[redacted]", "stderr": ""}},
    ),
    (
        "post-updated-mcp-output",
        POST,
        out({"hookSpecificOutput": {"updatedMCPToolOutput": "[redacted]"}}),
        {"decision": "replace", "updated_output": "[redacted]"},
    ),
    (
        "post-context",
        POST,
        out({"hookSpecificOutput": {"additionalContext": "note"}}),
        {"decision": "allow", "context": "note"},
    ),
    (
        "post-failure-exit1",
        "claude_post_failure",
        out(exit=1),
        {"decision": "failure", "failure": "exit_code", "effect": "proceeds"},
    ),
    # UserPromptSubmit
    (
        "prompt-block",
        PROMPT,
        out({"decision": "block", "reason": "no secrets in prompts"}),
        {"decision": "deny", "reason": "no secrets in prompts"},
    ),
    (
        "prompt-exit2",
        PROMPT,
        out(stderr="erased", exit=2),
        {"decision": "deny", "reason": "erased"},
    ),
    (
        "prompt-context-json",
        PROMPT,
        out(
            {
                "hookSpecificOutput": {
                    "hookEventName": "UserPromptSubmit",
                    "additionalContext": "ctx",
                }
            }
        ),
        {"decision": "allow", "context": "ctx"},
    ),
    # Stop: block = do not stop
    (
        "stop-block",
        "claude_stop",
        out({"decision": "block", "reason": "tests fail"}),
        {"decision": "deny", "reason": "tests fail"},
    ),
    (
        "stop-exit2",
        "claude_stop",
        out(stderr="keep going", exit=2),
        {"decision": "deny", "reason": "keep going"},
    ),
    # continue: false at Stop: stopping is what was asked for
    (
        "stop-continue-false",
        "claude_stop",
        out({"continue": False, "stopReason": "done", "decision": "block", "reason": "r"}),
        {"decision": "allow", "reason": "done"},
    ),
    # Events that cannot block
    (
        "session-exit2",
        "claude_session_start",
        out(stderr="x", exit=2),
        {
            "decision": "failure",
            "failure": "exit_code",
            "effect": "proceeds",
            "detail": "cannot block",
        },
    ),
    (
        "notification-block",
        "claude_notification",
        out({"decision": "block", "reason": "r"}),
        {"decision": "allow"},
    ),
    # PermissionRequest
    (
        "perm-allow",
        "claude_permission",
        out(
            {
                "hookSpecificOutput": {
                    "hookEventName": "PermissionRequest",
                    "decision": {"behavior": "allow"},
                }
            }
        ),
        {"decision": "allow"},
    ),
    (
        "perm-deny",
        "claude_permission",
        out(
            {"hookSpecificOutput": {"decision": {"behavior": "deny", "message": "not on fridays"}}}
        ),
        {"decision": "deny", "reason": "not on fridays"},
    ),
    (
        "perm-allow-updated",
        "claude_permission",
        out(
            {
                "hookSpecificOutput": {
                    "decision": {
                        "behavior": "allow",
                        "updatedInput": {"command": "npm publish --dry-run"},
                    }
                }
            }
        ),
        {"decision": "modify", "updated_input": {"command": "npm publish --dry-run"}},
    ),
    ("perm-none", "claude_permission", out({}), {"decision": "ask"}),
    (
        "perm-bad-behavior",
        "claude_permission",
        out({"hookSpecificOutput": {"decision": {"behavior": "perhaps"}}}),
        {"decision": "failure", "failure": "unsupported", "effect": "proceeds"},
    ),
    # Subagent edit
    (
        "subagent-deny",
        "claude_subagent_edit",
        out(stderr="protected file", exit=2),
        {"decision": "deny", "reason": "protected file"},
    ),
]


@pytest.mark.parametrize(
    ("fixture", "outcome", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_claude_code_verdicts(fixture, outcome, expected):
    call = A.parse(request(fixture))
    check(A.judge(call, outcome), expected)


def test_parse_pre_tool_use():
    call = A.parse(request("claude_pre_bash"))
    assert call.runtime == "claude-code"
    assert (call.event, call.native_event) == ("pre_tool_use", "PreToolUse")
    assert call.tool_name == "Bash"
    assert call.tool_input == {"command": "git status", "description": "Show status"}
    assert (call.session_id, call.tool_call_id, call.cwd) == ("abc123", "toolu_01", "/home/u/p")
    assert call.tool_output is None and call.prompt is None


def test_parse_post_prompt_subagent_and_failure():
    post = A.parse(request("claude_post_bash"))
    assert post.event == "post_tool_use"
    assert post.tool_output["stdout"] == "TOKEN=x"
    prompt = A.parse(request("claude_prompt"))
    assert (prompt.event, prompt.prompt) == ("user_prompt", "Refactor the parser\nand add tests")
    sub = A.parse(request("claude_subagent_edit"))
    assert sub.agent_id == "sub-1"
    failed = A.parse(request("claude_post_failure"))
    assert (failed.event, failed.is_error) == ("post_tool_use", True)
    assert A.parse(request("claude_stop")).event == "stop"
    assert A.parse(request("claude_session_start")).event == "session"
    assert A.parse(request("claude_notification")).event == "notification"
    assert A.parse(request("claude_permission")).event == "permission_request"
    assert A.parse({"hook_event_name": "PreCompact"}).event == "other"


def test_parse_never_raises_on_odd_requests():
    for odd in (None, "text", 42, [], {"hook_event_name": 7, "tool_name": None}):
        call = A.parse(odd)
        assert call.runtime == "claude-code"


def test_settings():
    assert A.default_timeout_ms == 600_000
    assert {"CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_ENV_FILE"} <= set(A.env_vars)

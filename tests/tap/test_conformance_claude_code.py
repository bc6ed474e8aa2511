"""Claude Code: request fixtures x hook answers -> the verdict Claude Code reaches."""

from __future__ import annotations

from hooktui.tap.runtimes import ADAPTERS

from tests.tap.fixtures import check_case, failed, out, request, specific, verdict_table

A = ADAPTERS["claude-code"]

PRE = "claude_pre_bash"
POST = "claude_post_bash"
PROMPT = "claude_prompt"
MCP_POST = "claude_post_mcp"
NEW_INPUT = {"command": "git status --short", "description": "Show status"}
BASH_OUTPUT = {"stdout": "[redacted]", "stderr": "", "interrupted": False}


def _hso_pre(**fields):
    return {"hookEventName": "PreToolUse", **fields}


def _pre(**fields):
    return specific("PreToolUse", **fields)


def _post(**fields):
    return specific("PostToolUse", **fields)


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
        out(
            _pre(permissionDecision="allow"),
            "blocked",
            exit=2,
        ),
        {"decision": "deny", "reason": "blocked"},
    ),
    ("exit2-empty-stderr", PRE, out(exit=2), {"decision": "deny", "reason": ""}),
    (
        "exit1-failure",
        PRE,
        out(stderr="boom", exit=1),
        failed("exit_code", "proceeds", detail="exit 1"),
    ),
    # JSON on stdout is read whatever the exit code, 2 aside: pinned against the
    # real Claude Code 2.1.332 (tests/e2e: deny-json-with-exit1, deny-json-with-exit3,
    # allow-json-with-exit1, plain-text-with-exit1, deny-json-with-exit2).
    (
        "exit1-json-deny",
        PRE,
        out(_pre(permissionDecision="deny", permissionDecisionReason="E2E-D"), exit=1),
        {"decision": "deny", "reason": "E2E-D"},
    ),
    (
        "exit3-json-deny",
        PRE,
        out(_pre(permissionDecision="deny", permissionDecisionReason="no"), "ignored", exit=3),
        {"decision": "deny", "reason": "no"},
    ),
    (
        "exit1-json-allow",
        PRE,
        out(_pre(permissionDecision="allow"), "oops", exit=1),
        {"decision": "allow", "reason": ""},
    ),
    ("exit1-json-empty-object", PRE, out({}, exit=1), {"decision": "allow"}),
    (
        "exit1-plain-text",
        PRE,
        out("just some text", "oops", exit=1),
        failed("exit_code", "proceeds"),
    ),
    (
        "exit1-broken-json",
        PRE,
        out("{not json", exit=1),
        failed("exit_code", "proceeds"),
    ),
    (
        "exit2-json-deny-reason",
        PRE,
        out(
            _pre(permissionDecision="deny", permissionDecisionReason="E2E-JD"), "E2E-EXIT2", exit=2
        ),
        {"decision": "deny", "reason": "E2E-JD"},
    ),
    # An answer that fails the output schema or names another event is dropped
    # whole (pinned against the real Claude Code 2.1.332: deny-without-hookEventName,
    # deny-under-wrong-hookEventName); since 2.1.214 exit 2 blocks all the same
    # (invalid-answer-with-exit2; 2.1.197 let it proceed: test_claude_code_dated).
    (
        "exit2-invalid-answer",
        PRE,
        out({"decision": "allow"}, "E2E-EXIT2", exit=2),
        {"decision": "deny", "reason": "E2E-EXIT2", "note": "exit 2 blocks all the same"},
    ),
    (
        "hso-without-event-name",
        PRE,
        out(
            {"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "x"}}
        ),
        failed("unsupported", "proceeds", detail="hookEventName"),
    ),
    (
        "hso-other-event-name",
        PRE,
        out(_post(permissionDecision="deny", permissionDecisionReason="E2E-W")),
        failed("unsupported", "proceeds", detail="PostToolUse"),
    ),
    (
        "hso-other-event-name-exit2",
        PRE,
        out({"hookSpecificOutput": {"hookEventName": "Stop"}}, "blocked", exit=2),
        # The answer is dropped; since 2.1.214 exit 2 blocks with stderr all the same.
        {"decision": "deny", "reason": "blocked", "note": "exit 2 blocks all the same"},
    ),
    (
        "hso-unknown-event-name",
        POST,
        out(specific("AfterTool", additionalContext="c")),
        failed("unsupported", "proceeds"),
    ),
    (
        "reason-not-a-string",
        PRE,
        out({"decision": "block", "reason": None}),
        failed("unsupported", "proceeds"),
    ),
    (
        "continue-not-a-bool",
        PRE,
        out({"continue": "no"}),
        failed("unsupported", "proceeds"),
    ),
    (
        "updated-input-not-an-object",
        PRE,
        out(_pre(updatedInput="git status")),
        failed("unsupported", "proceeds"),
    ),
    (
        "exit3-failure",
        PRE,
        out(exit=3),
        failed("exit_code", "proceeds"),
    ),
    (
        "exit127",
        PRE,
        out(stderr="sh: x: not found", exit=127),
        failed("exit_code", "proceeds"),
    ),
    (
        "signal",
        PRE,
        out(signal=9),
        failed("signal", "proceeds"),
    ),
    (
        "timeout",
        PRE,
        out(timeout=True, signal=15),
        failed("timeout", "proceeds"),
    ),
    (
        "spawn",
        PRE,
        out(spawn="No such file", exit=127),
        failed("spawn_error", "proceeds"),
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
        # Pinned against the real Claude Code 2.1.332: broken JSON is plain text.
        {"decision": "allow", "note": "not valid JSON"},
    ),
    # permissionDecision
    (
        "pd-allow",
        PRE,
        out(_pre(permissionDecision="allow")),
        {"decision": "allow"},
    ),
    (
        "pd-deny",
        PRE,
        out(_pre(permissionDecision="deny", permissionDecisionReason="no force push")),
        {"decision": "deny", "reason": "no force push"},
    ),
    (
        "pd-ask",
        PRE,
        out(_pre(permissionDecision="ask", permissionDecisionReason="confirm?")),
        {"decision": "ask", "reason": "confirm?"},
    ),
    (
        "pd-defer",
        PRE,
        out(_pre(permissionDecision="defer", permissionDecisionReason="later")),
        {"decision": "defer", "reason": "later"},
    ),
    (
        "pd-unknown",
        PRE,
        out(_pre(permissionDecision="maybe")),
        failed("unsupported", "proceeds"),
    ),
    (
        "pd-allow-updated",
        PRE,
        out(_pre(permissionDecision="allow", updatedInput=NEW_INPUT)),
        {"decision": "modify", "updated_input": NEW_INPUT},
    ),
    (
        "updated-alone",
        PRE,
        out(_pre(updatedInput=NEW_INPUT)),
        {"decision": "modify", "updated_input": NEW_INPUT},
    ),
    (
        "pd-ask-updated",
        PRE,
        out(_pre(permissionDecision="ask", updatedInput=NEW_INPUT)),
        {"decision": "ask", "updated_input": NEW_INPUT},
    ),
    (
        "pd-context",
        PRE,
        out(_pre(permissionDecision="allow", additionalContext="ran in CI")),
        {"decision": "allow", "context": "ran in CI"},
    ),
    (
        "pd-wins-over-legacy",
        PRE,
        out(
            {
                "decision": "approve",
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
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
        failed("unsupported", "proceeds"),
    ),
    # continue: false at a tool event: the tool still runs (PostToolUse fires), then
    # the turn ends; a deny beside it blocks and ends the turn too (2.1.197: the model
    # read the reason and went on). Pinned against the real Claude Code 2.1.332
    # (continue-false, deny-and-continue-false).
    (
        "continue-false",
        PRE,
        out({"continue": False, "stopReason": "quota reached"}),
        {
            "decision": "allow",
            "reason": "quota reached",
            "note": "ends the turn",
            "answer_effects": {"stop": "quota reached"},
        },
    ),
    (
        "continue-false-with-rewrite",
        PRE,
        out({"continue": False, "hookSpecificOutput": _hso_pre(updatedInput=NEW_INPUT)}),
        {"decision": "modify", "updated_input": NEW_INPUT, "note": "ends the turn"},
    ),
    (
        "continue-false-with-deny",
        PRE,
        out(
            {
                "continue": False,
                "stopReason": "s",
                "hookSpecificOutput": _hso_pre(
                    permissionDecision="deny", permissionDecisionReason="E2E-DS"
                ),
            }
        ),
        {"decision": "deny", "reason": "E2E-DS", "answer_effects": {"stop": "s"}},
    ),
    (
        "continue-false-bare",
        POST,
        out({"continue": False}),
        {"decision": "allow", "reason": "continue: false", "note": "ends the turn"},
    ),
    (
        "continue-false-prompt",
        PROMPT,
        out({"continue": False, "stopReason": "no"}),
        {"decision": "deny", "reason": "no"},
    ),
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
        out(_post(updatedToolOutput=BASH_OUTPUT)),
        {"decision": "replace", "updated_output": BASH_OUTPUT},
    ),
    # updatedToolOutput for a built-in tool must fit its output shape, else the
    # model gets the real output; updatedMCPToolOutput is for MCP tools only.
    # Pinned against the real Claude Code 2.1.332 (post-updatedToolOutput-on-bash,
    # post-updatedToolOutput-bash-shaped).
    (
        "post-updated-output-text-on-bash",
        POST,
        out(_post(updatedToolOutput="E2E-REPLACED")),
        {"decision": "allow", "note": "real output"},
    ),
    (
        "post-updated-output-missing-interrupted",
        POST,
        out(_post(updatedToolOutput={"stdout": "x", "stderr": ""})),
        {"decision": "allow", "note": "real output"},
    ),
    (
        "post-updated-output-object-on-edit",
        "claude_post_edit",
        out(_post(updatedToolOutput={"filePath": "/x"})),
        {"decision": "replace", "updated_output": {"filePath": "/x"}},
    ),
    (
        "post-updated-output-text-on-mcp",
        MCP_POST,
        out(_post(updatedToolOutput="[redacted]")),
        {"decision": "replace", "updated_output": "[redacted]"},
    ),
    (
        "post-updated-mcp-output-on-mcp",
        MCP_POST,
        out(_post(updatedMCPToolOutput="[redacted]")),
        {"decision": "replace", "updated_output": "[redacted]"},
    ),
    (
        "post-updated-output-wins-over-mcp",
        MCP_POST,
        out(_post(updatedToolOutput="a", updatedMCPToolOutput="b")),
        {"decision": "replace", "updated_output": "a"},
    ),
    (
        "post-updated-mcp-output-on-bash",
        POST,
        out(_post(updatedMCPToolOutput="x")),
        {"decision": "allow", "note": "real output"},
    ),
    (
        "post-context",
        POST,
        out(_post(additionalContext="note")),
        {"decision": "allow", "context": "note"},
    ),
    (
        "post-failure-exit1",
        "claude_post_failure",
        out(exit=1),
        failed("exit_code", "proceeds"),
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
        out(specific("UserPromptSubmit", additionalContext="ctx")),
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
        failed("exit_code", "proceeds", detail="cannot block"),
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
        out(specific("PermissionRequest", decision={"behavior": "allow"})),
        {"decision": "allow"},
    ),
    (
        "perm-deny",
        "claude_permission",
        out(
            specific(
                "PermissionRequest", decision={"behavior": "deny", "message": "not on fridays"}
            )
        ),
        {"decision": "deny", "reason": "not on fridays"},
    ),
    (
        "perm-allow-updated",
        "claude_permission",
        out(
            specific(
                "PermissionRequest",
                decision={
                    "behavior": "allow",
                    "updatedInput": {"command": "npm publish --dry-run"},
                },
            )
        ),
        {"decision": "modify", "updated_input": {"command": "npm publish --dry-run"}},
    ),
    ("perm-none", "claude_permission", out({}), {"decision": "ask"}),
    (
        "perm-bad-behavior",
        "claude_permission",
        out(specific("PermissionRequest", decision={"behavior": "perhaps"})),
        failed("unsupported", "proceeds"),
    ),
    # Subagent edit
    (
        "subagent-deny",
        "claude_subagent_edit",
        out(stderr="protected file", exit=2),
        {"decision": "deny", "reason": "protected file"},
    ),
]


@verdict_table(CASES)
def test_claude_code_verdicts(fixture, outcome, expected):
    check_case(A, fixture, outcome, expected)


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

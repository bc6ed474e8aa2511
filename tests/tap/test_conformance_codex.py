"""Codex: request fixtures x hook answers -> the verdict Codex (0.171, the real runtime) reaches."""

from __future__ import annotations

from hooktui.tap.runtimes import ADAPTERS

from tests.tap.fixtures import check_case, failed, out, request, specific, verdict_table

A = ADAPTERS["codex"]

PRE = "codex_pre_bash"
POST = "codex_post_bash"
FAIL = failed("unsupported", "proceeds")


def hso(**fields):
    return specific("PreToolUse", **fields)


def _post(**fields):
    return specific("PostToolUse", **fields)


def _perm(**fields):
    return specific("PermissionRequest", **fields)


CASES = [
    ("exit0-empty", PRE, out(), {"decision": "allow"}),
    ("plain-text-ignored", PRE, out("checked\n"), {"decision": "allow"}),
    # Deny, three ways
    (
        "pd-deny",
        PRE,
        out(hso(permissionDecision="deny", permissionDecisionReason="no rm -rf")),
        {"decision": "deny", "reason": "no rm -rf"},
    ),
    (
        "legacy-block",
        PRE,
        out({"decision": "block", "reason": "blocked"}),
        {"decision": "deny", "reason": "blocked"},
    ),
    (
        "exit2-stderr",
        PRE,
        out(stderr="not here\n", exit=2),
        {"decision": "deny", "reason": "not here"},
    ),
    # Rewrite
    (
        "allow-updated-input",
        PRE,
        out(hso(permissionDecision="allow", updatedInput={"command": "rm -rf build/tmp"})),
        {"decision": "modify", "updated_input": {"command": "rm -rf build/tmp"}},
    ),
    (
        "patch-rewrite",
        "codex_pre_patch",
        out(
            hso(
                permissionDecision="allow",
                updatedInput={"command": "*** Begin Patch\n*** End Patch\n"},
            )
        ),
        {"decision": "modify", "updated_input": {"command": "*** Begin Patch\n*** End Patch\n"}},
    ),
    # Failures seen on the real runtime: the tool runs
    ("allow-alone", PRE, out(hso(permissionDecision="allow")), FAIL),
    ("ask", PRE, out(hso(permissionDecision="ask")), FAIL),
    ("defer", PRE, out(hso(permissionDecision="defer")), FAIL),
    ("continue-false", PRE, out({"continue": False, "stopReason": "stop"}), FAIL),
    ("stop-reason-only", PRE, out({"stopReason": "x"}), FAIL),
    ("suppress-output", PRE, out({"suppressOutput": True}), FAIL),
    (
        "exit1",
        PRE,
        out(stderr="oops", exit=1),
        failed("exit_code", "proceeds"),
    ),
    (
        "exit2-empty-stderr",
        PRE,
        out(exit=2),
        failed("exit_code", "proceeds"),
    ),
    (
        "exit2-blank-stderr",
        PRE,
        out(stderr=" \n", exit=2),
        failed("exit_code", "proceeds"),
    ),
    (
        "gemini-style-json",
        PRE,
        out({"decision": "deny", "reason": "x"}),
        failed("invalid_json", "proceeds"),
    ),
    ("unknown-field", PRE, out({"permission": "deny"}), FAIL),
    ("legacy-approve", PRE, out({"decision": "approve"}), FAIL),
    ("block-no-reason", PRE, out({"decision": "block"}), FAIL),
    ("block-blank-reason", PRE, out({"decision": "block", "reason": "  "}), FAIL),
    ("reason-without-decision", PRE, out({"reason": "because"}), FAIL),
    ("deny-no-reason", PRE, out(hso(permissionDecision="deny")), FAIL),
    ("updated-without-allow", PRE, out(hso(updatedInput={"command": "ls"})), FAIL),
    ("pd-reason-alone", PRE, out(hso(permissionDecisionReason="r")), FAIL),
    ("hso-not-object", PRE, out({"hookSpecificOutput": "deny"}), FAIL),
    (
        "invalid-json",
        PRE,
        out("{oops"),
        failed("invalid_json", "proceeds"),
    ),
    (
        "array-json",
        PRE,
        out("[1]"),
        failed("invalid_json", "proceeds"),
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
        out(timeout=True, signal=9),
        failed("timeout", "proceeds"),
    ),
    (
        "spawn",
        PRE,
        out(spawn="ENOENT"),
        failed("spawn_error", "proceeds"),
    ),
    (
        "context-only",
        PRE,
        out(hso(additionalContext="fyi")),
        {"decision": "allow", "context": "fyi"},
    ),
    ("empty-object", "codex_pre_mcp", out({}), {"decision": "allow"}),
    # PostToolUse: block or exit 2 replaces the result with the reason
    (
        "post-block",
        POST,
        out({"decision": "block", "reason": "secret printed"}),
        {"decision": "deny", "reason": "secret printed"},
    ),
    (
        "post-exit2",
        POST,
        out(stderr="secret printed", exit=2),
        {"decision": "deny", "reason": "secret printed"},
    ),
    ("post-block-no-reason", POST, out({"decision": "block"}), FAIL),
    ("post-reason-alone", POST, out({"reason": "x"}), FAIL),
    ("post-suppress", POST, out({"suppressOutput": True}), FAIL),
    (
        "post-updated-mcp",
        POST,
        out(_post(updatedMCPToolOutput="x")),
        FAIL,
    ),
    ("post-updated-tool", POST, out(_post(updatedToolOutput="x")), FAIL),
    (
        "post-context",
        POST,
        out(_post(additionalContext="c")),
        {"decision": "allow", "context": "c"},
    ),
    # hookEventName must be an event Codex knows, not necessarily this one, and the
    # fields must be this event's: pinned against the real Codex 0.171.0
    # (post-context-under-wrong-hookEventName, post-context-under-another-event-name,
    # post-context-beside-a-field-of-another-event).
    (
        "post-context-unknown-event-name",
        POST,
        out(specific("AfterTool", additionalContext="c")),
        failed("invalid_json", "proceeds", context=""),
    ),
    (
        "post-context-other-codex-event-name",
        POST,
        out(hso(additionalContext="c")),
        {"decision": "allow", "context": "c"},
    ),
    (
        "post-context-beside-a-pre-field",
        POST,
        out(_post(additionalContext="c", permissionDecision="deny")),
        failed("invalid_json", "proceeds", context=""),
    ),
    (
        "pre-deny-beside-a-post-field",
        PRE,
        out(
            hso(
                permissionDecision="deny",
                permissionDecisionReason="no",
                updatedMCPToolOutput="x",
            )
        ),
        failed("invalid_json", "proceeds"),
    ),
    (
        "post-context-without-event-name",
        POST,
        out({"hookSpecificOutput": {"additionalContext": "c"}}),
        failed("invalid_json", "proceeds"),
    ),
    (
        "post-context-not-a-string",
        POST,
        out(_post(additionalContext=["c"])),
        failed("invalid_json", "proceeds"),
    ),
    (
        "pre-deny-unknown-event-name",
        PRE,
        out(specific("BeforeTool", permissionDecision="deny", permissionDecisionReason="no")),
        failed("invalid_json", "proceeds"),
    ),
    (
        "post-continue-false",
        POST,
        out({"continue": False, "stopReason": "halt"}),
        {"decision": "deny", "reason": "halt"},
    ),
    # UserPromptSubmit / Stop
    (
        "prompt-block",
        "codex_prompt",
        out({"decision": "block", "reason": "no"}),
        {"decision": "deny", "reason": "no"},
    ),
    (
        "prompt-text-context",
        "codex_prompt",
        out("remember X"),
        {"decision": "allow", "context": "remember X"},
    ),
    ("prompt-block-no-reason", "codex_prompt", out({"decision": "block"}), FAIL),
    (
        "stop-block",
        "codex_stop",
        out({"decision": "block", "reason": "continue: run tests"}),
        {"decision": "deny", "reason": "continue: run tests"},
    ),
    (
        "stop-continue-false",
        "codex_stop",
        out({"continue": False, "stopReason": "done"}),
        {"decision": "allow", "reason": "done"},
    ),
    # PermissionRequest
    (
        "perm-allow",
        "codex_permission",
        out(_perm(decision={"behavior": "allow"})),
        {"decision": "allow"},
    ),
    (
        "perm-deny-default-message",
        "codex_permission",
        out(_perm(decision={"behavior": "deny"})),
        {"decision": "deny", "reason": "PermissionRequest hook denied approval"},
    ),
    (
        "perm-updated-input",
        "codex_permission",
        out(_perm(decision={"behavior": "allow", "updatedInput": {}})),
        FAIL,
    ),
    (
        "perm-interrupt",
        "codex_permission",
        out(_perm(decision={"behavior": "deny", "interrupt": True})),
        FAIL,
    ),
    ("perm-continue-false", "codex_permission", out({"continue": False}), FAIL),
    ("perm-none", "codex_permission", out({}), {"decision": "ask"}),
]


@verdict_table(CASES)
def test_codex_verdicts(fixture, outcome, expected):
    check_case(A, fixture, outcome, expected)


def test_parse_codex_requests():
    call = A.parse(request(PRE))
    assert (call.runtime, call.event, call.tool_name) == ("codex", "pre_tool_use", "Bash")
    assert call.tool_input == {"command": "rm -rf build"}
    assert (call.session_id, call.tool_call_id, call.cwd) == (
        "019a-thread",
        "call_abc",
        "/work/repo",
    )
    post = A.parse(request(POST))
    assert post.tool_output == "hunter2\n"  # a plain string on Codex
    assert A.parse(request("codex_pre_mcp")).tool_name == "mcp__github__list_issues"
    assert A.parse(request("codex_prompt")).prompt == "ship it"


def test_settings():
    assert A.default_timeout_ms == 600_000
    assert "CODEX_HOME" in A.env_vars

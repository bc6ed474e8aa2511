"""Qwen Code: request fixtures x hook answers -> what Qwen Code 0.24.4 did.

Every row is a behaviour the real CLI showed (tests/e2e/ORACLE.md, pinned in
test_e2e_qwen.py), where it differs from Claude Code's reading of the same answer.
"""

from __future__ import annotations

import json

from hooktui.tap.runtimes import ADAPTERS

from tests.tap.fixtures import check_case, failed, out, request, specific, verdict_table

A = ADAPTERS["qwen-code"]
PRE, POST, PERM = "qwen_pre_shell", "qwen_post_shell", "qwen_permission"
NEW = {"command": "echo rewritten"}
HDENY = specific("PreToolUse", permissionDecision="deny", permissionDecisionReason="no")
STOP = {"continue": False, "stopReason": "stop"}

CASES = [
    ("deny", PRE, out(HDENY), {"decision": "deny", "reason": "no"}),
    ("allow", PRE, out(specific("PreToolUse", permissionDecision="allow")), {"decision": "allow"}),
    # No PreToolUse rewrite in 0.24.4: the tool runs as asked.
    (
        "updatedInput-ignored",
        PRE,
        out(specific("PreToolUse", permissionDecision="allow", updatedInput=NEW)),
        {"decision": "allow", "note": "no PreToolUse rewrite"},
    ),
    (
        "flat-permissionDecision-ignored",
        PRE,
        out({"permissionDecision": "deny"}),
        {"decision": "allow"},
    ),
    (
        "legacy-block",
        PRE,
        out({"decision": "block", "reason": "b"}),
        {"decision": "deny", "reason": "b"},
    ),
    (
        "legacy-deny",
        PRE,
        out({"decision": "deny", "reason": "b"}),
        {"decision": "deny", "reason": "b"},
    ),
    (
        "continue-false",
        PRE,
        out({"continue": False, "stopReason": "stop"}),
        {"decision": "deny", "reason": "stop"},
    ),
    # A deny or ask is read before continue: false, with its own reason; continue: false
    # blocks an allow too; no reason at all reads "No reason provided" (seen 2026-12-05).
    (
        "continue-false-with-deny",
        PRE,
        out({**STOP, **HDENY}),
        {"decision": "deny", "reason": "no"},
    ),
    (
        "continue-false-with-legacy-block",
        PRE,
        out({**STOP, "decision": "block", "reason": "b"}),
        {"decision": "deny", "reason": "b"},
    ),
    (
        "continue-false-with-deny-no-reason",
        PRE,
        out({**STOP, **specific("PreToolUse", permissionDecision="deny")}),
        {"decision": "deny", "reason": "stop"},
    ),
    (
        "continue-false-with-ask",
        PRE,
        out(
            {
                **STOP,
                **specific("PreToolUse", permissionDecision="ask", permissionDecisionReason="A"),
            }
        ),
        {"decision": "ask", "reason": "A"},
    ),
    (
        "continue-false-with-allow",
        PRE,
        out({**STOP, **specific("PreToolUse", permissionDecision="allow")}),
        {"decision": "deny", "reason": "stop"},
    ),
    (
        "continue-false-exit1",
        PRE,
        out(STOP, exit=1),
        {"decision": "deny", "reason": "stop"},
    ),
    (
        "continue-false-reason-only",
        PRE,
        out({"continue": False, "reason": "r"}),
        {"decision": "deny", "reason": "r"},
    ),
    (
        "continue-false-no-reason",
        PRE,
        out({"continue": False}),
        {"decision": "deny", "reason": "No reason provided"},
    ),
    (
        "deny-no-reason",
        PRE,
        out(specific("PreToolUse", permissionDecision="deny")),
        {"decision": "deny", "reason": "No reason provided"},
    ),
    # PreToolUse additionalContext reaches nothing, whatever the decision or exit (seen
    # 2026-12-05): no context in the record; a note where the verdict carries one.
    (
        "additional-context-allow",
        PRE,
        out(specific("PreToolUse", permissionDecision="allow", additionalContext="C")),
        {"decision": "allow", "context": "", "note": "no PreToolUse context"},
    ),
    (
        "additional-context-alone",
        PRE,
        out(specific("PreToolUse", additionalContext="C")),
        {"decision": "allow", "context": "", "note": "no PreToolUse context"},
    ),
    (
        "additional-context-deny",
        PRE,
        out(
            specific(
                "PreToolUse",
                permissionDecision="deny",
                additionalContext="C",
                permissionDecisionReason="no",
            )
        ),
        {"decision": "deny", "reason": "no", "context": "", "note": "no PreToolUse context"},
    ),
    (
        "additional-context-exit1",
        PRE,
        out(specific("PreToolUse", additionalContext="C"), exit=1),
        failed("exit_code", "proceeds", context=""),
    ),
    (
        "additional-context-exit1-allow",
        PRE,
        out(specific("PreToolUse", permissionDecision="allow", additionalContext="C"), exit=1),
        failed("exit_code", "proceeds", context=""),
    ),
    ("exit2-stderr", PRE, out(stderr="E2", exit=2), {"decision": "deny", "reason": "E2"}),
    (
        "exit2-stderr-json",
        PRE,
        out(stderr=json.dumps({"decision": "deny", "reason": "SJ"}), exit=2),
        {"decision": "deny", "reason": "SJ"},
    ),
    (
        "exit2-stderr-hso",
        PRE,
        out(stderr=json.dumps(HDENY), exit=2),
        {"decision": "deny", "reason": "no"},
    ),
    (
        "exit2-stdout-json-is-not-read",
        PRE,
        out({"decision": "deny", "reason": "OUT"}, stderr="ERR", exit=2),
        {"decision": "deny", "reason": "ERR"},
    ),
    (
        "exit2-beats-json-allow",
        PRE,
        out(specific("PreToolUse", permissionDecision="allow"), stderr="X2", exit=2),
        {"decision": "deny", "reason": "X2"},
    ),
    ("exit2-no-stderr-runs", PRE, out(exit=2), failed("exit_code", "proceeds")),
    ("exit1", PRE, out(stderr="e", exit=1), failed("exit_code", "proceeds")),
    ("exit3", PRE, out(stderr="e", exit=3), failed("exit_code", "proceeds")),
    ("crash", PRE, out(stderr="e", signal=9), failed("signal", "proceeds")),
    ("timeout", PRE, out(HDENY, timeout=True), failed("timeout", "proceeds")),
    ("exit1-with-json-deny", PRE, out(HDENY, exit=1), {"decision": "deny", "reason": "no"}),
    # JSON that decides nothing does not make exit 1 a success: Qwen's runner classes it
    # a non_blocking_error and the tool runs (seen 2026-12-03, ORACLE.md).
    (
        "exit1-with-json-continue",
        PRE,
        out({"continue": True}, stderr="e", exit=1),
        failed("exit_code", "proceeds", detail="non-blocking error"),
    ),
    ("exit1-with-json-empty", PRE, out({}, exit=1), failed("exit_code", "proceeds")),
    (
        "exit3-with-json-continue",
        PRE,
        out({"continue": True}, exit=3),
        failed("exit_code", "proceeds"),
    ),
    # ...and an allow beside exit 1 stays that error (seen 2026-12-05: it ran, as any allow).
    (
        "exit1-with-json-allow",
        PRE,
        out(specific("PreToolUse", permissionDecision="allow"), stderr="e", exit=1),
        failed("exit_code", "proceeds", detail="non-blocking error"),
    ),
    # With stdout empty Qwen reads stderr instead, whatever the exit (2 aside): a deny
    # there blocks (seen 2026-12-05, ORACLE.md).
    (
        "exit1-stderr-json-deny",
        PRE,
        out(stderr=json.dumps({"decision": "deny", "reason": "SD"}), exit=1),
        {"decision": "deny", "reason": "SD"},
    ),
    ("exit1-stderr-hso-deny", PRE, out(stderr=json.dumps(HDENY), exit=1), {"decision": "deny"}),
    (
        "exit0-stderr-json-deny",
        PRE,
        out(stderr=json.dumps({"decision": "deny", "reason": "S0"})),
        {"decision": "deny", "reason": "S0"},
    ),
    # ...but not when stdout says anything, even plain text.
    (
        "stdout-text-hides-stderr-deny",
        PRE,
        out("just text", stderr=json.dumps({"decision": "deny", "reason": "S"})),
        {"decision": "allow"},
    ),
    ("exit0-stderr-text", PRE, out(stderr="just text"), {"decision": "allow"}),
    (
        "exit1-stderr-broken-json",
        PRE,
        out(stderr="{not json", exit=1),
        failed("invalid_json", "proceeds", detail="stderr"),
    ),
    ("exit1-stdout-text", PRE, out("just text", exit=1), failed("exit_code", "proceeds")),
    # A JSON string holding JSON is read once more; a flat `decision: ask` is read too.
    (
        "double-encoded-deny",
        PRE,
        out(json.dumps(json.dumps({"decision": "deny", "reason": "DD"}))),
        {"decision": "deny", "reason": "DD"},
    ),
    (
        "flat-decision-ask",
        PRE,
        out({"decision": "ask", "reason": "FA"}),
        {"decision": "ask", "reason": "FA"},
    ),
    ("plain-text", PRE, out("just text"), {"decision": "allow"}),
    ("broken-json", PRE, out("{not json"), failed("invalid_json", "proceeds")),
    ("empty", PRE, out(), {"decision": "allow"}),
    (
        "post-context",
        POST,
        out(specific("PostToolUse", additionalContext="C")),
        {"decision": "allow", "context": "C"},
    ),
    (
        "post-block-changes-nothing",
        POST,
        out({"decision": "block", "reason": "R"}),
        {"decision": "allow", "note": "changes nothing"},
    ),
    ("post-exit2-changes-nothing", POST, out(stderr="x", exit=2), failed("exit_code", "proceeds")),
    (
        "permission-allow-rewrite",
        PERM,
        out(specific("PermissionRequest", decision={"behavior": "allow", "updatedInput": NEW})),
        {"decision": "modify", "updated_input": NEW},
    ),
    (
        "permission-deny",
        PERM,
        out(specific("PermissionRequest", decision={"behavior": "deny", "message": "m"})),
        {"decision": "deny", "reason": "m"},
    ),
    ("permission-none", PERM, out({}), {"decision": "ask"}),
    (
        "prompt-block",
        "qwen_prompt",
        out({"decision": "block", "reason": "p"}),
        {"decision": "deny", "reason": "p"},
    ),
    (
        "stop-block",
        "qwen_stop",
        out({"decision": "block", "reason": "go"}),
        {"decision": "deny", "reason": "go"},
    ),
]


@verdict_table(CASES)
def test_qwen_code_verdicts(fixture, outcome, expected):
    check_case(A, fixture, outcome, expected)


def test_parse_qwen_requests():
    call = A.parse(request(PRE))
    assert (call.runtime, call.event, call.native_event) == (
        "qwen-code",
        "pre_tool_use",
        "PreToolUse",
    )
    assert (call.tool_name, call.tool_input["command"]) == ("run_shell_command", "echo hi")
    assert call.tool_call_id.startswith("toolu_")
    assert A.parse(request(POST)).event == "post_tool_use"
    assert A.parse(request(PERM)).event == "permission_request"
    assert A.parse(request("qwen_prompt")).prompt == "run the command"
    assert A.parse(request("qwen_session_start")).event == "session"


def test_settings():
    assert A.default_timeout_ms == 60_000  # PROTOCOLS.md; not measured here
    assert A.settings.project_files == (".qwen/settings.json",)
    assert A.timeouts.from_settings(4) == 4000  # seconds...
    assert A.timeouts.from_settings(5000) == 5000  # ...but 1000 and up: legacy milliseconds
    assert A.version_in({"QWEN_CODE_STARTUP_VERSION": "0.24.4"}) == "0.24.4"
    assert {"QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"} <= set(A.env_vars)
    assert A.label == "qwen"

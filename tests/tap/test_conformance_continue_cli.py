"""Continue CLI: requests x hook answers -> what Continue's hook runner (1.5.47) reads.

Every row follows its runner's code as shipped (src/hooks/hookRunner.ts) and the rows
the real runner showed are pinned in tests/e2e/test_e2e_continue.py (ORACLE.md):
Claude Code's answers, read with Continue's own rules where they differ.
"""

from __future__ import annotations

import json

import pytest
from hooktui.tap.runtimes import ADAPTERS, detect

from tests.tap.fixtures import check, failed, out, specific

A = ADAPTERS["continue-cli"]
NEW = {"command": "echo rewritten"}
HDENY = specific("PreToolUse", permissionDecision="deny", permissionDecisionReason="no")


def _request(event: str, **more) -> dict:
    """What fireHook.ts builds: the common fields, then the event's own."""
    base = {"session_id": "s", "transcript_path": "", "cwd": "/p", "permission_mode": "default"}
    return {**base, "hook_event_name": event, **more}


PRE = _request("PreToolUse", tool_name="Bash", tool_input={"command": "ls"}, tool_use_id="t1")
POST = _request(
    "PostToolUse",
    tool_name="Bash",
    tool_input={"command": "ls"},
    tool_response="x",
    tool_use_id="t1",
)
PROMPT = _request("UserPromptSubmit", prompt="hi")
PERM = _request("PermissionRequest", tool_name="Bash", tool_input={"command": "ls"})
STOP = _request("Stop", stop_hook_active=True)
REQUESTS = {"pre": PRE, "post": POST, "prompt": PROMPT, "perm": PERM, "stop": STOP}

CASES = [
    ("deny", "pre", out(HDENY), {"decision": "deny", "reason": "no"}),
    (
        "deny-no-reason",
        "pre",
        out(specific("PreToolUse", permissionDecision="deny")),
        {"decision": "deny", "reason": "Blocked by hook"},
    ),
    (
        "deny-reason-from-top-level",
        "pre",
        out({**specific("PreToolUse", permissionDecision="deny"), "reason": "top"}),
        {"decision": "deny", "reason": "top"},
    ),
    (
        "allow",
        "pre",
        out(specific("PreToolUse", permissionDecision="allow")),
        {"decision": "allow"},
    ),
    (
        "ask",
        "pre",
        out(specific("PreToolUse", permissionDecision="ask", permissionDecisionReason="a")),
        {"decision": "ask", "reason": "a"},
    ),
    (
        "rewrite",
        "pre",
        out(specific("PreToolUse", permissionDecision="allow", updatedInput=NEW)),
        {"decision": "modify", "updated_input": NEW},
    ),
    (
        "rewrite-without-decision",
        "pre",
        out(specific("PreToolUse", updatedInput=NEW)),
        {"decision": "modify", "updated_input": NEW},
    ),
    ("exit2-stderr", "pre", out(stderr="E2", exit=2), {"decision": "deny", "reason": "E2"}),
    ("exit2-no-stderr", "pre", out(exit=2), {"decision": "deny", "reason": "Blocked by hook"}),
    (
        "exit2-beats-json-allow",
        "pre",
        out(specific("PreToolUse", permissionDecision="allow"), stderr="X", exit=2),
        {"decision": "deny", "reason": "X"},
    ),
    (
        "exit2-deny-json-reason-replaces-stderr",
        "pre",
        out(HDENY, stderr="X", exit=2),
        {"decision": "deny", "reason": "no"},
    ),
    # decision: block blocks on any exit code: its reason, else stderr, else its words.
    (
        "decision-block",
        "pre",
        out({"decision": "block", "reason": "b"}),
        {"decision": "deny", "reason": "b"},
    ),
    (
        "decision-block-exit1-stderr-reason",
        "pre",
        out({"decision": "block"}, stderr="s", exit=1),
        {"decision": "deny", "reason": "s"},
    ),
    (
        "decision-block-exit3",
        "pre",
        out({"decision": "block"}, exit=3),
        {"decision": "deny", "reason": "Blocked by hook"},
    ),
    # JSON is read whatever the exit code.
    ("deny-json-exit1", "pre", out(HDENY, exit=1), {"decision": "deny", "reason": "no"}),
    (
        "allow-json-exit1",
        "pre",
        out(specific("PreToolUse", permissionDecision="allow"), exit=1),
        {"decision": "allow"},
    ),
    ("exit1", "pre", out(stderr="e", exit=1), failed("exit_code", "proceeds")),
    ("exit3", "pre", out(stderr="e", exit=3), failed("exit_code", "proceeds")),
    ("plain-text", "pre", out("hello"), {"decision": "allow"}),
    ("broken-json", "pre", out("{not json"), {"decision": "allow"}),
    ("json-array", "pre", out([1, 2]), {"decision": "allow"}),
    ("empty", "pre", out(), {"decision": "allow"}),
    # Not read by its runner.
    ("continue-false", "pre", out({"continue": False, "stopReason": "s"}), {"decision": "allow"}),
    ("legacy-approve", "pre", out({"decision": "approve"}), {"decision": "allow"}),
    ("flat-permissionDecision", "pre", out({"permissionDecision": "deny"}), {"decision": "allow"}),
    # hookSpecificOutput is read by its own hookEventName, not the call's event.
    (
        "deny-under-PostToolUse-name",
        "pre",
        out(specific("PostToolUse", permissionDecision="deny")),
        {"decision": "allow"},
    ),
    ("pre-tool-deny-read-at-post", "post", out(HDENY), {"decision": "deny", "reason": "no"}),
    (
        "permission-request-deny-at-pre",
        "pre",
        out(specific("PermissionRequest", decision={"behavior": "deny", "message": "m"})),
        {"decision": "deny", "reason": "m"},
    ),
    # What makes its aggregation throw: the whole event reads as nothing decided.
    (
        "hookSpecificOutput-string",
        "pre",
        out({"hookSpecificOutput": "x"}, stderr="E", exit=2),
        failed("unsupported", "proceeds", detail="throws"),
    ),
    (
        "permission-request-without-decision",
        "perm",
        out(specific("PermissionRequest")),
        failed("unsupported", "proceeds", detail="throws"),
    ),
    (
        "permission-request-deny",
        "perm",
        out(specific("PermissionRequest", decision={"behavior": "deny"})),
        {"decision": "deny", "reason": "Denied by hook"},
    ),
    (
        "permission-request-allow-rewrite",
        "perm",
        out(specific("PermissionRequest", decision={"behavior": "allow", "updatedInput": NEW})),
        {"decision": "modify", "updated_input": NEW},
    ),
    # Context: hookSpecificOutput's from any event; plain stdout at two events on exit 0.
    (
        "post-context",
        "post",
        out(specific("PostToolUse", additionalContext="c")),
        {"decision": "allow", "context": "c"},
    ),
    (
        "prompt-plain-text-is-context",
        "prompt",
        out("remember"),
        {"decision": "allow", "context": "remember"},
    ),
    (
        "prompt-json-without-hso-is-context-too",
        "prompt",
        out({"x": 1}),
        {"decision": "allow", "context": '{"x": 1}'},
    ),
    (
        "prompt-plain-text-exit1-is-not",
        "prompt",
        out("remember", exit=1),
        failed("exit_code", "proceeds", context=""),
    ),
    (
        "stop-block",
        "stop",
        out({"decision": "block", "reason": "go on"}),
        {"decision": "deny", "reason": "go on"},
    ),
    # A killed hook: `code ?? 0`. At its timeout nothing it printed is read.
    ("timeout", "pre", out(HDENY, timeout=True), failed("timeout", "proceeds")),
    ("timeout-nothing-printed", "pre", out(timeout=True), failed("timeout", "proceeds")),
    (
        "killed-after-deny",
        "pre",
        out(HDENY, signal=9, exit=None),
        {"decision": "deny", "reason": "no", "note": "killed by signal 9"},
    ),
    ("killed-quietly", "pre", out(signal=15, exit=None), failed("signal", "proceeds")),
    ("spawn-error", "pre", out(exit=None, spawn="ENOENT"), failed("spawn_error", "proceeds")),
]


@pytest.mark.parametrize(
    ("request_name", "outcome", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_continue_cli_reads_answers_as_its_runner(request_name, outcome, expected):
    request = json.loads(json.dumps(REQUESTS[request_name]))
    check(A.judge(A.parse(request), outcome), expected)


def test_told_from_claude_code_by_environment_or_empty_transcript():
    claude = dict(PRE, transcript_path="/home/u/.claude/projects/p/s.jsonl")
    assert detect(PRE).name == "continue-cli"
    assert detect(claude).name == "claude-code"
    env = {"CONTINUE_PROJECT_DIR": "/p", "CLAUDE_PROJECT_DIR": "/p"}
    assert detect(PRE, env).name == "continue-cli"
    # A Claude Code started inside one of Continue's hooks inherits its variables; its
    # own payload names a transcript, and is Claude Code's.
    assert detect(claude, env).name == "claude-code"
    # Copilot's Claude-dialect payloads carry a timestamp: not Continue's.
    copilot = dict(PRE, timestamp="2026-12-07T00:00:00.000Z")
    copilot.pop("transcript_path")
    assert detect(copilot, env).name != "continue-cli"


def test_its_answers_encode_to_what_its_runner_reads_back():
    for verdict_case in ("deny", "allow", "ask", "rewrite", "exit1", "stop-block", "post-context"):
        name, request_name, outcome, expected = next(c for c in CASES if c[0] == verdict_case)
        call = A.parse(REQUESTS[request_name])
        verdict = A.judge(call, outcome)
        stdout, stderr, code = A.encode(call, verdict)
        again = A.judge(call, out(stdout, stderr, exit=code))
        check(again, expected)

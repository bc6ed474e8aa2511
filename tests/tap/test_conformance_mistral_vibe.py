"""Mistral Vibe: request fixtures x hook answers -> what Vibe 3.0.3 does with them.

Each row is the harness's reading (`_foreign_hooks.py`) and, where it names a case of
tests/e2e/cases_vibe.py, what the real CLI did (ORACLE.md, 2026-12-07).
"""

from __future__ import annotations

from hooktui.tap.runtimes import ADAPTERS, detect

from tests.tap.fixtures import check, check_case, failed, out, request, verdict_table

A = ADAPTERS["mistral-vibe"]
PRE, POST, AGENT = "vibe_pre_bash", "vibe_post_bash", "vibe_post_agent"
NEW = {"command": "echo rewritten"}

CASES = [
    ("empty-allows", PRE, out(), {"decision": "allow"}),
    ("deny", PRE, out({"decision": "deny", "reason": "no"}), {"decision": "deny", "reason": "no"}),
    (
        "deny-default-reason",
        PRE,
        out({"decision": "deny"}),
        {"decision": "deny", "reason": "Blocked by a pre_tool hook."},
    ),
    # Only "deny" refuses: any other decision (block, Claude's words) allows.
    ("block-allows", PRE, out({"decision": "block", "reason": "b"}), {"decision": "allow"}),
    ("explicit-allow", PRE, out({"decision": "allow"}), {"decision": "allow"}),
    (
        "claude-deny-allows",
        PRE,
        out({"hookSpecificOutput": {"permissionDecision": "deny"}}),
        {"decision": "allow"},
    ),
    # A rewrite runs with the schema's defaults filled in (bash: timeout 120).
    (
        "rewrite",
        PRE,
        out({"hook_specific_output": {"tool_input": NEW}}),
        {"decision": "modify", "updated_input": {"timeout": 120, **NEW}},
    ),
    (
        "rewrite-keeps-its-timeout",
        PRE,
        out({"hook_specific_output": {"tool_input": {**NEW, "timeout": 5}}}),
        {"decision": "modify", "updated_input": {**NEW, "timeout": 5}},
    ),
    (
        "rewrite-not-an-object",
        PRE,
        out({"hook_specific_output": {"tool_input": "ls"}}),
        {"decision": "allow"},
    ),
    (
        "deny-beats-rewrite",
        PRE,
        out({"decision": "deny", "hook_specific_output": {"tool_input": NEW}}),
        {"decision": "deny"},
    ),
    (
        "system-message",
        PRE,
        out({"system_message": "note"}),
        {"decision": "allow", "answer_effects": {"user_message": "note"}},
    ),
    # Only exit 0 answers; stderr is never read as one.
    ("exit2", PRE, out(stderr="E2", exit=2), failed("exit_code", "proceeds", detail="exit 2")),
    ("exit1-json-deny", PRE, out({"decision": "deny"}, exit=1), failed("exit_code", "proceeds")),
    ("text", PRE, out("hello"), failed("invalid_json", "proceeds", detail="not JSON")),
    ("array", PRE, out("[]"), failed("invalid_json", "proceeds", detail="not an object")),
    ("broken-json", PRE, out("{nope"), failed("invalid_json", "proceeds")),
    ("crash", PRE, out(signal=9), failed("signal", "proceeds")),
    ("timeout", PRE, out(timeout=True), failed("timeout", "proceeds")),
    ("spawn", PRE, out(spawn="ENOENT"), failed("spawn_error", "proceeds")),
    # post_tool: deny replaces the result; additional_context is appended.
    ("post-empty", POST, out(), {"decision": "allow"}),
    (
        "post-deny-replaces",
        POST,
        out({"decision": "deny", "reason": "masked"}),
        {"decision": "replace", "updated_output": "masked"},
    ),
    (
        "post-deny-default",
        POST,
        out({"decision": "deny"}),
        {
            "decision": "replace",
            "updated_output": "The tool result was blocked by a post_tool hook.",
        },
    ),
    (
        "post-context",
        POST,
        out({"hook_specific_output": {"additional_context": "C"}}),
        {"decision": "allow", "context": "C"},
    ),
    (
        "post-deny-and-context",
        POST,
        out(
            {"decision": "deny", "reason": "R", "hook_specific_output": {"additional_context": "C"}}
        ),
        {"decision": "replace", "updated_output": "R", "context": "C"},
    ),
    (
        "post-rewrite-ignored",
        POST,
        out({"hook_specific_output": {"tool_input": NEW}}),
        {"decision": "allow"},
    ),
    ("post-exit1", POST, out(exit=1), failed("exit_code", "proceeds", detail="result stands")),
    # post_agent: deny asks the agent to revise its turn; a failure accepts it.
    ("agent-empty", AGENT, out(), {"decision": "allow"}),
    (
        "agent-deny",
        AGENT,
        out({"decision": "deny", "reason": "tests"}),
        {"decision": "deny", "reason": "tests"},
    ),
    (
        "agent-deny-default",
        AGENT,
        out({"decision": "deny"}),
        {"decision": "deny", "reason": "A post_agent hook asked the agent to revise its response."},
    ),
    ("agent-exit1", AGENT, out(exit=1), failed("exit_code", "proceeds", detail="accepted")),
]


@verdict_table(CASES)
def test_vibe_reads_answers_as_vibe(fixture, outcome, expected):
    check_case(A, fixture, outcome, expected)


# `strict = true` (install passes it on as --fail-closed): a failure denies a pre_tool
# call and blanks a post_tool result; post_agent has no strict.
STRICT = [
    (
        "strict-exit1",
        PRE,
        out(stderr="boom", exit=1),
        failed("exit_code", "blocks", detail="denied"),
    ),
    ("strict-text", PRE, out("hi"), failed("invalid_json", "blocks")),
    ("strict-timeout", PRE, out(timeout=True), failed("timeout", "blocks")),
    (
        "strict-deny-is-a-deny",
        PRE,
        out({"decision": "deny", "reason": "r"}),
        {"decision": "deny", "reason": "r"},
    ),
    ("strict-post-blanks", POST, out(exit=1), failed("exit_code", "blocks", detail="blanked")),
    ("strict-ignored-at-post-agent", AGENT, out(exit=1), failed("exit_code", "proceeds")),
]


@verdict_table(STRICT)
def test_vibe_strict_hook_fails_closed(fixture, outcome, expected):
    strict = A.for_hook(True)
    check(strict.judge_hook(strict.parse(request(fixture)), outcome), expected)


def test_vibe_requests_are_its_own():
    for name in (PRE, POST, AGENT):
        assert detect(request(name)).name == "mistral-vibe"
    call = A.parse(request(POST))
    assert call.tool_name == "file_system.bash" and call.is_error is False
    assert call.tool_output.startswith("command: echo hi")
    assert A.parse(request(AGENT)).details == {"agent_type": "accept-edits"}


def test_vibe_request_for_reads_back():
    for name in (PRE, POST, AGENT):
        call = A.parse(request(name))
        again = A.parse(A.request_for(call))
        assert (again.event, again.tool_name, again.tool_input) == (
            call.event,
            call.tool_name,
            call.tool_input,
        )

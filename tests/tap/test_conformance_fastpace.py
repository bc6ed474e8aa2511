"""fastpace (seed 004): request fixtures x hook answers -> verdicts."""

from __future__ import annotations

from hooktui.tap.runtimes import ADAPTERS

from tests.tap.fixtures import check_case, failed, out, request, verdict_table

A = ADAPTERS["fastpace"]

PRE = "fastpace_pre_seed"
PROMPT = "fastpace_prompt"


def fail(kind, detail=None):
    return failed(kind, "proceeds", detail=detail) if detail else failed(kind, "proceeds")


CASES = [
    ("allow", PRE, out({"decision": "allow"}), {"decision": "allow"}),
    # The seed's own example hook: block rm -rf / with a reason.
    (
        "seed-block",
        PRE,
        out({"decision": "block", "reason": "dangerous_command"}),
        {"decision": "deny", "reason": "dangerous_command"},
    ),
    # The seed's fail-open answer on a parse error: an allow, with the reason kept.
    (
        "seed-parse-error-allow",
        PRE,
        out({"decision": "allow", "reason": "parse_error"}),
        {"decision": "allow", "reason": "parse_error"},
    ),
    (
        "coach-is-context",
        PRE,
        out({"decision": "allow", "reason": "ok", "coach": "prefer trash-cli"}),
        {"decision": "allow", "context": "prefer trash-cli"},
    ),
    (
        "summary-kept-out",
        PRE,
        out({"decision": "block", "reason": "r", "summary": {"rule": "x"}}),
        {"decision": "deny", "reason": "r"},
    ),
    (
        "prompt-modify",
        PROMPT,
        out(
            {
                "decision": "modify",
                "reason": "redacted a key",
                "summary": {"modified_prompt": "deploy to prod with my key [redacted]"},
            }
        ),
        {
            "decision": "modify",
            "reason": "redacted a key",
            "updated_input": "deploy to prod with my key [redacted]",
        },
    ),
    (
        "prompt-block",
        PROMPT,
        out({"decision": "block", "reason": "secret in prompt"}),
        {"decision": "deny", "reason": "secret in prompt"},
    ),
    (
        "modify-at-pre",
        PRE,
        out({"decision": "modify", "summary": {"modified_prompt": "x"}}),
        fail("wrong_decision", "UserPromptSubmit only"),
    ),
    ("modify-at-post", "fastpace_post", out({"decision": "modify"}), fail("wrong_decision")),
    (
        "modify-without-prompt",
        PROMPT,
        out({"decision": "modify", "summary": {}}),
        fail("unsupported"),
    ),
    (
        "modify-prompt-not-string",
        PROMPT,
        out({"decision": "modify", "summary": {"modified_prompt": 3}}),
        fail("unsupported"),
    ),
    ("deny-word-unknown", PRE, out({"decision": "deny"}), fail("unsupported")),
    ("no-decision", PRE, out({"reason": "x"}), fail("unsupported")),
    ("empty", PRE, out(), fail("empty_output")),
    ("not-json", PRE, out("allow"), fail("invalid_json")),
    ("exit1", PRE, out({"decision": "block", "reason": "r"}, exit=1), fail("exit_code")),
    ("exit2", PRE, out(stderr="no", exit=2), fail("exit_code")),
    ("timeout", PRE, out(timeout=True, signal=9), fail("timeout")),
    ("signal", PRE, out(signal=6), fail("signal")),
    ("spawn", PRE, out(spawn="node: not found"), fail("spawn_error")),
    (
        "post-block",
        "fastpace_post",
        out({"decision": "block", "reason": "r"}),
        {"decision": "deny", "reason": "r"},
    ),
    ("mutation-allow", "fastpace_mutation", out({"decision": "allow"}), {"decision": "allow"}),
]


@verdict_table(CASES)
def test_fastpace_verdicts(fixture, outcome, expected):
    check_case(A, fixture, outcome, expected)


def test_parse_fastpace_requests():
    pre = A.parse(request(PRE))
    assert (pre.runtime, pre.event, pre.native_event) == ("fastpace", "pre_tool_use", "PreToolUse")
    assert pre.tool_input == {"command": "rm -rf /tmp/x"}
    assert (pre.agent_id, pre.session_id, pre.cwd) == ("reviewer", "sess-fp", "/path/to/repo")
    post = A.parse(request("fastpace_post"))
    assert (post.event, post.tool_output) == ("post_tool_use", {"content": "# readme"})
    prompt = A.parse(request(PROMPT))
    assert (prompt.event, prompt.prompt) == ("user_prompt", "deploy to prod with my key sk-123")
    mutation = A.parse(request("fastpace_mutation"))
    assert (mutation.event, mutation.native_event) == ("other", "Mutation")


def test_budget_is_not_a_timeout():
    assert A.budget_ms == 50
    assert A.default_timeout_ms is None

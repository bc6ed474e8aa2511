"""basis (seed 000): request fixtures (the seed's own examples) x answers -> verdicts."""

from __future__ import annotations

from hooktui.tap.runtimes import ADAPTERS

from tests.tap.fixtures import check_case, failed, out, request, verdict_table

A = ADAPTERS["basis"]

PRE = "basis_pre_seed"
POST = "basis_post_seed"


def fail(kind, detail=None):
    return failed(kind, "blocks", detail=detail) if detail else failed(kind, "blocks")


# The seed's four response examples, verbatim.
SEED_ALLOW = '{"decision": "allow"}'
SEED_DENY = '{"decision": "deny", "reason": "force-push is not allowed in this workspace"}'
SEED_MODIFY = (
    '{"decision": "modify", "input": {"command": "git push"}, "reason": "dropped --force"}'
)
SEED_REPLACE = (
    '{"decision": "replace", "output": "[redacted]", "is_error": false, "reason": "a token"}'
)

CASES = [
    ("seed-allow-pre", PRE, out(SEED_ALLOW), {"decision": "allow"}),
    ("seed-allow-post", POST, out(SEED_ALLOW), {"decision": "allow"}),
    (
        "seed-deny-pre",
        PRE,
        out(SEED_DENY),
        {"decision": "deny", "reason": "force-push is not allowed in this workspace"},
    ),
    # Deny after the call: the reason replaces the output as an error (still a deny).
    (
        "seed-deny-post",
        POST,
        out(SEED_DENY),
        {"decision": "deny", "reason": "force-push is not allowed in this workspace"},
    ),
    (
        "seed-modify-pre",
        PRE,
        out(SEED_MODIFY),
        {
            "decision": "modify",
            "reason": "dropped --force",
            "updated_input": {"command": "git push"},
        },
    ),
    (
        "seed-replace-post",
        POST,
        out(SEED_REPLACE),
        {"decision": "replace", "reason": "a token", "updated_output": "[redacted]"},
    ),
    # The wrong one for the event has not answered.
    ("modify-at-post", POST, out(SEED_MODIFY), fail("wrong_decision", "modify")),
    ("replace-at-pre", PRE, out(SEED_REPLACE), fail("wrong_decision", "replace")),
    # Non-zero exit: failed, whatever was printed.
    ("exit1-with-allow", PRE, out(SEED_ALLOW, exit=1), fail("exit_code", "exit 1")),
    ("exit2-with-deny", PRE, out(SEED_DENY, exit=2), fail("exit_code")),
    ("exit3-post", POST, out(exit=3), fail("exit_code")),
    # Silence is not an answer.
    ("empty", PRE, out(), fail("empty_output", "silence")),
    ("whitespace", POST, out(" \n\t"), fail("empty_output")),
    ("stderr-only", PRE, out(stderr="I meant yes"), fail("empty_output")),
    ("not-json", PRE, out("allow"), fail("invalid_json")),
    ("truncated-json", PRE, out('{"decision": "al'), fail("invalid_json")),
    ("json-not-object", PRE, out('["allow"]'), fail("unsupported")),
    ("no-decision", PRE, out({"reason": "x"}), fail("unsupported")),
    ("unknown-decision", PRE, out({"decision": "block"}), fail("unsupported", "block")),
    ("modify-without-input", PRE, out({"decision": "modify"}), fail("unsupported")),
    ("replace-without-output", POST, out({"decision": "replace"}), fail("unsupported")),
    (
        "modify-null-input",
        PRE,
        out({"decision": "modify", "input": None}),
        {"decision": "modify", "updated_input": None},
    ),
    ("signal", PRE, out(signal=9), fail("signal")),
    ("timeout", POST, out(timeout=True, signal=9), fail("timeout")),
    ("spawn", PRE, out(spawn="ENOENT"), fail("spawn_error")),
    ("raw-input-allow", "basis_pre_raw_input", out(SEED_ALLOW), {"decision": "allow"}),
]


@verdict_table(CASES)
def test_basis_verdicts(fixture, outcome, expected):
    check_case(A, fixture, outcome, expected)


def test_failures_block():
    """basis fails closed: a failure is not consent (see basis.py for the reasoning)."""
    call = A.parse(request(PRE))
    verdict = A.judge(call, out())
    assert verdict.effect == "blocks" and not verdict.lets_through


def test_parse_seed_requests():
    pre = A.parse(request(PRE))
    assert (pre.runtime, pre.event, pre.native_event) == ("basis", "pre_tool_use", "pre_tool_use")
    assert (pre.tool_name, pre.tool_input) == ("shell", {"command": "git push --force"})
    assert (pre.agent_id, pre.tool_call_id, pre.cwd) == ("agent-1", "call-1", "/repo")
    assert pre.tool_output is None and pre.is_error is None
    post = A.parse(request(POST))
    assert post.event == "post_tool_use"
    assert (post.tool_output, post.is_error) == ("AWS_SECRET_ACCESS_KEY=…", False)
    raw = A.parse(request("basis_pre_raw_input"))
    assert raw.tool_input == "not { json"  # the raw string, as the seed says
    assert A.parse({"hook_schema": 1, "event": "on_commit"}).event == "other"

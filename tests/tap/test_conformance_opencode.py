"""OpenCode: request fixtures x hook answers -> what hooktui's plugin makes OpenCode do.

OpenCode has no command hooks; the plugin (tap/runtimes/opencode/plugin.js) decides
what each answer means, and test_opencode_plugin.py runs the plugin in Node on the
same answers to check this table's reading against what it did. A failure refuses
the call at tool.execute.before and permission.ask (fails closed) unless the hook's
settings say `"onFailure": "continue"` (the request's `on_failure`).
"""

from __future__ import annotations

from hooktui.tap.runtimes import ADAPTERS, detect

from tests.tap.fixtures import check_case, failed, out, request, verdict_table

A = ADAPTERS["opencode"]
PRE, POST, PERM = "opencode_before_bash", "opencode_after_bash", "opencode_permission"
NEW = {"command": "echo rewritten", "description": "d"}

CASES = [
    ("empty", PRE, out(), {"decision": "allow"}),
    ("allow", PRE, out({"decision": "allow"}), {"decision": "allow"}),
    ("deny", PRE, out({"decision": "deny", "reason": "no"}), {"decision": "deny", "reason": "no"}),
    (
        "block",
        PRE,
        out({"decision": "block"}),
        {"decision": "deny", "reason": "refused by a command hook"},
    ),
    ("exit2", PRE, out(stderr=" E2 \n", exit=2), {"decision": "deny", "reason": "E2"}),
    ("exit2-silent", PRE, out(exit=2), {"decision": "deny", "reason": "refused by a command hook"}),
    (
        "exit2-beats-json",
        PRE,
        out({"decision": "allow"}, stderr="X", exit=2),
        {"decision": "deny", "reason": "X"},
    ),
    ("rewrite", PRE, out({"tool_input": NEW}), {"decision": "modify", "updated_input": NEW}),
    (
        "rewrite-with-allow",
        PRE,
        out({"decision": "allow", "tool_input": NEW}),
        {"decision": "modify", "updated_input": NEW},
    ),
    ("rewrite-not-an-object", PRE, out({"tool_input": ["ls"]}), {"decision": "allow"}),
    ("output-ignored-before", PRE, out({"tool_output": "x"}), {"decision": "allow"}),
    # Failures refuse the call (fail closed).
    ("exit1", PRE, out(stderr="e", exit=1), failed("exit_code", "blocks", detail="refuses")),
    ("exit1-with-deny", PRE, out({"decision": "deny"}, exit=1), failed("exit_code", "blocks")),
    ("text", PRE, out("hi"), failed("invalid_json", "blocks")),
    ("array", PRE, out("[]"), failed("unsupported", "blocks")),
    ("ask-before", PRE, out({"decision": "ask"}), failed("wrong_decision", "blocks")),
    ("crash", PRE, out(signal=9), failed("signal", "blocks")),
    ("timeout", PRE, out({"decision": "allow"}, timeout=True), failed("timeout", "blocks")),
    ("spawn", PRE, out(spawn="ENOENT"), failed("spawn_error", "blocks")),
    # After the tool: the output can be replaced; a failure changes nothing.
    ("after-empty", POST, out(), {"decision": "allow"}),
    (
        "after-replace",
        POST,
        out({"tool_output": "masked"}),
        {"decision": "replace", "updated_output": "masked"},
    ),
    (
        "after-deny",
        POST,
        out({"decision": "deny", "reason": "gone"}),
        {"decision": "replace", "updated_output": "gone"},
    ),
    ("after-exit2", POST, out(stderr="E", exit=2), {"decision": "replace", "updated_output": "E"}),
    ("after-rewrite-ignored", POST, out({"tool_input": NEW}), {"decision": "allow"}),
    ("after-exit1", POST, out(exit=1), failed("exit_code", "proceeds", detail="output stands")),
    ("after-text", POST, out("x"), failed("invalid_json", "proceeds")),
    # permission.ask: no decision keeps OpenCode's question; a failure denies.
    ("perm-empty", PERM, out(), {"decision": "ask"}),
    ("perm-no-decision", PERM, out({"reason": "x"}), {"decision": "ask"}),
    ("perm-allow", PERM, out({"decision": "allow"}), {"decision": "allow"}),
    ("perm-ask", PERM, out({"decision": "ask"}), {"decision": "ask"}),
    (
        "perm-deny",
        PERM,
        out({"decision": "deny", "reason": "r"}),
        {"decision": "deny", "reason": "r"},
    ),
    ("perm-exit1", PERM, out(exit=1), failed("exit_code", "blocks")),
    ("perm-modify-word", PERM, out({"decision": "modify"}), failed("wrong_decision", "blocks")),
]


@verdict_table(CASES)
def test_opencode_reads_answers_as_the_plugin(fixture, outcome, expected):
    check_case(A, fixture, outcome, expected)


def _continue(name: str) -> dict:
    return {**request(name), "on_failure": "continue"}


def test_on_failure_continue_lets_failures_through():
    for outcome in (out(exit=1), out("hi"), out(timeout=True), out(signal=9)):
        verdict = A.judge(A.parse(_continue(PRE)), outcome)
        assert verdict.decision == "failure" and verdict.effect == "proceeds", verdict
        assert A.judge(A.parse(request(PRE)), outcome).effect == "blocks"
    # A deny is no failure: it refuses whatever on_failure says.
    deny = A.judge(A.parse(_continue(PRE)), out({"decision": "deny", "reason": "r"}))
    assert (deny.decision, deny.reason) == ("deny", "r")


def test_a_request_without_on_failure_reads_the_plugin_default():
    bare = {k: v for k, v in request(PRE).items() if k != "on_failure"}
    assert A.judge(A.parse(bare), out(exit=1)).effect == "blocks"


def test_opencode_requests_are_its_own():
    for name in (PRE, POST, PERM):
        assert detect(request(name)).name == "opencode"
    call = A.parse(request(POST))
    assert call.tool_name == "bash" and call.tool_output == "hi\n"
    assert call.details == {"on_failure": "continue"}


def test_opencode_request_for_reads_back():
    for name in (PRE, POST, PERM):
        call = A.parse(request(name))
        again = A.parse(A.request_for(call))
        assert (again.event, again.tool_name, again.tool_input, again.details) == (
            call.event,
            call.tool_name,
            call.tool_input,
            call.details,
        )

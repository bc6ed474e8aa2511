"""Cline CLI: request fixtures x hook answers -> what Cline 3.0.65 does with them.

The runner of `@cline/core` 0.0.86, as bundled in the CLI; the rows that name a case of
tests/e2e/cases_cline.py were seen on the real CLI (ORACLE.md, 2026-12-07). The exit
code is never read; stdout (or its last `HOOK_CONTROL<TAB>` line) is.
"""

from __future__ import annotations

import json

from hooktui.tap.runtimes import ADAPTERS, detect

from tests.tap.fixtures import check_case, failed, out, request, verdict_table

A = ADAPTERS["cline"]
PRE, POST = "cline_pre_commands", "cline_post_commands"
START, DONE = "cline_task_start", "cline_task_complete"
NEW = {"commands": ["echo rewritten"]}
CANCEL = {"cancel": True, "errorMessage": "no"}


def control(answer: dict, before: str = "log line", after: str = "") -> str:
    """stdout holding the answer on a `HOOK_CONTROL<TAB>` line among other output."""
    return f"{before}\nHOOK_CONTROL\t{json.dumps(answer)}\n{after}"


CASES = [
    ("empty", PRE, out(), {"decision": "allow"}),
    (
        "cancel",
        PRE,
        out(CANCEL),
        {"decision": "deny", "reason": "no", "answer_effects": {"stop": "no"}},
    ),
    # The reason is errorMessage, else the context.
    (
        "cancel-reason-from-context",
        PRE,
        out({"cancel": True, "contextModification": "why"}),
        {"decision": "deny", "reason": "why"},
    ),
    ("cancel-no-reason", PRE, out({"cancel": True}), {"decision": "deny", "reason": ""}),
    (
        "cancel-with-override",
        PRE,
        out({**CANCEL, "overrideInput": NEW}),
        {"decision": "deny", "reason": "no"},
    ),
    ("cancel-not-a-boolean", PRE, out({"cancel": "yes"}), {"decision": "allow"}),
    (
        "context-modification",
        PRE,
        out({"contextModification": "C"}),
        {"decision": "allow", "context": "C"},
    ),
    (
        "context-first",
        PRE,
        out({"context": "A", "contextModification": "B"}),
        {"decision": "allow", "context": "A"},
    ),
    (
        "error-message-is-context",
        PRE,
        out({"errorMessage": "E"}),
        {"decision": "allow", "context": "E"},
    ),
    (
        "cancel-false-context",
        PRE,
        out({"cancel": False, "errorMessage": "E"}),
        {"decision": "allow", "context": "E"},
    ),
    # An empty context stops the fallback to errorMessage; blank text adds nothing.
    (
        "empty-context-wins",
        PRE,
        out({"contextModification": "", "errorMessage": "E"}),
        {"decision": "allow", "context": ""},
    ),
    (
        "blank-context",
        PRE,
        out({"contextModification": "  "}),
        {"decision": "allow", "context": ""},
    ),
    (
        "override",
        PRE,
        out({"overrideInput": NEW}),
        {"decision": "modify", "updated_input": NEW},
    ),
    (
        "override-and-context",
        PRE,
        out({"overrideInput": NEW, "contextModification": "C"}),
        {"decision": "modify", "updated_input": NEW, "context": "C"},
    ),
    (
        "override-null",
        PRE,
        out({"overrideInput": None}),
        {"decision": "modify", "updated_input": None},
    ),
    (
        "long-context-truncated",
        PRE,
        out({"contextModification": "x" * 50_001}),
        {
            "decision": "allow",
            "context": "x" * 50_000 + "\n[hook context truncated: exceeded 50000 characters]",
        },
    ),
    (
        "control-line",
        PRE,
        out(control({"contextModification": "HC"})),
        {"decision": "allow", "context": "HC"},
    ),
    (
        "last-control-line-wins",
        PRE,
        out(control({"contextModification": "first"}, after="HOOK_CONTROL\t" + json.dumps(CANCEL))),
        {"decision": "deny", "reason": "no"},
    ),
    (
        "control-line-broken",
        PRE,
        out(control({}).replace("{}", "{x")),
        failed("invalid_json", "proceeds"),
    ),
    # Not JSON: skipped with a warning. JSON that is not an object asks nothing.
    ("text", PRE, out("hello"), failed("invalid_json", "proceeds", detail="skips")),
    ("array", PRE, out("[1]"), {"decision": "allow"}),
    ("number", PRE, out("3"), {"decision": "allow"}),
    ("null", PRE, out("null"), {"decision": "allow"}),
    # The exit code is never read: an answer beside exit 1 or 2 is that answer.
    ("exit1-cancel", PRE, out(CANCEL, exit=1), {"decision": "deny", "reason": "no"}),
    (
        "exit2-context",
        PRE,
        out({"contextModification": "C"}, exit=2),
        {"decision": "allow", "context": "C"},
    ),
    ("exit2-stderr-only", PRE, out(stderr="E2", exit=2), failed("exit_code", "proceeds")),
    (
        "claude-deny",
        PRE,
        out({"hookSpecificOutput": {"permissionDecision": "deny"}}),
        {"decision": "allow"},
    ),
    ("crash-silent", PRE, out(signal=9), failed("signal", "proceeds")),
    ("crash-after-answer", PRE, out(CANCEL, signal=9), {"decision": "deny", "reason": "no"}),
    ("timeout", PRE, out(CANCEL, timeout=True), failed("timeout", "proceeds")),
    ("spawn", PRE, out(spawn="ENOENT"), failed("spawn_error", "proceeds")),
    # PostToolUse: a context rides along; a cancel stops the run; no rewrite.
    (
        "post-context",
        POST,
        out({"contextModification": "P"}),
        {"decision": "allow", "context": "P"},
    ),
    ("post-override-ignored", POST, out({"overrideInput": NEW}), {"decision": "allow"}),
    (
        "post-cancel",
        POST,
        out(CANCEL),
        {"decision": "deny", "reason": "no", "answer_effects": {"stop": "no"}},
    ),
    # The rest run in the background: nothing they answer is read.
    (
        "background-cancel",
        START,
        out(CANCEL),
        {"decision": "allow", "note": "background", "answer_effects": {"async": True}},
    ),
    (
        "background-exit1",
        DONE,
        out(exit=1),
        {"decision": "allow", "note": "background", "answer_effects": {"async": True}},
    ),
]


@verdict_table(CASES)
def test_cline_reads_answers_as_cline(fixture, outcome, expected):
    check_case(A, fixture, outcome, expected)


def test_cline_requests_are_its_own():
    for name in (PRE, POST, START, DONE):
        assert detect(request(name)).name == "cline"
    call = A.parse(request(POST))
    assert call.tool_name == "run_commands" and call.tool_input == {"commands": ["echo hi"]}
    assert call.is_error is False and call.tool_output == [
        {"query": "echo hi", "result": "hi\n", "success": True}
    ]
    assert call.cwd == "/home/user/project" and call.session_id.startswith("conv_")


def test_cline_request_for_reads_back():
    for name in (PRE, POST, START):
        call = A.parse(request(name))
        again = A.parse(A.request_for(call))
        assert (again.event, again.tool_name, again.tool_input, again.tool_output) == (
            call.event,
            call.tool_name,
            call.tool_input,
            call.tool_output,
        )


def test_cline_runs_a_hook_file_as_cline_does(tmp_path):
    """The argv install writes into the wrapper (files.py, Cline's own reading)."""

    def argv(name: str, text: str) -> list[str]:
        path = tmp_path / name
        path.write_text(text)
        return A.hook_file_argv(str(path))

    p = str(tmp_path)
    assert argv("PreToolUse", "echo hi\n") == ["bash", f"{p}/PreToolUse"]
    assert argv("PreToolUse.py", "import sys\n") == ["python3", f"{p}/PreToolUse.py"]
    assert argv("a.mjs", "x") == ["node", f"{p}/a.mjs"]
    assert argv("a.ts", "x") == ["bun", "run", f"{p}/a.ts"]
    assert argv("a.ps1", "x") == ["pwsh", "-File", f"{p}/a.ps1"]
    assert argv("a.sh", "#!/usr/bin/env python3 -u\n") == ["python3", "-u", f"{p}/a.sh"]
    assert argv("b.py", "#!/bin/sh\n") == ["sh", f"{p}/b.py"]
    assert argv("c", "#! /usr/local/bin/BASH -e\n") == ["bash", "-e", f"{p}/c"]
    assert argv("d", "#!/opt/node/bin/node --flag\r\n") == [
        "/opt/node/bin/node",
        "--flag",
        f"{p}/d",
    ]
    assert argv("e", "#!/usr/bin/env\n") == ["/usr/bin/env", f"{p}/e"]
    assert argv("f.JS", "x") == ["node", f"{p}/f.JS"]

"""What the Cline CLI 3.0.65 really did with each hook answer (`.clinerules/hooks/`).

Each list runs as ONE `cline --json` session (batch.py), bare and then with the hook
files wrapped by `hooktui install cline` (test_e2e_cline.py); every case was seen
on the real CLI here (2026-12-07, ORACLE.md). A context reaches the model as a
`<hook_context>` note after the tool's result; a cancel ends the whole run (the
session's last case).
"""

from __future__ import annotations

import json

from tests.e2e.cases_chat import chat_case, chat_runs
from tests.e2e.cases_common import RAN
from tests.e2e.drivers import REWRITTEN
from tests.e2e.flow import Case

J = json.dumps
FAILED_OPEN = {"decision": "failure", "effect": "proceeds"}


def _context(name: str, answer: dict, note: str, **more) -> Case:
    """The command ran, and the model got `note` as the hook's context."""
    return chat_runs(
        name, answer, notes_have=(note,), record={"decision": "allow", "context": note}, **more
    )


CLINE = [
    chat_runs("allow-empty", {}, record={"decision": "allow"}),
    _context("context-modification", {"stdout": J({"contextModification": "E2E-CTX"})}, "E2E-CTX"),
    _context(
        "context-before-context-modification",
        {"stdout": J({"context": "E2E-CTX2", "contextModification": "E2E-NOT"})},
        "E2E-CTX2",
        absent=("E2E-NOT",),
    ),
    # errorMessage without a cancel is context too.
    _context("error-message-alone", {"stdout": J({"errorMessage": "E2E-ERRCTX"})}, "E2E-ERRCTX"),
    _context("cancel-false", {"stdout": J({"cancel": False, "errorMessage": "E2E-CF"})}, "E2E-CF"),
    chat_case(
        "override-input",
        {"stdout": J({"overrideInput": {"commands": [REWRITTEN]}})},
        "marker-rewritten",
        "rewritten-ran",
        record={"decision": "modify", "updated_input": {"commands": [REWRITTEN]}},
    ),
    # The exit code is never read: exit 2 is nothing; exit 1 with an answer is that answer.
    chat_runs(
        "exit2-not-read",
        {"stderr": "E2E-EXIT2", "exit": 2},
        absent=("E2E-EXIT2",),
        record={**FAILED_OPEN, "failure": "exit_code", "exit_code": 2},
    ),
    _context(
        "exit1-answer-read", {"stdout": J({"contextModification": "E2E-X1"}), "exit": 1}, "E2E-X1"
    ),
    chat_runs(
        "not-json", {"stdout": "E2E-TEXT"}, record={**FAILED_OPEN, "failure": "invalid_json"}
    ),
    chat_runs("json-array-asks-nothing", {"stdout": "[]"}, record={"decision": "allow"}),
    chat_runs(
        "cancel-not-a-boolean",
        {"stdout": J({"cancel": "yes", "errorMessage": ""})},
        record={"decision": "allow"},
    ),
    _context(
        "control-line",
        {"stdout": "a log line\nHOOK_CONTROL\t" + J({"contextModification": "E2E-HC"}) + "\nmore"},
        "E2E-HC",
    ),
    chat_runs(
        "claude-deny-not-read",
        {"stdout": J({"hookSpecificOutput": {"permissionDecision": "deny"}})},
        record={"decision": "allow"},
    ),
    chat_runs("crash", {"signal": 9}, record={**FAILED_OPEN, "failure": "signal"}),
    chat_runs(
        "post-context",
        {},
        post_answer={"stdout": J({"contextModification": "E2E-PCTX"})},
        notes_have=("E2E-PCTX",),
        record={"decision": "allow"},
        post_record={"decision": "allow", "context": "E2E-PCTX"},
    ),
    chat_runs(
        "post-override-not-read",
        {},
        post_answer={"stdout": J({"overrideInput": {"commands": ["false"]}})},
        record={"decision": "allow"},
        post_record={"decision": "allow"},
    ),
    # Last: a cancel stops the whole run (no tool result goes back; exit 0).
    chat_case(
        "cancel",
        {"stdout": J({"cancel": True, "errorMessage": "E2E-CANCEL"})},
        None,
        "",
        ends_turn=True,
        record={
            "decision": "deny",
            "reason": "E2E-CANCEL",
            "answer_effects": {"stop": "E2E-CANCEL"},
        },
    ),
]

# PostToolUse's cancel, in a session of its own: the tool ran, the run stops there;
# the background hooks answer a cancel too, which Cline never reads.
BACKGROUND_CANCEL = {"stdout": J({"cancel": True, "errorMessage": "E2E-BGCANCEL"})}
CLINE_POST_CANCEL = [
    Case(
        name="post-cancel",
        answer={},
        ran=RAN,
        is_error=False,
        content_has="",
        ends_turn=True,
        record={"decision": "allow"},
        post_answer={"stdout": J({"cancel": True, "errorMessage": "E2E-PCANCEL"})},
        post_record={
            "decision": "deny",
            "reason": "E2E-PCANCEL",
            "answer_effects": {"stop": "E2E-PCANCEL"},
        },
    ),
]

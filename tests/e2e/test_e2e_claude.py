"""The real Claude Code CLI, with and without the tap: it must not tell the difference."""

from __future__ import annotations

import json

import pytest

from tests.e2e.drivers import DRIVERS, REWRITTEN
from tests.e2e.flow import Case, assert_records, assert_same_behaviour, run_pair
from tests.e2e.harness import Sandbox, skip_reason

RUNTIME = "claude-code"
pytestmark = pytest.mark.skipif(bool(skip_reason(RUNTIME)), reason=str(skip_reason(RUNTIME)))
DRIVER = DRIVERS[RUNTIME]


def _pre(**fields) -> str:
    return json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", **fields}})


CASES = [
    Case(
        name="deny",
        answer={"stdout": _pre(permissionDecision="deny", permissionDecisionReason="E2E-DENY")},
        ran=None,
        is_error=True,
        content_has="E2E-DENY",
        record={"decision": "deny", "reason": "E2E-DENY"},
        post_fires=False,
    ),
    Case(
        name="exit2",
        answer={"stderr": "E2E-EXIT2", "exit": 2},
        ran=None,
        is_error=True,
        content_has="E2E-EXIT2",
        record={"decision": "deny", "exit_code": 2},
        post_fires=False,
    ),
    Case(
        name="rewrite",
        answer={
            "stdout": _pre(permissionDecision="allow", updatedInput=DRIVER.tool_input(REWRITTEN))
        },
        ran="marker-rewritten",
        is_error=False,
        content_has="rewritten-ran",
        record={"decision": "modify", "updated_input": DRIVER.tool_input(REWRITTEN)},
    ),
    Case(
        name="allow",
        answer={"stdout": _pre(permissionDecision="allow")},
        ran="marker-original",
        is_error=False,
        content_has="original-ran",
        record={"decision": "allow"},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_claude_code_same_with_and_without_tap(sandbox: Sandbox, case: Case) -> None:
    pair = run_pair(DRIVER, sandbox, case)
    assert_same_behaviour(DRIVER, pair, case)
    assert_records(DRIVER, pair, case)
    assert pair.settings_installed != pair.settings_before
    assert pair.settings_after == pair.settings_before

"""Two hooks on one call in the Chat Completions CLIs (Copilot, Qwen Code): the check of
test_e2e_merge.py, in a file of its own so that CI runs it beside that one.

Copilot runs its hooks one after another and stops at the first deny; Qwen Code 0.24.4
lets the last hook in order that answers hookSpecificOutput.permissionDecision decide,
even over another hook's deny (exit 2, a top-level block or its own permissionDecision).
"""

from __future__ import annotations

import pytest

from tests.e2e.drivers_chat import Copilot, QwenCode
from tests.e2e.merge import Two, check_two


def hso(decision: str, reason: str = "") -> dict:
    answer = {"hookEventName": "PreToolUse", "permissionDecision": decision}
    return {"hookSpecificOutput": {**answer, "permissionDecisionReason": reason or decision}}


CASES = {
    "copilot": (
        Copilot(),
        [
            Two("deny-stops-before-b", "deny", "allow", None, b_runs=False),
            Two("allow-then-deny", "allow", "deny", None),
            Two("crash-stops-before-b", "crash", "allow", None, b_runs=False),
            Two(
                "later-rewrite-stands",
                "rewrite",
                "rewrite",
                "b",
                slow="a",
                conflict="rewrite_clash",
            ),
            Two("silent-keeps-rewrite", "rewrite", "silent", "a"),
        ],
    ),
    "qwen-code": (
        QwenCode(),
        [
            Two(
                "deny-overridden",
                hso("deny", "a no"),
                hso("allow"),
                "original",
                conflict="overridden",
            ),
            Two("exit2-overridden", "exit2", hso("allow"), "original", conflict="overridden"),
            Two("allow-then-deny", hso("allow"), hso("deny", "b no"), None),
        ],
    ),
}


@pytest.mark.parametrize(
    ("name", "case"),
    [
        # One worker per runtime: its two sessions are shared by its cases (merge.py).
        pytest.param(n, c, id=f"{n}-{c.name}", marks=pytest.mark.xdist_group(f"merge:{n}"))
        for n, (_, cases) in CASES.items()
        for c in cases
    ],
)
def test_two_hooks_on_one_call(name, case, tmp_path_factory) -> None:
    driver, cases = CASES[name]
    check_two(driver, cases, case, tmp_path_factory)

"""What Continue CLI 1.5.47's hook runner made of each PreToolUse answer (seen 2026-12-07).

Each case is one answer of the scripted hook (hook.py) to the PreToolUse request
Continue builds, and what its runner returned (continue_cli.fire): blocked and why,
the permission decision and rewritten input it passes on, whether it threw. `record`
is what the tap's record of the call must say: the same reading, by the
continue-cli adapter. The cases of one timeout share one settings file and one
runner run (their answers told apart by the tag in the command, as batch.py does).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.drivers import REWRITTEN

J = json.dumps
RW = {"command": REWRITTEN}
_FAILED = {"decision": "failure", "effect": "proceeds"}


def hso(**fields: Any) -> str:
    return J({"hookSpecificOutput": {"hookEventName": "PreToolUse", **fields}})


@dataclass(frozen=True)
class RunnerCase:
    name: str
    answer: dict[str, Any]  # hook.py's answer: stdout, stderr, exit, sleep, signal
    blocked: bool = False
    reason: str = ""  # its blockReason
    decision: str | None = None  # the permissionDecision it passes on
    updated: dict[str, Any] | None = None  # the updatedInput it passes on
    threw: bool = False  # aggregating the answers threw: the event reads as nothing
    exit_code: int = 0  # the hook's exit code as the runner read it
    record: dict[str, Any] = field(default_factory=dict)
    timeout: int = 30  # the handler's `timeout` (seconds)


RUNNER_CASES = [
    RunnerCase(
        "deny",
        {"stdout": hso(permissionDecision="deny", permissionDecisionReason="E2E-DENY")},
        blocked=True,
        reason="E2E-DENY",
        decision="deny",
        record={"decision": "deny", "reason": "E2E-DENY"},
    ),
    RunnerCase(
        "allow",
        {"stdout": hso(permissionDecision="allow")},
        decision="allow",
        record={"decision": "allow"},
    ),
    RunnerCase(
        "ask",
        {"stdout": hso(permissionDecision="ask", permissionDecisionReason="E2E-ASK")},
        decision="ask",
        record={"decision": "ask", "reason": "E2E-ASK"},
    ),
    RunnerCase(
        "rewrite",
        {"stdout": hso(permissionDecision="allow", updatedInput=RW)},
        decision="allow",
        updated=RW,
        record={"decision": "modify", "updated_input": RW},
    ),
    RunnerCase(
        "exit2",
        {"stderr": "E2E-EXIT2", "exit": 2},
        blocked=True,
        reason="E2E-EXIT2",
        exit_code=2,
        record={"decision": "deny", "reason": "E2E-EXIT2"},
    ),
    RunnerCase(
        "exit2-no-stderr",
        {"exit": 2},
        blocked=True,
        reason="Blocked by hook",
        exit_code=2,
        record={"decision": "deny", "reason": "Blocked by hook"},
    ),
    RunnerCase(
        "exit2-beats-json-allow",
        {"stdout": hso(permissionDecision="allow"), "stderr": "E2E-EXIT2", "exit": 2},
        blocked=True,
        reason="E2E-EXIT2",
        decision="allow",
        exit_code=2,
        record={"decision": "deny", "reason": "E2E-EXIT2"},
    ),
    RunnerCase(
        "exit2-deny-json-reason-wins",
        {
            "stdout": hso(permissionDecision="deny", permissionDecisionReason="E2E-JSON"),
            "stderr": "E2E-STDERR",
            "exit": 2,
        },
        blocked=True,
        reason="E2E-JSON",
        decision="deny",
        exit_code=2,
        record={"decision": "deny", "reason": "E2E-JSON"},
    ),
    RunnerCase(
        "decision-block",
        {"stdout": J({"decision": "block", "reason": "E2E-BLOCK"})},
        blocked=True,
        reason="E2E-BLOCK",
        record={"decision": "deny", "reason": "E2E-BLOCK"},
    ),
    RunnerCase(
        "decision-block-on-exit1",
        {"stdout": J({"decision": "block"}), "stderr": "E2E-WHY", "exit": 1},
        blocked=True,
        reason="E2E-WHY",
        exit_code=1,
        record={"decision": "deny", "reason": "E2E-WHY"},
    ),
    RunnerCase(
        "deny-json-on-exit1",
        {"stdout": hso(permissionDecision="deny"), "exit": 1},
        blocked=True,
        reason="Blocked by hook",
        decision="deny",
        exit_code=1,
        record={"decision": "deny", "reason": "Blocked by hook"},
    ),
    RunnerCase(
        "exit1",
        {"stderr": "E2E-EXIT1", "exit": 1},
        exit_code=1,
        record={**_FAILED, "failure": "exit_code"},
    ),
    RunnerCase(
        "exit3",
        {"stderr": "E2E-EXIT3", "exit": 3},
        exit_code=3,
        record={**_FAILED, "failure": "exit_code"},
    ),
    RunnerCase("plain-text", {"stdout": "just some text"}, record={"decision": "allow"}),
    RunnerCase("broken-json", {"stdout": "{not json"}, record={"decision": "allow"}),
    RunnerCase("empty-output", {}, record={"decision": "allow"}),
    RunnerCase(
        "continue-false-not-read",
        {"stdout": J({"continue": False, "stopReason": "E2E-STOP"})},
        record={"decision": "allow"},
    ),
    RunnerCase(
        "hookSpecificOutput-string-throws",
        {"stdout": J({"hookSpecificOutput": "E2E"}), "stderr": "E2E-LOST", "exit": 2},
        threw=True,
        exit_code=2,
        record={**_FAILED, "failure": "unsupported"},
    ),
    RunnerCase(
        "permission-request-answer-without-decision-throws",
        {"stdout": J({"hookSpecificOutput": {"hookEventName": "PermissionRequest"}})},
        threw=True,
        record={**_FAILED, "failure": "unsupported"},
    ),
    RunnerCase(
        "permission-request-deny-read-at-pre-tool-use",
        {
            "stdout": J(
                {
                    "hookSpecificOutput": {
                        "hookEventName": "PermissionRequest",
                        "decision": {"behavior": "deny", "message": "E2E-PR"},
                    }
                }
            )
        },
        blocked=True,
        reason="E2E-PR",
        record={"decision": "deny", "reason": "E2E-PR"},
    ),
    RunnerCase(
        # The hook killed by a signal after printing a deny: the shell that ran it exits
        # 137, and the JSON it printed is read whatever the exit code: it blocks.
        "crash-after-deny",
        {
            "stdout": hso(permissionDecision="deny", permissionDecisionReason="E2E-LAST"),
            "signal": 9,
        },
        blocked=True,
        reason="E2E-LAST",
        decision="deny",
        exit_code=137,
        record={"decision": "deny", "reason": "E2E-LAST"},
    ),
    RunnerCase(
        # Killed at its timeout before answering: exit 0, nothing read; the tool runs.
        "timeout",
        {"stdout": hso(permissionDecision="deny", permissionDecisionReason="E2E-LATE"), "sleep": 6},
        record={**_FAILED, "failure": "timeout"},
        timeout=2,
    ),
]

"""A person's decision on a held call, as the runtime's own answer (dashboard side).

Allow, deny and a rewritten tool input go through the runtime's `encode`, so
each runtime gets the form it reads (JSON fields, exit codes); an answer typed
by hand goes as typed. Every frame says the verdict the runtime will take from
it (judged by the same runtime, as the record does). A runtime with no answer
meaning the decision at this event raises ValueError (its own sentence).
"""

from __future__ import annotations

from typing import Any

from hooktui.tap.canonical import Outcome, Verdict
from hooktui.tap.hold import wire
from hooktui.tap.runtimes import registry


def own() -> dict:
    """Let the hook's own answer through."""
    return {"action": "hook"}


def allow(held) -> dict:
    return _encoded(held, "allow", Verdict(decision="allow"))


def deny(held, reason: str) -> dict:
    return _encoded(held, "deny", Verdict(decision="deny", reason=reason))


def rewrite(held, tool_input: Any) -> dict:
    """Allow the call with this tool input instead (the runtime's rewrite)."""
    return _encoded(held, "edit", Verdict(decision="modify", updated_input=tool_input))


def typed(held, stdout: str, exit_code: int = 0, stderr: str = "") -> dict:
    """An answer written by hand, sent as is."""
    return _frame(held, "answer", stdout.encode(), stderr.encode(), exit_code)


def _encoded(held, action: str, verdict: Verdict) -> dict:
    adapter = registry.get_adapter(held.runtime)
    stdout, stderr, code = adapter.encode(held.call, verdict)
    return _frame(held, action, stdout, stderr, code)


def _frame(held, action: str, stdout: bytes, stderr: bytes, exit_code: int) -> dict:
    verdict = verdict_of(held, stdout, stderr, exit_code)
    return {
        "action": action,
        "decision": verdict.decision,
        "reason": verdict.reason or verdict.failure_detail,
        "exit_code": exit_code,
        "stdout": wire.b64(stdout),
        "stderr": wire.b64(stderr),
    }


def verdict_of(held, stdout: bytes, stderr: bytes, exit_code: int | None, signal=None) -> Verdict:
    """The verdict the runtime takes from this answer to the held call."""
    outcome = Outcome(stdout=stdout, stderr=stderr, exit_code=exit_code, signal=signal)
    _, _, verdict = registry.judge_request(held.request, outcome, held.runtime, held.version)
    return verdict

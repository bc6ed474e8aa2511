"""What every runtime's case table shares: answer builders and the common cases.

Every answer is the PreToolUse hook's {"stdout", "stderr", "exit"}; the
PostToolUse hook answers nothing unless a case says so.
"""

from __future__ import annotations

import json
from typing import Any

from tests.e2e.drivers import ORIGINAL
from tests.e2e.flow import Case
from tests.tap.fixtures import specific


def _hso_for(event: str, **fields: Any) -> str:
    """A hook answer carrying hookSpecificOutput for `event`, as the hook prints it."""
    return json.dumps(specific(event, **fields))


def _hso(**fields: Any) -> str:
    return _hso_for("PreToolUse", **fields)


def _json(**fields: Any) -> str:
    return json.dumps(fields)


RAN = "marker-original"
# What every runtime shows when the original command runs as asked.
_PROCEEDS = {"ran": RAN, "is_error": False, "content_has": "original-ran"}


def _output_replaced(text: str, *, is_error: bool) -> dict[str, Any]:
    """The command ran, but the model gets `text` instead of its output."""
    return {"ran": RAN, "is_error": is_error, "content_has": text, "absent": ("original-ran",)}


# AWS's documented example key: the shape redaction looks for, valid nowhere.
SECRET = "AKIAIOSFODNN7EXAMPLE"
SECRET_COMMAND = f"echo {SECRET} >/dev/null && {ORIGINAL}"


# A secret in the command: the hooks get it, the stream must not; the command runs as asked.
_SECRET_CASE = Case(
    name="secret-in-command",
    answer={},
    command=SECRET_COMMAND,
    secret=SECRET,
    record={"decision": "allow"},
    **_PROCEEDS,
)


# The same hook answer on every runtime, and the same record of it; `seen` is what
# that runtime was seen to do with it.


def _rewrite_case(stdout: str, rewrite: dict[str, Any]) -> Case:
    """The hook answers `stdout`, rewriting the command's input to `rewrite`."""
    return Case(
        name="rewrite",
        answer={"stdout": stdout},
        ran=REWROTE,
        is_error=False,
        content_has="rewritten-ran",
        record={"decision": "modify", "updated_input": rewrite},
    )


def _allowed_case(name: str, answer: dict[str, Any]) -> Case:
    """An answer the runtime reads as an allow: the command runs as asked."""
    return Case(name=name, answer=answer, record={"decision": "allow"}, **_PROCEEDS)


def _exit_failure_case(code: int) -> Case:
    """Exit `code` with text on stderr: a failed hook the runtime runs the command past."""
    return Case(
        name=f"exit{code}",
        answer={"stderr": f"E2E-EXIT{code}", "exit": code},
        record={"decision": "failure", "failure": "exit_code", "effect": "proceeds"},
        **_PROCEEDS,
    )


def _deny_case(stdout: str, **seen: Any) -> Case:
    """The hook answers `stdout`, a deny with the reason "E2E-DENY"."""
    return Case(
        name="deny",
        answer={"stdout": stdout},
        ran=None,
        record={"decision": "deny", "reason": "E2E-DENY"},
        post_fires=False,
        **seen,
    )


def _exit2_case(**seen: Any) -> Case:
    return Case(
        name="exit2",
        answer={"stderr": "E2E-EXIT2", "exit": 2},
        ran=None,
        record={"decision": "deny", "reason": "E2E-EXIT2", "exit_code": 2},
        post_fires=False,
        **seen,
    )


def _timeout_case(late_answer: str, **seen: Any) -> Case:
    """The hook would answer `late_answer` (carrying "E2E-LATE") after its 2 s timeout."""
    return Case(
        name="timeout",
        answer={"stdout": late_answer, "sleep": 6},
        pre_timeout=2,
        absent=("E2E-LATE",),
        record={"decision": "failure", "failure": "timeout", "effect": "proceeds"},
        **seen,
    )


def _post_deny_case(name: str, answer: str, reason: str, **seen: Any) -> Case:
    """The post hook answers {"decision": `answer`, "reason": `reason`}: a deny."""
    return Case(
        name=name,
        answer={},
        post_answer={"stdout": _json(decision=answer, reason=reason)},
        record={"decision": "allow"},
        post_record={"decision": "deny", "reason": reason},
        **seen,
    )


def _post_exit2_case(name: str, **seen: Any) -> Case:
    return Case(
        name=name,
        answer={},
        post_answer={"stderr": "E2E-POSTEXIT2", "exit": 2},
        record={"decision": "allow"},
        post_record={"decision": "deny", "reason": "E2E-POSTEXIT2", "exit_code": 2},
        **seen,
    )


def _post_context_case(name: str, event: str, context: str, **seen: Any) -> Case:
    """The post hook adds `context` under hookSpecificOutput for `event`."""
    return Case(
        name=name,
        answer={},
        post_answer={"stdout": _hso_for(event, additionalContext=context)},
        record={"decision": "allow"},
        post_record={"decision": "allow", "context": context},
        **seen,
    )


REWROTE = "marker-rewritten"

"""What Mistral Vibe 3.0.3 really did with each hook answer (`.vibe/hooks.toml`).

Each list runs as ONE session of `vibe -p` (batch.py), bare and then through the
tap (test_e2e_mistral_vibe.py); every case was seen on the real CLI here
(2026-12-07, ORACLE.md). The model calls `bash`; hooks see `file_system.bash`.
A refused call reaches the model as the bare reason, in place of the output.
"""

from __future__ import annotations

import json

from tests.e2e.cases_chat import chat_case, chat_runs
from tests.e2e.cases_common import RAN
from tests.e2e.drivers import REWRITTEN
from tests.e2e.flow import Case

J = json.dumps
FAILED_OPEN = {"decision": "failure", "effect": "proceeds"}
FAILED_CLOSED = {"decision": "failure", "effect": "blocks"}
STRICT = {"strict": True}
# A post_tool hook's answers (the pre hook answers nothing there).
_OUTPUT_SHOWN = "original-ran"


def _post(name: str, post: dict, content: str, post_record: dict, **more) -> Case:
    """The command ran; `post` is the post_tool hook's answer, `content` what the model got."""
    return chat_case(
        name,
        {},
        RAN,
        content,
        record={"decision": "allow"},
        post_answer=post,
        post_record=post_record,
        **more,
    )


# Every session gives the pre_tool hook this timeout; the timeout cases sleep past it
# (the harness kills the hook's process group).
TIMEOUT_S = 5
_SLEEP = {"sleep": 2 * TIMEOUT_S}

VIBE = [
    chat_runs("allow-empty", {}, record={"decision": "allow"}),
    chat_case(
        "deny",
        {"stdout": J({"decision": "deny", "reason": "E2E-DENY"})},
        None,
        "E2E-DENY",
        record={"decision": "deny", "reason": "E2E-DENY"},
    ),
    chat_case(
        "deny-no-reason",
        {"stdout": J({"decision": "deny"})},
        None,
        "Blocked by a pre_tool hook.",
        record={"decision": "deny", "reason": "Blocked by a pre_tool hook."},
    ),
    chat_case(
        "rewrite",
        {"stdout": J({"hook_specific_output": {"tool_input": {"command": REWRITTEN}}})},
        "marker-rewritten",
        "rewritten-ran",
        record={"decision": "modify"},
    ),
    # Only exit 0 answers: exit 2 (stderr) and a deny beside exit 1 are failures.
    chat_runs("exit2", {"stderr": "E2E-EXIT2", "exit": 2}, record={**FAILED_OPEN, "exit_code": 2}),
    chat_runs(
        "exit1-with-json-deny",
        {"stdout": J({"decision": "deny", "reason": "E2E-X1DENY"}), "exit": 1},
        record={**FAILED_OPEN, "failure": "exit_code"},
    ),
    chat_runs("text", {"stdout": "E2E-TEXT"}, record={**FAILED_OPEN, "failure": "invalid_json"}),
    chat_runs("json-array", {"stdout": "[]"}, record={**FAILED_OPEN, "failure": "invalid_json"}),
    # Only "deny" refuses: block, and Claude's spelling, allow.
    chat_runs(
        "decision-block-allows",
        {"stdout": J({"decision": "block", "reason": "E2E-BLOCK"})},
        record={"decision": "allow"},
    ),
    chat_runs(
        "claude-deny-allows",
        {"stdout": J({"hookSpecificOutput": {"permissionDecision": "deny"}})},
        record={"decision": "allow"},
    ),
    # The hook is a shell line: `sh -c` (dash) outlives the killed hook and exits 137,
    # saying "Killed" on stderr; an exit code is what Vibe sees, and the record.
    chat_runs("crash", {"signal": 9}, record={**FAILED_OPEN, "failure": "exit_code"}),
    chat_runs("timeout", _SLEEP, record={**FAILED_OPEN, "failure": "timeout"}),
    chat_runs(
        "system-message",
        {"stdout": J({"system_message": "E2E-NOTE"})},
        record={"decision": "allow", "answer_effects": {"user_message": "E2E-NOTE"}},
        absent=("E2E-NOTE",),
    ),
    _post(
        "post-deny-replaces",
        {"stdout": J({"decision": "deny", "reason": "E2E-PDENY"})},
        "E2E-PDENY",
        {"decision": "replace", "updated_output": "E2E-PDENY"},
        absent=(_OUTPUT_SHOWN,),
    ),
    _post(
        "post-context",
        {"stdout": J({"hook_specific_output": {"additional_context": "E2E-PCTX"}})},
        "E2E-PCTX",
        {"decision": "allow", "context": "E2E-PCTX"},
    ),
    _post(
        "post-exit1",
        {"stderr": "E2E-PX1", "exit": 1},
        _OUTPUT_SHOWN,
        {**FAILED_OPEN, "failure": "exit_code"},
    ),
]

# Both hooks `strict = true`: a failure denies the call (its reason: the hook's stderr,
# else the harness's words), or blanks the tool's result.
_STRICT = {"pre_handler": STRICT, "post_handler": STRICT}
VIBE_STRICT = [
    chat_runs("strict-allow", {}, record={"decision": "allow"}, **_STRICT),
    chat_case(
        "strict-exit2",
        {"stderr": "E2E-SEXIT2", "exit": 2},
        None,
        "E2E-SEXIT2",
        record={**FAILED_CLOSED, "exit_code": 2},
        **_STRICT,
    ),
    chat_case(
        "strict-text",
        {"stdout": "E2E-STEXT"},
        None,
        "stdout did not match the hook response schema",
        record={**FAILED_CLOSED, "failure": "invalid_json"},
        **_STRICT,
    ),
    chat_case(
        "strict-deny",
        {"stdout": J({"decision": "deny", "reason": "E2E-SDENY"})},
        None,
        "E2E-SDENY",
        record={"decision": "deny", "reason": "E2E-SDENY"},
        **_STRICT,
    ),
    chat_case(
        "strict-post-exit1-blanks",
        {},
        RAN,
        "",
        record={"decision": "allow"},
        post_answer={"stderr": "E2E-SPX1", "exit": 1},
        post_record={**FAILED_CLOSED, "failure": "exit_code"},
        absent=(_OUTPUT_SHOWN, "E2E-SPX1"),
        **_STRICT,
    ),
    chat_case(
        "strict-timeout",
        _SLEEP,
        None,
        "timed out",
        record={**FAILED_CLOSED, "failure": "timeout"},
        **_STRICT,
    ),
]

"""What the real Claude Code did with each PreToolUse/PostToolUse answer: 2.1.332,
and where the first pin, 2.1.197, behaved otherwise (ORACLE.md)."""

from __future__ import annotations

import json
from typing import Any

from tests.e2e.cases_common import (
    _PROCEEDS,
    _SECRET_CASE,
    RAN,
    REWROTE,
    _allowed_case,
    _deny_case,
    _exit2_case,
    _exit_failure_case,
    _hso,
    _hso_for,
    _json,
    _output_replaced,
    _post_context_case,
    _post_deny_case,
    _post_exit2_case,
    _rewrite_case,
    _timeout_case,
)
from tests.e2e.drivers import REWRITTEN
from tests.e2e.flow import Case

# --- Claude Code 2.1.332 (first pinned at 2.1.197; ORACLE.md lists what changed) ------------------------------------------------------------
# Runs with --allowedTools Bash, so the permission rules never stop the command:
# whether it runs is the hook's doing alone.

_claude_rewrite = {"command": REWRITTEN, "description": "leave a marker"}

CLAUDE_MAIN = [
    _deny_case(
        _hso(permissionDecision="deny", permissionDecisionReason="E2E-DENY"),
        is_error=True,
        content_has="E2E-DENY",
    ),
    # The model reads "PreToolUse:Bash hook error: [<command>]: E2E-EXIT2".
    _exit2_case(is_error=True, content_has="E2E-EXIT2"),
    _rewrite_case(_hso(permissionDecision="allow", updatedInput=_claude_rewrite), _claude_rewrite),
    _allowed_case("allow", {"stdout": _hso(permissionDecision="allow")}),
]

_claude_blocks = {"ran": None, "is_error": True, "post_fires": False}

# onFailure: "block" (2.1.295): a hook that fails, crashes, times out or cannot start
# blocks the call; the model reads 'PreToolUse:Bash hook error: [<command>]: failed;
# blocking because onFailure is "block"' and the hook's stderr. 2.1.197 ignored the key.
_BLOCKING = 'blocking because onFailure is "block"'


def _on_failure_block(name: str, answer: dict[str, Any], record: dict[str, Any], **more) -> Case:
    return Case(
        name=name,
        answer=answer,
        content_has=more.pop("content_has", _BLOCKING),
        record=record,
        pre_handler={"onFailure": "block", **more.pop("pre_handler", {})},
        **{**_claude_blocks, **more},
    )


_FAILED_BLOCKS = {"decision": "failure", "effect": "blocks"}

CLAUDE_ON_FAILURE = [
    _on_failure_block(
        "onfailure-block-exit1",
        {"stderr": "E2E-EXIT1", "exit": 1},
        {**_FAILED_BLOCKS, "failure": "exit_code"},
    ),
    _on_failure_block(
        "onfailure-block-exit3",
        {"stderr": "E2E-EXIT3", "exit": 3},
        {**_FAILED_BLOCKS, "failure": "exit_code"},
    ),
    _on_failure_block(
        "onfailure-block-crash", {"stderr": "E2E-CRASH", "signal": 9}, _FAILED_BLOCKS
    ),
    _on_failure_block(
        "onfailure-block-timeout",
        {"stdout": _json(decision="approve"), "sleep": 6},
        {**_FAILED_BLOCKS, "failure": "timeout"},
        content_has='timed out; blocking because onFailure is "block"',
        pre_timeout=2,
    ),
    # The command cannot start (exec form, no such program): no hook runs at all.
    _on_failure_block(
        "onfailure-block-cannot-start",
        {},
        _FAILED_BLOCKS,
        pre_handler={"command": "/nonexistent/e2e-hook", "args": ["x"]},
        pre_runs=False,
    ),
    # With onFailure: block, a JSON answer on exit 1 no longer counts: the call is blocked.
    _on_failure_block(
        "onfailure-block-json-allow-exit1",
        {"stdout": _hso(permissionDecision="allow"), "exit": 1},
        _FAILED_BLOCKS,
    ),
    # ...and JSON that fails the output schema (exit 0) blocks too.
    _on_failure_block(
        "onfailure-block-invalid-json",
        {"stdout": _json(decision="allow")},
        {**_FAILED_BLOCKS, "failure": "unsupported"},
        content_has="Hook JSON output validation failed",
    ),
    Case(
        name="onfailure-block-plain-text",
        # Plain text on exit 0 is no failure: the call runs.
        answer={"stdout": "just some text"},
        pre_handler={"onFailure": "block"},
        record={"decision": "allow"},
        **_PROCEEDS,
    ),
    Case(
        name="onfailure-continue-exit1",
        answer={"stderr": "E2E-EXIT1", "exit": 1},
        pre_handler={"onFailure": "continue"},
        record={"decision": "failure", "failure": "exit_code", "effect": "proceeds"},
        **_PROCEEDS,
    ),
    Case(
        name="post-onfailure-block-exit1",
        # On PostToolUse the command already ran: the model gets the output plus
        # a blocking error quoting the hook.
        answer={},
        post_answer={"stderr": "E2E-PEXIT1", "exit": 1},
        post_handler={"onFailure": "block"},
        notes_have=(_BLOCKING, "E2E-PEXIT1"),
        record={"decision": "allow"},
        post_record={"decision": "failure", "failure": "exit_code", "effect": "blocks"},
        **_PROCEEDS,
    ),
]

CLAUDE_PINNED = [
    _SECRET_CASE,
    _exit_failure_case(1),
    _exit_failure_case(3),
    Case(
        name="exit2-no-stderr",
        answer={"exit": 2},
        content_has="No stderr output",
        record={"decision": "deny", "exit_code": 2},
        **_claude_blocks,
    ),
    Case(
        name="exit2-beats-json-allow",
        answer={"stdout": _hso(permissionDecision="allow"), "stderr": "E2E-EXIT2", "exit": 2},
        content_has="E2E-EXIT2",
        record={"decision": "deny", "reason": "E2E-EXIT2"},
        **_claude_blocks,
    ),
    _allowed_case("empty-output", {}),
    _allowed_case("plain-text", {"stdout": "just some text"}),
    Case(
        name="invalid-json",
        answer={"stdout": "{not json"},
        record={"decision": "allow"},  # 2.1.197 reads broken JSON as plain text
        **_PROCEEDS,
    ),
    Case(
        name="legacy-block",
        answer={"stdout": _json(decision="block", reason="E2E-LEGACY")},
        content_has="E2E-LEGACY",
        record={"decision": "deny", "reason": "E2E-LEGACY"},
        **_claude_blocks,
    ),
    _allowed_case("legacy-approve", {"stdout": _json(decision="approve", reason="ok")}),
    Case(
        name="ask-headless",
        # -p mode cannot ask: the call is refused and the model reads the reason.
        answer={"stdout": _hso(permissionDecision="ask", permissionDecisionReason="E2E-ASK")},
        content_has="E2E-ASK",
        record={"decision": "ask", "reason": "E2E-ASK"},
        **_claude_blocks,
    ),
    Case(
        name="updated-input-without-decision",
        answer={"stdout": _hso(updatedInput={"command": REWRITTEN})},
        ran=REWROTE,
        is_error=False,
        content_has="rewritten-ran",
        record={"decision": "modify", "updated_input": {"command": REWRITTEN}},
    ),
    Case(
        name="deny-json-with-exit1",
        answer={
            "stdout": _hso(permissionDecision="deny", permissionDecisionReason="E2E-D"),
            "exit": 1,
        },
        content_has="E2E-D",
        record={"decision": "deny", "reason": "E2E-D"},
        **_claude_blocks,
    ),
    Case(
        name="deny-under-wrong-hookEventName",
        answer={
            "stdout": _hso_for(
                "PostToolUse", permissionDecision="deny", permissionDecisionReason="E2E-W"
            )
        },
        record={},
        **_PROCEEDS,
    ),
    Case(
        name="continue-false",
        # The tool still runs (PostToolUse fires), then the turn ends: no tool
        # result goes back to the model (terminal_reason "hook_stopped").
        answer={"stdout": _json(**{"continue": False, "stopReason": "E2E-STOP"})},
        ran=RAN,
        is_error=False,
        content_has="",
        ends_turn=True,
        record={},
    ),
    Case(
        name="deny-json-with-exit3",
        # Valid JSON on stdout is read whatever the exit code (2 aside).
        answer={
            "stdout": _hso(permissionDecision="deny", permissionDecisionReason="E2E-D3"),
            "exit": 3,
        },
        content_has="E2E-D3",
        record={"decision": "deny", "reason": "E2E-D3"},
        **_claude_blocks,
    ),
    Case(
        name="allow-json-with-exit1",
        # Read as a plain success: no hook error.
        answer={"stdout": _hso(permissionDecision="allow"), "stderr": "E2E-EXIT1", "exit": 1},
        record={"decision": "allow", "failure": ""},
        **_PROCEEDS,
    ),
    Case(
        name="plain-text-with-exit1",
        answer={"stdout": "just some text", "stderr": "E2E-EXIT1", "exit": 1},
        record={"decision": "failure", "failure": "exit_code", "effect": "proceeds"},
        **_PROCEEDS,
    ),
    Case(
        name="deny-json-with-exit2",
        # exit 2 with a JSON deny: the JSON's reason, not stderr, reaches the model.
        answer={
            "stdout": _hso(permissionDecision="deny", permissionDecisionReason="E2E-JD"),
            "stderr": "E2E-EXIT2",
            "exit": 2,
        },
        content_has="E2E-JD",
        record={"decision": "deny", "reason": "E2E-JD"},
        **_claude_blocks,
    ),
    Case(
        name="invalid-answer-with-exit2",
        # Since 2.1.214 exit 2 blocks, stderr the reason, even when stdout holds JSON that
        # fails the output schema (2.1.197: a non-blocking error, the command ran).
        answer={"stdout": _json(decision="allow"), "stderr": "E2E-EXIT2", "exit": 2},
        content_has="E2E-EXIT2",
        record={"decision": "deny", "reason": "E2E-EXIT2", "exit_code": 2},
        **_claude_blocks,
    ),
    Case(
        name="deny-without-hookEventName",
        answer={
            "stdout": json.dumps(
                {
                    "hookSpecificOutput": {
                        "permissionDecision": "deny",
                        "permissionDecisionReason": "E2E-N",
                    }
                }
            )
        },
        absent=("E2E-N",),
        record={"decision": "failure", "failure": "unsupported", "effect": "proceeds"},
        **_PROCEEDS,
    ),
    Case(
        name="deny-and-continue-false",
        # The deny blocks the call and continue:false ends the turn there
        # (terminal_reason hook_stopped); 2.1.197 sent the reason back and went on.
        ends_turn=True,
        answer={
            "stdout": json.dumps(
                {
                    "continue": False,
                    "stopReason": "E2E-STOP",
                    "hookSpecificOutput": {
                        "hookEventName": "PreToolUse",
                        "permissionDecision": "deny",
                        "permissionDecisionReason": "E2E-DS",
                    },
                }
            )
        },
        content_has="",
        record={"decision": "deny", "reason": "E2E-DS", "answer_effects": {"stop": "E2E-STOP"}},
        **_claude_blocks,
    ),
    # Killed at its 2 s timeout before it could block: the tool runs.
    _timeout_case(_json(decision="block", reason="E2E-LATE"), **_PROCEEDS),
    # The result stays; the reason rides along as a <system-reminder> text block
    # that quotes the hook's command line.
    _post_deny_case(
        "post-block", "block", "E2E-POSTBLOCK", notes_have=("E2E-POSTBLOCK",), **_PROCEEDS
    ),
    _post_exit2_case("post-exit2", notes_have=("E2E-POSTEXIT2",), **_PROCEEDS),
    _post_context_case(
        "post-additional-context",
        "PostToolUse",
        "E2E-CONTEXT",
        notes_have=("E2E-CONTEXT",),
        **_PROCEEDS,
    ),
    Case(
        name="post-updatedToolOutput-on-bash",
        # Only MCP tools' output can be replaced: for Bash the model gets the real output.
        answer={},
        post_answer={"stdout": _hso_for("PostToolUse", updatedToolOutput="E2E-REPLACED")},
        absent=("E2E-REPLACED",),
        record={"decision": "allow"},
        post_record={"decision": "allow"},
        **_PROCEEDS,
    ),
    Case(
        name="post-updatedToolOutput-bash-shaped",
        # Output in Bash's own shape (stdout, stderr, interrupted) does replace it.
        answer={},
        post_answer={
            "stdout": _hso_for(
                "PostToolUse",
                updatedToolOutput={"stdout": "E2E-REPLACED", "stderr": "", "interrupted": False},
            )
        },
        **_output_replaced("E2E-REPLACED", is_error=False),
        record={"decision": "allow"},
        post_record={"decision": "replace"},
    ),
    *CLAUDE_ON_FAILURE,
    Case(
        name="defer",
        # -p mode: the call is neither run nor refused; the turn stops there
        # (terminal_reason tool_deferred), no tool result goes back.
        answer={"stdout": _hso(permissionDecision="defer", permissionDecisionReason="E2E-DEFER")},
        ends_turn=True,
        content_has="",
        record={"decision": "defer", "reason": "E2E-DEFER"},
        **_claude_blocks,
    ),
]

# --- Claude Code 2.1.197: where the first pin behaved otherwise ---------------------------
# Run only when it is installed (.ci/e2e-setup --with-old); 2.1.332 is in CLAUDE_PINNED.

CLAUDE_197_DIFFERS = [
    Case(
        name="invalid-answer-with-exit2",
        # 2.1.197: schema-invalid JSON on stdout made exit 2 a non-blocking error.
        answer={"stdout": _json(decision="allow"), "stderr": "E2E-EXIT2", "exit": 2},
        absent=("E2E-EXIT2",),
        record={"decision": "failure", "failure": "unsupported", "effect": "proceeds"},
        **_PROCEEDS,
    ),
    Case(
        name="deny-and-continue-false",
        # 2.1.197: the deny blocked the call, its reason went back, the turn went on.
        answer={
            "stdout": json.dumps(
                {
                    "continue": False,
                    "stopReason": "E2E-STOP",
                    "hookSpecificOutput": {
                        "hookEventName": "PreToolUse",
                        "permissionDecision": "deny",
                        "permissionDecisionReason": "E2E-DS",
                    },
                }
            )
        },
        content_has="E2E-DS",
        record={"decision": "deny", "reason": "E2E-DS"},
        **_claude_blocks,
    ),
    # 2.1.197 knew no onFailure: a failing hook let the call through.
    Case(
        name="onfailure-block-exit1",
        answer={"stderr": "E2E-EXIT1", "exit": 1},
        pre_handler={"onFailure": "block"},
        record={"decision": "failure", "failure": "exit_code", "effect": "proceeds"},
        **_PROCEEDS,
    ),
    Case(
        name="onfailure-block-timeout",
        answer={"stdout": _json(decision="approve"), "sleep": 6},
        pre_handler={"onFailure": "block"},
        pre_timeout=2,
        record={"decision": "failure", "failure": "timeout", "effect": "proceeds"},
        **_PROCEEDS,
    ),
]

"""The cases, as data: a PreToolUse hook's answer and what the real runtime did with it.

MAIN cases run twice (bare hook, then through `hooktui install`) and must
behave identically. PINNED cases are the runtime-as-oracle table: each was
seen on the pinned CLI version (harness.CLIS), runs through the tap (cases with
the same settings in one session: batch.py), and checks both that the runtime
still does what is pinned and that the tap's record says so. A case whose
`disagreement` is set is one where the adapter reads the answer differently
from the runtime: its record check is a strict expected failure until the
adapter is fixed.

Claude Code's tables are in cases_claude.py, Codex's and Gemini CLI's here,
Copilot's and Qwen Code's in cases_chat.py, other events' in cases_events.py.
"""

from __future__ import annotations

from tests.e2e.cases_claude import (  # noqa: F401 (re-exported)
    CLAUDE_197_DIFFERS,
    CLAUDE_MAIN,
    CLAUDE_PINNED,
)
from tests.e2e.cases_common import (
    _PROCEEDS,
    _SECRET_CASE,
    RAN,
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
from tests.e2e.drivers import ORIGINAL, REWRITTEN
from tests.e2e.flow import Case

# --- Codex 0.171.0 ------------------------------------------------------------------
# exec_command runs the command; hooks see it as tool "Bash" with {"command"}.

_codex_rewrite = {"command": REWRITTEN}
_codex_blocked = "Command blocked by PreToolUse hook: {}. Command: " + ORIGINAL

CODEX_MAIN = [
    _deny_case(
        _hso(permissionDecision="deny", permissionDecisionReason="E2E-DENY"),
        is_error=False,
        content_has=_codex_blocked.format("E2E-DENY"),
    ),
    _exit2_case(is_error=False, content_has=_codex_blocked.format("E2E-EXIT2")),
    _rewrite_case(_hso(permissionDecision="allow", updatedInput=_codex_rewrite), _codex_rewrite),
    # Codex has no JSON "allow": permissionDecision:"allow" alone is a failed
    # hook (pinned below). A hook allows by answering nothing.
    _allowed_case("allow", {}),
]

_codex_blocks = {"ran": None, "is_error": False, "post_fires": False}
_codex_failed = {"decision": "failure", "effect": "proceeds"}

CODEX_PINNED = [
    _SECRET_CASE,
    Case(
        name="allow-json-is-a-failure",
        answer={"stdout": _hso(permissionDecision="allow")},
        record={**_codex_failed, "failure": "unsupported"},
        **_PROCEEDS,
    ),
    Case(
        name="ask",
        answer={"stdout": _hso(permissionDecision="ask", permissionDecisionReason="E2E-ASK")},
        record={**_codex_failed, "failure": "unsupported"},
        **_PROCEEDS,
    ),
    Case(
        name="continue-false",
        answer={"stdout": _json(**{"continue": False, "stopReason": "E2E-STOP"})},
        record={**_codex_failed, "failure": "unsupported"},
        **_PROCEEDS,
    ),
    Case(
        name="legacy-block",
        answer={"stdout": _json(decision="block", reason="E2E-LEGACY")},
        content_has=_codex_blocked.format("E2E-LEGACY"),
        record={"decision": "deny", "reason": "E2E-LEGACY"},
        **_codex_blocks,
    ),
    Case(
        name="gemini-style-deny",
        answer={"stdout": _json(decision="deny", reason="E2E-GEM")},
        record=_codex_failed,
        **_PROCEEDS,
    ),
    _exit_failure_case(1),
    _exit_failure_case(3),
    Case(
        name="exit2-no-stderr",
        answer={"exit": 2},
        record={**_codex_failed, "exit_code": 2},
        **_PROCEEDS,
    ),
    Case(
        name="deny-json-with-exit1",
        answer={
            "stdout": _hso(permissionDecision="deny", permissionDecisionReason="E2E-D"),
            "exit": 1,
        },
        record={**_codex_failed, "failure": "exit_code"},
        **_PROCEEDS,
    ),
    Case(
        name="updated-input-without-allow",
        answer={"stdout": _hso(updatedInput=_codex_rewrite)},
        record={**_codex_failed, "failure": "unsupported"},
        **_PROCEEDS,
    ),
    Case(
        name="invalid-json",
        answer={"stdout": "{not json"},
        record={**_codex_failed, "failure": "invalid_json"},
        **_PROCEEDS,
    ),
    _allowed_case("plain-text", {"stdout": "just some text"}),
    _timeout_case(_json(decision="block", reason="E2E-LATE"), **_PROCEEDS),
    # The tool ran, but the model gets the reason instead of its output.
    _post_deny_case(
        "post-block",
        "block",
        "E2E-POSTBLOCK",
        **_output_replaced("E2E-POSTBLOCK", is_error=False),
    ),
    _post_exit2_case(
        "post-exit2",
        **_output_replaced("E2E-POSTEXIT2", is_error=False),
    ),
    # Goes to the model as a developer message right after the call.
    _post_context_case(
        "post-additional-context",
        "PostToolUse",
        "E2E-CONTEXT",
        notes_have=("E2E-CONTEXT",),
        **_PROCEEDS,
    ),
    Case(
        name="post-context-under-wrong-hookEventName",
        answer={},
        post_answer={"stdout": _hso_for("AfterTool", additionalContext="E2E-CTX")},
        absent=("E2E-CTX",),
        record={"decision": "allow"},
        post_record={"context": ""},
        **_PROCEEDS,
    ),
    Case(
        name="post-context-under-another-event-name",
        # Any Codex event name parses (an unknown one does not, see above): the
        # context reaches the model.
        answer={},
        post_answer={"stdout": _hso_for("PreToolUse", additionalContext="E2E-CTX2")},
        notes_have=("E2E-CTX2",),
        record={"decision": "allow"},
        post_record={"decision": "allow", "context": "E2E-CTX2"},
        **_PROCEEDS,
    ),
    Case(
        name="post-context-beside-a-field-of-another-event",
        # permissionDecision is PreToolUse's: in a PostToolUse answer the output
        # does not parse, and its context is dropped with it.
        answer={},
        post_answer={
            "stdout": _hso_for(
                "PostToolUse", additionalContext="E2E-CTX3", permissionDecision="deny"
            )
        },
        absent=("E2E-CTX3",),
        record={"decision": "allow"},
        post_record={"decision": "failure", "context": "", "effect": "proceeds"},
        **_PROCEEDS,
    ),
    Case(
        name="post-updatedToolOutput",
        answer={},
        post_answer={"stdout": _hso_for("PostToolUse", updatedToolOutput="E2E-REPLACED")},
        absent=("E2E-REPLACED",),
        record={"decision": "allow"},
        post_record={**_codex_failed, "failure": "unsupported"},
        **_PROCEEDS,
    ),
]

# --- Gemini CLI 0.61.0 ----------------------------------------------------------------
# run_shell_command in yolo mode; a blocked call comes back to the model as an
# error: "Tool execution blocked: <reason>".

_gemini_rewrite = {"command": REWRITTEN}  # the description is dropped, not merged


def _gemini_blocked(reason: str) -> str:
    return f"Tool execution blocked: {reason}"


GEMINI_MAIN = [
    _deny_case(
        _json(decision="deny", reason="E2E-DENY"),
        is_error=True,
        content_has=_gemini_blocked("E2E-DENY"),
    ),
    _exit2_case(is_error=True, content_has=_gemini_blocked("E2E-EXIT2")),
    # hookSpecificOutput.tool_input REPLACES the arguments: the AfterTool
    # request shows the input the tool ran with, and assert_records checks
    # the record's updated_input against it.
    _rewrite_case(_hso_for("BeforeTool", tool_input=_gemini_rewrite), _gemini_rewrite),
    _allowed_case("allow", {"stdout": _json(decision="allow")}),
]

_gemini_blocks = {"ran": None, "is_error": True, "post_fires": False}

GEMINI_PINNED = [
    _SECRET_CASE,
    Case(
        name="block-alias",
        answer={"stdout": _json(decision="block", reason="E2E-BLOCK")},
        content_has=_gemini_blocked("E2E-BLOCK"),
        record={"decision": "deny", "reason": "E2E-BLOCK"},
        **_gemini_blocks,
    ),
    Case(
        name="exit3-plain-text",
        # exit >= 3: stdout text is the reason (stderr is not).
        answer={"stdout": "E2E-EXIT3-OUT", "stderr": "E2E-EXIT3", "exit": 3},
        content_has=_gemini_blocked("E2E-EXIT3-OUT"),
        record={"decision": "deny", "reason": "E2E-EXIT3-OUT"},
        **_gemini_blocks,
    ),
    Case(
        name="deny-json-with-exit1",
        answer={"stdout": _json(decision="deny", reason="E2E-D"), "exit": 1},
        content_has=_gemini_blocked("E2E-D"),
        record={"decision": "deny", "reason": "E2E-D"},
        **_gemini_blocks,
    ),
    Case(
        name="continue-false",
        # The tool does not run and the turn ends: nothing goes back to the model.
        answer={"stdout": _json(**{"continue": False, "stopReason": "E2E-STOP"})},
        content_has="",
        ends_turn=True,
        record={},
        **_gemini_blocks,
    ),
    _exit_failure_case(1),
    Case(
        name="exit2-no-output",
        answer={"exit": 2},
        record={},
        **_PROCEEDS,
    ),
    _allowed_case(
        "exit2-json-allow", {"stdout": _json(decision="allow"), "stderr": "E2E-EXIT2", "exit": 2}
    ),
    Case(
        name="claude-style-deny",
        answer={"stdout": _hso(permissionDecision="deny", permissionDecisionReason="E2E-C")},
        record={},
        **_PROCEEDS,
    ),
    Case(
        name="invalid-json",
        answer={"stdout": "{not json"},
        record={},
        **_PROCEEDS,
    ),
    _allowed_case("empty-output", {}),
    _timeout_case(_json(decision="deny", reason="E2E-LATE"), **_PROCEEDS),
    # The tool ran, but the model gets the reason as an error instead of its output.
    _post_deny_case(
        "after-tool-deny",
        "deny",
        "E2E-POSTDENY",
        **_output_replaced("E2E-POSTDENY", is_error=True),
    ),
    _post_exit2_case(
        "after-tool-exit2",
        **_output_replaced("E2E-POSTEXIT2", is_error=True),
    ),
    # Appended to the output as <hook_context>…</hook_context>.
    _post_context_case(
        "after-tool-additional-context",
        "AfterTool",
        "E2E-CTX",
        ran=RAN,
        is_error=False,
        content_has="<hook_context>E2E-CTX</hook_context>",
    ),
]

MAIN = {"claude-code": CLAUDE_MAIN, "codex": CODEX_MAIN, "gemini-cli": GEMINI_MAIN}
PINNED = {"claude-code": CLAUDE_PINNED, "codex": CODEX_PINNED, "gemini-cli": GEMINI_PINNED}

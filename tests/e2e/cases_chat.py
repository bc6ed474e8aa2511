"""What GitHub Copilot CLI 1.0.102 and Qwen Code 0.24.4 really did with each hook answer.

Each list runs as ONE session of the CLI (batch.py), bare and then through the
tap; every case was seen on the real CLI here (2026-12-03, ORACLE.md). The
shell command is the same as everywhere (drivers.ORIGINAL, tagged per case).
`record` is what the tap's record must say for the runtime's reading
(test_e2e_copilot.py, test_e2e_qwen.py check it).

Chat Completions has no error flag on a tool message: `is_error` is False
throughout; a block shows as the runtime's text in place of the output.
"""

from __future__ import annotations

import json
from typing import Any

from tests.e2e.cases_common import RAN, REWROTE
from tests.e2e.drivers import REWRITTEN
from tests.e2e.flow import Case
from tests.tap.fixtures import specific

J = json.dumps
_RW = {"command": REWRITTEN, "description": "leave a marker"}


def _case(name: str, answer: dict[str, Any], ran: str | None, content: str, **more: Any) -> Case:
    return Case(
        name=name,
        answer=answer,
        ran=ran,
        is_error=False,
        content_has=content,
        post_fires=ran is not None,
        record=more.pop("record", {}),
        **more,
    )


def _runs(name: str, answer: dict[str, Any], **more: Any) -> Case:
    """The runtime let the command run as asked."""
    return _case(name, answer, RAN, "original-ran", **more)


# --- GitHub Copilot CLI, hooks in .github/hooks/*.json (camelCase events) ---------------
_CP_DENIED = "Denied by preToolUse hook: "
_CP_EXIT2 = _CP_DENIED + "hook exited with code 2"
_CP_ERRORED = 'Denied by preToolUse hook from "{source}" (hook errored)'
_FAILED_CLOSED = {"decision": "failure", "effect": "blocks"}
_FAILED_OPEN = {"decision": "failure", "effect": "proceeds"}


def copilot_cases(source: str) -> list[Case]:
    """The cases both Copilot dialects read alike; `source` names the settings in
    Copilot's fail-closed message (".github/hooks/e2e.json", "repo settings")."""
    errored = _CP_ERRORED.format(source=source)
    return [
        _case(
            "deny",
            {"stdout": J({"permissionDecision": "deny", "permissionDecisionReason": "E2E-DENY"})},
            None,
            _CP_DENIED + "E2E-DENY",
            record={"decision": "deny", "reason": "E2E-DENY"},
        ),
        _runs(
            "allow", {"stdout": J({"permissionDecision": "allow"})}, record={"decision": "allow"}
        ),
        _case(
            "ask-headless",
            {"stdout": J({"permissionDecision": "ask", "permissionDecisionReason": "E2E-ASK"})},
            None,
            "Denied by preToolUse hook (unable to ask user for confirmation): E2E-ASK",
            record={"decision": "ask", "reason": "E2E-ASK"},
        ),
        _case(
            "rewrite",
            {"stdout": J({"permissionDecision": "allow", "modifiedArgs": _RW})},
            REWROTE,
            "rewritten-ran",
            record={"decision": "modify", "updated_input": _RW},
        ),
        _case(
            "modifiedArgs-without-decision",
            {"stdout": J({"modifiedArgs": _RW})},
            REWROTE,
            "rewritten-ran",
            record={"decision": "modify", "updated_input": _RW},
        ),
        # Exit 2 denies whatever was printed; stderr is not the reason.
        _case(
            "exit2",
            {"stderr": "E2E-EXIT2", "exit": 2},
            None,
            _CP_EXIT2,
            absent=("E2E-EXIT2",),
            record={"decision": "deny", "exit_code": 2},
        ),
        _case("exit2-no-stderr", {"exit": 2}, None, _CP_EXIT2, record={"decision": "deny"}),
        _case(
            "exit2-beats-json-allow",
            {"stdout": J({"permissionDecision": "allow"}), "stderr": "E2E-EXIT2", "exit": 2},
            None,
            _CP_EXIT2,
            record={"decision": "deny"},
        ),
        # preToolUse fails CLOSED: any other non-zero exit, or a crash, denies.
        _case("exit1", {"stderr": "E2E-EXIT1", "exit": 1}, None, errored, record=_FAILED_CLOSED),
        _case(
            "exit1-with-json-allow",
            {"stdout": J({"permissionDecision": "allow"}), "exit": 1},
            None,
            errored,
            record=_FAILED_CLOSED,
        ),
        _case("exit3", {"stderr": "E2E-EXIT3", "exit": 3}, None, errored, record=_FAILED_CLOSED),
        _case("crash", {"stderr": "E2E-CRASH", "signal": 9}, None, errored, record=_FAILED_CLOSED),
        # ...but a timeout fails open.
        _runs(
            "timeout",
            {
                "stdout": J({"permissionDecision": "deny", "permissionDecisionReason": "E2E-LATE"}),
                "sleep": 8,
            },
            absent=("E2E-LATE",),
            record={"decision": "failure", "failure": "timeout", "effect": "proceeds"},
        ),
        _runs("plain-text", {"stdout": "just some text"}, record={"decision": "allow"}),
        _runs("broken-json", {"stdout": "{not json"}, record={"decision": "allow"}),
        _runs("empty-output", {}, record={"decision": "allow"}),
        # Progress lines on stdout are skipped; the answer after them counts.
        _case(
            "progress-then-deny",
            {
                "stdout": J({"type": "progress", "message": "E2E-PROG"})
                + "\n"
                + J({"permissionDecision": "deny", "permissionDecisionReason": "E2E-PDENY"})
            },
            None,
            _CP_DENIED + "E2E-PDENY",
            record={"decision": "deny", "reason": "E2E-PDENY"},
        ),
        _runs(
            "progress-only",
            {"stdout": J({"type": "progress", "message": "E2E-PROG"}) + "\n"},
            record={"decision": "allow"},
        ),
        # Claude's legacy block and continue:false are not Copilot answers.
        _runs(
            "legacy-block-ignored",
            {"stdout": J({"decision": "block", "reason": "E2E-B"})},
            record={"decision": "allow"},
        ),
        _runs(
            "continue-false-ignored",
            {"stdout": J({"continue": False, "stopReason": "E2E-S"})},
            record={"decision": "allow"},
        ),
        # postToolUse: modifiedResult (an object) replaces what the model reads...
        _case(
            "post-modifiedResult",
            {},
            RAN,
            "E2E-REPLACED",
            post_answer={
                "stdout": J(
                    {
                        "modifiedResult": {
                            "resultType": "success",
                            "textResultForLlm": "E2E-REPLACED",
                        }
                    }
                )
            },
            absent=("original-ran",),
            record={"decision": "allow"},
            post_record={"decision": "replace"},
        ),
        # ...additionalContext is appended to it, decision:block replaces it with the reason.
        _case(
            "post-additionalContext",
            {},
            RAN,
            "original-ran\n<shellId: N completed with exit code 0>\n\n"
            'Tool "bash" succeeded. Additional guidance from postToolUse hooks:\nE2E-CTX',
            post_answer={"stdout": J({"additionalContext": "E2E-CTX"})},
            record={"decision": "allow"},
            post_record={"decision": "allow", "context": "E2E-CTX"},
        ),
        _case(
            "post-block",
            {},
            RAN,
            "Tool result blocked: E2E-PBLOCK",
            post_answer={"stdout": J({"decision": "block", "reason": "E2E-PBLOCK"})},
            absent=("original-ran",),
            post_record={"decision": "deny", "reason": "E2E-PBLOCK"},
        ),
        # (a hook error Copilot goes past: recorded as a failure that proceeds)
        _runs(
            "post-exit2-ignored",
            {},
            post_answer={"stderr": "E2E-PEXIT2", "exit": 2},
            post_record=_FAILED_OPEN,
        ),
        _runs(
            "post-exit1-ignored",
            {},
            post_answer={"stderr": "E2E-PEXIT1", "exit": 1},
            post_record=_FAILED_OPEN,
        ),
    ]


_HSO_DENY = J(
    specific("PreToolUse", permissionDecision="deny", permissionDecisionReason="E2E-HDENY")
)
_HSO_REWRITE = J(specific("PreToolUse", permissionDecision="allow", updatedInput=_RW))

COPILOT = [
    *copilot_cases(".github/hooks/e2e.json"),
    # Claude's hookSpecificOutput is not read from a .github/hooks hook.
    _runs(
        "claude-hookSpecificOutput-deny-ignored",
        {"stdout": _HSO_DENY},
        record={"decision": "allow"},
    ),
    _runs("claude-updatedInput-ignored", {"stdout": _HSO_REWRITE}, record={"decision": "allow"}),
]

COPILOT_CLAUDE_SETTINGS = [
    *copilot_cases("repo settings"),
    # From .claude/settings.json, Claude's hookSpecificOutput IS read.
    _case(
        "claude-hookSpecificOutput-deny",
        {"stdout": _HSO_DENY},
        None,
        _CP_DENIED + "E2E-HDENY",
        record={"decision": "deny", "reason": "E2E-HDENY"},
    ),
    _case(
        "claude-updatedInput",
        {"stdout": _HSO_REWRITE},
        REWROTE,
        "rewritten-ran",
        record={"decision": "modify", "updated_input": _RW},
    ),
]

# --- Qwen Code (.qwen/settings.json, Claude's format) ------------------------------------
# A block reaches the model as the bare reason, in place of the output.

_STOP = {"continue": False, "stopReason": "E2E-CSTOP"}
_PDENY = {"permissionDecision": "deny", "permissionDecisionReason": "E2E-CDENY"}
_PCTX = {"additionalContext": "E2E-PCTX"}

QWEN = [
    _case(
        "deny",
        {"stdout": _HSO_DENY.replace("E2E-HDENY", "E2E-DENY")},
        None,
        "E2E-DENY",
        record={"decision": "deny", "reason": "E2E-DENY"},
    ),
    _runs(
        "allow",
        {"stdout": J(specific("PreToolUse", permissionDecision="allow"))},
        record={"decision": "allow"},
    ),
    # PreToolUse has no rewrite in 0.24.4: updatedInput is not read; the command runs as asked.
    _runs("updatedInput-ignored", {"stdout": _HSO_REWRITE}, record={"decision": "allow"}),
    _runs(
        "flat-permissionDecision-ignored",
        {"stdout": J({"permissionDecision": "deny"})},
        record={"decision": "allow"},
    ),
    _case(
        "legacy-block",
        {"stdout": J({"decision": "block", "reason": "E2E-BLOCK"})},
        None,
        "E2E-BLOCK",
        record={"decision": "deny", "reason": "E2E-BLOCK"},
    ),
    _case(
        "exit2",
        {"stderr": "E2E-EXIT2", "exit": 2},
        None,
        "E2E-EXIT2",
        record={"decision": "deny", "reason": "E2E-EXIT2", "exit_code": 2},
    ),
    # Exit 2 reads stderr: as JSON when it is (its reason), else as the reason text.
    _case(
        "exit2-stderr-json",
        {"stderr": J({"decision": "deny", "reason": "E2E-SJDENY"}), "exit": 2},
        None,
        "E2E-SJDENY",
        record={"decision": "deny", "reason": "E2E-SJDENY"},
    ),
    _case(
        "exit2-stdout-json-is-not-read",
        {"stdout": J({"decision": "deny", "reason": "E2E-OUT"}), "stderr": "E2E-ERR", "exit": 2},
        None,
        "E2E-ERR",
        absent=("E2E-OUT",),
        record={"decision": "deny", "reason": "E2E-ERR"},
    ),
    _case(
        "exit2-beats-json-allow",
        {
            "stdout": J(specific("PreToolUse", permissionDecision="allow")),
            "stderr": "E2E-X2",
            "exit": 2,
        },
        None,
        "E2E-X2",
        record={"decision": "deny", "reason": "E2E-X2"},
    ),
    # Exit 2 with nothing on stderr does not block.
    _runs("exit2-no-stderr", {"exit": 2}, record=_FAILED_OPEN),
    # Any other non-zero exit, a crash, a timeout: a warning, the command runs.
    _runs(
        "exit1",
        {"stderr": "E2E-EXIT1", "exit": 1},
        record={"decision": "failure", "failure": "exit_code", "effect": "proceeds"},
    ),
    # ...but JSON on stdout is read whatever the exit code (2 aside), as in Claude Code.
    _case(
        "exit1-with-json-deny",
        {"stdout": _HSO_DENY, "exit": 1},
        None,
        "E2E-HDENY",
        record={"decision": "deny", "reason": "E2E-HDENY"},
    ),
    # ...and JSON that decides nothing leaves exit 1 an error (its runner's
    # non_blocking_error; stderr unread, nothing shown in -p): the command runs.
    _runs(
        "exit1-with-json-continue",
        {"stdout": J({"continue": True}), "stderr": "E2E-X1C", "exit": 1},
        absent=("E2E-X1C",),
        record={"decision": "failure", "failure": "exit_code", "effect": "proceeds"},
    ),
    # ...and so does a JSON allow (measured 2026-12-05): it ran, the record a failure.
    _runs(
        "exit1-with-json-allow",
        {
            "stdout": J(specific("PreToolUse", permissionDecision="allow")),
            "stderr": "E2E-X1A",
            "exit": 1,
        },
        absent=("E2E-X1A",),
        record={"decision": "failure", "failure": "exit_code", "effect": "proceeds"},
    ),
    # With stdout empty Qwen reads stderr instead, whatever the exit (2 aside): a deny
    # on stderr alone blocks, on exit 1 as on exit 0 (measured 2026-12-05).
    _case(
        "exit1-stderr-json-deny",
        {"stderr": J({"decision": "deny", "reason": "E2E-SDENY"}), "exit": 1},
        None,
        "E2E-SDENY",
        record={"decision": "deny", "reason": "E2E-SDENY", "exit_code": 1},
    ),
    _case(
        "exit0-stderr-json-deny",
        {"stderr": J({"decision": "deny", "reason": "E2E-S0DENY"})},
        None,
        "E2E-S0DENY",
        record={"decision": "deny", "reason": "E2E-S0DENY", "exit_code": 0},
    ),
    # ...and stderr that starts with `{` but is not JSON is Qwen's invalid-JSON error.
    _runs(
        "exit1-stderr-broken-json",
        {"stderr": "{E2E-SBROKEN", "exit": 1},
        absent=("E2E-SBROKEN",),
        record={"decision": "failure", "failure": "invalid_json", "effect": "proceeds"},
    ),
    # A JSON string holding JSON is read once more; a flat `decision: ask` is read
    # (headless: refused with its reason). Measured 2026-12-05.
    _case(
        "double-encoded-deny",
        {"stdout": J(J({"decision": "deny", "reason": "E2E-DDENY"}))},
        None,
        "E2E-DDENY",
        record={"decision": "deny", "reason": "E2E-DDENY"},
    ),
    _case(
        "flat-decision-ask",
        {"stdout": J({"decision": "ask", "reason": "E2E-FASK"})},
        None,
        "E2E-FASK",
        record={"decision": "ask", "reason": "E2E-FASK"},
    ),
    _runs("exit3", {"stderr": "E2E-EXIT3", "exit": 3}, record={"decision": "failure"}),
    _runs("crash", {"stderr": "E2E-CRASH", "signal": 9}, record={"decision": "failure"}),
    _runs(
        "timeout",
        {"stdout": _HSO_DENY, "sleep": 8},
        absent=("E2E-HDENY",),
        record={"decision": "failure", "failure": "timeout", "effect": "proceeds"},
    ),
    _runs("plain-text", {"stdout": "just some text"}, record={"decision": "allow"}),
    # A `{` that is not JSON: a non-blocking error, the command runs.
    _runs(
        "broken-json",
        {"stdout": "{not json"},
        record={"decision": "failure", "failure": "invalid_json", "effect": "proceeds"},
    ),
    _runs("empty-output", {}, record={"decision": "allow"}),
    # PostToolUse: added context is appended to the output; block and exit 2 change nothing.
    _case(
        "post-additional-context",
        {},
        RAN,
        "\n\nE2E-HCTX",
        post_answer={"stdout": J(specific("PostToolUse", additionalContext="E2E-HCTX"))},
        post_record={"decision": "allow", "context": "E2E-HCTX"},
    ),
    _runs(
        "post-block-ignored", {}, post_answer={"stdout": J({"decision": "block", "reason": "R"})}
    ),
    _runs(
        "post-exit2-ignored",
        {},
        post_answer={"stderr": "E2E-PEXIT2", "exit": 2},
        post_record=_FAILED_OPEN,
    ),
    # A deny beside continue:false is read first, with its own reason (hookSpecificOutput's
    # or the legacy block's); continue:false refuses an allow too, with the stopReason.
    # The turn goes on. Measured 2026-12-05.
    _case(
        "continue-false-with-deny",
        {"stdout": J({**_STOP, **specific("PreToolUse", **_PDENY)})},
        None,
        "E2E-CDENY",
        absent=("E2E-CSTOP",),
        record={"decision": "deny", "reason": "E2E-CDENY"},
    ),
    _case(
        "continue-false-with-legacy-block",
        {"stdout": J({**_STOP, "decision": "block", "reason": "E2E-CBLOCK"})},
        None,
        "E2E-CBLOCK",
        absent=("E2E-CSTOP",),
        record={"decision": "deny", "reason": "E2E-CBLOCK"},
    ),
    _case(
        "continue-false-with-allow",
        {"stdout": J({**_STOP, **specific("PreToolUse", permissionDecision="allow")})},
        None,
        "E2E-CSTOP",
        record={"decision": "deny", "reason": "E2E-CSTOP"},
    ),
    # PreToolUse additionalContext reaches nothing the model is sent (test_e2e_qwen.py
    # looks in every request), with an allow, alone, or on exit 1. Measured 2026-12-05.
    _runs(
        "pre-additional-context-allow",
        {"stdout": J(specific("PreToolUse", permissionDecision="allow", **_PCTX))},
        absent=("E2E-PCTX",),
        record={"decision": "allow", "context": ""},
    ),
    _runs(
        "pre-additional-context",
        {"stdout": J(specific("PreToolUse", **_PCTX))},
        absent=("E2E-PCTX",),
        record={"decision": "allow", "context": ""},
    ),
    _runs(
        "pre-additional-context-exit1",
        {"stdout": J(specific("PreToolUse", **_PCTX)), "exit": 1},
        absent=("E2E-PCTX",),
        record={"decision": "failure", "failure": "exit_code", "effect": "proceeds", "context": ""},
    ),
    # continue:false: the call is refused with the stopReason (kept last: it may end the turn).
    _case(
        "continue-false",
        {"stdout": J({"continue": False, "stopReason": "E2E-STOP"})},
        None,
        "E2E-STOP",
        record={"decision": "deny", "reason": "E2E-STOP"},
    ),
]

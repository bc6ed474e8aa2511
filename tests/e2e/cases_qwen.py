"""What Qwen Code 0.24.4 really did with each hook answer (.qwen/settings.json,
Claude's format; it speaks Chat Completions to its model, as Copilot does: the case
builders are cases_chat.py's).

The list runs as ONE session of the CLI (batch.py), bare and then through the
tap; every case was seen on the real CLI here (ORACLE.md, dated per row).
`record` is what the tap's record must say for Qwen's reading (test_e2e_qwen.py
checks it).
"""

from __future__ import annotations

from tests.e2e.cases_chat import (
    FAILED_OPEN,
    HSO_DENY,
    HSO_REWRITE,
    J,
    chat_case,
    chat_runs,
)
from tests.e2e.cases_common import RAN
from tests.tap.fixtures import specific

# --- Qwen Code (.qwen/settings.json, Claude's format) ------------------------------------
# A block reaches the model as the bare reason, in place of the output.

_STOP = {"continue": False, "stopReason": "E2E-CSTOP"}
_PDENY = {"permissionDecision": "deny", "permissionDecisionReason": "E2E-CDENY"}
_PCTX = {"additionalContext": "E2E-PCTX"}

QWEN = [
    chat_case(
        "deny",
        {"stdout": HSO_DENY.replace("E2E-HDENY", "E2E-DENY")},
        None,
        "E2E-DENY",
        record={"decision": "deny", "reason": "E2E-DENY"},
    ),
    chat_runs(
        "allow",
        {"stdout": J(specific("PreToolUse", permissionDecision="allow"))},
        record={"decision": "allow"},
    ),
    # PreToolUse has no rewrite in 0.24.4: updatedInput is not read; the command runs as asked.
    chat_runs("updatedInput-ignored", {"stdout": HSO_REWRITE}, record={"decision": "allow"}),
    chat_runs(
        "flat-permissionDecision-ignored",
        {"stdout": J({"permissionDecision": "deny"})},
        record={"decision": "allow"},
    ),
    chat_case(
        "legacy-block",
        {"stdout": J({"decision": "block", "reason": "E2E-BLOCK"})},
        None,
        "E2E-BLOCK",
        record={"decision": "deny", "reason": "E2E-BLOCK"},
    ),
    chat_case(
        "exit2",
        {"stderr": "E2E-EXIT2", "exit": 2},
        None,
        "E2E-EXIT2",
        record={"decision": "deny", "reason": "E2E-EXIT2", "exit_code": 2},
    ),
    # Exit 2 reads stderr: as JSON when it is (its reason), else as the reason text.
    chat_case(
        "exit2-stderr-json",
        {"stderr": J({"decision": "deny", "reason": "E2E-SJDENY"}), "exit": 2},
        None,
        "E2E-SJDENY",
        record={"decision": "deny", "reason": "E2E-SJDENY"},
    ),
    chat_case(
        "exit2-stdout-json-is-not-read",
        {"stdout": J({"decision": "deny", "reason": "E2E-OUT"}), "stderr": "E2E-ERR", "exit": 2},
        None,
        "E2E-ERR",
        absent=("E2E-OUT",),
        record={"decision": "deny", "reason": "E2E-ERR"},
    ),
    chat_case(
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
    chat_runs("exit2-no-stderr", {"exit": 2}, record=FAILED_OPEN),
    # Any other non-zero exit, a crash, a timeout: a warning, the command runs.
    chat_runs(
        "exit1",
        {"stderr": "E2E-EXIT1", "exit": 1},
        record={"decision": "failure", "failure": "exit_code", "effect": "proceeds"},
    ),
    # ...but JSON on stdout is read whatever the exit code (2 aside), as in Claude Code.
    chat_case(
        "exit1-with-json-deny",
        {"stdout": HSO_DENY, "exit": 1},
        None,
        "E2E-HDENY",
        record={"decision": "deny", "reason": "E2E-HDENY"},
    ),
    # ...and JSON that decides nothing leaves exit 1 an error (its runner's
    # non_blocking_error; stderr unread, nothing shown in -p): the command runs.
    chat_runs(
        "exit1-with-json-continue",
        {"stdout": J({"continue": True}), "stderr": "E2E-X1C", "exit": 1},
        absent=("E2E-X1C",),
        record={"decision": "failure", "failure": "exit_code", "effect": "proceeds"},
    ),
    # ...and so does a JSON allow (measured 2026-12-05): it ran, the record a failure.
    chat_runs(
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
    chat_case(
        "exit1-stderr-json-deny",
        {"stderr": J({"decision": "deny", "reason": "E2E-SDENY"}), "exit": 1},
        None,
        "E2E-SDENY",
        record={"decision": "deny", "reason": "E2E-SDENY", "exit_code": 1},
    ),
    chat_case(
        "exit0-stderr-json-deny",
        {"stderr": J({"decision": "deny", "reason": "E2E-S0DENY"})},
        None,
        "E2E-S0DENY",
        record={"decision": "deny", "reason": "E2E-S0DENY", "exit_code": 0},
    ),
    # ...and stderr that starts with `{` but is not JSON is Qwen's invalid-JSON error.
    chat_runs(
        "exit1-stderr-broken-json",
        {"stderr": "{E2E-SBROKEN", "exit": 1},
        absent=("E2E-SBROKEN",),
        record={"decision": "failure", "failure": "invalid_json", "effect": "proceeds"},
    ),
    # A JSON string holding JSON is read once more; a flat `decision: ask` is read
    # (headless: refused with its reason). Measured 2026-12-05.
    chat_case(
        "double-encoded-deny",
        {"stdout": J(J({"decision": "deny", "reason": "E2E-DDENY"}))},
        None,
        "E2E-DDENY",
        record={"decision": "deny", "reason": "E2E-DDENY"},
    ),
    chat_case(
        "flat-decision-ask",
        {"stdout": J({"decision": "ask", "reason": "E2E-FASK"})},
        None,
        "E2E-FASK",
        record={"decision": "ask", "reason": "E2E-FASK"},
    ),
    chat_runs("exit3", {"stderr": "E2E-EXIT3", "exit": 3}, record={"decision": "failure"}),
    chat_runs("crash", {"stderr": "E2E-CRASH", "signal": 9}, record={"decision": "failure"}),
    chat_runs(
        "timeout",
        {"stdout": HSO_DENY, "sleep": 8},
        absent=("E2E-HDENY",),
        record={"decision": "failure", "failure": "timeout", "effect": "proceeds"},
    ),
    chat_runs("plain-text", {"stdout": "just some text"}, record={"decision": "allow"}),
    # A `{` that is not JSON: a non-blocking error, the command runs.
    chat_runs(
        "broken-json",
        {"stdout": "{not json"},
        record={"decision": "failure", "failure": "invalid_json", "effect": "proceeds"},
    ),
    chat_runs("empty-output", {}, record={"decision": "allow"}),
    # PostToolUse: added context is appended to the output; block and exit 2 change nothing.
    chat_case(
        "post-additional-context",
        {},
        RAN,
        "\n\nE2E-HCTX",
        post_answer={"stdout": J(specific("PostToolUse", additionalContext="E2E-HCTX"))},
        post_record={"decision": "allow", "context": "E2E-HCTX"},
    ),
    chat_runs(
        "post-block-ignored", {}, post_answer={"stdout": J({"decision": "block", "reason": "R"})}
    ),
    chat_runs(
        "post-exit2-ignored",
        {},
        post_answer={"stderr": "E2E-PEXIT2", "exit": 2},
        post_record=FAILED_OPEN,
    ),
    # A deny beside continue:false is read first, with its own reason (hookSpecificOutput's
    # or the legacy block's); continue:false refuses an allow too, with the stopReason.
    # The turn goes on. Measured 2026-12-05.
    chat_case(
        "continue-false-with-deny",
        {"stdout": J({**_STOP, **specific("PreToolUse", **_PDENY)})},
        None,
        "E2E-CDENY",
        absent=("E2E-CSTOP",),
        record={"decision": "deny", "reason": "E2E-CDENY"},
    ),
    chat_case(
        "continue-false-with-legacy-block",
        {"stdout": J({**_STOP, "decision": "block", "reason": "E2E-CBLOCK"})},
        None,
        "E2E-CBLOCK",
        absent=("E2E-CSTOP",),
        record={"decision": "deny", "reason": "E2E-CBLOCK"},
    ),
    chat_case(
        "continue-false-with-allow",
        {"stdout": J({**_STOP, **specific("PreToolUse", permissionDecision="allow")})},
        None,
        "E2E-CSTOP",
        record={"decision": "deny", "reason": "E2E-CSTOP"},
    ),
    # PreToolUse additionalContext reaches nothing the model is sent (test_e2e_qwen.py
    # looks in every request), with an allow, alone, or on exit 1. Measured 2026-12-05.
    chat_runs(
        "pre-additional-context-allow",
        {"stdout": J(specific("PreToolUse", permissionDecision="allow", **_PCTX))},
        absent=("E2E-PCTX",),
        record={"decision": "allow", "context": ""},
    ),
    chat_runs(
        "pre-additional-context",
        {"stdout": J(specific("PreToolUse", **_PCTX))},
        absent=("E2E-PCTX",),
        record={"decision": "allow", "context": ""},
    ),
    chat_runs(
        "pre-additional-context-exit1",
        {"stdout": J(specific("PreToolUse", **_PCTX)), "exit": 1},
        absent=("E2E-PCTX",),
        record={"decision": "failure", "failure": "exit_code", "effect": "proceeds", "context": ""},
    ),
    # continue:false: the call is refused with the stopReason (kept last: it may end the turn).
    chat_case(
        "continue-false",
        {"stdout": J({"continue": False, "stopReason": "E2E-STOP"})},
        None,
        "E2E-STOP",
        record={"decision": "deny", "reason": "E2E-STOP"},
    ),
]

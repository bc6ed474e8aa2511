"""What GitHub Copilot CLI 1.0.102 really did with each hook answer, and the case
builders of the runtimes that speak Chat Completions to their model (Copilot, and
Qwen Code: cases_qwen.py).

Each list runs as ONE session of the CLI (batch.py), bare and then through the
tap; every case was seen on the real CLI here (2026-12-03, ORACLE.md). The
shell command is the same as everywhere (drivers.ORIGINAL, tagged per case).
`record` is what the tap's record must say for the runtime's reading
(test_e2e_copilot.py and test_e2e_qwen.py check it).

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


def chat_case(
    name: str, answer: dict[str, Any], ran: str | None, content: str, **more: Any
) -> Case:
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


def chat_runs(name: str, answer: dict[str, Any], **more: Any) -> Case:
    """The runtime let the command run as asked."""
    return chat_case(name, answer, RAN, "original-ran", **more)


# --- GitHub Copilot CLI, hooks in .github/hooks/*.json (camelCase events) ---------------
_CP_DENIED = "Denied by preToolUse hook: "
_CP_EXIT2 = _CP_DENIED + "hook exited with code 2"
_CP_ERRORED = 'Denied by preToolUse hook from "{source}" (hook errored)'
FAILED_CLOSED = {"decision": "failure", "effect": "blocks"}
REFUSED_ARGS = {**FAILED_CLOSED, "failure": "unsupported"}  # new args the tool refuses
# New args Copilot 1.0.102 refuses for its `bash` tool, and what the model reads.
_BAD_ARGS = (
    ("missing-command", {"description": "x"}, 'Invalid input: "command": Required'),
    ("wrong-type", {"command": 5}, 'Invalid input: "command": Expected string, received number'),
    ("not-an-object", [1], "Invalid input: Expected JSON object but got array"),
    ("null", None, "Invalid input: Expected JSON object but got null"),
    ("not-json", "not json", "Invalid input: expected ident at line 1 column 2"),
)
FAILED_OPEN = {"decision": "failure", "effect": "proceeds"}


def copilot_cases(source: str) -> list[Case]:
    """The cases both Copilot dialects read alike; `source` names the settings in
    Copilot's fail-closed message (".github/hooks/e2e.json", "repo settings")."""
    errored = _CP_ERRORED.format(source=source)
    return [
        chat_case(
            "deny",
            {"stdout": J({"permissionDecision": "deny", "permissionDecisionReason": "E2E-DENY"})},
            None,
            _CP_DENIED + "E2E-DENY",
            record={"decision": "deny", "reason": "E2E-DENY"},
        ),
        chat_runs(
            "allow", {"stdout": J({"permissionDecision": "allow"})}, record={"decision": "allow"}
        ),
        chat_case(
            "ask-headless",
            {"stdout": J({"permissionDecision": "ask", "permissionDecisionReason": "E2E-ASK"})},
            None,
            "Denied by preToolUse hook (unable to ask user for confirmation): E2E-ASK",
            record={"decision": "ask", "reason": "E2E-ASK"},
        ),
        chat_case(
            "rewrite",
            {"stdout": J({"permissionDecision": "allow", "modifiedArgs": _RW})},
            REWROTE,
            "rewritten-ran",
            record={"decision": "modify", "updated_input": _RW},
        ),
        chat_case(
            "modifiedArgs-without-decision",
            {"stdout": J({"modifiedArgs": _RW})},
            REWROTE,
            "rewritten-ran",
            record={"decision": "modify", "updated_input": _RW},
        ),
        # A string is read as JSON (seen 2026-12-07)...
        chat_case(
            "modifiedArgs-as-a-json-string",
            {"stdout": J({"permissionDecision": "allow", "modifiedArgs": J(_RW)})},
            REWROTE,
            "rewritten-ran",
            record={"decision": "modify", "updated_input": _RW},
        ),
        # ...and new args the tool refuses, or that are no object (null too), refuse the
        # call: the tool never runs and the model reads why (seen 2026-12-07).
        *(
            chat_case(
                f"modifiedArgs-{name}",
                {"stdout": J({"permissionDecision": "allow", "modifiedArgs": args})},
                None,
                said,
                record=REFUSED_ARGS,
            )
            for name, args, said in _BAD_ARGS
        ),
        # Exit 2 denies whatever was printed; stderr is not the reason.
        chat_case(
            "exit2",
            {"stderr": "E2E-EXIT2", "exit": 2},
            None,
            _CP_EXIT2,
            absent=("E2E-EXIT2",),
            record={"decision": "deny", "exit_code": 2},
        ),
        chat_case("exit2-no-stderr", {"exit": 2}, None, _CP_EXIT2, record={"decision": "deny"}),
        chat_case(
            "exit2-beats-json-allow",
            {"stdout": J({"permissionDecision": "allow"}), "stderr": "E2E-EXIT2", "exit": 2},
            None,
            _CP_EXIT2,
            record={"decision": "deny"},
        ),
        # preToolUse fails CLOSED: any other non-zero exit, or a crash, denies.
        chat_case("exit1", {"stderr": "E2E-EXIT1", "exit": 1}, None, errored, record=FAILED_CLOSED),
        chat_case(
            "exit1-with-json-allow",
            {"stdout": J({"permissionDecision": "allow"}), "exit": 1},
            None,
            errored,
            record=FAILED_CLOSED,
        ),
        chat_case("exit3", {"stderr": "E2E-EXIT3", "exit": 3}, None, errored, record=FAILED_CLOSED),
        chat_case(
            "crash", {"stderr": "E2E-CRASH", "signal": 9}, None, errored, record=FAILED_CLOSED
        ),
        # ...but a timeout fails open.
        chat_runs(
            "timeout",
            {
                "stdout": J({"permissionDecision": "deny", "permissionDecisionReason": "E2E-LATE"}),
                "sleep": 8,
            },
            absent=("E2E-LATE",),
            record={"decision": "failure", "failure": "timeout", "effect": "proceeds"},
        ),
        chat_runs("plain-text", {"stdout": "just some text"}, record={"decision": "allow"}),
        chat_runs("broken-json", {"stdout": "{not json"}, record={"decision": "allow"}),
        chat_runs("empty-output", {}, record={"decision": "allow"}),
        # Progress lines on stdout are skipped; the answer after them counts.
        chat_case(
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
        chat_runs(
            "progress-only",
            {"stdout": J({"type": "progress", "message": "E2E-PROG"}) + "\n"},
            record={"decision": "allow"},
        ),
        # Claude's legacy block and continue:false are not Copilot answers.
        chat_runs(
            "legacy-block-ignored",
            {"stdout": J({"decision": "block", "reason": "E2E-B"})},
            record={"decision": "allow"},
        ),
        chat_runs(
            "continue-false-ignored",
            {"stdout": J({"continue": False, "stopReason": "E2E-S"})},
            record={"decision": "allow"},
        ),
        # postToolUse: modifiedResult (an object) replaces what the model reads...
        chat_case(
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
        chat_case(
            "post-additionalContext",
            {},
            RAN,
            "original-ran\n<shellId: N completed with exit code 0>\n\n"
            'Tool "bash" succeeded. Additional guidance from postToolUse hooks:\nE2E-CTX',
            post_answer={"stdout": J({"additionalContext": "E2E-CTX"})},
            record={"decision": "allow"},
            post_record={"decision": "allow", "context": "E2E-CTX"},
        ),
        chat_case(
            "post-block",
            {},
            RAN,
            "Tool result blocked: E2E-PBLOCK",
            post_answer={"stdout": J({"decision": "block", "reason": "E2E-PBLOCK"})},
            absent=("original-ran",),
            post_record={"decision": "deny", "reason": "E2E-PBLOCK"},
        ),
        # (a hook error Copilot goes past: recorded as a failure that proceeds)
        chat_runs(
            "post-exit2-ignored",
            {},
            post_answer={"stderr": "E2E-PEXIT2", "exit": 2},
            post_record=FAILED_OPEN,
        ),
        chat_runs(
            "post-exit1-ignored",
            {},
            post_answer={"stderr": "E2E-PEXIT1", "exit": 1},
            post_record=FAILED_OPEN,
        ),
    ]


HSO_DENY = J(
    specific("PreToolUse", permissionDecision="deny", permissionDecisionReason="E2E-HDENY")
)
HSO_REWRITE = J(specific("PreToolUse", permissionDecision="allow", updatedInput=_RW))

COPILOT = [
    *copilot_cases(".github/hooks/e2e.json"),
    # Claude's hookSpecificOutput is not read from a .github/hooks hook.
    chat_runs(
        "claude-hookSpecificOutput-deny-ignored",
        {"stdout": HSO_DENY},
        record={"decision": "allow"},
    ),
    chat_runs("claude-updatedInput-ignored", {"stdout": HSO_REWRITE}, record={"decision": "allow"}),
]

COPILOT_CLAUDE_SETTINGS = [
    *copilot_cases("repo settings"),
    # From .claude/settings.json, Claude's hookSpecificOutput IS read.
    chat_case(
        "claude-hookSpecificOutput-deny",
        {"stdout": HSO_DENY},
        None,
        _CP_DENIED + "E2E-HDENY",
        record={"decision": "deny", "reason": "E2E-HDENY"},
    ),
    chat_case(
        "claude-updatedInput",
        {"stdout": HSO_REWRITE},
        REWROTE,
        "rewritten-ran",
        record={"decision": "modify", "updated_input": _RW},
    ),
    # Claude's updatedInput is read as Copilot's modifiedArgs, null aside (seen 2026-12-07).
    chat_runs(
        "claude-updatedInput-null-ignored",
        {"stdout": J(specific("PreToolUse", permissionDecision="allow", updatedInput=None))},
        record={"decision": "allow"},
    ),
    chat_case(
        "claude-updatedInput-refused",
        {"stdout": J(specific("PreToolUse", permissionDecision="allow", updatedInput={}))},
        None,
        'Invalid input: "command": Required',
        record=REFUSED_ARGS,
    ),
]

"""GitHub Copilot CLI: request fixtures x hook answers -> what Copilot 1.0.102 did.

Every row is a behaviour the real CLI showed (tests/e2e/ORACLE.md, pinned in
test_e2e_copilot.py, both dialects): `copilot_pre_bash` is the camelCase dialect of
`.github/hooks/*.json`, `copilot_claude_pre_bash` the Claude dialect of
`.claude/settings.json`.
"""

from __future__ import annotations

import json

import pytest
from hooktui.tap.runtimes import ADAPTERS

from tests.tap.fixtures import check_case, failed, out, request, specific, verdict_table

A = ADAPTERS["copilot"]
PRE, CPRE = "copilot_pre_bash", "copilot_claude_pre_bash"
POST, CPOST = "copilot_post_bash", "copilot_claude_post_bash"
NEW = {"command": "echo rewritten", "description": "x"}
DENY = {"permissionDecision": "deny", "permissionDecisionReason": "no"}
PROGRESS = json.dumps({"type": "progress", "message": "working"})


def both(name, outcome, expected):
    """A row Copilot reads alike in both dialects."""
    return [(f"{name}", PRE, outcome, expected), (f"{name}-claude", CPRE, outcome, expected)]


CASES = [
    *both("deny", out(DENY), {"decision": "deny", "reason": "no"}),
    *both("allow", out({"permissionDecision": "allow"}), {"decision": "allow"}),
    *both(
        "ask-refuses-headless",
        out({"permissionDecision": "ask", "permissionDecisionReason": "sure?"}),
        {"decision": "ask", "reason": "sure?"},
    ),
    *both(
        "rewrite",
        out({"permissionDecision": "allow", "modifiedArgs": NEW}),
        {"decision": "modify", "updated_input": NEW},
    ),
    *both(
        "modifiedArgs-alone",
        out({"modifiedArgs": NEW}),
        {"decision": "modify", "updated_input": NEW},
    ),
    # A string is read as JSON; new args that are no object (null too) or that `bash`
    # refuses refuse the call: the tool never runs (seen 2026-12-07).
    *both(
        "modifiedArgs-json-string",
        out({"modifiedArgs": json.dumps(NEW)}),
        {"decision": "modify", "updated_input": NEW},
    ),
    *[
        row
        for name, args in (
            ("empty", {}),
            ("no-command", {"description": "x"}),
            ("command-not-a-string", {"command": 5}),
            ("command-empty", {"command": ""}),
            ("description-not-a-string", {"command": "ls", "description": 5}),
            ("array", [1]),
            ("null", None),
            ("number", 5),
            ("not-json-string", "not json"),
            ("json-string-of-an-array", "[1]"),
            ("empty-string", ""),
        )
        for row in both(
            f"modifiedArgs-refused-{name}",
            out({"permissionDecision": "allow", "modifiedArgs": args}),
            failed("unsupported", "blocks", detail="Invalid input"),
        )
    ],
    *both(
        "modifiedArgs-refused-beside-a-deny-is-a-deny",
        out({**DENY, "modifiedArgs": {}}),
        {"decision": "deny", "reason": "no"},
    ),
    (
        "claude-updatedInput-null-ignored",
        CPRE,
        out(specific("PreToolUse", permissionDecision="allow", updatedInput=None)),
        {"decision": "allow"},
    ),
    (
        "claude-updatedInput-refused",
        CPRE,
        out(specific("PreToolUse", permissionDecision="allow", updatedInput={})),
        failed("unsupported", "blocks", detail="command"),
    ),
    (
        "claude-updatedInput-json-string",
        CPRE,
        out(specific("PreToolUse", updatedInput=json.dumps(NEW))),
        {"decision": "modify", "updated_input": NEW},
    ),
    # Exit 2 denies whatever was printed; the reason is Copilot's, never stderr.
    *both(
        "exit2",
        out(stderr="E2E", exit=2),
        {"decision": "deny", "reason": "hook exited with code 2"},
    ),
    *both(
        "exit2-beats-json-allow",
        out({"permissionDecision": "allow"}, stderr="x", exit=2),
        {"decision": "deny", "reason": "hook exited with code 2"},
    ),
    # preToolUse fails CLOSED on any other exit and on a crash...
    *both("exit1", out(stderr="boom", exit=1), failed("exit_code", "blocks")),
    *both(
        "exit1-json-allow",
        out({"permissionDecision": "allow"}, exit=1),
        failed("exit_code", "blocks"),
    ),
    *both("exit3", out(exit=3), failed("exit_code", "blocks")),
    *both("crash", out(stderr="x", signal=9), failed("signal", "blocks")),
    # ...and OPEN on a timeout.
    *both("timeout", out(DENY, timeout=True), failed("timeout", "proceeds")),
    *both("plain-text", out("just text"), {"decision": "allow"}),
    *both("broken-json", out("{not json"), {"decision": "allow"}),
    *both("empty", out(), {"decision": "allow"}),
    *both(
        "progress-then-deny",
        out(PROGRESS + "\n" + json.dumps(DENY)),
        {"decision": "deny", "reason": "no"},
    ),
    *both("progress-only", out(PROGRESS + "\n"), {"decision": "allow"}),
    *both("legacy-block-ignored", out({"decision": "block", "reason": "r"}), {"decision": "allow"}),
    *both(
        "continue-false-ignored", out({"continue": False, "stopReason": "s"}), {"decision": "allow"}
    ),
    # Claude's hookSpecificOutput: read only from .claude/settings.json.
    (
        "hso-deny-ignored-in-github-hooks",
        PRE,
        out(specific("PreToolUse", permissionDecision="deny", permissionDecisionReason="h")),
        {"decision": "allow"},
    ),
    (
        "hso-deny-read-in-claude-settings",
        CPRE,
        out(specific("PreToolUse", permissionDecision="deny", permissionDecisionReason="h")),
        {"decision": "deny", "reason": "h"},
    ),
    (
        "hso-updatedInput-ignored-in-github-hooks",
        PRE,
        out(specific("PreToolUse", permissionDecision="allow", updatedInput=NEW)),
        {"decision": "allow"},
    ),
    (
        "hso-updatedInput-read-in-claude-settings",
        CPRE,
        out(specific("PreToolUse", permissionDecision="allow", updatedInput=NEW)),
        {"decision": "modify", "updated_input": NEW},
    ),
    # postToolUse, both dialects.
    *[
        row
        for fixture in (POST, CPOST)
        for row in [
            (
                f"post-modifiedResult-{fixture}",
                fixture,
                out({"modifiedResult": {"resultType": "success", "textResultForLlm": "R"}}),
                {
                    "decision": "replace",
                    "updated_output": {"resultType": "success", "textResultForLlm": "R"},
                },
            ),
            (
                f"post-modifiedResult-string-ignored-{fixture}",
                fixture,
                out({"modifiedResult": "R"}),
                {"decision": "allow", "note": "not an object"},
            ),
            (
                f"post-context-{fixture}",
                fixture,
                out({"additionalContext": "C"}),
                {"decision": "allow", "context": "C"},
            ),
            (
                f"post-block-{fixture}",
                fixture,
                out({"decision": "block", "reason": "P"}),
                {"decision": "deny", "reason": "P"},
            ),
            (
                f"post-exit2-ignored-{fixture}",
                fixture,
                out(stderr="x", exit=2),
                failed("exit_code", "proceeds"),
            ),
            (
                f"post-exit1-ignored-{fixture}",
                fixture,
                out(stderr="x", exit=1),
                failed("exit_code", "proceeds"),
            ),
            (
                f"post-hso-ignored-{fixture}",
                fixture,
                out(specific("PostToolUse", additionalContext="C", updatedToolOutput="X")),
                {"decision": "allow"},
            ),
            (f"post-deny-ignored-{fixture}", fixture, out(DENY), {"decision": "allow"}),
        ]
    ],
    (
        "permission-deny",
        "copilot_permission",
        out({"behavior": "deny", "message": "m"}),
        {"decision": "deny", "reason": "m"},
    ),
    ("permission-allow", "copilot_permission", out({"behavior": "allow"}), {"decision": "allow"}),
    ("permission-none", "copilot_permission", out(), {"decision": "ask"}),
    (
        "stop-block",
        "copilot_agent_stop",
        out({"decision": "block", "reason": "go on"}),
        {"decision": "deny", "reason": "go on"},
    ),
    (
        "stop-block-claude",
        "copilot_claude_stop",
        out({"decision": "block", "reason": "go on"}),
        {"decision": "deny", "reason": "go on"},
    ),
]


@verdict_table(CASES)
def test_copilot_verdicts(fixture, outcome, expected):
    check_case(A, fixture, outcome, expected)


@pytest.mark.parametrize(
    ("fixture", "native", "event"),
    [
        (PRE, "preToolUse", "pre_tool_use"),
        (POST, "postToolUse", "post_tool_use"),
        ("copilot_permission", "permissionRequest", "permission_request"),
        ("copilot_agent_stop", "agentStop", "stop"),
        ("copilot_prompt", "userPromptSubmitted", "user_prompt"),
        (CPRE, "PreToolUse", "pre_tool_use"),
        (CPOST, "PostToolUse", "post_tool_use"),
        ("copilot_claude_stop", "Stop", "stop"),
    ],
)
def test_parse_copilot_requests(fixture, native, event):
    call = A.parse(request(fixture))
    assert (call.runtime, call.native_event, call.event) == ("copilot", native, event)
    assert call.session_id and call.cwd == "/home/user/project"


def test_parse_tool_calls_in_both_dialects():
    pre, cpre = A.parse(request(PRE)), A.parse(request(CPRE))
    assert (pre.tool_name, pre.tool_input["command"]) == ("bash", "echo hi")
    assert (cpre.tool_name, cpre.tool_input["command"]) == ("Bash", "echo hi")
    post = A.parse(request(POST))
    assert post.tool_output["textResultForLlm"].startswith("hi") and post.is_error is False
    assert A.parse(request(CPOST)).tool_output["result_type"] == "success"
    assert A.parse(request("copilot_permission")).tool_input == {"command": "echo hi"}


def test_every_camel_case_capture_names_its_event():
    """The camelCase payloads carry no event name: the keys tell it (every captured one)."""
    from tests.e2e.capture import CAPTURED

    for path in sorted((CAPTURED / "copilot").glob("*.json")):
        if ".claude-settings" in path.name:
            continue
        call = A.parse(json.loads(path.read_text())["request"])
        assert call.native_event.lower() == path.stem.lower(), path.name
        assert call.event == A.events[path.stem] if path.stem in A.events else True


def test_settings():
    assert A.default_timeout_ms == 30_000  # PROTOCOLS.md; not measured here
    layout = A.settings
    assert layout.project_files == (".github/hooks/*.json",)
    assert (layout.nested, layout.command_key, layout.timeout_key) == (False, "bash", "timeoutSec")
    assert {"COPILOT_PROJECT_DIR", "CLAUDE_PROJECT_DIR"} <= set(A.env_vars)
    assert A.version_in({"COPILOT_CLI_BINARY_VERSION": "1.0.102"}) == "1.0.102"
    assert A.label == "copilot"

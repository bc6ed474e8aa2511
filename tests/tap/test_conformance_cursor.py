"""Cursor: request fixtures x hook answers -> the verdict Cursor reaches (from its docs; less certain)."""

from __future__ import annotations

from hooktui.tap.runtimes import ADAPTERS

from tests.tap.fixtures import check_case, failed, out, request, verdict_table

A = ADAPTERS["cursor"]

SHELL = "cursor_shell"

CASES = [
    ("allow", SHELL, out({"permission": "allow"}), {"decision": "allow"}),
    (
        "deny-agent-message",
        SHELL,
        out(
            {
                "permission": "deny",
                "user_message": "Blocked npm install",
                "agent_message": "use pnpm",
            }
        ),
        {"decision": "deny", "reason": "use pnpm"},
    ),
    (
        "deny-user-message",
        SHELL,
        out({"permission": "deny", "user_message": "no"}),
        {"decision": "deny", "reason": "no"},
    ),
    (
        "deny-camel-message",
        SHELL,
        out({"permission": "deny", "userMessage": "no"}),
        {"decision": "deny", "reason": "no"},
    ),
    (
        "ask",
        SHELL,
        out({"permission": "ask", "user_message": "confirm"}),
        {"decision": "ask", "reason": "confirm"},
    ),
    ("empty", SHELL, out(), {"decision": "allow"}),
    ("empty-object", SHELL, out({}), {"decision": "allow"}),
    (
        "unknown-permission",
        SHELL,
        out({"permission": "block"}),
        failed("unsupported", "proceeds"),
    ),
    (
        "invalid-json",
        SHELL,
        out("allow"),
        failed("invalid_json", "proceeds"),
    ),
    ("exit2", SHELL, out(stderr="blocked", exit=2), {"decision": "deny", "reason": "blocked"}),
    (
        "exit2-json-message",
        SHELL,
        out({"permission": "deny", "agent_message": "m"}, "e", exit=2),
        {"decision": "deny", "reason": "m"},
    ),
    (
        "exit1",
        SHELL,
        out(exit=1),
        failed("exit_code", "proceeds"),
    ),
    (
        "timeout",
        SHELL,
        out(timeout=True, signal=9),
        failed("timeout", "proceeds"),
    ),
    (
        "signal",
        SHELL,
        out(signal=11),
        failed("signal", "proceeds"),
    ),
    (
        "mcp-deny",
        "cursor_mcp",
        out({"permission": "deny", "agent_message": "no db"}),
        {"decision": "deny", "reason": "no db"},
    ),
    ("read-deny", "cursor_read", out({"permission": "deny"}), {"decision": "deny", "reason": ""}),
    # beforeSubmitPrompt answers with continue
    ("prompt-continue", "cursor_prompt", out({"continue": True}), {"decision": "allow"}),
    (
        "prompt-block",
        "cursor_prompt",
        out({"continue": False, "user_message": "no secrets"}),
        {"decision": "deny", "reason": "no secrets"},
    ),
    # preToolUse rewrite
    (
        "pre-tool-updated",
        "cursor_pre_tool",
        out({"permission": "allow", "updated_input": {"command": "git push --dry-run"}}),
        {"decision": "modify", "updated_input": {"command": "git push --dry-run"}},
    ),
    (
        "pre-tool-updated-alone",
        "cursor_pre_tool",
        out({"updated_input": {"command": "git status"}}),
        {"decision": "modify", "updated_input": {"command": "git status"}},
    ),
    # after* are fire-and-forget
    (
        "after-edit-deny-ignored",
        "cursor_after_edit",
        out({"permission": "deny"}),
        {"decision": "allow"},
    ),
    (
        "post-tool-context",
        "cursor_post_tool",
        out({"additional_context": "note"}),
        {"decision": "allow", "context": "note"},
    ),
    (
        "post-tool-replace-mcp",
        "cursor_post_tool",
        out({"updated_mcp_tool_output": "[]"}),
        {"decision": "replace", "updated_output": "[]"},
    ),
    # stop: a followup message keeps the agent going
    (
        "stop-followup",
        "cursor_stop",
        out({"followup_message": "run the tests"}),
        {"decision": "deny", "reason": "run the tests"},
    ),
    ("stop-plain", "cursor_stop", out({}), {"decision": "allow"}),
]


@verdict_table(CASES)
def test_cursor_verdicts(fixture, outcome, expected):
    check_case(A, fixture, outcome, expected)


def test_parse_cursor_requests():
    shell = A.parse(request(SHELL))
    assert (shell.runtime, shell.event, shell.native_event) == (
        "cursor",
        "pre_tool_use",
        "beforeShellExecution",
    )
    assert shell.tool_name == "Shell"
    assert shell.tool_input["command"] == "npm install express"
    assert (shell.session_id, shell.cwd) == ("conv-123", "/path/to/project")
    mcp = A.parse(request("cursor_mcp"))
    assert mcp.tool_input == {"query": "SELECT * FROM users"}  # the JSON string decoded
    assert mcp.cwd == "/path/to/project"  # from workspace_roots
    read = A.parse(request("cursor_read"))
    assert (read.tool_name, read.tool_input) == ("Read", {"file_path": "/path/to/secrets.env"})
    edit = A.parse(request("cursor_after_edit"))
    assert (edit.event, edit.tool_name) == ("post_tool_use", "Edit")
    prompt = A.parse(request("cursor_prompt"))
    assert (prompt.event, prompt.prompt) == ("user_prompt", "Fix the bug in main.ts")
    assert A.parse(request("cursor_stop")).event == "stop"
    post = A.parse(request("cursor_post_tool"))
    assert post.tool_output == '[{"id": 1}]'
    assert A.parse(request("cursor_pre_tool")).tool_call_id == "tu-1"


# No Cursor CLI runs here: what follows is PROTOCOLS.md's Cursor section (third-party
# sources, less certain than the other runtimes), not a real runtime's behaviour.
PROTOCOLS_EVENTS = (
    "sessionStart sessionEnd preToolUse postToolUse postToolUseFailure subagentStart "
    "subagentStop beforeShellExecution afterShellExecution beforeMCPExecution "
    "afterMCPExecution beforeReadFile afterFileEdit beforeSubmitPrompt preCompact stop "
    "afterAgentResponse afterAgentThought beforeTabFileRead afterTabFileEdit workspaceOpen"
).split()


def test_cursor_knows_exactly_the_events_of_protocols_md():
    """PROTOCOLS.md (no Cursor CLI here): the full list, and no other name, since one
    unknown event name makes Cursor reject the whole hooks.json."""
    assert sorted(A.events) == sorted(PROTOCOLS_EVENTS)
    assert A.settings.strict_events


def test_cursor_handler_types_follow_protocols_md():
    """PROTOCOLS.md (no Cursor CLI here): command hooks, and `type: "prompt"` hooks that
    run no command (install cannot wrap them)."""
    assert A.settings.handler_types == ("command", "prompt")
    assert A.settings.default_type == "command"

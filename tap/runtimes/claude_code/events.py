"""Claude Code's events and requests: the 35 event names, what each can do, and how a
request reads (claude_code/__init__.py holds the runtime; claude_code/answers.py its answers).

What each event can do, from the hooks reference and PROTOCOLS.md, checked against
the real CLI where tests/e2e/ORACLE.md says so:
- guards (a hook can refuse the action): PreToolUse, PreSkillShellCommand (a skill's
  `!` shell line: `tool_input.command`), PreModelSwitch (`/model`), PermissionRequest
  (`decision.behavior`), and UserPromptSubmit (`decision: block`);
- events whose exit 2 or `decision: block` cannot stop anything (stderr goes to the
  user only): `NON_BLOCKING`;
- events where plain stdout becomes context for the model: `TEXT_IS_CONTEXT`;
- events whose answer and exit code are ignored (Interrupt, 2.1.335+): `OUTPUT_IGNORED`.
"""

from __future__ import annotations

from hooktui.tap.canonical import Call
from hooktui.tap.runtimes.base import as_dict, s

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

    from hooktui.tap.runtimes.descriptor import Runtime

EVENTS = {
    "PreToolUse": "pre_tool_use",
    "PreSkillShellCommand": "pre_tool_use",  # a shell line about to run: Bash's input
    "PostToolUse": "post_tool_use",
    "PostToolUseFailure": "post_tool_use",
    "PostToolBatch": "post_tool_use",
    "UserPromptSubmit": "user_prompt",
    "UserPromptExpansion": "user_prompt",
    "PermissionRequest": "permission_request",
    "PermissionDenied": "permission_request",
    "Stop": "stop",
    "StopFailure": "stop",
    # 2.1.335: a turn ended by an interrupt (who stopped it: `source`, how: `via`).
    "Interrupt": "stop",
    "SubagentStop": "stop",
    # Agent teams: exit 2 keeps the teammate working / the task open, as at Stop.
    "TeammateIdle": "stop",
    "TaskCompleted": "stop",
    "SessionStart": "session",
    "SessionEnd": "session",
    "Setup": "session",
    "SubagentStart": "session",
    "InstructionsLoaded": "session",
    "Notification": "notification",
    "MessageDisplay": "notification",  # what the user is shown of the model's message
    "PreCompact": "other",
    "PostCompact": "other",
    "PreModelSwitch": "other",
    "PostModelSwitch": "other",
    "TaskCreated": "other",
    "Elicitation": "other",
    "ElicitationResult": "other",
    "ConfigChange": "other",
    "WorktreeCreate": "other",
    "WorktreeRemove": "other",
    "CwdChanged": "other",
    "FileChanged": "other",
    "DirectoryAdded": "other",
}
# Guards answered like PreToolUse (`permissionDecision`): a deny refuses the action.
PERMISSION_GUARDS = frozenset({"PreToolUse", "PreSkillShellCommand", "PreModelSwitch"})
GUARDS = PERMISSION_GUARDS | {"PermissionRequest", "UserPromptSubmit"}
# Events where exit 2 / decision:block cannot stop anything.
NON_BLOCKING = frozenset(
    {
        "SessionStart",
        "SessionEnd",
        "Notification",
        "Setup",
        "SubagentStart",
        "InstructionsLoaded",
        "PostCompact",
        "PostModelSwitch",
        "StopFailure",
        "PermissionDenied",
        "CwdChanged",
        "FileChanged",
        "DirectoryAdded",
        "WorktreeRemove",
    }
)
# Events whose hooks' output and exit code Claude Code ignores altogether (2.1.335+).
OUTPUT_IGNORED = frozenset({"Interrupt"})
# Events where plain stdout becomes context for the model.
TEXT_IS_CONTEXT = frozenset({"UserPromptSubmit", "SessionStart", "Setup", "SubagentStart"})

# Request keys beyond the call -> their canonical.DETAILS names. `effort` is an
# object ({"level": "medium"}) in 2.1.332, kept as sent.
_DETAILS = (
    ("permission_mode", "permission_mode"),
    ("agent_type", "agent_type"),
    ("prompt_id", "prompt_id"),
    ("effort", "effort"),
    ("mcp_server", "mcp_server"),
    ("error", "error"),
    ("is_interrupt", "is_interrupt"),
    ("last_assistant_message", "last_message"),
    ("stop_hook_active", "stop_hook_active"),
)


def parse_pascal(runtime: Runtime, request: Any) -> Call:
    """Claude-shaped request -> Call (Codex sends the same shape, plus model/turn_id)."""
    r = as_dict(request)
    native = s(r, "hook_event_name")
    prompt = r.get("prompt")
    return Call(
        runtime=runtime.name,
        event=runtime.event_of(native),
        native_event=native,
        tool_name=s(r, "tool_name"),
        tool_input=r.get("tool_input"),
        tool_output=r.get("tool_response"),
        is_error=True if native == "PostToolUseFailure" else None,
        session_id=s(r, "session_id"),
        agent_id=s(r, "agent_id"),
        tool_call_id=s(r, "tool_use_id"),
        cwd=s(r, "cwd"),
        prompt=prompt if isinstance(prompt, str) else None,
    )


def details_of(request: Any) -> dict[str, Any] | None:
    """The request fields beyond the call, by canonical name (None when there are none)."""
    r = as_dict(request)
    found = {name: r[key] for key, name in _DETAILS if r.get(key) is not None}
    return found or None


def request_pascal(call: Call, **extra: Any) -> dict[str, Any]:
    """The Claude-shaped request for `call` (Codex adds its own keys through `extra`)."""
    r: dict[str, Any] = {
        "session_id": call.session_id,
        "cwd": call.cwd,
        "hook_event_name": call.native_event or "PreToolUse",
        **extra,
    }
    if call.tool_name:
        r.update(tool_name=call.tool_name, tool_input=call.tool_input)
        r["tool_use_id"] = call.tool_call_id
    if call.tool_output is not None:
        r["tool_response"] = call.tool_output
    if call.prompt is not None:
        r["prompt"] = call.prompt
    return r

"""Cursor: camelCase event names, a flat `permission` answer.

Less certain than the others: Cursor publishes docs (cursor.com/docs/agent/hooks)
but no source; these rules come from those docs as quoted by third parties
(cupcake.eqtylab.io's Cursor reference, cursor-hooks type definitions, the
prisma-airs-cursor-hooks API notes, failproofai PR 318) and PROTOCOLS.md.
- Request: `hook_event_name` (beforeShellExecution, beforeMCPExecution,
  beforeReadFile, beforeSubmitPrompt, afterShellExecution, afterMCPExecution,
  afterFileEdit, afterAgentResponse, afterAgentThought, stop, and the newer
  preToolUse/postToolUse/postToolUseFailure, sessionStart/sessionEnd,
  subagentStart/subagentStop, preCompact), `conversation_id`, `generation_id`,
  `workspace_roots`, plus per event `command`/`cwd`, `tool_name`/`tool_input`,
  `file_path`, `prompt`, `output`/`result_json`/`tool_output`.
- Answer: flat `permission: allow|deny|ask`, `user_message`, `agent_message`
  (camelCase spellings seen too), `updated_input` (preToolUse rewrite).
  beforeSubmitPrompt answers `continue: true|false`; stop answers
  `followup_message` (the agent goes on: a refused stop). after* hooks are
  fire-and-forget (postToolUse may add `additional_context` and, for MCP tools,
  `updated_mcp_tool_output`).
- Exit 0: the JSON decides. Exit 2: deny (same as permission deny). Other
  exits, timeouts, crashes: a hook error, fail-open unless the hook is configured
  `failClosed: true` (not visible to the tap: read as fail-open). Invalid JSON is
  also a hook error (assumed fail-open: uncertain).
"""

from __future__ import annotations

from hooktui.tap.base import jsonio
from hooktui.tap.canonical import Call, Outcome, Verdict
from hooktui.tap.runtimes.base import (
    Stdout,
    as_dict,
    cannot,
    encode_generic_failure,
    failure,
    is_camel_name,
    json_line,
    process_failure,
    s,
    str_field,
    text_of,
)
from hooktui.tap.runtimes.descriptor import Layout, Runtime, Timeouts
from hooktui.tap.runtimes.merge import HookSource, MergeRule, SettingsReading

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

EVENTS = {
    "beforeShellExecution": "pre_tool_use",
    "beforeMCPExecution": "pre_tool_use",
    "beforeReadFile": "pre_tool_use",
    "beforeTabFileRead": "pre_tool_use",
    "preToolUse": "pre_tool_use",
    "afterShellExecution": "post_tool_use",
    "afterMCPExecution": "post_tool_use",
    "afterFileEdit": "post_tool_use",
    "afterTabFileEdit": "post_tool_use",
    "postToolUse": "post_tool_use",
    "postToolUseFailure": "post_tool_use",
    "beforeSubmitPrompt": "user_prompt",
    "stop": "stop",
    "subagentStop": "stop",
    "sessionStart": "session",
    "sessionEnd": "session",
    "subagentStart": "session",
    # Known to Cursor, no canonical counterpart (install must not call them unknown).
    "afterAgentResponse": "other",
    "afterAgentThought": "other",
    "preCompact": "other",
    "workspaceOpen": "other",
}
_SHELL = {"beforeShellExecution", "afterShellExecution"}
_FILE = {"beforeReadFile", "beforeTabFileRead", "afterFileEdit", "afterTabFileEdit"}
_PERMISSIONS = ("allow", "deny", "ask")


def _maybe_json(value: Any) -> Any:
    """beforeMCPExecution sends tool_input as a JSON string; decode it when it is one."""
    if isinstance(value, str) and value[:1] in "{[":
        try:
            return jsonio.loads(value)
        except jsonio.NotJSON:
            return value
    return value


class Cursor(Runtime):
    def detect(self, request: Any) -> bool:
        if not isinstance(request, dict):
            return False
        return "conversation_id" in request or is_camel_name(request.get("hook_event_name"))

    def parse(self, request: Any) -> Call:
        r = as_dict(request)
        native = s(r, "hook_event_name")
        cwd = s(r, "cwd")
        roots = r.get("workspace_roots")
        if not cwd and isinstance(roots, list) and roots and isinstance(roots[0], str):
            cwd = roots[0]
        tool_name = s(r, "tool_name")
        tool_input = _maybe_json(r.get("tool_input"))
        if native in _SHELL:
            tool_name = tool_name or "Shell"
            tool_input = {"command": r.get("command"), "cwd": r.get("cwd")}
        elif native in _FILE:
            tool_name = tool_name or ("Read" if native.startswith("before") else "Edit")
            tool_input = {k: r[k] for k in ("file_path", "edits") if k in r}
        output = None
        for key in ("tool_output", "output", "result_json"):
            if key in r:
                output = r[key]
                break
        prompt = r.get("prompt")
        return Call(
            runtime=self.name,
            event=self.event_of(native),
            native_event=native,
            tool_name=tool_name,
            tool_input=tool_input,
            tool_output=output,
            is_error=True if native == "postToolUseFailure" else None,
            session_id=s(r, "conversation_id", "session_id"),
            agent_id=s(r, "agent_id"),
            tool_call_id=s(r, "tool_use_id", "generation_id"),
            cwd=cwd,
            prompt=prompt if isinstance(prompt, str) else None,
        )

    def request_for(self, call: Call) -> dict[str, Any]:
        native = call.native_event or "preToolUse"
        r: dict[str, Any] = {
            "conversation_id": call.session_id,
            "generation_id": call.tool_call_id,
            "hook_event_name": native,
            "workspace_roots": [call.cwd],
            "cwd": call.cwd,
        }
        if native in _SHELL and isinstance(call.tool_input, dict):
            r["command"] = call.tool_input.get("command")
        elif call.tool_name:
            r.update(tool_name=call.tool_name, tool_input=call.tool_input)
        if call.tool_output is not None:
            r["tool_output"] = call.tool_output
        if call.prompt is not None:
            r["prompt"] = call.prompt
        return r

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        native = call.native_event
        crashed = process_failure(
            outcome, self.title, "proceeds", "a hook error, fail-open unless failClosed is set"
        )
        if crashed:
            return crashed
        code = outcome.exit_code
        out = Stdout(outcome.stdout)
        obj = out.obj or {}
        message = str_field(obj, "agent_message", "agentMessage", "user_message", "userMessage")
        if code == 2:
            return Verdict(decision="deny", reason=message or text_of(outcome.stderr))
        if code != 0:
            return failure(
                "exit_code",
                f"exit {code}: Cursor reads it as a hook error and proceeds (fail-open unless "
                "the hook is configured failClosed)",
            )
        if out.kind == "empty":
            return Verdict(decision="allow")
        if out.obj is None:
            return failure(
                "invalid_json",
                "stdout is not a JSON object: Cursor reads it as a hook error and proceeds",
            )
        context = str_field(obj, "additional_context", "additionalContext")
        if native == "beforeSubmitPrompt":
            if obj.get("continue") is False:
                return Verdict(decision="deny", reason=message)
            return Verdict(decision="allow")
        if native in ("stop", "subagentStop"):
            followup = str_field(obj, "followup_message", "followupMessage")
            if followup:
                return Verdict(decision="deny", reason=followup)
            return Verdict(decision="allow")
        if call.event == "post_tool_use" or native.startswith("after"):
            if "updated_mcp_tool_output" in obj:
                return Verdict(
                    decision="replace",
                    context=context,
                    updated_output=obj["updated_mcp_tool_output"],
                )
            return Verdict(decision="allow", context=context)
        permission = obj.get("permission")
        updated = obj.get("updated_input", obj.get("updatedInput"))
        if permission is None:
            if updated is not None and native == "preToolUse":
                return Verdict(decision="modify", context=context, updated_input=updated)
            return Verdict(decision="allow", context=context)
        if permission not in _PERMISSIONS:
            return failure(
                "unsupported",
                f"permission {permission!r} is not allow, deny or ask: a hook error, Cursor proceeds",
            )
        if permission == "allow" and updated is not None:
            return Verdict(
                decision="modify", reason=message, context=context, updated_input=updated
            )
        return Verdict(decision=permission, reason=message, context=context)

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        native = call.native_event or "preToolUse"
        d = verdict.decision
        if d == "failure":
            return encode_generic_failure(self.name, call, verdict)
        if native == "beforeSubmitPrompt":
            if d == "allow":
                return json_line({"continue": True}), b"", 0
            if d == "deny":
                msg = {"continue": False, "user_message": verdict.reason}
                return json_line(msg), b"", 0
            raise cannot(self.name, verdict, native)
        if native in ("stop", "subagentStop"):
            if d == "allow":
                return json_line({}), b"", 0
            if d == "deny" and verdict.reason:
                return json_line({"followup_message": verdict.reason}), b"", 0
            raise cannot(self.name, verdict, native)
        ctx = {"additional_context": verdict.context} if verdict.context else {}
        if call.event == "post_tool_use" or native.startswith("after"):
            if d == "allow":
                return json_line(ctx), b"", 0
            if d == "replace":
                return json_line({"updated_mcp_tool_output": verdict.updated_output, **ctx}), b"", 0
            raise cannot(self.name, verdict, native)
        out: dict[str, Any]
        if d in _PERMISSIONS:
            out = {"permission": d}
        elif d == "modify" and native == "preToolUse":
            out = {"permission": "allow", "updated_input": verdict.updated_input}
        else:
            raise cannot(self.name, verdict, native)
        if verdict.reason:
            out["user_message"] = verdict.reason
            out["agent_message"] = verdict.reason
        out.update(ctx)
        return json_line(out), b"", 0


RUNTIME = Cursor(
    name="cursor",
    title="Cursor",
    priority=30,  # camelCase names or conversation_id
    events=EVENTS,
    guards=frozenset(
        {"preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile"}
    ),
    # Uncertain: the variables Cursor's docs list for hook processes.
    project_dir_env="CURSOR_PROJECT_DIR",
    env_vars=("CURSOR_PROJECT_DIR", "CURSOR_VERSION", "CURSOR_USER_EMAIL", "CLAUDE_PROJECT_DIR"),
    # A per-hook `timeout` in hooks.json, taken as seconds; no documented default.
    timeouts=Timeouts(default_ms=None, unit_ms=1000),
    settings=Layout(
        project_files=(".cursor/hooks.json",),
        user_dir=".cursor",
        user_files=("hooks.json",),
        nested=False,  # hooks.<event>[] = {command, ...}
        default_type="command",
        handler_types=("command", "prompt"),  # PROTOCOLS.md: `type: "prompt"` hooks too
        fail_closed=("failClosed", True),
        strict_events=True,  # one unknown event name and Cursor drops the whole file
    ),
    prompt_keys=("prompt",),
    # `text`: afterAgentResponse / afterAgentThought
    output_keys=("tool_output", "output", "result_json", "text"),
    command_keys=("command",),
    path_keys=("file_path",),
    shell_tool="Shell",
    read_tool="Read",
    # No Cursor runs here and its docs do not say how several hooks on one call
    # combine: the engine reads "any deny blocks" and says the rule is not known.
    merge=MergeRule(
        unknown="no Cursor CLI runs here and its hooks docs do not say how several hooks combine",
    ),
    # Third-party sources (PROTOCOLS.md): user then project hooks.json.
    hook_sources=(
        HookSource(scope="user", base="user", path="hooks.json"),
        HookSource(scope="project", path=".cursor/hooks.json"),
    ),
    reading=SettingsReading(
        bad_file="ignores the file",
        unknown_event="ignores the whole file",
        matcher="none",
        basis="PROTOCOLS.md (third-party sources, not run here)",
    ),
)

"""Claude Code: the reference hook protocol (PreToolUse-style names, exit 2 blocks).

Rules, from the hooks reference (code.claude.com/docs/en/hooks), PROTOCOLS.md and
what the real 2.1.197 did (tests/e2e; the runtime wins):
- JSON on stdout (starting with `{`) is read WHATEVER the exit code: exit 1 with a
  deny blocks, exit 1 with an allow is a plain success. It must pass Claude Code's
  output schema (decision approve|block, permissionDecision allow|deny|ask|defer,
  typed fields, hookSpecificOutput with a hookEventName) and its hookEventName
  must be this event's; otherwise the whole answer is dropped as a non-blocking
  error and the action proceeds, even on exit 2.
- exit 2: a blocking error with stderr as the reason, unless the JSON answer
  itself denies (then its reason). SessionStart, SessionEnd and Notification
  cannot block: stderr goes to the user only.
- any other non-zero exit without JSON: a non-blocking error; the action proceeds.
  A killed or timed-out hook is the same.
- exit 0: a `{...}` that is not JSON is not read as an answer; anything else is
  plain text: ignored, except for UserPromptSubmit and SessionStart where it
  becomes context.
- JSON: `continue: false` at a tool event does not stop the call: the answer
  decides it as usual, then the turn ends (unless it was denied: the model reads
  the reason and goes on). Elsewhere it stops Claude (a deny, but at Stop).
  PreToolUse: `hookSpecificOutput.permissionDecision` allow|deny|ask|defer
  (+ permissionDecisionReason, updatedInput = the whole new input,
  additionalContext); legacy top-level `decision: approve|block`.
  `defer` (headless -p only) hands the call to whoever runs Claude, to resume it
  later: the closest canonical reading is `ask` (someone else decides).
  PostToolUse/UserPromptSubmit/Stop: top-level `decision: "block"` + reason;
  PostToolUse `hookSpecificOutput.updatedToolOutput` replaces the result of an
  MCP tool, or of a built-in tool when it fits that tool's output shape (Bash:
  stdout, stderr, interrupted); `updatedMCPToolOutput` is for MCP tools only.
  PermissionRequest: `hookSpecificOutput.decision.behavior` allow|deny
  (+ updatedInput, message).
"""

from __future__ import annotations

import os

from hooktui.tap.canonical import UNSET, Call, Outcome, Verdict
from hooktui.tap.runtimes.base import (
    Stdout,
    as_dict,
    cannot,
    encode_generic_failure,
    failure,
    halt,
    has,
    is_pascal_name,
    json_line,
    process_failure,
    s,
    str_field,
    text_of,
)
from hooktui.tap.runtimes.descriptor import HttpHooks, Layout, Runtime, Timeouts

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see record/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

EVENTS = {
    "PreToolUse": "pre_tool_use",
    "PostToolUse": "post_tool_use",
    "PostToolUseFailure": "post_tool_use",
    "PostToolBatch": "post_tool_use",
    "UserPromptSubmit": "user_prompt",
    "UserPromptExpansion": "user_prompt",
    "PermissionRequest": "permission_request",
    "PermissionDenied": "permission_request",
    "Stop": "stop",
    "StopFailure": "stop",
    "SubagentStop": "stop",
    "SessionStart": "session",
    "SessionEnd": "session",
    "Setup": "session",
    "SubagentStart": "session",
    "Notification": "notification",
}
# Events where exit 2 / decision:block cannot stop anything.
_NON_BLOCKING = {"SessionStart", "SessionEnd", "Notification", "Setup", "SubagentStart"}
# Events where plain stdout becomes context for the model.
_TEXT_IS_CONTEXT = {"UserPromptSubmit", "SessionStart", "Setup", "SubagentStart"}

_PERMISSION = {"allow": "allow", "deny": "deny", "ask": "ask", "defer": "ask"}
_LEGACY = {"approve": "allow", "block": "deny"}
# Output schema field types (a wrong type, null included, fails validation).
_BOOL_FIELDS = ("continue", "suppressOutput")
_STR_FIELDS = ("stopReason", "reason", "systemMessage", "terminalSequence")


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


def _invalid_answer(call: Call, obj: dict) -> str:
    """Why Claude Code rejects this JSON answer outright, or "" when it reads it.

    Claude Code validates stdout against its output schema, then checks that
    hookSpecificOutput names this very event; either failing is a non-blocking
    error that drops the whole answer (pinned against 2.1.197).
    """
    for key in _BOOL_FIELDS:
        if key in obj and not isinstance(obj[key], bool):
            return f"{key} is not true or false"
    for key in _STR_FIELDS:
        if key in obj and not isinstance(obj[key], str):
            return f"{key} is not a string"
    legacy = obj.get("decision", "approve")
    if legacy not in _LEGACY:
        return f"decision {legacy!r} is not a Claude Code decision (approve or block)"
    if "hookSpecificOutput" not in obj:
        return ""
    hso = obj["hookSpecificOutput"]
    if not isinstance(hso, dict):
        return "hookSpecificOutput is not an object"
    name = hso.get("hookEventName")
    if name is None:
        return 'hookSpecificOutput is missing its "hookEventName"'
    expected = call.native_event
    if expected and name != expected:
        return f"hookSpecificOutput names {name!r}, not this event ({expected!r})"
    if "additionalContext" in hso and not isinstance(hso["additionalContext"], str):
        return "additionalContext is not a string"
    if name == "PreToolUse":
        pd = hso.get("permissionDecision", "allow")
        if pd not in _PERMISSION:
            return f"permissionDecision {pd!r} is not allow, deny, ask or defer"
        if "permissionDecisionReason" in hso and not isinstance(
            hso["permissionDecisionReason"], str
        ):
            return "permissionDecisionReason is not a string"
        if "updatedInput" in hso and not isinstance(hso["updatedInput"], dict):
            return "updatedInput is not an object"
    if name == "PermissionRequest":
        dec = hso.get("decision")
        if not isinstance(dec, dict) or dec.get("behavior") not in ("allow", "deny"):
            return "PermissionRequest decision.behavior is not allow or deny"
    return ""


def _replaced_output(call: Call, hso: dict) -> Any:
    """The output the model gets instead of the tool's, or UNSET when it keeps the real one.

    Claude Code 2.1.197 takes any updatedToolOutput for an MCP tool, and
    updatedMCPToolOutput (when truthy) only for MCP tools. For a built-in tool
    the value must fit the tool's own output schema, or the real output stays;
    Bash's is {stdout: str, stderr: str, interrupted: bool, ...} (pinned), other
    tools' schemas are not known here, so an object is taken as fitting.
    """
    mcp = call.tool_name.startswith("mcp__")
    if "updatedToolOutput" in hso:
        value = hso["updatedToolOutput"]
        if value is not None and (mcp or _fits_output(call.tool_name, value)):
            return value
        return UNSET
    value = hso.get("updatedMCPToolOutput")
    if mcp and value:
        return value
    return UNSET


def _fits_output(tool: str, value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    if tool == "Bash":
        return (
            isinstance(value.get("stdout"), str)
            and isinstance(value.get("stderr"), str)
            and isinstance(value.get("interrupted"), bool)
        )
    return True


class ClaudeCode(Runtime):
    def detect(self, request: Any) -> bool:
        return isinstance(request, dict) and is_pascal_name(request.get("hook_event_name"))

    def parse(self, request: Any) -> Call:
        return parse_pascal(self, request)

    def request_for(self, call: Call) -> dict[str, Any]:
        home = os.path.expanduser("~")
        transcript = f"{home}/.claude/projects/demo/{call.session_id}.jsonl"
        return request_pascal(call, transcript_path=transcript, permission_mode="default")

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        native = call.native_event
        crashed = process_failure(
            outcome, self.title, "proceeds", "a hook that does not answer is a non-blocking error"
        )
        if crashed:
            return crashed
        code = outcome.exit_code
        out = Stdout(outcome.stdout)
        obj = out.obj if out.text.startswith("{") else None
        if code == 2 and native in _NON_BLOCKING:
            return failure(
                "exit_code",
                f"exit 2: {native} cannot block; Claude Code shows stderr to the user only",
            )
        if obj is not None:
            # A JSON answer is read whatever the exit code (pinned against 2.1.197):
            # exit 1 with a deny blocks, exit 1 with an allow is a plain success.
            problem = _invalid_answer(call, obj)
            if problem:
                return failure(
                    "unsupported",
                    f"{problem}; Claude Code reports a non-blocking error, ignores the whole "
                    "answer (exit code included) and the action proceeds",
                )
            verdict = self._judge_json(call, obj)
            if code == 2 and verdict.decision != "deny":
                # exit 2 blocks with stderr unless the JSON itself already blocked.
                return Verdict(decision="deny", reason=text_of(outcome.stderr))
            return verdict
        if code == 2:
            return Verdict(decision="deny", reason=text_of(outcome.stderr))
        if code != 0:
            return failure(
                "exit_code",
                f"exit {code}: without a JSON answer on stdout Claude Code treats non-zero "
                "exits other than 2 as a non-blocking error; the action proceeds",
            )
        if out.kind == "empty":
            return Verdict(decision="allow")
        if not out.text.startswith("{"):
            # Plain text (a JSON array or string counts as text too).
            if native in _TEXT_IS_CONTEXT:
                return Verdict(decision="allow", context=out.text)
            return Verdict(decision="allow")
        # Broken JSON is plain text to Claude Code (pinned against 2.1.197: no error,
        # the call goes ahead). Say so: the hook's author almost surely meant an answer.
        return Verdict(
            decision="allow",
            failure_detail=(
                "stdout starts with `{` but is not valid JSON; Claude Code reads it as plain "
                "text, not as an answer, and the action proceeds"
            ),
        )

    def _judge_json(self, call: Call, obj: dict) -> Verdict:
        hso = obj.get("hookSpecificOutput")
        hso = hso if isinstance(hso, dict) else {}
        context = hso.get("additionalContext")
        context = context if isinstance(context, str) else ""

        if obj.get("continue") is False:
            reason = str_field(obj, "stopReason")
            if call.event not in ("pre_tool_use", "post_tool_use"):
                return halt(call, reason or "continue: false (Claude Code stops)", context)
            # At a tool event the answer still decides the call (pinned against
            # 2.1.197: the tool runs, PostToolUse fires); only then the turn ends,
            # unless the call was denied, in which case the model reads the reason.
            verdict = self._judge_tool_json(call, obj, hso, context)
            if verdict.decision == "deny":
                return verdict
            verdict.reason = verdict.reason or reason or "continue: false"
            verdict.failure_detail = (
                "continue: false: Claude Code lets the call go ahead, then ends the turn "
                "(stopReason goes to the user; the model is not asked again)"
            )
            return verdict
        return self._judge_tool_json(call, obj, hso, context)

    def _judge_tool_json(self, call: Call, obj: dict, hso: dict, context: str) -> Verdict:
        native = call.native_event
        legacy = obj.get("decision")
        reason = str_field(obj, "reason")

        if call.event == "pre_tool_use" or native == "PreToolUse":
            pd = hso.get("permissionDecision")
            updated = hso.get("updatedInput")
            if pd is not None:
                decision = _PERMISSION[pd]
                pd_reason = str_field(hso, "permissionDecisionReason")
                if pd == "defer":
                    return Verdict(decision="ask", reason=pd_reason or reason or "defer")
                if pd == "deny":
                    # The model reads permissionDecisionReason, else the top-level reason.
                    return Verdict(decision="deny", reason=pd_reason or reason, context=context)
                if isinstance(updated, dict):
                    decision = "modify" if decision == "allow" else "ask"
                    return Verdict(
                        decision=decision,
                        reason=pd_reason,
                        context=context,
                        updated_input=updated,
                    )
                return Verdict(decision=decision, reason=pd_reason, context=context)
            if isinstance(updated, dict):
                return Verdict(decision="modify", context=context, updated_input=updated)
            if legacy is not None:
                return Verdict(decision=_LEGACY[legacy], reason=reason, context=context)
            return Verdict(decision="allow", context=context)

        if native == "PermissionRequest":
            dec = hso.get("decision")
            dec = dec if isinstance(dec, dict) else {}
            behavior = dec.get("behavior")
            if behavior == "deny":
                return Verdict(decision="deny", reason=str_field(dec, "message"))
            if behavior == "allow":
                updated = dec.get("updatedInput")
                if isinstance(updated, dict):
                    return Verdict(decision="modify", updated_input=updated)
                return Verdict(decision="allow")
            # No decision: the normal permission dialog is shown.
            return Verdict(decision="ask")

        if legacy == "block" and native not in _NON_BLOCKING:
            return Verdict(decision="deny", reason=reason, context=context)

        if call.event == "post_tool_use":
            replaced = _replaced_output(call, hso)
            if replaced is not UNSET:
                return Verdict(decision="replace", context=context, updated_output=replaced)
            if "updatedToolOutput" in hso or "updatedMCPToolOutput" in hso:
                return Verdict(
                    decision="allow",
                    context=context,
                    failure_detail=(
                        f"the replacement output does not fit {call.tool_name or 'the tool'}'s "
                        "output shape (only MCP tools take any value); Claude Code keeps the "
                        "real output"
                    ),
                )
        return Verdict(decision="allow", context=context)

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        native = call.native_event or "PreToolUse"
        d = verdict.decision
        ctx = {"additionalContext": verdict.context} if verdict.context else {}
        if d == "failure":
            if verdict.failure == "invalid_json":  # broken JSON is plain text: an allow
                raise cannot(self.name, verdict, native)
            return encode_generic_failure(self.name, call, verdict)
        if native == "PreToolUse":
            hso: dict[str, Any] = {"hookEventName": native}
            if d == "allow":
                if not ctx:
                    return b"", b"", 0
                hso["permissionDecision"] = "allow"
            elif d in ("deny", "ask"):
                hso["permissionDecision"] = d
                if verdict.reason:
                    hso["permissionDecisionReason"] = verdict.reason
                if d == "ask" and has(verdict.updated_input):
                    hso["updatedInput"] = verdict.updated_input
            elif d == "modify":
                hso["permissionDecision"] = "allow"
                hso["updatedInput"] = verdict.updated_input
            else:
                raise cannot(self.name, verdict, native)
            hso.update(ctx)
            return json_line({"hookSpecificOutput": hso}), b"", 0
        if native == "PermissionRequest":
            if d == "allow":
                dec: dict[str, Any] = {"behavior": "allow"}
            elif d == "modify":
                dec = {"behavior": "allow", "updatedInput": verdict.updated_input}
            elif d == "deny":
                dec = {"behavior": "deny", "message": verdict.reason}
            elif d == "ask":
                return json_line({}), b"", 0
            else:
                raise cannot(self.name, verdict, native)
            return (
                json_line({"hookSpecificOutput": {"hookEventName": native, "decision": dec}}),
                b"",
                0,
            )
        if d == "allow":
            if not ctx:
                return b"", b"", 0
            return json_line({"hookSpecificOutput": {"hookEventName": native, **ctx}}), b"", 0
        if d == "deny" and native not in _NON_BLOCKING:
            out: dict[str, Any] = {"decision": "block", "reason": verdict.reason}
            if ctx:
                out["hookSpecificOutput"] = {"hookEventName": native, **ctx}
            return json_line(out), b"", 0
        if d == "replace" and call.event == "post_tool_use":
            if not (
                call.tool_name.startswith("mcp__")
                or _fits_output(call.tool_name, verdict.updated_output)
            ):
                raise cannot(
                    self.name,
                    verdict,
                    f"{native} for {call.tool_name or 'this tool'} with that output",
                )
            hso = {"hookEventName": native, "updatedToolOutput": verdict.updated_output, **ctx}
            return json_line({"hookSpecificOutput": hso}), b"", 0
        raise cannot(self.name, verdict, native)

    def http_answer(self, status: int | None, body: bytes, error: str) -> tuple[bytes, bytes, int]:
        """How 2.1.332 reads an http hook's reply (its bundled code), as the command
        hook answer it reads the same way. No reply (refused, reset, a bad URL) and a
        non-2xx status: a non-blocking error (a block under `onFailure: "block"`),
        like exit 1. 2xx: an empty body is `{}`; a body that is not a JSON object is a
        non-blocking error (plain text is never context, unlike a command's stdout);
        JSON goes through the command hook's schema. A timeout is the runtime's own
        (it stops the command as it would abort the request). No redirects followed."""
        if status is None:
            return b"", (error or "the request failed").encode(), 1
        if not 200 <= status < 300:
            return b"", error.encode() or b"HTTP %d" % status, 1
        text = body.strip()
        if not text:
            return b"", b"", 0
        if not text.startswith(b"{"):
            shown = text[:200].decode("utf-8", "replace") + ("\u2026" if len(text) > 200 else "")
            msg = f"HTTP hook must return JSON, but got non-JSON response body: {shown}"
            return b"", msg.encode(), 1
        import json  # here, not at the top: the tap's recorder loads this file

        try:
            json.loads(text)
        except ValueError as exc:
            return b"", f"HTTP hook must return valid JSON, but parsing failed: {exc}".encode(), 1
        return body, b"", 0


RUNTIME = ClaudeCode(
    name="claude-code",
    title="Claude Code",
    short="claude",
    priority=90,  # anything PreToolUse-shaped that nobody else claims
    events=EVENTS,
    guards=frozenset({"PreToolUse", "PermissionRequest", "UserPromptSubmit"}),
    project_dir_env="CLAUDE_PROJECT_DIR",
    env_vars=(
        "CLAUDE_PROJECT_DIR",
        "CLAUDE_PLUGIN_ROOT",
        "CLAUDE_PLUGIN_DATA",
        "CLAUDE_ENV_FILE",
        "CLAUDE_CODE_REMOTE",
        "CLAUDE_CONFIG_DIR",
    ),
    # 2.1.332 sets AI_AGENT=claude-code_2-1-332_harness for its hooks (RUNTIMES-E2E.md).
    version_env=("AI_AGENT=claude-code_",),
    timeouts=Timeouts(default_ms=600_000, unit_ms=1000),  # 600 s for command hooks
    settings=Layout(
        project_files=(".claude/settings.json", ".claude/settings.local.json"),
        user_dir=".claude",
        user_dir_env="CLAUDE_CONFIG_DIR",
        user_files=("settings.json",),
        exec_args_key="args",
        handler_types=("command", "http", "mcp_tool", "prompt", "agent"),  # PROTOCOLS.md
        async_key="async",
        async_keys=("asyncRewake",),  # 2.1.332's schema: "Implies async."
        # 2.1.332: headers interpolate $V / ${V} of allowedEnvVars only; it drops
        # Content-Length / Transfer-Encoding, and never sends its own credentials.
        http=HttpHooks(
            ignored_headers=("content-length", "transfer-encoding"),
            withheld_env=(
                "ANTHROPIC_API_KEY",
                "ANTHROPIC_AUTH_TOKEN",
                "CLAUDE_CODE_OAUTH_TOKEN",
                "CLAUDE_CODE_OAUTH_REFRESH_TOKEN",
                "CLAUDE_CODE_SESSION_ACCESS_TOKEN",
                "AWS_BEARER_TOKEN_BEDROCK",
            ),
            policy_keys=("allowedHttpHookUrls", "httpHookAllowedEnvVars"),
            policy_files=("/etc/claude-code/managed-settings.json",),
        ),
        fail_closed=("onFailure", "block"),
        # PROTOCOLS.md: since 2.1.295; ignored at these events (and for async hooks).
        fail_closed_since="2.1.295",
        fail_closed_ignored=frozenset({"Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"}),
        shell="sh",  # seen: /bin/sh -c <command>
        shell_key="shell",  # 2.1.332: "bash" (the user's $SHELL) or "powershell" (pwsh)
        posix_shells=("bash",),
    ),
    prompt_keys=("prompt",),
    output_keys=("tool_response", "last_assistant_message"),
    command_keys=("command",),
    path_keys=("file_path", "notebook_path", "path"),
    shell_tool="Bash",
    read_tool="Read",
)

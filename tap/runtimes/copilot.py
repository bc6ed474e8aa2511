"""GitHub Copilot CLI: two dialects, flat answers, preToolUse fails closed.

Rules, from what the real 1.0.102 did (tests/e2e/ORACLE.md, test_e2e_copilot.py;
the runtime wins over PROTOCOLS.md where they differ):
- Hooks live in `.github/hooks/*.json` (camelCase events: `preToolUse`, ...) and,
  in Claude's layout and names, in `.claude/settings.json`. The event name's case
  picks the payload dialect: camelCase `{sessionId, timestamp (epoch ms), cwd,
  toolName, toolArgs, ...}` WITHOUT an event name, or Claude's snake_case keys
  plus an ISO `timestamp` (no transcript_path, no tool_use_id). permissionRequest
  is camelCase in both (`hookName: "permissionRequest"`); notification carries
  `hook_event_name: "Notification"` in both. A camelCase event is told by its keys.
- Answers are flat: preToolUse `permissionDecision` allow|deny|ask (+
  `permissionDecisionReason`), `modifiedArgs` (the whole new args, with or without
  a decision). Headless, `ask` refuses. Claude's `hookSpecificOutput`
  (permissionDecision, updatedInput) is read only in the Claude dialect; legacy
  `decision: block` and `continue: false` are not read at preToolUse.
- stdout lines `{"type": "progress", ...}` are skipped; the answer is the rest.
  Plain text, `{not json` and empty are no answer: the tool runs.
- preToolUse fails CLOSED: exit 2 denies whatever was printed, with the reason
  `hook exited with code 2` (stderr is never the reason: it goes to Copilot's log);
  any other non-zero exit, or a crash (Copilot reports a kill as code 1), denies
  as a failure. A timeout fails OPEN.
- postToolUse: `modifiedResult` replaces what the model reads, but only as an
  object (`{resultType, textResultForLlm}`; a string is ignored);
  `additionalContext` is appended; `decision: block` + reason replaces the result
  with `Tool result blocked: <reason>`. Non-zero exits are ignored there.
- agentStop/subagentStop `decision: block` + reason; permissionRequest flat
  `behavior` allow|deny + `message` (not pinned here). preMcpToolCall cannot block.
- `http` hooks, and what preMcpToolCall sends and reads: copilot_http.py.
"""

from __future__ import annotations

import time

from hooktui.tap.canonical import Call, Outcome, Verdict
from hooktui.tap.record import jsonio
from hooktui.tap.runtimes.base import (
    as_dict,
    cannot,
    failure,
    is_pascal_name,
    json_line,
    process_failure,
    s,
    str_field,
)
from hooktui.tap.runtimes.claude_code import parse_pascal
from hooktui.tap.runtimes.descriptor import HttpHooks, Layout, Runtime, Timeouts

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see record/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

CAMEL_EVENTS = {
    "preToolUse": "pre_tool_use",
    "postToolUse": "post_tool_use",
    "postToolUseFailure": "post_tool_use",
    "permissionRequest": "permission_request",
    "userPromptSubmitted": "user_prompt",
    "userPromptTransformed": "user_prompt",
    "agentStop": "stop",
    "subagentStop": "stop",
    "sessionStart": "session",
    "sessionEnd": "session",
    "subagentStart": "session",
    "notification": "notification",
    "errorOccurred": "other",
    "preCompact": "other",
    "preMcpToolCall": "other",  # an MCP call's `_meta` (copilot_http.py); it cannot block
}
# The Claude Code names Copilot fires from `.claude/settings.json` (seen: 12).
CLAUDE_EVENTS = {
    "PreToolUse": "pre_tool_use",
    "PostToolUse": "post_tool_use",
    "PostToolUseFailure": "post_tool_use",
    "PermissionRequest": "permission_request",
    "UserPromptSubmit": "user_prompt",
    "Stop": "stop",
    "SubagentStop": "stop",
    "SessionStart": "session",
    "SessionEnd": "session",
    "SubagentStart": "session",
    "Notification": "notification",
    "PreCompact": "other",
}
EVENTS = {**CAMEL_EVENTS, **CLAUDE_EVENTS}
# Claude names that Gemini CLI sends too, with a timestamp as well.
_GEMINI_TOO = {"SessionStart", "SessionEnd", "Notification"}
_PRE = {"preToolUse", "PreToolUse"}
_POST = {"postToolUse", "PostToolUse"}
_STOPS = {"agentStop", "subagentStop", "Stop", "SubagentStop"}
_PERMISSIONS = ("allow", "deny", "ask")
_TITLE = "Copilot"
# What an http hook's header value reads as a variable (`${NAME:-x}` is NAME's value).
HTTP_VARS = r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)"


def camel_event(r: dict) -> str:
    """The event of a camelCase request, told by its keys (the payload names none)."""
    named = r.get("hookName") or r.get("hook_event_name")
    if isinstance(named, str) or "serverName" in r:  # an MCP call's toolName: its server's
        return named if isinstance(named, str) else "preMcpToolCall"
    if "toolResult" in r:
        return "postToolUse"
    if "toolName" in r:
        return "postToolUseFailure" if "error" in r else "preToolUse"
    if "errorContext" in r or "recoverable" in r:
        return "errorOccurred"
    if "transformedPrompt" in r:
        return "userPromptTransformed"
    if "agentName" in r or "agentId" in r:
        return "subagentStop" if "stopReason" in r or "response" in r else "subagentStart"
    if "stopReason" in r:
        return "agentStop"
    if "prompt" in r:
        return "userPromptSubmitted"
    if "trigger" in r:
        return "preCompact"
    if "initialPrompt" in r or "source" in r:
        return "sessionStart"
    if "reason" in r:
        return "sessionEnd"
    return ""


def read_stdout(raw: bytes) -> tuple[str, Any]:
    """("empty" | "json" | "text", value) of stdout, progress lines left out."""
    text = raw.decode("utf-8", errors="replace").strip()
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("{") and '"progress"' in stripped:
            try:
                value = jsonio.loads(stripped)
            except jsonio.NotJSON:
                value = None
            if isinstance(value, dict) and value.get("type") == "progress":
                continue
        lines.append(line)
    rest = "\n".join(lines).strip()
    if not rest:
        return "empty", None
    try:
        return "json", jsonio.loads(rest)
    except jsonio.NotJSON:
        return "text", rest


class Copilot(Runtime):
    def detect(self, request: Any) -> bool:
        if not isinstance(request, dict):
            return False
        if isinstance(request.get("sessionId"), str) or "hookName" in request:
            return True
        native = request.get("hook_event_name")
        if native not in CLAUDE_EVENTS or "timestamp" not in request:
            return False
        if "permission_mode" in request:  # Qwen Code's, which sends it on every event
            return False
        # Gemini CLI's names too: Copilot's only when they say so (the environment
        # decides the rest: registry.caller).
        return native not in _GEMINI_TOO or "initial_prompt" in request

    def could_send(self, request: Any) -> bool:
        # The environment says Copilot called: any of its payloads (Claude Code's
        # own, which a nested Claude sends, has no timestamp).
        if not isinstance(request, dict):
            return False
        if isinstance(request.get("sessionId"), str) or "hookName" in request:
            return True
        return is_pascal_name(request.get("hook_event_name")) and "timestamp" in request

    def parse(self, request: Any) -> Call:
        r = as_dict(request)
        if is_pascal_name(r.get("hook_event_name")) and "sessionId" not in r:
            call = parse_pascal(self, r)
            if call.tool_output is None and "tool_result" in r:
                call.tool_output = r["tool_result"]
            if call.prompt is None and isinstance(r.get("initial_prompt"), str):
                call.prompt = r["initial_prompt"]
            return call
        native = camel_event(r)
        result = r.get("toolResult")
        is_error = None
        if native == "postToolUseFailure":
            is_error = True
        elif isinstance(result, dict) and isinstance(result.get("resultType"), str):
            is_error = result["resultType"] != "success"
        prompt = r.get("prompt", r.get("initialPrompt"))
        args = r.get("toolArgs", r.get("toolInput", r.get("arguments")))
        return Call(
            runtime=self.name,
            event=self.event_of(native),
            native_event=native,
            tool_name=s(r, "toolName"),
            tool_input=args,
            tool_output=result,
            is_error=is_error,
            session_id=s(r, "sessionId", "session_id"),
            agent_id=s(r, "agentId", "agent_id"),
            cwd=s(r, "cwd"),
            prompt=prompt if isinstance(prompt, str) else None,
        )

    def request_for(self, call: Call) -> dict[str, Any]:
        native = call.native_event or "preToolUse"
        if native in CLAUDE_EVENTS:
            r: dict[str, Any] = {
                "session_id": call.session_id,
                "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
                "cwd": call.cwd,
                "hook_event_name": native,
            }
            if call.tool_name:
                r.update(tool_name=call.tool_name, tool_input=call.tool_input)
            if call.tool_output is not None:
                r["tool_result"] = call.tool_output
            if call.prompt is not None:
                r["prompt"] = call.prompt
            return r
        r = {"sessionId": call.session_id, "timestamp": int(time.time() * 1000), "cwd": call.cwd}
        if native == "permissionRequest":
            r.update(hookName=native, toolName=call.tool_name, toolInput=call.tool_input)
            r["permissionSuggestions"] = []
            return r
        if call.tool_name:
            r.update(toolName=call.tool_name, toolArgs=call.tool_input)
        if call.tool_output is not None:
            r["toolResult"] = call.tool_output
        if call.prompt is not None:
            r["prompt"] = call.prompt
        return r

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        native = call.native_event
        pre = native in _PRE
        if outcome.timed_out:  # fails open, even at preToolUse (seen)
            return process_failure(outcome, _TITLE, "proceeds", "the call proceeds")
        effect = "blocks" if pre else "proceeds"
        consequence = "preToolUse fails closed, the tool is denied" if pre else "ignored"
        crashed = process_failure(outcome, _TITLE, effect, consequence)
        if crashed:
            return crashed
        code = outcome.exit_code
        if code == 2 and pre:
            # stderr is not the reason: Copilot tells the model the exit code.
            return Verdict(decision="deny", reason="hook exited with code 2")
        if code != 0:
            return failure(
                "exit_code",
                f"exit {code}: {_TITLE} reads it as a hook error; {consequence}",
                effect,
            )
        kind, value = read_stdout(outcome.stdout)
        if kind != "json" or not isinstance(value, dict):
            value = {}  # no answer
        if pre:
            return self._pre(call, value)
        if native in _POST:
            return _post(value)
        if native in _STOPS and value.get("decision") == "block":
            return Verdict(decision="deny", reason=str_field(value, "reason"))
        if native in ("permissionRequest", "PermissionRequest"):
            behavior = value.get("behavior")
            if behavior == "deny":
                return Verdict(decision="deny", reason=str_field(value, "message"))
            # No behavior: Copilot asks as it would without the hook.
            return Verdict(decision="allow" if behavior == "allow" else "ask")
        context = value.get("additionalContext")
        return Verdict(decision="allow", context=context if isinstance(context, str) else "")

    def _pre(self, call: Call, obj: dict) -> Verdict:
        decision = obj.get("permissionDecision")
        reason = str_field(obj, "permissionDecisionReason")
        updated = obj.get("modifiedArgs")
        hso = obj.get("hookSpecificOutput")
        if call.native_event == "PreToolUse" and isinstance(hso, dict):
            # Claude's answer is read in the Claude dialect only (seen).
            if decision not in _PERMISSIONS:
                decision = hso.get("permissionDecision")
                reason = reason or str_field(hso, "permissionDecisionReason")
            if not isinstance(updated, dict):
                updated = hso.get("updatedInput")
        if decision == "deny":
            return Verdict(decision="deny", reason=reason)
        if decision == "ask":
            return Verdict(decision="ask", reason=reason)
        if isinstance(updated, dict):
            return Verdict(decision="modify", reason=reason, updated_input=updated)
        return Verdict(decision="allow", reason=reason)

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        native = call.native_event or "preToolUse"
        d = verdict.decision
        if d == "failure":
            if verdict.failure == "exit_code":
                return b"", (verdict.failure_detail or "hook error").encode() + b"\n", 1
            raise cannot(self.name, verdict, native)
        if native in _PRE:
            if verdict.context:  # preToolUse has no context to add
                raise cannot(self.name, verdict, native)
            if d == "allow" and not verdict.reason:
                return b"", b"", 0
            out: dict[str, Any] = {"permissionDecision": "allow" if d == "modify" else d}
            if d not in ("allow", "deny", "ask", "modify"):
                raise cannot(self.name, verdict, native)
            if verdict.reason:
                out["permissionDecisionReason"] = verdict.reason
            if d == "modify":
                out["modifiedArgs"] = verdict.updated_input
            return json_line(out), b"", 0
        if native in _POST:
            if d == "allow":
                ctx = {"additionalContext": verdict.context} if verdict.context else {}
                return (json_line(ctx) if ctx else b""), b"", 0
            if d == "deny":
                return json_line({"decision": "block", "reason": verdict.reason}), b"", 0
            if d == "replace" and isinstance(verdict.updated_output, dict):
                return json_line({"modifiedResult": verdict.updated_output}), b"", 0
            raise cannot(self.name, verdict, native)
        if native in ("permissionRequest", "PermissionRequest"):
            if d == "ask":
                return b"", b"", 0
            if d == "allow":
                return json_line({"behavior": "allow"}), b"", 0
            if d == "deny":
                return json_line({"behavior": "deny", "message": verdict.reason}), b"", 0
            raise cannot(self.name, verdict, native)
        if d == "deny" and native in _STOPS:
            return json_line({"decision": "block", "reason": verdict.reason}), b"", 0
        if d == "allow":
            ctx = {"additionalContext": verdict.context} if verdict.context else {}
            return (json_line(ctx) if ctx else b""), b"", 0
        raise cannot(self.name, verdict, native)

    def http_answer(self, status, body, error, content_type="", request=b""):
        return _http().answer(status, body, error, content_type, request)

    def http_check(self, spec: Any, environ: Any, request=b"") -> tuple[bytes, bytes, int] | None:
        return _http().check(spec, environ, request)

    def http_post(self, spec: Any, body: bytes, environ: Any):
        return _http().post(spec, body, environ)

    def http_problem(self, handler: dict) -> str:
        return _http().problem(handler)


def _http():
    from hooktui.tap.runtimes import copilot_http  # only the http hook command and install

    return copilot_http


def _post(obj: dict) -> Verdict:
    context = obj.get("additionalContext")
    context = context if isinstance(context, str) else ""
    if obj.get("decision") == "block":
        return Verdict(decision="deny", reason=str_field(obj, "reason"), context=context)
    result = obj.get("modifiedResult")
    if isinstance(result, dict):
        return Verdict(decision="replace", context=context, updated_output=result)
    if "modifiedResult" in obj:
        return Verdict(
            decision="allow",
            context=context,
            failure_detail=f"modifiedResult is not an object: {_TITLE} keeps the real result",
        )
    return Verdict(decision="allow", context=context)


RUNTIME = Copilot(
    name="copilot",
    title="GitHub Copilot CLI",
    short="copilot",
    priority=16,  # before Gemini CLI, which claims Claude names with a timestamp
    events=EVENTS,
    guards=frozenset({"preToolUse", "PreToolUse", "permissionRequest", "PermissionRequest"}),
    project_dir_env="COPILOT_PROJECT_DIR",
    env_vars=(
        "COPILOT_PROJECT_DIR",
        "COPILOT_HOOK_DIR",  # set for `.github/hooks` hooks only
        "COPILOT_CLI_BINARY_VERSION",
        "CLAUDE_PROJECT_DIR",
    ),
    version_env=("COPILOT_CLI_BINARY_VERSION",),  # seen: 1.0.102
    caller_env=("COPILOT_CLI=1",),
    # 30 s for a command and an http hook alike (measured, 1.0.102).
    timeouts=Timeouts(default_ms=30_000, unit_ms=1000),
    # `.github/hooks/*.json` (and ~/.copilot/hooks). Copilot also runs the hooks of
    # `.claude/settings.json` in Claude's layout: that file is claude-code's to install
    # (one wrapped line serves both; the tap tells the caller by its environment).
    settings=Layout(
        project_files=(".github/hooks/*.json",),
        user_dir=".copilot",
        user_dir_env="COPILOT_HOME",
        user_files=("hooks/*.json",),
        nested=False,  # hooks.<event> = [{type, bash, timeoutSec, ...}]
        handler_types=("command", "http", "prompt"),  # prompt: sessionStart only
        # 1.0.102 (copilot_http.py): headers interpolate allowedEnvVars; whether it
        # posts at all depends on the event, the URL and COPILOT_HOOK_ALLOW_* at call time.
        http=HttpHooks(
            ignored_headers=("content-type",),
            var_pattern=HTTP_VARS,
            header_encoding="utf-8",
            checks_event=True,
        ),
        command_key="bash",
        timeout_key="timeoutSec",
        shell="bash",  # the `bash` key's command (a `powershell` key is for Windows)
        after_install=(
            "project hooks run only in a folder Copilot trusts (`--trust-folder` with -p); "
            "hooks in .claude/settings.json: `hooktui install claude-code` (the record "
            "names Copilot when Copilot runs them)"
        ),
    ),
    prompt_keys=("prompt", "initialPrompt", "initial_prompt", "transformedPrompt"),
    output_keys=("toolResult", "tool_result", "response", "last_assistant_message"),
    command_keys=("command",),
    path_keys=("path", "file_path"),
    shell_tool="bash",
    read_tool="view",
)

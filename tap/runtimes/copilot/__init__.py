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
- What a hook's answer does, and what an exit code does: copilot/answers.py.
- `http` hooks, and what preMcpToolCall sends and reads: copilot/http.py.
"""

from __future__ import annotations

import time

from hooktui.tap.canonical import Call, Outcome, Verdict
from hooktui.tap.runtimes.base import as_dict, is_pascal_name, s
from hooktui.tap.runtimes.claude_code import parse_pascal
from hooktui.tap.runtimes.copilot import answers
from hooktui.tap.runtimes.copilot.words import HTTP_VARS
from hooktui.tap.runtimes.descriptor import HttpHooks, Layout, Runtime, Timeouts
from hooktui.tap.runtimes.merge import HookSource, MergeRule, SettingsReading

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
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
    "preMcpToolCall": "other",  # an MCP call's `_meta` (copilot/http.py); it cannot block
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


class Copilot(Runtime):
    def settings_problems(self, data: Any) -> list[tuple[str, str, str]]:
        """A `version` other than 1 makes 1.0.102 skip the whole file, silently."""
        if isinstance(data, dict) and "version" in data and data["version"] != 1:
            return [("version", f"version {data['version']!r} is not 1: skipped silently", "file")]
        return []

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
        return answers.judge(call, outcome)

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        return answers.encode(self.name, call, verdict)

    def http_answer(self, status, body, error, content_type="", request=b""):
        return _http().answer(status, body, error, content_type, request)

    def http_check(self, spec: Any, environ: Any, request=b"") -> tuple[bytes, bytes, int] | None:
        return _http().check(spec, environ, request)

    def http_post(self, spec: Any, body: bytes, environ: Any):
        return _http().post(spec, body, environ)

    def http_problem(self, handler: dict) -> str:
        return _http().problem(handler)


def _http():
    from hooktui.tap.runtimes.copilot import http  # only the http hook command and install

    return http


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
    guest_of=("claude-code",),  # it runs `.claude/settings.json` too
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
        # 1.0.102 (copilot/http.py): headers interpolate allowedEnvVars; whether it
        # posts at all depends on the event, the URL and COPILOT_HOOK_ALLOW_* at call time.
        http=HttpHooks(
            ignored_headers=("content-type",),
            var_pattern=HTTP_VARS,
            header_encoding="utf-8",
            checks_event=True,
        ),
        command_key="bash",
        timeout_key="timeoutSec",
        more_timeout_keys=("timeout",),  # seconds; timeoutSec wins (seen 2026-12-07)
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
    # Several hooks on one call (the real 1.0.102, tests/e2e/test_e2e_merge.py; its hook
    # engine is native code): one after another in source order, each getting the
    # arguments as the earlier ones rewrote them; the first deny (a crash or non-zero
    # exit of a preToolUse hook is one) stops the call and the rest never run. The
    # hooks of one call share the request's timestamp.
    merge=MergeRule(
        runs="sequential",
        order="~/.copilot/hooks, .github/hooks, .claude/settings.json, "
        ".claude/settings.local.json, .github/copilot/settings.json",
        chained=True,
        stops_at=("deny",),
        precedence=("deny", "ask", "allow"),
        rewrite="chained",
        reason="first_in_order",
        call_keys=("timestamp",),
        basis="1.0.102's real CLI: two hooks on one call, five sources on one call (2026-12-07)",
        unknown="",
    ),
    hook_sources=(
        HookSource(scope="policy", base="/", path="/etc/github-copilot/policy.d/*.json"),
        HookSource(scope="user", base="user", path="hooks/*.json"),
        HookSource(scope="project", path=".github/hooks/*.json", needs="a trusted folder"),
        HookSource(
            scope="guest",
            path=".claude/settings.json",
            layout="claude-code",
            needs="a trusted folder",
        ),
        HookSource(
            scope="guest",
            path=".claude/settings.local.json",
            layout="claude-code",
            needs="a trusted folder",
        ),
        HookSource(scope="project", path=".github/copilot/settings.json", needs="a trusted folder"),
        HookSource(
            scope="local", path=".github/copilot/settings.local.json", needs="a trusted folder"
        ),
    ),
    # Seen in 1.0.102 (2026-12-07): a file that is not JSON, or whose `version` is not
    # 1, is skipped without a word (github/copilot-cli#2540); a matcher must match the
    # whole tool name.
    reading=SettingsReading(
        bad_file="skips the file without a word",
        bad_hook="skips that hook",
        unknown_event="skips that event",
        matcher="fullmatch",
        bad_matcher="never fires",
        basis="1.0.102's real CLI and its changelog",
    ),
)

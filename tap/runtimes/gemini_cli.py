"""Gemini CLI: BeforeTool/AfterTool names, JSON decision, exit codes only for text.

Rules, from packages/core/src/hooks/hookRunner.ts (executeCommandHook,
convertPlainTextToHookOutput) and what the real 0.61 runtime did (PROTOCOLS.md):
- The runner reads `stdout.trim()`, or stderr when stdout is empty. JSON (a JSON
  string is decoded once more) is the answer whatever the exit code: exit 2 with
  JSON allow proceeds, the JSON wins.
- Non-JSON text: exit 0 -> allow (shown to the user as a system message);
  exit 1 -> a warning, the tool proceeds; any other exit -> deny with the text
  as the reason (so exit >= 3 with plain text blocks too).
- Nothing on either stream: no decision -> allow; exit 1 still shows as a failed
  hook (a warning) and proceeds.
- A timeout or a kill: a warning, the tool proceeds.
- JSON: `decision` allow|approve|deny|block|ask (`block` is an alias of deny;
  `ask` exists in code only and hangs headless mode), `reason`; anything else,
  including a Claude-style `permissionDecision`, is ignored -> allow.
  `hookSpecificOutput.tool_input` at BeforeTool replaces the arguments (fields not
  given are dropped: the real runtime replaced, the docs say merged).
  AfterTool deny replaces the result with the reason. `continue: false` stops the
  agent. `hookSpecificOutput.additionalContext` is added for the model.
- Model-level answers, pinned inside the real 0.61 CLI (its own hook runner):
  BeforeModel `llm_request` rewrites the model request (modify); `llm_response`
  is a synthetic answer that skips the model only together with a deny (alone it
  is ignored); AfterModel `llm_response` replaces the model's answer (replace);
  BeforeToolSelection `toolConfig` restricts the callable tools (modify);
  AfterTool `tailToolCallRequest` runs a follow-up call whose result the model
  gets instead; AfterAgent deny re-prompts with the reason, with the history
  cleared when `clearContext` is set. Each such field's value is kept, as given, in
  the verdict's `answer_effects` under its canonical.ACTIONS name (_EFFECT_NAMES),
  as is `systemMessage` (shown to the user: user_message); the tool's own
  input/output fields stay unset (a model request is not a tool input). Taps before
  the names were settled wrote the answer's own keys: `effect_names_before`.
- Per-hook `env` in the settings is merged over the variables below (it can
  override them); the runtime sets GEMINI_PROJECT_DIR, GEMINI_PLANS_DIR,
  GEMINI_CWD, GEMINI_SESSION_ID and, for compatibility, CLAUDE_PROJECT_DIR.
"""

from __future__ import annotations

import os
import time

from hooktui.tap.base import jsonio
from hooktui.tap.canonical import Call, Outcome, Verdict
from hooktui.tap.runtimes.base import (
    as_dict,
    cannot,
    failure,
    halt,
    json_line,
    process_failure,
    s,
    str_field,
    text_of,
)
from hooktui.tap.runtimes.descriptor import Layout, Runtime, Timeouts
from hooktui.tap.runtimes.merge import (
    HookSource,
    MergeRule,
    SettingsReading,
    handlers_of,
    is_number,
)

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

EVENTS = {
    "BeforeTool": "pre_tool_use",
    "AfterTool": "post_tool_use",
    "BeforeAgent": "user_prompt",
    "AfterAgent": "stop",
    "SessionStart": "session",
    "SessionEnd": "session",
    "Notification": "notification",
    "BeforeModel": "other",
    "AfterModel": "other",
    "BeforeToolSelection": "other",
    "PreCompress": "other",
}
# Names only Gemini uses (SessionStart/SessionEnd/Notification are Claude's too).
GEMINI_ONLY = {
    name for name in EVENTS if name.startswith(("Before", "After")) or name == "PreCompress"
}

_DENY = {"deny", "block"}
# The answer's fields the runtime acts on -> their canonical.ACTIONS names.
_EFFECT_NAMES = {
    "llm_request": "model_request",
    "llm_response": "model_response",
    "toolConfig": "tool_config",
    "tailToolCallRequest": "follow_up_call",
    "clearContext": "clear_context",
    "systemMessage": "user_message",
}
# The effects each event's answer acts on without a deny (a model response at
# BeforeModel counts only with one: _DENY_EFFECTS), and the verdict they make when
# applied (AfterTool's follow-up call lets the tool through).
_APPLIED = {
    "BeforeModel": ("model_request",),
    "AfterModel": ("model_response",),
    "BeforeToolSelection": ("tool_config",),
    "AfterTool": ("follow_up_call",),
}
_REWRITES = {"BeforeModel": "modify", "AfterModel": "replace", "BeforeToolSelection": "modify"}
_DENY_EFFECTS = {
    "BeforeModel": ("model_response", "user_message"),  # the synthetic answer, model skipped
    "AfterAgent": ("clear_context", "user_message"),  # re-prompted with the history cleared
}


def _effects(obj: dict, hso: dict) -> dict:
    """The answer's fields this event may act on, as given, by canonical name (a fresh dict)."""
    found = {
        _EFFECT_NAMES[k]: hso[k] for k in ("llm_request", "llm_response", "toolConfig") if k in hso
    }
    if "tailToolCallRequest" in hso and isinstance(hso["tailToolCallRequest"], dict):
        found["follow_up_call"] = hso["tailToolCallRequest"]
    if hso.get("clearContext") is True:
        found["clear_context"] = True
    found.update(_shown(obj))
    return found


def _shown(obj: dict) -> dict:
    """`systemMessage`: Gemini CLI shows it to the user, whatever the decision."""
    message = obj.get("systemMessage")
    return {"user_message": message} if isinstance(message, str) and message else {}


class GeminiCli(Runtime):
    def settings_problems(self, data: Any) -> list[tuple[str, str, str]]:
        """0.61's schema: a timeout that is not a number is warned about, and the hook
        times out at once on every call (seen 2026-12-07)."""
        return [
            (where, "`timeout` is not a number: it warns, and the hook times out at once", "hook")
            for where, _, handler in handlers_of(data)
            if "timeout" in handler and not is_number(handler["timeout"])
        ]

    def detect(self, request: Any) -> bool:
        if not isinstance(request, dict):
            return False
        native = request.get("hook_event_name")
        # SessionStart/SessionEnd/Notification are Claude names too; Gemini adds `timestamp`.
        return native in GEMINI_ONLY or (native in EVENTS and "timestamp" in request)

    def parse(self, request: Any) -> Call:
        r = as_dict(request)
        native = s(r, "hook_event_name")
        response = r.get("tool_response")
        is_error = None
        if isinstance(response, dict) and native == "AfterTool":
            is_error = bool(response.get("error"))
        prompt = r.get("prompt")
        return Call(
            runtime=self.name,
            event=self.event_of(native),
            native_event=native,
            tool_name=s(r, "tool_name"),
            tool_input=r.get("tool_input"),
            tool_output=response,
            is_error=is_error,
            session_id=s(r, "session_id"),
            agent_id=s(r, "agent_id"),
            tool_call_id=s(r, "tool_call_id", "tool_use_id"),
            cwd=s(r, "cwd"),
            prompt=prompt if isinstance(prompt, str) else None,
        )

    def request_for(self, call: Call) -> dict[str, Any]:
        home = os.path.expanduser("~")
        r: dict[str, Any] = {
            "session_id": call.session_id,
            "transcript_path": f"{home}/.gemini/tmp/demo/chats/{call.session_id}.json",
            "cwd": call.cwd,
            "hook_event_name": call.native_event or "BeforeTool",
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
        }
        if call.tool_name:
            r.update(tool_name=call.tool_name, tool_input=call.tool_input)
        if call.tool_output is not None:
            r["tool_response"] = call.tool_output
        if call.prompt is not None:
            r["prompt"] = call.prompt
        return r

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        crashed = process_failure(outcome, self.title, "proceeds", "a warning, the tool proceeds")
        if crashed:
            return crashed
        code = outcome.exit_code
        text = text_of(outcome.stdout) or text_of(outcome.stderr)
        if not text:
            if code == 1:
                return failure("exit_code", "exit 1: Gemini CLI shows a warning and proceeds")
            return Verdict(decision="allow")
        try:
            value = jsonio.loads(text)
            if isinstance(value, str):  # double-encoded JSON
                value = jsonio.loads(value)
        except jsonio.NotJSON:
            if code == 0:
                return Verdict(decision="allow")
            if code == 1:
                return failure(
                    "exit_code", "exit 1 with plain text: Gemini CLI shows a warning and proceeds"
                )
            return Verdict(decision="deny", reason=text)
        if not isinstance(value, dict):
            return Verdict(decision="allow")
        return self._judge_json(call, value)

    def _judge_json(self, call: Call, obj: dict) -> Verdict:
        native = call.native_event
        hso = obj.get("hookSpecificOutput")
        hso = hso if isinstance(hso, dict) else {}
        context = hso.get("additionalContext")
        context = context if isinstance(context, str) else ""
        reason = str_field(obj, "reason")
        effects = _effects(obj, hso)
        if obj.get("continue") is False:
            why = str_field(obj, "stopReason") or reason or "continue: false"
            halted = halt(call, why, context)
            return Verdict(
                decision=halted.decision, reason=why, context=context, answer_effects=_shown(obj)
            )
        decision = obj.get("decision")
        if decision in _DENY:
            kept = _DENY_EFFECTS.get(native, ("user_message",))
            return Verdict(
                decision="deny",
                reason=reason,
                context=context,
                answer_effects={k: v for k, v in effects.items() if k in kept},
            )
        if decision == "ask":
            return Verdict(
                decision="ask", reason=reason, context=context, answer_effects=_shown(obj)
            )
        if native == "BeforeTool" and "tool_input" in hso:
            return Verdict(
                decision="modify", reason=reason, context=context, updated_input=hso["tool_input"]
            )
        applied = {k: v for k, v in effects.items() if k in _APPLIED.get(native, ())}
        shown = _shown(obj)
        if applied and native in _REWRITES:
            kind = _REWRITES[native]
            return Verdict(
                decision=kind, reason=reason, context=context, answer_effects={**applied, **shown}
            )
        return Verdict(
            decision="allow", reason=reason, context=context, answer_effects={**applied, **shown}
        )

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        native = call.native_event or "BeforeTool"
        d = verdict.decision
        out: dict[str, Any] = {}
        hso: dict[str, Any] = {}
        if verdict.context:
            hso["additionalContext"] = verdict.context
        if d == "failure":
            if verdict.failure == "exit_code":
                return b"", (verdict.failure_detail or "warning").encode() + b"\n", 1
            raise cannot(self.name, verdict, native)
        if d in ("allow", "deny", "ask"):
            out["decision"] = d
        elif d == "modify" and native == "BeforeTool":
            out["decision"] = "allow"
            hso["tool_input"] = verdict.updated_input
        else:
            raise cannot(self.name, verdict, native)
        if verdict.reason:
            out["reason"] = verdict.reason
        if hso:
            out["hookSpecificOutput"] = {"hookEventName": native, **hso}
        return json_line(out), b"", 0


RUNTIME = GeminiCli(
    name="gemini-cli",
    title="Gemini CLI",
    short="gemini",
    priority=20,  # BeforeTool-style names, or a Claude name with a timestamp
    events=EVENTS,
    guards=frozenset({"BeforeTool", "BeforeAgent", "AfterAgent"}),
    # GEMINI_PROJECT_DIR (with CLAUDE_PROJECT_DIR as a compatibility alias) and
    # GEMINI_SESSION_ID / GEMINI_CWD are set in the hook's environment.
    project_dir_env="GEMINI_PROJECT_DIR",
    env_vars=(
        "GEMINI_PROJECT_DIR",
        "GEMINI_PLANS_DIR",
        "GEMINI_SESSION_ID",
        "GEMINI_CWD",
        "CLAUDE_PROJECT_DIR",
    ),
    timeouts=Timeouts(default_ms=60_000, unit_ms=1),  # milliseconds in settings.json
    settings=Layout(
        project_files=(".gemini/settings.json",),
        user_dir=".gemini",
        user_files=("settings.json",),
        comments=True,  # it reads settings.json through strip-json-comments
        hook_env_key="env",  # 0.61: merged over the runtime's variables for that hook
        # hookRunner.ts: `bash -c <command>`, after replacing these (shell-quoted).
        shell="bash",
        substitutions=(
            "$GEMINI_PROJECT_DIR",
            "$GEMINI_CWD",
            "$GEMINI_PLANS_DIR",
            "$GEMINI_SESSION_ID",
            "$CLAUDE_PROJECT_DIR",
        ),
    ),
    prompt_keys=("prompt",),
    output_keys=("tool_response", "llm_request", "llm_response", "prompt_response"),
    command_keys=("command",),
    path_keys=("file_path", "absolute_path", "path"),
    shell_tool="run_shell_command",
    read_tool="read_file",
    effect_names_before=_EFFECT_NAMES,  # the taps of 2026-12 wrote the answer's own keys
    # Several hooks on one call (its bundled hookAggregator.ts / hookRunner.ts, and the
    # real 0.61: tests/e2e/test_e2e_merge.py): all at once (one after another, each
    # seeing the earlier tool_input, when a matching definition says `sequential`),
    # answers merged in configured order: any deny blocks, then ask; the last
    # tool_input in that order wins whoever finishes last; every reason is joined.
    merge=MergeRule(
        runs="parallel",
        order="system defaults, user, project (trusted), system settings, then extensions",
        precedence=("deny", "ask", "allow"),
        rewrite="last_in_order",
        reason="joined",
        dedup="name+command",
        basis="0.61: its bundled hookAggregator.ts (mergeWithOrDecision) and its real CLI "
        "with two hooks on one call (2026-12-07)",
        unknown="",
    ),
    # settings.ts: merged in this order (hooks concatenated); extensions come last.
    hook_sources=(
        HookSource(
            scope="managed",
            base="/",
            path="/etc/gemini-cli/system-defaults.json",
            env="GEMINI_CLI_SYSTEM_DEFAULTS_PATH",
        ),
        HookSource(scope="user", base="user", path="settings.json"),
        HookSource(scope="project", path=".gemini/settings.json", needs="a trusted folder"),
        HookSource(
            scope="managed",
            base="/",
            path="/etc/gemini-cli/settings.json",
            env="GEMINI_CLI_SYSTEM_SETTINGS_PATH",
        ),
        HookSource(scope="extension", base="user", path="extensions/*/hooks/hooks.json"),
    ),
    # Seen in 0.61 (2026-12-07): a settings file that is not JSON stops it at start
    # (exit 52); an unknown event, a hook without a command or of an unknown type is
    # skipped with a warning; a matcher that is not a regular expression is compared
    # literally; `hooks.enabled/disabled/notifications` are settings.
    reading=SettingsReading(
        bad_file="refuses to start (exit 52)",
        bad_hook="skips that hook",
        unknown_event="skips that event",
        matcher="regex_or_literal",
        bad_matcher="compares it with the tool name literally",
        setting_keys=("enabled", "disabled", "notifications"),
        basis="0.61's settings schema and hookRegistry.ts, and its real CLI",
    ),
)

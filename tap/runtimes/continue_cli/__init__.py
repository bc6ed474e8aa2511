"""Continue CLI (`cn`, npm `@continuedev/cli`): Claude Code's hooks, read by its own runner.

Rules, from the hook runner Continue ships (`src/hooks/hookRunner.ts`, the same
code as its bundle) driven as Continue's hook service drives it, and from the real
1.5.47 (tests/e2e/ORACLE.md, test_e2e_continue.py; the runtime wins):
- It loads Claude-layout hooks from `~/.claude/settings.json`,
  `~/.continue/settings.json` (`$CONTINUE_GLOBAL_DIR`), `.claude/settings.json`,
  `.continue/settings.json`, `.claude/settings.local.json` and
  `.continue/settings.local.json`, all merged; a handler whose command (or URL) is
  the same as an earlier one's runs once. The 1.5.47 CLI loads them but no part of
  it fires any event (measured: 68 handlers loaded, none run in a whole session).
- Requests are Claude's shape with no `timestamp`, `transcript_path` always "",
  `permission_mode` when known. The hook's environment has `CONTINUE_PROJECT_DIR`
  (set by Continue alone) beside `CLAUDE_PROJECT_DIR`: that is how its calls are
  told from Claude Code's, whose hooks these are too (and, without the environment,
  the empty transcript_path: Claude Code always names one).
- Each command runs as `/bin/sh -c <command>`; the exit code is `code ?? 0`: a hook
  killed at its timeout (600 s default) or by any signal reads as exit 0, its
  stdout is read as usual and the action proceeds unless that says otherwise. A
  command that cannot be spawned is exit 1, not blocking.
- stdout is read as JSON when it starts with `{` and parses, WHATEVER the exit
  code. exit 2 blocks with stderr as the reason ("Blocked by hook" when empty);
  `decision: "block"` blocks on any exit code (its `reason`, else stderr). Any
  other non-zero exit blocks nothing.
- `hookSpecificOutput` is read by ITS `hookEventName`, not the call's event:
  PreToolUse `permissionDecision` (deny blocks with permissionDecisionReason,
  reason, "Blocked by hook"; allow and ask are passed on), `updatedInput`;
  PermissionRequest `decision.behavior` (deny blocks with `message`; no
  `decision` at all throws, and the whole event reads as nothing decided);
  `additionalContext` from any. exit 0 and plain stdout (no hookSpecificOutput) is
  context at UserPromptSubmit and SessionStart. `continue`, `stopReason`,
  `suppressOutput`, `systemMessage` and `decision: approve` are not read.
- Matching hooks run in parallel; their answers combine in config order: any block
  blocks, the last permissionDecision and updatedInput win (an ask, then an allow:
  allow); the reason is the last hookSpecificOutput deny's, else the first block's
  (continue_cli/merge.py).
"""

from __future__ import annotations

from hooktui.tap.base import jsonio
from hooktui.tap.canonical import Call, Outcome, Verdict
from hooktui.tap.runtimes.base import as_dict, cannot, failure, json_line, text_of
from hooktui.tap.runtimes.claude_code import parse_pascal, request_pascal
from hooktui.tap.runtimes.claude_code.events import details_of
from hooktui.tap.runtimes.descriptor import Layout, Runtime, TimeoutRule, Timeouts
from hooktui.tap.runtimes.merge import HookSource, MergeRule, SettingsReading

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see record/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

# HOOK_EVENT_NAMES of 1.5.47 (src/hooks/types.ts).
EVENTS = {
    "PreToolUse": "pre_tool_use",
    "PostToolUse": "post_tool_use",
    "PostToolUseFailure": "post_tool_use",
    "PermissionRequest": "permission_request",
    "UserPromptSubmit": "user_prompt",
    "SessionStart": "session",
    "SessionEnd": "session",
    "Stop": "stop",
    "Notification": "notification",
    "SubagentStart": "session",
    "SubagentStop": "stop",
    "PreCompact": "other",
    "ConfigChange": "other",
    "TeammateIdle": "stop",
    "TaskCompleted": "stop",
    "WorktreeCreate": "other",
    "WorktreeRemove": "other",
}
_TEXT_IS_CONTEXT = frozenset({"UserPromptSubmit", "SessionStart"})
_TITLE = "Continue CLI"
_BLOCKED = "Blocked by hook"  # its reason when the hook gives none


class ContinueCli(Runtime):
    def combine(self, answers: Any, native_event: str = "") -> Any:
        from hooktui.tap.runtimes.continue_cli import merge  # readers only

        return merge.combine(answers, self.merge)

    def detect(self, request: Any) -> bool:
        # Claude's shape with an empty transcript_path ("We don't have a transcript file
        # like Claude Code", fireHook.ts): Claude Code always names its transcript.
        r = as_dict(request)
        return (
            r.get("hook_event_name") in self.events
            and r.get("transcript_path") == ""
            and "timestamp" not in r
        )

    def could_send(self, request: Any) -> bool:
        # Named by the environment: a Claude-named payload without a timestamp whose
        # transcript_path is empty (a Claude Code started inside its hook sends a real one).
        r = as_dict(request)
        return (
            r.get("hook_event_name") in self.events
            and "timestamp" not in r
            and not r.get("transcript_path")
        )

    def parse(self, request: Any) -> Call:
        call = parse_pascal(self, request)
        call.details = details_of(request)
        return call

    def request_for(self, call: Call) -> dict[str, Any]:
        request = request_pascal(call, transcript_path="", permission_mode="default")
        return {k: request[k] for k in _ORDER if k in request}

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        if outcome.spawn_error:
            return failure(
                "spawn_error",
                f"the hook could not be started ({outcome.spawn_error}): {_TITLE} reads "
                "exit 1, which blocks nothing",
            )
        if outcome.timed_out:  # execFile's kill closes the pipes: what came after is lost
            return failure(
                "timeout",
                f"the hook ran past its timeout: {_TITLE} stopped reading it and took "
                "`code ?? 0`, a clean exit with no answer; the action proceeds",
            )
        killed = _killed(outcome)
        code = 0 if killed else outcome.exit_code
        obj = _object(text_of(outcome.stdout))
        verdict = _read(call, code, obj, text_of(outcome.stderr), text_of(outcome.stdout))
        if killed and verdict.decision == "allow" and not verdict.context:
            return failure(
                "signal", f"{killed}: {_TITLE} reads `code ?? 0`, a clean exit; proceeds"
            )
        if killed and verdict.decision != "failure":
            verdict.failure_detail = f"{killed}: {_TITLE} read what it printed, as an exit 0"
        return verdict

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        native = call.native_event or "PreToolUse"
        d = verdict.decision
        context = {"additionalContext": verdict.context} if verdict.context else {}
        if d == "allow" and not context:
            return b"", b"", 0
        if native == "PreToolUse" and d in ("allow", "deny", "ask", "modify"):
            hso: dict[str, Any] = {"hookEventName": "PreToolUse", **context}
            if d != "modify":
                hso["permissionDecision"] = d
            if verdict.reason and d != "modify":
                hso["permissionDecisionReason"] = verdict.reason
            if d == "modify":
                hso["updatedInput"] = verdict.updated_input
            return json_line({"hookSpecificOutput": hso}), b"", 0
        if d == "deny":
            return json_line({"decision": "block", "reason": verdict.reason or _BLOCKED}), b"", 0
        if d == "allow" and native in _CONTEXT_EVENTS:
            return json_line({"hookSpecificOutput": {"hookEventName": native, **context}}), b"", 0
        if d == "failure" and verdict.failure == "exit_code":
            return b"", (verdict.failure_detail or "hook error").encode() + b"\n", 1
        raise cannot(self.name, verdict, native)


# The key order of its requests (fireHook.ts: the common fields, then the event's).
_ORDER = (
    "session_id",
    "transcript_path",
    "cwd",
    "permission_mode",
    "hook_event_name",
    "tool_name",
    "tool_input",
    "tool_response",
    "tool_use_id",
    "prompt",
)
# Events whose hookSpecificOutput it reads context from (HookSpecificOutput's members).
_CONTEXT_EVENTS = frozenset(
    {
        "PreToolUse",
        "UserPromptSubmit",
        "SessionStart",
        "PostToolUse",
        "PostToolUseFailure",
        "Notification",
        "SubagentStart",
    }
)


def _killed(outcome: Outcome) -> str:
    """How the hook was stopped ("" when it exited on its own)."""
    if outcome.signal is not None or outcome.exit_code is None:
        return f"the hook was killed by signal {outcome.signal}"
    return ""


def _object(stdout: str) -> dict | None:
    """tryParseJson: text that starts with `{` and parses; anything else is no output."""
    if not stdout.startswith("{"):
        return None
    try:
        value = jsonio.loads(stdout)
    except jsonio.NotJSON:
        return None
    return value if isinstance(value, dict) else None


def _truthy(value: Any) -> bool:
    return value not in (None, False, 0, "") and value == value  # JS truthiness (NaN aside)


def _read(call: Call, code: int | None, obj: dict | None, stderr: str, stdout: str) -> Verdict:
    """One hook's result as Continue's runner (executeCommandHook) and its aggregation
    (aggregateResults) read it."""
    obj = obj or {}
    hso = obj.get("hookSpecificOutput")
    if _truthy(hso) and not isinstance(hso, dict | list):
        return failure(  # `"additionalContext" in hso` throws on a string, number or true
            "unsupported",
            f"hookSpecificOutput is a {type(hso).__name__}: {_TITLE}'s runner throws and "
            "the whole event reads as nothing decided (a block too); the action proceeds",
        )
    hso = hso if isinstance(hso, dict) else None
    context = ""
    if hso is not None:
        if _truthy(hso.get("additionalContext")):
            context = _text(hso["additionalContext"])
    elif code == 0 and stdout and call.native_event in _TEXT_IS_CONTEXT:
        context = stdout
    reason = ""  # executeCommandHook's blockReason
    if code == 2:
        reason = stderr or _BLOCKED
    elif obj.get("decision") == "block":
        reason = _text(obj.get("reason")) or stderr or _BLOCKED
    named = hso.get("hookEventName") if hso is not None else None
    decision, updated = "", None
    if named == "PreToolUse":
        decision = hso.get("permissionDecision") if _truthy(hso.get("permissionDecision")) else ""
        if decision == "deny":  # its reason replaces the exit's
            reason = _text(hso.get("permissionDecisionReason")) or _text(obj.get("reason"))
            reason = reason or _BLOCKED
        if _truthy(hso.get("updatedInput")):
            updated = hso["updatedInput"]
    elif named == "PermissionRequest":
        dec = hso.get("decision")
        if dec is None:  # `specific.decision.behavior` throws
            return failure(
                "unsupported",
                f"PermissionRequest answer without a decision: {_TITLE}'s runner throws and "
                "the whole event reads as nothing decided; the action proceeds",
            )
        behavior = dec.get("behavior") if isinstance(dec, dict) else None
        if behavior == "deny":
            reason = (_text(dec.get("message")) or "Denied by hook") if not reason else reason
        elif behavior == "allow" and not reason:
            if isinstance(dec.get("updatedInput"), dict):
                return Verdict(decision="modify", updated_input=dec["updatedInput"])
            return Verdict(decision="allow")
    if reason:
        return Verdict(decision="deny", reason=reason, context=context)
    if decision == "ask":
        return Verdict(decision="ask", reason=_text(hso.get("permissionDecisionReason")))
    if updated is not None:
        return Verdict(decision="modify", updated_input=updated, context=context)
    if code not in (0, None) and decision != "allow":
        verdict = failure("exit_code", f"exit {code}: {_TITLE} blocks nothing for it")
        verdict.context = context
        return verdict
    return Verdict(decision="allow", context=context)


def _text(value: Any) -> str:
    if not _truthy(value):
        return ""
    return value if isinstance(value, str) else jsonio.dumps(value).decode()


RUNTIME = ContinueCli(
    name="continue-cli",
    title=_TITLE,
    short="continue",
    priority=80,  # named by its environment only; before Claude Code, whose payloads it sends
    events=EVENTS,
    guards=frozenset({"PreToolUse", "PermissionRequest", "UserPromptSubmit", "Stop"}),
    project_dir_env="CONTINUE_PROJECT_DIR",
    env_vars=("CONTINUE_PROJECT_DIR", "CLAUDE_PROJECT_DIR"),
    caller_env=("CONTINUE_PROJECT_DIR",),
    guest_of=("claude-code",),  # it runs `.claude/settings.json` too
    # hookRunner.ts: 600 s for a command, 30 s for an http hook (seconds in settings).
    timeouts=Timeouts(
        default_ms=600_000,
        unit_ms=1000,
        rules=(TimeoutRule(handler_type="http", ms=30_000),),
    ),
    # Its own files (hooks in `.claude/settings*.json` are claude-code's to install; one
    # wrapped line serves both, and the record names the runtime that called).
    settings=Layout(
        project_files=(".continue/settings.json", ".continue/settings.local.json"),
        user_dir=".continue",
        user_dir_env="CONTINUE_GLOBAL_DIR",
        user_files=("settings.json",),
        handler_types=("command", "http", "prompt", "agent"),
        async_key="async",
        shell="sh",  # /bin/sh -c <command> (hookRunner.ts)
        after_install=(
            "Continue CLI 1.5.47 loads these hooks but does not run them yet; hooks in "
            ".claude/settings.json: `hooktui install claude-code` (the record names "
            "Continue when Continue runs them)"
        ),
    ),
    prompt_keys=("prompt",),
    output_keys=("tool_response", "last_assistant_message"),
    command_keys=("command",),
    path_keys=("file_path", "filepath", "path"),
    shell_tool="Bash",
    read_tool="Read",
    # Several hooks on one call (hookRunner.ts of 1.5.47, driven as its hook service
    # drives it: tests/e2e/test_e2e_continue.py): all start at once, identical
    # handlers (`type:command`, `type:http`) once; Promise.all keeps config order, any
    # block blocks, and the permissionDecision and updatedInput passed on are the last
    # in that order, not the last to finish; the reason: merge.py.
    merge=MergeRule(
        runs="parallel",
        order="~/.claude, ~/.continue, then the project's .claude, .continue, then their "
        "settings.local.json (hooks appended, all run)",
        precedence=("deny", "ask", "allow"),
        rewrite="last_in_order",
        reason="first_in_order",
        dedup="command",
        quirk="between an ask and an allow, the last permissionDecision in configured order "
        "is passed on; the last deny given in hookSpecificOutput gives the reason",
        basis="1.5.47: its shipped hookRunner.ts, two hooks on one call "
        "(tests/e2e/test_e2e_continue.py, 2026-12-07)",
        unknown="",
    ),
    # hookConfig.ts (getSettingsFilePaths), lowest to highest; the .claude files are
    # Claude Code's layout, which Continue reads as its own.
    hook_sources=(
        HookSource(scope="guest", base="home", path=".claude/settings.json", layout="claude-code"),
        HookSource(scope="user", base="user", path="settings.json"),
        HookSource(scope="guest", path=".claude/settings.json", layout="claude-code"),
        HookSource(scope="project", path=".continue/settings.json"),
        HookSource(scope="guest", path=".claude/settings.local.json", layout="claude-code"),
        HookSource(scope="local", path=".continue/settings.local.json"),
    ),
    # hookConfig.ts and hookRunner.ts of 1.5.47: a file that is not JSON is skipped
    # with a warning; no schema check (an unknown handler type is skipped when it
    # would run); a matcher is a JavaScript RegExp tested against the tool name, one
    # that cannot compile never fires; `disableAllHooks` in any file turns all off.
    reading=SettingsReading(
        bad_file="ignores the file",
        bad_hook="skips that hook",
        unknown_event="skips that event",
        matcher="regex",
        bad_matcher="never fires",
        basis="1.5.47's shipped hookConfig.ts and hookRunner.ts",
    ),
)

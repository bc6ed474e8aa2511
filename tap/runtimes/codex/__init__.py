"""Codex CLI: Claude's wire format, read much more strictly.

Rules, from codex-rs/hooks (events/pre_tool_use.rs, engine/output_parser.rs) and
what the real 0.171 runtime did (PROTOCOLS.md, RUNTIMES-E2E.md; the runtime wins):
- exit 0, empty or plain-text stdout (not starting with `{`/`[`): no decision, the
  tool runs (plain text is context at UserPromptSubmit/SessionStart). Text that
  looks like JSON but does not parse as the event's output: a failed hook.
- PreToolUse: `permissionDecision: "deny"` + non-empty reason, or legacy
  `decision: "block"` + non-empty reason, blocks. `allow` + `updatedInput`
  rewrites (the new input carries `command`). `allow` alone, `ask`, `defer`,
  `decision: "approve"`, updatedInput without allow, a reason without a decision,
  `continue: false`, `stopReason`, `suppressOutput`: each a failed hook, the tool
  runs. Unknown shapes (e.g. Gemini-style `decision: "allow"`) fail too.
- exit 2: blocks with stderr as the reason; exit 2 with empty stderr fails.
  Any other exit, a signal or a timeout: a failed hook, the tool runs.
- hookSpecificOutput needs a hookEventName Codex knows (any of its events, not
  necessarily this one: pinned); without one the output does not parse, a
  failed hook whose context is dropped.
- PostToolUse: `decision: "block"` + reason (or exit 2 + stderr) replaces the
  result with the reason (= deny after the call); `updatedMCPToolOutput` and
  `updatedToolOutput` are parsed but unsupported (fail open).
- UserPromptSubmit / Stop: `decision: "block"` needs a non-empty reason.
- PermissionRequest: `decision.behavior` allow|deny; updatedInput,
  updatedPermissions and interrupt are unsupported.
- Every event's answer schema (embedded in the 0.171 binary) rejects fields it
  does not name: Stop/SubagentStop take `decision: "block"` + reason (the reason
  is the model's next prompt: the turn goes on) but no hookSpecificOutput;
  SessionStart/SubagentStart take hookSpecificOutput.additionalContext but no
  decision; PreCompact/PostCompact only the universal fields (so a PreCompact
  block is a failed hook and compaction happens: pinned); Interrupt only
  `systemMessage`, and non-JSON stdout there is an error. SessionEnd's answer is
  not read. Exit 2 blocks only where Codex reads a reason from stderr (tool
  events, PermissionRequest, UserPromptSubmit, Stop, SubagentStop); elsewhere it
  is a failed hook like any other exit.
- SessionEnd and Interrupt hooks get at most 3 s (Codex clamps a longer timeout
  and says so).
"""

from __future__ import annotations

from hooktui.tap.canonical import Call, Outcome, Verdict
from hooktui.tap.runtimes.base import (
    Stdout,
    failure,
    halt,
    is_pascal_name,
    process_failure,
    str_field,
    text_of,
)
from hooktui.tap.runtimes.claude_code import parse_pascal, request_pascal
from hooktui.tap.runtimes.codex.encode import encode
from hooktui.tap.runtimes.descriptor import Layout, Runtime, TimeoutRule, Timeouts
from hooktui.tap.runtimes.merge import HookSource, MergeRule, SettingsReading

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

_UNIVERSAL = {"continue", "stopReason", "suppressOutput", "systemMessage"}
_DECISION = {"decision", "reason"}
_HSO = {"hookSpecificOutput"}
# The top-level fields each event's answer may hold (the output schemas of 0.171).
_KEYS = {
    "PreToolUse": _UNIVERSAL | _DECISION | _HSO,
    "PermissionRequest": _UNIVERSAL | _DECISION | _HSO,
    "PostToolUse": _UNIVERSAL | _DECISION | _HSO,
    "UserPromptSubmit": _UNIVERSAL | _DECISION | _HSO,
    "SessionStart": _UNIVERSAL | _HSO,
    "SubagentStart": _UNIVERSAL | _HSO,
    "Stop": _UNIVERSAL | _DECISION,
    "SubagentStop": _UNIVERSAL | _DECISION,
    "PreCompact": _UNIVERSAL,
    "PostCompact": _UNIVERSAL,
    "Interrupt": {"systemMessage"},
}
# Where exit 2 blocks with stderr as the reason (elsewhere: a failed hook).
_EXIT2_BLOCKS = {
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "UserPromptSubmit",
    "Stop",
    "SubagentStop",
}
# What a SessionStart request's `source` may say (0.171's input schema).
SESSION_SOURCES = ("startup", "resume", "clear", "compact", "fork")
_TEXT_IS_CONTEXT = {"UserPromptSubmit", "SessionStart"}
# The event names Codex 0.171 knows, and what each is. hookSpecificOutput.hookEventName
# must be one of them, though not necessarily this event's (pinned against the real
# Codex 0.171.0: "AfterTool" fails the output, "PreToolUse" in a PostToolUse answer is read).
EVENTS = {
    "PreToolUse": "pre_tool_use",
    "PermissionRequest": "permission_request",
    "PostToolUse": "post_tool_use",
    "PreCompact": "other",
    "PostCompact": "other",
    "SessionStart": "session",
    "SessionEnd": "session",
    "UserPromptSubmit": "user_prompt",
    "SubagentStart": "session",
    "SubagentStop": "stop",
    "Stop": "stop",
    "Interrupt": "other",
}
_EVENT_NAMES = set(EVENTS)


def _failed(why: str) -> Verdict:
    return failure("unsupported", f"{why}; Codex counts the hook as failed and goes on")


# The fields each event's hookSpecificOutput may hold: Codex refuses any other
# (pinned against the real Codex 0.171.0: PreToolUse's permissionDecision in a
# PostToolUse answer drops the answer, context included). updatedToolOutput is
# left to the PostToolUse reading, which names it as unsupported.
_HSO_FIELDS = {
    "PreToolUse": {
        "hookEventName",
        "permissionDecision",
        "permissionDecisionReason",
        "updatedInput",
        "additionalContext",
    },
    "PostToolUse": {
        "hookEventName",
        "additionalContext",
        "updatedMCPToolOutput",
        "updatedToolOutput",
    },
    "PermissionRequest": {"hookEventName", "decision"},
    "UserPromptSubmit": {"hookEventName", "additionalContext"},
    "SessionStart": {"hookEventName", "additionalContext"},
    "SubagentStart": {"hookEventName", "additionalContext"},
}


def _invalid_hso(native: str, hso: dict) -> str:
    """Why Codex cannot parse this hookSpecificOutput, or "" when it can."""
    allowed = _HSO_FIELDS.get(native)
    unknown = sorted(set(hso) - allowed) if allowed else []
    if unknown:
        return f"hookSpecificOutput field(s) {', '.join(unknown)} are not {native}'s"
    name = hso.get("hookEventName")
    if name is None:
        return 'hookSpecificOutput has no "hookEventName"'
    if name not in _EVENT_NAMES:
        return f"hookEventName {name!r} is not a Codex event"
    if "additionalContext" in hso and not isinstance(hso["additionalContext"], str):
        return "additionalContext is not a string"
    return ""


class Codex(Runtime):
    def detect(self, request: Any) -> bool:
        return (
            isinstance(request, dict)
            and is_pascal_name(request.get("hook_event_name"))
            and ("turn_id" in request or "model" in request)
        )

    def parse(self, request: Any) -> Call:
        return parse_pascal(self, request)

    def request_for(self, call: Call) -> dict[str, Any]:
        return request_pascal(
            call, transcript_path=None, model="gpt-5-codex", turn_id=f"turn-{call.tool_call_id}"
        )

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        native = call.native_event
        crashed = process_failure(outcome, self.title, "proceeds", "a failed hook, Codex goes on")
        if crashed:
            return crashed
        code = outcome.exit_code
        if code == 2 and native in _EXIT2_BLOCKS:
            reason = text_of(outcome.stderr)
            if reason:
                return Verdict(decision="deny", reason=reason)
            return failure(
                "exit_code",
                f"exit 2 without a reason on stderr: Codex counts {native or 'the'} hook as "
                "failed and goes on",
            )
        if code != 0:
            return failure("exit_code", f"exit {code}: Codex counts the hook as failed and goes on")
        if native == "SessionEnd":
            return Verdict(decision="allow")  # Codex reads no answer from SessionEnd hooks
        out = Stdout(outcome.stdout)
        if out.kind == "empty":
            return Verdict(decision="allow")
        obj = out.obj
        if obj is None:
            return self._text(native, out.text)
        unknown = sorted(set(obj) - _KEYS.get(native, _UNIVERSAL | _DECISION | _HSO))
        if unknown:
            return _failed(f"{native or 'the'} answer has field(s) {', '.join(unknown)}")
        hso = obj.get("hookSpecificOutput")
        if hso is not None and not isinstance(hso, dict):
            return _failed("hookSpecificOutput is not an object")
        hso = hso or {}
        problem = _invalid_hso(native, hso) if "hookSpecificOutput" in obj else ""
        if problem:
            return failure(
                "invalid_json",
                f"{problem}: not a valid {native or 'hook'} output; Codex counts the hook as "
                "failed, drops the whole answer and the tool runs",
            )
        context = hso.get("additionalContext")
        context = context if isinstance(context, str) else ""
        decision = obj.get("decision")
        decisions = ("approve", "block") if native == "PreToolUse" else ("block",)
        if decision is not None and decision not in decisions:
            return failure(
                "invalid_json",
                f"decision {decision!r} is not {' or '.join(decisions)}: not a valid Codex hook "
                "output; the hook counts as failed and the tool runs",
            )
        reason = str_field(obj, "reason").strip()

        if native == "PreToolUse":
            return self._pre(obj, hso, decision, reason, context)
        if native == "PermissionRequest":
            return self._permission(obj, hso)
        if obj.get("suppressOutput") is True and native == "PostToolUse":
            return _failed("PostToolUse returned unsupported suppressOutput")
        if decision == "block":
            if not reason:
                return _failed(f"{native} returned decision:block without a non-empty reason")
            return Verdict(decision="deny", reason=reason, context=context)
        if native == "PostToolUse":
            if "reason" in obj and obj.get("continue", True) is not False:
                return _failed("PostToolUse returned reason without decision")
            for key in ("updatedMCPToolOutput", "updatedToolOutput"):
                if key in hso:
                    return _failed(f"PostToolUse returned unsupported {key}")
        if obj.get("continue") is False:
            return halt(call, str_field(obj, "stopReason") or "continue: false", context)
        return Verdict(decision="allow", context=context)

    def _text(self, native: str, text: str) -> Verdict:
        """Stdout that is not a JSON object."""
        if text[0] in "{[" or native == "Interrupt":  # Interrupt: any non-JSON is an error
            return failure(
                "invalid_json",
                f"stdout is not a valid {native or 'hook'} output (JSON object); "
                "Codex counts the hook as failed and goes on",
            )
        if native in _TEXT_IS_CONTEXT:
            return Verdict(decision="allow", context=text)
        return Verdict(decision="allow")

    def _pre(self, obj: dict, hso: dict, decision: Any, reason: str, context: str) -> Verdict:
        if obj.get("continue") is False:
            return _failed("PreToolUse returned unsupported continue:false")
        if "stopReason" in obj:
            return _failed("PreToolUse returned unsupported stopReason")
        if obj.get("suppressOutput") is True:
            return _failed("PreToolUse returned unsupported suppressOutput")
        pd = hso.get("permissionDecision")
        pd_reason = str_field(hso, "permissionDecisionReason").strip()
        updated = hso.get("updatedInput")
        if pd is not None or "permissionDecisionReason" in hso or "updatedInput" in hso:
            if updated is not None and pd != "allow":
                return _failed("PreToolUse returned updatedInput without permissionDecision:allow")
            if pd == "allow":
                if updated is None:
                    return _failed("PreToolUse returned unsupported permissionDecision:allow")
                return Verdict(decision="modify", context=context, updated_input=updated)
            if pd == "deny":
                if not pd_reason:
                    return _failed("permissionDecision:deny without a non-empty reason")
                return Verdict(decision="deny", reason=pd_reason, context=context)
            if pd is None:
                return _failed("permissionDecisionReason without permissionDecision")
            return _failed(f"PreToolUse returned unsupported permissionDecision:{pd}")
        if decision == "approve":
            return _failed("PreToolUse returned unsupported decision:approve")
        if decision == "block":
            if not reason:
                return _failed("PreToolUse returned decision:block without a non-empty reason")
            return Verdict(decision="deny", reason=reason, context=context)
        if "reason" in obj:
            return _failed("PreToolUse returned reason without decision")
        return Verdict(decision="allow", context=context)

    def _permission(self, obj: dict, hso: dict) -> Verdict:
        if obj.get("continue") is False:
            return _failed("PermissionRequest returned unsupported continue:false")
        dec = hso.get("decision")
        if dec is None:
            return Verdict(decision="ask")  # no decision: the approval flow goes on as usual
        if not isinstance(dec, dict):
            return _failed("PermissionRequest decision is not an object")
        for key in ("updatedInput", "updatedPermissions"):
            if key in dec:
                return _failed(f"PermissionRequest returned unsupported {key}")
        if dec.get("interrupt") is True:
            return _failed("PermissionRequest returned unsupported interrupt:true")
        behavior = dec.get("behavior")
        if behavior == "allow":
            return Verdict(decision="allow")
        if behavior == "deny":
            message = str_field(dec, "message").strip()
            return Verdict(
                decision="deny", reason=message or "PermissionRequest hook denied approval"
            )
        return _failed(f"PermissionRequest behavior {behavior!r} is not allow or deny")

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        return encode(self.name, call, verdict)


RUNTIME = Codex(
    name="codex",
    title="Codex",
    priority=40,  # PreToolUse-shaped with turn_id/model
    events=EVENTS,
    guards=frozenset({"PreToolUse", "PermissionRequest"}),
    # CODEX_HOME locates config and hooks; CODEX_THREAD_ID names the session for
    # the commands Codex spawns; CODEX_ENV_FILE (CLAUDE_ENV_FILE alias) is given to
    # SessionStart hooks only (openai/codex PR 24805).
    env_vars=("CODEX_HOME", "CODEX_THREAD_ID", "CODEX_ENV_FILE", "CLAUDE_ENV_FILE"),
    caller_env=("CODEX_MANAGED_BY_NPM",),  # npm installs only (ORACLE.md)
    timeouts=Timeouts(
        default_ms=600_000,
        unit_ms=1000,
        # Codex lowers these to 3 s whatever the settings say ("clamping SessionEnd hook
        # timeout to 3s", seen on 0.171.0).
        rules=(
            TimeoutRule(event="SessionEnd", ms=3000, clamps=True),
            TimeoutRule(event="Interrupt", ms=3000, clamps=True),
        ),
    ),
    settings=Layout(
        project_files=(".codex/hooks.json", ".codex/config.toml"),
        user_dir=".codex",
        user_dir_env="CODEX_HOME",
        user_files=("hooks.json", "config.toml"),
        formats=("json", "toml"),
        file_formats={"hooks.json": "json", "config.toml": "toml"},
        async_key="async",
        # codex-rs hooks: HookHandlerConfig (the config.toml `type`), 0.171.
        handler_types=("command", "prompt", "agent", "mcp_tool"),
        shell="the user's login shell",  # seen: /bin/bash -c <command> (root's shell)
        login_shell=True,  # `$SHELL -lc <command>` (codex-rs hooks, command_runner.rs)
        after_install=(
            "Codex trusts hooks by their definition, and wrapping changed them: re-approve "
            "the hooks in Codex (or run `codex exec --dangerously-bypass-hook-trust` in tests)"
        ),
    ),
    prompt_keys=("prompt",),
    output_keys=("tool_response", "last_assistant_message"),
    command_keys=("command", "cmd"),
    path_keys=("path",),
    shell_tool="Bash",
    read_tool="Bash",
    # Several hooks on one call (codex-rs hooks/src/events/pre_tool_use.rs, and the real
    # 0.171: tests/e2e/test_e2e_merge.py): all at once; any block blocks, with the first
    # block reason in configured order; else the updatedInput of the hook that
    # completed last (not the last configured).
    merge=MergeRule(
        runs="parallel",
        order="user layer ($CODEX_HOME), then the project's, hooks.json before config.toml",
        precedence=("deny", "allow"),
        rewrite="last_finished",
        reason="first_in_order",
        basis="openai/codex hooks/src/events/pre_tool_use.rs (latest_updated_input: "
        "completion order) and the real 0.171 with two hooks on one call (2026-12-07)",
        unknown="",
    ),
    hook_sources=(
        HookSource(scope="user", base="user", path="hooks.json"),
        HookSource(scope="user", base="user", path="config.toml"),
        HookSource(scope="project", path=".codex/hooks.json", needs="a trusted project"),
        HookSource(scope="project", path=".codex/config.toml", needs="a trusted project"),
    ),
    # Seen in 0.171 (2026-12-07): a hooks.json that is not JSON, or with a command hook
    # without its command, runs none of its hooks; an unknown event is skipped.
    reading=SettingsReading(
        bad_file="ignores the file",
        bad_hook="ignores every hook of the file",
        bad_hook_file=True,
        unknown_event="skips that event",
        matcher="claude",
        bad_matcher="never fires",
        basis="0.171's real CLI (tests/e2e/test_e2e_inventory.py)",
    ),
)

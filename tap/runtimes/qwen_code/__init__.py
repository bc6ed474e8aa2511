"""Qwen Code: Claude's event names and answers, plus `timestamp`; exit 2 reads stderr.

Rules, from what the real 0.24.4 did (tests/e2e/ORACLE.md, test_e2e_qwen.py;
the runtime wins over PROTOCOLS.md where they differ):
- Requests are Claude-shaped plus an ISO `timestamp`, `permission_mode` on every
  event, `prompt_id` (`<session>########<n>`), and at tool events the model's
  `tool_call_id` beside Qwen's own `tool_use_id`.
- exit 2 blocks with stderr as the reason: stderr that is a JSON answer gives its
  reason, any other text is the reason itself. stdout is not read on exit 2 (a
  JSON allow there does not help). exit 2 with nothing on stderr does NOT block.
- Otherwise Qwen reads stdout, or stderr when stdout is empty (exit 0 or 1
  with a deny on stderr alone blocks); a JSON string holding JSON is read once
  more. JSON is read whatever the exit code (2 aside): exit 1 with a deny
  blocks. Any other non-zero exit, a crash, a timeout: Qwen's
  `non_blocking_error`, the action proceeds, and nothing reaches the user or the
  model in `-p` (text or `-o json`; its "Warning: <text>" goes to a debug log
  only). Exit 1 with JSON that decides nothing (`{"continue": true}`) or only
  allows stays that error: a failure, not an allow.
- Plain text and empty are no answer (allow); text starting with `{` that is
  not JSON is a non-blocking error whatever the exit (the action proceeds).
- JSON: PreToolUse `hookSpecificOutput.permissionDecision` allow|deny|ask with
  `permissionDecisionReason`, or a flat `decision: ask` (headless: refused with
  `reason`); a flat `permissionDecision` is not read. There is
  NO PreToolUse rewrite: `updatedInput` is ignored and the tool runs as asked.
  Legacy `decision: block|deny` blocks with `reason`. A deny or ask comes before
  `continue: false`, with its own reason (permissionDecisionReason, reason, then
  stopReason); else `continue: false` blocks the call (an allow's too) with
  `stopReason` or `reason`, and the agent goes on (elsewhere it stops the agent);
  none: "No reason provided". PreToolUse `additionalContext` reaches nothing, not
  the model whatever the decision or exit: no context in the record, a note.
  PostToolUse: `additionalContext` is appended to the output; `decision: block`
  and exit 2 change nothing. PermissionRequest: `hookSpecificOutput.decision`
  {behavior allow|deny, updatedInput, message}; allow + updatedInput rewrites
  the call (the only rewrite Qwen Code has).
- An `http` hook (wrapped by install into a command, qwen_code/http.py) whose POST
  failed (no reply, a non-2xx) or whose reply was not a JSON object: Qwen reads
  `{continue: true}` and the action proceeds. The command answers exactly that,
  and says what went wrong on stderr after `HTTP_FAILED` (Qwen does not read
  stderr beside JSON on stdout, exit 2 aside): the record is a failure that let
  the action through, not an allow.
"""

from __future__ import annotations

import os
import time

from hooktui.tap.base import jsonio
from hooktui.tap.canonical import Call, Outcome, Verdict
from hooktui.tap.runtimes.base import (
    as_dict,
    failure,
    halt,
    is_pascal_name,
    process_failure,
    str_field,
    text_of,
)
from hooktui.tap.runtimes.claude_code import parse_pascal, request_pascal
from hooktui.tap.runtimes.descriptor import HttpHooks, Layout, Runtime, Timeouts
from hooktui.tap.runtimes.merge import HookSource, MergeRule, SettingsReading
from hooktui.tap.runtimes.qwen_code.words import HTTP_FAILED, NON_BLOCKING

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
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
    "SessionDelete": "session",
    "SubagentStart": "session",
    "Notification": "notification",
    "MessageDisplay": "other",
    "InstructionsLoaded": "other",
    "PreCompact": "other",
    "PostCompact": "other",
    "TodoCreated": "other",
    "TodoCompleted": "other",
}
_PERMISSION = {"allow": "allow", "deny": "deny", "ask": "ask"}
_LEGACY_DENY = {"block", "deny"}
_TITLE = "Qwen Code"
_NO_REASON = "No reason provided"  # what the model reads when the answer gives none (seen)


class QwenTimeouts(Timeouts):
    """Seconds in settings, but a value of 1000 or more is read as legacy milliseconds."""

    def from_settings(self, value: Any) -> int | None:
        if isinstance(value, int | float) and not isinstance(value, bool) and value >= 1000:
            return Timeouts(unit_ms=1).from_settings(value)
        return super().from_settings(value)


def _reason_of(obj: dict) -> str:
    hso = obj.get("hookSpecificOutput")
    hso = hso if isinstance(hso, dict) else {}
    return (
        str_field(hso, "permissionDecisionReason")
        or str_field(obj, "reason")
        or str_field(obj, "stopReason")
    )


class QwenCode(Runtime):
    def combine(self, answers: Any, native_event: str = "") -> Any:
        from hooktui.tap.runtimes.qwen_code import merge  # readers only

        return merge.combine(answers, self.merge, native_event)

    # Its http hooks: qwen_code/http.py (loaded only by the http hook command and install).
    def http_answer(
        self, status: int | None, body: bytes, error: str, content_type: str = "", request=b""
    ) -> tuple[bytes, bytes, int]:
        from hooktui.tap.runtimes.qwen_code import http

        return http.answer(status, body, error, content_type, request)

    def http_refusal(self, url: str) -> str:
        from hooktui.tap.runtimes.qwen_code import http

        return http.refusal(url)

    def http_problem(self, handler: dict) -> str:
        from hooktui.tap.runtimes.qwen_code import http

        return http.problem(handler)

    def detect(self, request: Any) -> bool:
        # Claude's names with a timestamp (as Gemini CLI, its parent) AND permission_mode
        # (on every event; Gemini and Copilot send none, Claude no timestamp).
        return (
            isinstance(request, dict)
            and is_pascal_name(request.get("hook_event_name"))
            and "timestamp" in request
            and "permission_mode" in request
        )

    def could_send(self, request: Any) -> bool:
        # The environment names Qwen Code: any Claude-named payload with its timestamp
        # (Claude Code's own, which a nested Claude sends, has none).
        return (
            isinstance(request, dict)
            and request.get("hook_event_name") in self.events
            and "timestamp" in request
        )

    def parse(self, request: Any) -> Call:
        call = parse_pascal(self, request)
        r = as_dict(request)
        if isinstance(r.get("tool_call_id"), str) and not call.tool_call_id:
            call.tool_call_id = r["tool_call_id"]
        return call

    def request_for(self, call: Call) -> dict[str, Any]:
        home = os.path.expanduser("~")
        r = request_pascal(
            call,
            transcript_path=f"{home}/.qwen/projects/demo/chats/{call.session_id}.jsonl",
            permission_mode="default",
            timestamp=time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
        )
        if call.tool_name:
            r["prompt_id"] = f"{call.session_id}########0"
            r["tool_call_id"] = call.tool_call_id
        return r

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        native = call.native_event
        crashed = process_failure(outcome, _TITLE, "proceeds", "a warning, the action proceeds")
        if crashed:
            return crashed
        code = outcome.exit_code
        if code == 2:
            return self._exit2(call, outcome)
        # stdout, or stderr when stdout is empty (seen 2026-12-05: an exit 1 or 0 with
        # a deny on stderr alone blocks); JSON is read whatever the exit code (2 aside).
        where, text = "stdout", text_of(outcome.stdout)
        if not text:
            where, text = "stderr", text_of(outcome.stderr)
        obj = _object(text)
        if obj is not None:
            return self._judge_json(call, obj, _http_failed(call, outcome) or _erred(call, code))
        goes = f"{native or 'the action'} proceeds"
        if native == "PreToolUse":
            goes += " (nothing shown in -p, seen)"
        if text.startswith("{"):  # before the exit code, as Qwen's runner
            return failure(
                "invalid_json",
                f"{where} starts with `{{` but is not JSON: {_TITLE} counts a non-blocking "
                f"error and {goes}",
            )
        if code != 0:
            return failure(
                "exit_code", f"exit {code}: {_TITLE} counts a non-blocking error and {goes}"
            )
        return Verdict(decision="allow")

    def _exit2(self, call: Call, outcome: Outcome) -> Verdict:
        native = call.native_event
        stderr = text_of(outcome.stderr)
        if native in NON_BLOCKING:
            return failure("exit_code", f"exit 2: {native} cannot block; nothing changes")
        if not stderr:
            return failure(
                "exit_code", f"exit 2 with nothing on stderr: {_TITLE} does not block (seen)"
            )
        value = _object(stderr)
        reason = _reason_of(value) if value is not None else ""
        return Verdict(decision="deny", reason=reason or stderr)

    def _judge_json(self, call: Call, obj: dict, failed: Verdict | None = None) -> Verdict:
        """`failed`: the verdict when the answer decides nothing (an http hook whose
        POST failed answers `{continue: true}`, as Qwen reads such a failure)."""
        native = call.native_event
        hso = obj.get("hookSpecificOutput")
        hso = hso if isinstance(hso, dict) else {}
        context = hso.get("additionalContext")
        context = context if isinstance(context, str) else ""
        reason = str_field(obj, "reason")
        if native == "PreToolUse":
            return _pre_tool_use(obj, hso, failed)
        if obj.get("continue") is False:
            return halt(call, str_field(obj, "stopReason") or reason or "continue: false", context)
        if native == "PermissionRequest":
            return _permission(hso)
        if obj.get("decision") in _LEGACY_DENY:
            if native in NON_BLOCKING:
                return Verdict(
                    decision="allow",
                    context=context,
                    failure_detail=f"decision: block at {native}: {_TITLE} changes nothing",
                )
            return Verdict(decision="deny", reason=reason, context=context)
        if failed is not None:
            failed.context = context  # read all the same: the error does not drop it
            return failed
        return Verdict(decision="allow", context=context)

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        from hooktui.tap.runtimes.qwen_code.encode import encode

        return encode(self.name, call, verdict)


def _http_failed(call: Call, outcome: Outcome) -> Verdict | None:
    """The failure the http hook command reports on stderr (None when it reports none)."""
    said = text_of(outcome.stderr)
    if not said.startswith(HTTP_FAILED):
        return None
    what = said[len(HTTP_FAILED) :].splitlines()[0]
    goes = f"{call.native_event or 'the action'} proceeds (fail-open)"
    if outcome.exit_code:  # no reply, a non-2xx: Qwen's own non-blocking error
        return failure(
            "exit_code",
            f"http hook failed: {what}; {_TITLE} reads {{continue: true}}, a non-blocking "
            f"error, and {goes}",
        )
    return failure(  # a 2xx whose body is no JSON object: Qwen takes it for success
        "invalid_json",
        f"http hook reply is no answer: {what}; {_TITLE} reads a success that decides "
        f"nothing, and {goes}",
    )


def _object(text: str) -> dict | None:
    """The JSON object `text` holds, as Qwen reads it: a JSON string is parsed once more."""
    try:
        value = jsonio.loads(text) if text else None
        if isinstance(value, str):
            value = jsonio.loads(value)
    except jsonio.NotJSON:
        return None
    return value if isinstance(value, dict) else None


def _erred(call: Call, code: int | None) -> Verdict | None:
    """A non-zero exit (2 aside) beside JSON that decides nothing: Qwen's runner reads
    the JSON but classes the run a `non_blocking_error` (seen in 0.24.4, nothing shown
    in `-p`), and the action proceeds: a failure, not an allow."""
    if not code:
        return None
    return failure(
        "exit_code",
        f"exit {code} with JSON that decides nothing: {_TITLE} counts a non-blocking "
        f"error and {call.native_event or 'the action'} proceeds",
    )


def _pre_tool_use(obj: dict, hso: dict, failed: Verdict | None) -> Verdict:
    """As Qwen's PreToolUseHookOutput (seen 2026-12-05): a deny or ask (hookSpecificOutput's,
    else a flat decision) first, with its own reason; then `continue: false`, beside an
    allow too; then the allow, which does not undo an error (`failed`)."""
    reason = str_field(obj, "reason")
    stop = str_field(obj, "stopReason")
    pd = hso.get("permissionDecision")
    if pd not in _PERMISSION:
        flat = obj.get("decision")  # a flat ask is read too (seen 2026-12-05)
        pd = "deny" if flat in _LEGACY_DENY else "ask" if flat == "ask" else None
    pd_reason = str_field(hso, "permissionDecisionReason") or reason
    if pd == "deny":
        verdict = Verdict(decision="deny", reason=pd_reason or stop or _NO_REASON)
    elif pd == "ask":
        verdict = Verdict(decision="ask", reason=pd_reason)
    elif obj.get("continue") is False:
        verdict = Verdict(decision="deny", reason=stop or reason or _NO_REASON)
    elif failed is not None:
        return failed
    else:
        verdict = Verdict(decision="allow")
    notes = []
    if "updatedInput" in hso and verdict.decision != "deny":
        notes.append("updatedInput: no PreToolUse rewrite in 0.24.4; the tool runs as asked")
    if isinstance(hso.get("additionalContext"), str):
        notes.append("additionalContext: 0.24.4 passes no PreToolUse context to the model")
    verdict.failure_detail = "; ".join(notes)
    return verdict


def _permission(hso: dict) -> Verdict:
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
    return Verdict(decision="ask")  # no decision: Qwen Code asks as usual


RUNTIME = QwenCode(
    name="qwen-code",
    title=_TITLE,
    short="qwen",
    priority=15,  # before Gemini CLI, which claims Claude names with a timestamp
    events=EVENTS,
    guards=frozenset({"PreToolUse", "PermissionRequest", "UserPromptSubmit", "Stop"}),
    project_dir_env="QWEN_PROJECT_DIR",
    env_vars=(
        "QWEN_PROJECT_DIR",
        "QWEN_CODE_SESSION_ID",
        "QWEN_CODE_PROMPT_ID",
        "QWEN_CODE_AGENT_ID",
        "QWEN_CODE_MODEL",
        "QWEN_CODE_STARTUP_VERSION",
        "GEMINI_PROJECT_DIR",
        "CLAUDE_PROJECT_DIR",
    ),
    version_env=("QWEN_CODE_STARTUP_VERSION",),  # seen: 0.24.4
    caller_env=("QWEN_CODE_CLI",),
    # 60 s for a command hook per PROTOCOLS.md / RUNTIMES-E2E.md: not measured here.
    timeouts=QwenTimeouts(default_ms=60_000, unit_ms=1000),
    settings=Layout(
        project_files=(".qwen/settings.json",),
        user_dir=".qwen",
        user_files=("settings.json",),
        async_key="async",
        handler_types=("command", "http", "function", "prompt"),
        # 0.24.4 (qwen_code/http.py): url and headers interpolate allowedEnvVars, never its
        # own tokens; security.allowedHttpHookUrls / allowPrivateNetworkHooks are its policy.
        http=HttpHooks(
            withheld_env=(
                "QWEN_SERVER_TOKEN",
                "QWEN_DAEMON_TOKEN",
                "QWEN_CODE_EXTERNAL_TOOL_GUARD_TOKEN",
                "QWEN_CODE_PRIVATE_ACP_CAPABILITY",
            ),
            withheld_any_case=True,
            var_pattern=r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?",
            interpolate_url=True,
            policy_keys=("security.allowedHttpHookUrls", "security.allowPrivateNetworkHooks"),
            policy_files=("/etc/qwen-code/settings.json", "~/.qwen/settings.json"),
        ),
        comments=True,  # as Gemini CLI, whose settings loader it kept (not observed here)
        shell="sh",  # not observed: the wrapper runs the original under the shell it got
    ),
    prompt_keys=("prompt", "submitted_prompt"),
    output_keys=("tool_response", "last_assistant_message", "displayed_text"),
    command_keys=("command",),
    path_keys=("file_path", "absolute_path", "path"),
    shell_tool="run_shell_command",
    read_tool="read_file",
    # Several hooks on one call: all at once, answers merged in configured order by
    # qwen_merge.py (its hookAggregator.ts; the real 0.24.4: tests/e2e/test_e2e_merge.py).
    # No PreToolUse rewrite in 0.24.4.
    merge=MergeRule(
        runs="parallel",
        order="project, user, system, extensions (hookRegistry.ts), then file order",
        precedence=("deny", "ask", "allow"),
        rewrite="ignored",
        reason="first_in_order",
        quirk="but the last hook in order to give hookSpecificOutput.permissionDecision "
        "decides, even over another hook's deny",
        dedup="name+command",
        basis="0.24.4: its bundled hookAggregator.ts and its real CLI with two hooks on one "
        "call (2026-12-07): the last permissionDecision in order wins, even over a deny",
        unknown="",
    ),
    hook_sources=(
        HookSource(scope="project", path=".qwen/settings.json"),
        # 0.24.4 reads its sandbox policy from this file first: unparsable, it stops.
        HookSource(
            scope="user",
            base="user",
            path="settings.json",
            bad_file="refuses to start (it reads its sandbox policy there first)",
        ),
        HookSource(scope="managed", base="/", path="/etc/qwen-code/settings.json"),
        HookSource(scope="extension", base="user", path="extensions/*/hooks/hooks.json"),
    ),
    # Seen in 0.24.4 (2026-12-07): a project file that is not JSON runs no hook (a user
    # file stops it at start); an unknown
    # event, a hook without a command or a timeout that is not a number leave the
    # rest running.
    reading=SettingsReading(
        bad_file="ignores the file (and replaces it, keeping a .corrupted copy)",
        bad_hook="skips that hook",
        unknown_event="skips that event",
        matcher="claude",
        bad_matcher="never fires",
        basis="0.24.4's real CLI (tests/e2e/test_e2e_inventory.py)",
    ),
)

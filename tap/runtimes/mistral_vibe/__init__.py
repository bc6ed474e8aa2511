"""Mistral Vibe: `[[hooks]]` in hooks.toml, three points, `strict` fails a hook closed.

Rules, from the harness that runs the hooks in 3.0.3
(`mistralai_vibe_local_harness/vibe/_foreign_hooks.py`) and what the real CLI did
(tests/e2e/ORACLE.md, test_e2e_mistral_vibe.py):
- Hooks are `[[hooks]]` tables (`name`, `type` = pre_tool | post_tool | post_agent,
  `command`, `match`, `timeout` in seconds, default 60, `strict`) in
  `<project>/.vibe/hooks.toml` (a trusted folder only) and `$VIBE_HOME/hooks.toml`
  (`~/.vibe`). The command runs under `/bin/sh -c` in its own process group (a
  timeout kills the group), in the session's cwd, with the app server's
  environment: no variable of Vibe's own beyond the launcher's
  `VIBE_APP_SERVER_BIN`.
- Request: `hook_event_name`, `session_id`, `transcript_path`, `cwd`,
  `parent_session_id`; tool points add `tool_name` (qualified:
  `file_system.bash`), `tool_call_id`, `tool_input` (author-facing names:
  `timeout`, `file_path`); post_tool adds `tool_status` success|failure,
  `tool_output` (structured, null on failure), `tool_output_text`, `tool_error`,
  `duration_ms` (always 0); post_agent `agent_name`.
- Only exit 0 is an answer: empty stdout lets the call through; a JSON object is
  read; anything else (text, broken JSON, a scalar, an array) is a failure, as
  are a non-zero exit (exit 2 too: stderr is never read as an answer), a timeout
  and a spawn error. A failure lets the action through (a warning) unless the
  hook is `strict`: then pre_tool denies with the failure as the reason and
  post_tool blanks the tool's result. post_agent always accepts on failure.
- `decision: "deny"` (any other decision, or none, allows): pre_tool refuses the
  call, `reason` (default "Blocked by a pre_tool hook.") is the tool's error;
  post_tool replaces the result with the reason (+ `additional_context`);
  post_agent asks the agent to revise its turn (at most 3 times a turn).
  `hook_specific_output.tool_input` (an object) rewrites a pre_tool call whole;
  `hook_specific_output.additional_context` is appended to a post_tool result;
  `system_message` is a note for the user.
"""

from __future__ import annotations

from hooktui.tap.canonical import Call, Outcome, Verdict
from hooktui.tap.runtimes.base import (
    Stdout,
    as_dict,
    cannot,
    encode_generic_failure,
    failure,
    json_line,
    native_of,
    process_failure,
    s,
    str_field,
    text_of,
)
from hooktui.tap.runtimes.descriptor import Layout, Runtime, Timeouts
from hooktui.tap.runtimes.merge import HookSource, MergeRule, SettingsReading

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

PRE, POST, AGENT = "pre_tool", "post_tool", "post_agent"
EVENTS = {PRE: "pre_tool_use", POST: "post_tool_use", AGENT: "stop"}
_TITLE = "Mistral Vibe"
# What the model reads when a deny gives no reason (the harness's defaults).
PRE_DENY_DEFAULT = "Blocked by a pre_tool hook."
POST_DENY_DEFAULT = "The tool result was blocked by a post_tool hook."
AGENT_DENY_DEFAULT = "A post_agent hook asked the agent to revise its response."
# A rewrite is checked against the tool's schema, which fills the defaults the hook
# left out: the tool runs with those too (seen 3.0.3: bash's `timeout`, in the
# author-facing name hooks read).
SCHEMA_DEFAULTS = {"file_system.bash": {"timeout": 120}}
# What becomes of the action when the hook fails, by point: (not strict, strict).
_ON_FAILURE = {
    PRE: ("the tool runs (a warning)", "the call is denied with the failure as its reason"),
    POST: ("the result stands (a warning)", "the tool's result is blanked"),
    AGENT: ("the turn is accepted (a warning)", "the turn is accepted (a warning)"),
}


class MistralVibe(Runtime):
    def detect(self, request: Any) -> bool:
        return isinstance(request, dict) and request.get("hook_event_name") in EVENTS

    def parse(self, request: Any) -> Call:
        r = as_dict(request)
        native = s(r, "hook_event_name")
        details = {}
        if isinstance(r.get("agent_name"), str):
            details["agent_type"] = r["agent_name"]
        if isinstance(r.get("tool_error"), str):
            details["error"] = r["tool_error"]
        status = r.get("tool_status")
        return Call(
            runtime=self.name,
            event=self.event_of(native),
            native_event=native,
            tool_name=s(r, "tool_name"),
            tool_input=r.get("tool_input"),
            tool_output=r.get("tool_output_text") if native == POST else None,
            is_error=(status == "failure") if status in ("success", "failure") else None,
            session_id=s(r, "session_id"),
            tool_call_id=s(r, "tool_call_id"),
            cwd=s(r, "cwd"),
            details=details or None,
        )

    def request_for(self, call: Call) -> dict[str, Any]:
        native = native_of(call, EVENTS, PRE)
        r: dict[str, Any] = {
            "session_id": call.session_id,
            "transcript_path": f"/home/user/.vibe/logs/session/unified/{call.session_id}",
            "cwd": call.cwd,
            "parent_session_id": None,
            "hook_event_name": native,
        }
        if native == AGENT:
            r["agent_name"] = "accept-edits"
            return r
        r.update(tool_name=call.tool_name, tool_call_id=call.tool_call_id)
        r["tool_input"] = call.tool_input
        if native == POST:  # shaped as bash's result (seen 3.0.3)
            failed = bool(call.is_error)
            text = call.tool_output if isinstance(call.tool_output, str) else ""
            ran = call.tool_input.get("command", "") if isinstance(call.tool_input, dict) else ""
            result = {
                "command": ran,
                "returncode": 0,
                "stderr": "",
                "stdout": text,
                "timed_out": False,
                "was_truncated": False,
            }
            shown = "\n".join(f"{k}: {v}" for k, v in result.items())
            r.update(
                tool_status="failure" if failed else "success",
                tool_output=None if failed else result,
                tool_output_text=text if failed else shown,
                tool_error=text if failed else None,
                duration_ms=0,
            )
        return r

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        native = call.native_event
        lenient, _ = _ON_FAILURE.get(native, _ON_FAILURE[PRE])
        crashed = process_failure(outcome, _TITLE, "proceeds", lenient)
        if crashed:
            return crashed
        if outcome.exit_code != 0:
            said = text_of(outcome.stderr) or text_of(outcome.stdout)
            why = f" ({said.splitlines()[0][:200]})" if said else ""
            return failure(
                "exit_code",
                f"exit {outcome.exit_code}{why}: {_TITLE} reads only exit 0 as an answer; "
                f"{lenient}",
            )
        out = Stdout(outcome.stdout)
        if out.kind == "empty":
            return Verdict(decision="allow")
        obj = out.obj
        if obj is None:
            what = "not JSON" if out.kind == "text" else "JSON but not an object"
            return failure(
                "invalid_json",
                f"stdout is {what}: {_TITLE} takes it for a failed hook; {lenient}",
            )
        return _answer(call, obj)

    def judge_hook(self, call: Call, outcome: Outcome) -> Verdict:
        verdict = super().judge_hook(call, outcome)
        if verdict.decision == "failure" and verdict.effect == "blocks":
            # The generic sentence says "blocks the action"; say what strict does here.
            head = verdict.failure_detail.split("; but this hook's settings say")[0]
            verdict.failure_detail = (
                f"{head}; but this hook is strict, so {_ON_FAILURE[call.native_event][1]}"
            )
        return verdict

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        native = native_of(call, EVENTS, PRE)
        d = verdict.decision
        if d == "allow":
            extra = _context(verdict) if native == POST else {}
            return (json_line(extra) if extra else b""), b"", 0
        if d == "deny" and native in (PRE, AGENT):
            return json_line({"decision": "deny", "reason": verdict.reason}), b"", 0
        if d == "modify" and native == PRE:
            answer = {"hook_specific_output": {"tool_input": verdict.updated_input}}
            return json_line(answer), b"", 0
        if d == "replace" and native == POST:
            reason = verdict.updated_output
            reason = reason if isinstance(reason, str) else json_line(reason).decode().strip()
            answer = {"decision": "deny", "reason": reason, **_context(verdict)}
            return json_line(answer), b"", 0
        if d == "failure":
            return encode_generic_failure(self.name, call, verdict)
        raise cannot(self.name, verdict, native or call.event)

    def settings_problems(self, data: Any) -> list[tuple[str, str, str]]:
        hooks = data.get("hooks") if isinstance(data, dict) else None
        if not isinstance(hooks, list):
            return []
        return [
            (f"hooks[{i}]", why, "hook")
            for i, entry in enumerate(hooks)
            if isinstance(entry, dict) and (why := _refused(entry))
        ]


def _refused(entry: dict) -> str:
    """Why Vibe's HookConfig model (pydantic, lax) refuses a [[hooks]] table, "" when it
    loads it (3.0.3 `vibe/core/hooks/models.py`; tests/e2e checks this against it). The
    harness skips a refused hook with a warning."""
    why = ""
    match = entry.get("match")
    if not isinstance(entry.get("name"), str):
        why = "no string `name`"
    elif isinstance(entry.get("command"), str) and not entry["command"].strip():
        why = "an empty `command`"
    elif match is not None and (not isinstance(match, str) or not match.strip()):
        why = "a `match` that is not a non-empty string"
    elif not _lax_number(entry.get("timeout")):
        why = "a `timeout` that is not a number"
    elif (strict := _lax_bool(entry.get("strict", False))) is None:
        why = "a `strict` that is not true or false"
    elif strict and entry.get("type") == AGENT:
        why = "`strict` on a post_agent hook"
    return f"{why}: Mistral Vibe skips this hook (a warning)" if why else ""


def _lax_number(value: Any) -> bool:
    if value is None or isinstance(value, int | float):
        return True
    try:
        float(value) if isinstance(value, str) else None
    except ValueError:
        return False
    return isinstance(value, str)


_TRUE, _FALSE = {"1", "on", "t", "true", "y", "yes"}, {"0", "off", "f", "false", "n", "no"}


def _lax_bool(value: Any) -> bool | None:
    """A bool as pydantic's lax mode reads one (None: it refuses the value)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    text = value.strip().lower() if isinstance(value, str) else None
    return True if text in _TRUE else False if text in _FALSE else None


def _context(verdict: Verdict) -> dict[str, Any]:
    if not verdict.context:
        return {}
    return {"hook_specific_output": {"additional_context": verdict.context}}


def _answer(call: Call, obj: dict) -> Verdict:
    """An exit-0 JSON object, as the harness reads it at this point."""
    native = call.native_event
    hso = obj.get("hook_specific_output")
    hso = hso if isinstance(hso, dict) else {}
    reason = str_field(obj, "reason")
    effects = {}
    note = obj.get("system_message")
    if isinstance(note, str) and note:
        effects["user_message"] = note
    deny = obj.get("decision") == "deny"
    if native == PRE:
        if deny:
            return Verdict(
                decision="deny", reason=reason or PRE_DENY_DEFAULT, answer_effects=effects
            )
        rewrite = hso.get("tool_input")
        if isinstance(rewrite, dict):
            runs = {**SCHEMA_DEFAULTS.get(call.tool_name, {}), **rewrite}
            return Verdict(decision="modify", updated_input=runs, answer_effects=effects)
        return Verdict(decision="allow", answer_effects=effects)
    if native == POST:
        extra = hso.get("additional_context")
        extra = extra if isinstance(extra, str) else ""
        if deny:
            return Verdict(
                decision="replace",
                updated_output=reason or POST_DENY_DEFAULT,
                context=extra,
                answer_effects=effects,
            )
        return Verdict(decision="allow", context=extra, answer_effects=effects)
    if native == AGENT and deny:
        return Verdict(decision="deny", reason=reason or AGENT_DENY_DEFAULT, answer_effects=effects)
    return Verdict(decision="allow", answer_effects=effects)


RUNTIME = MistralVibe(
    name="mistral-vibe",
    title=_TITLE,
    short="vibe",
    priority=12,  # its point names are its own: before anything shaped like Claude's
    events=EVENTS,
    guards=frozenset({PRE, AGENT}),
    env_vars=("VIBE_APP_SERVER_BIN",),
    # Set by the `vibe` launcher for the app server, whose environment hooks get (seen 3.0.3).
    caller_env=("VIBE_APP_SERVER_BIN",),
    timeouts=Timeouts(default_ms=60_000, unit_ms=1000),
    settings=Layout(
        project_files=(".vibe/hooks.toml",),
        user_dir=".vibe",
        user_dir_env="VIBE_HOME",
        user_files=("hooks.toml",),
        formats=("toml",),
        file_formats={"hooks.toml": "toml"},
        hooks_list=True,  # [[hooks]] tables, each naming its point
        event_key="type",
        matcher_key="match",
        name_key="name",
        type_key="",  # every hook is a command
        default_type="command",
        fail_closed=("strict", True),
        fail_closed_ignored=frozenset({AGENT}),
        shell="/bin/sh",
        after_install=(
            "project hooks run only in a folder Vibe trusts (`vibe --trust`, or "
            "trusted_folders.toml)"
        ),
    ),
    merge=MergeRule(
        runs="sequential",
        order="the project's hooks.toml, then the user's, each in declaration order",
        chained=True,
        stops_at=("deny",),
        precedence=("deny", "allow"),
        rewrite="chained",
        reason="first_in_order",
        dedup="name",
        quirk="a hook whose name an earlier one has is skipped",
        basis="3.0.3: its harness (`_foreign_hooks.py`) and bundled docs: one point's hooks "
        "run one after another in load order, the first deny stops, rewrites compose",
        unknown="",
    ),
    hook_sources=(
        HookSource(scope="project", path=".vibe/hooks.toml", needs="a trusted folder"),
        HookSource(scope="user", base="user", path="hooks.toml"),
    ),
    reading=SettingsReading(
        bad_file="runs none of its hooks (a warning)",
        bad_hook="skips that hook (a warning)",
        unknown_event="skips that hook (a warning)",
        matcher="glob",
        bad_matcher="never fires",
        basis="3.0.3: `vibe/core/hooks/config.py` (each table checked on its own)",
    ),
    prompt_keys=(),
    output_keys=("tool_output", "tool_output_text"),
    command_keys=("command",),
    path_keys=("file_path", "path"),
    shell_tool="file_system.bash",
    read_tool="file_system.read_file",
)

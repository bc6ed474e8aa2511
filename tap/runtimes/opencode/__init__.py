"""OpenCode: no command hooks of its own; hooktui's plugin (plugin.js) runs commands as hooks.

OpenCode (1.18.33 seen) runs in-process JavaScript plugins: `tool.execute.before`
(a throw refuses the call, its message is the tool's result; changing
`output.args` in place rewrites it; a new `output.args` object is NOT used, seen
2026-12-07), `tool.execute.after` (`output.output` is what the model reads) and
`permission.ask` (declared in `@opencode-ai/plugin`, never fired by 1.18.33). So
that guards written as commands work in OpenCode, hooktui ships a plugin that
runs the commands of `.opencode/command-hooks.json` (and
`~/.config/opencode/command-hooks.json`) with one JSON request on stdin and reads
their answer; `hooktui install opencode` writes the plugin beside the settings and
wraps the commands in the tap, as for any runtime. The rules below are the
plugin's (plugin.js says them in full), and this file reads every answer exactly
as the plugin acts on it (test_opencode_plugin.py runs both on the same answers):
- Request: `hook_event_name` (the plugin event), `session_id`, `tool_call_id`,
  `tool_name`, `tool_input`, `cwd`, `on_failure` (block | continue: what this
  hook's failure does), `plugin_version`; after the tool `tool_output`, `title`,
  `metadata`; permission.ask `permission`, `status`.
- Exit 2 refuses (stderr is the reason). Any other non-zero exit, a signal, a
  timeout (default 60 s), no start, stdout that is not a JSON object, a decision
  the event has no use for: a failure, which refuses the call at
  tool.execute.before and permission.ask (unless the hook says `"onFailure":
  "continue"`) and changes nothing after the tool.
- Exit 0: nothing on stdout allows; `decision: "deny"` (or "block") refuses with
  `reason` (after the tool: the reason replaces the output); `tool_input`
  rewrites the call whole (before); `tool_output` replaces the output (after);
  `decision: "allow" | "ask"` answers permission.ask.
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
    s,
    str_field,
    text_of,
)
from hooktui.tap.runtimes.descriptor import Layout, Runtime, Timeouts
from hooktui.tap.runtimes.merge import HookSource, MergeRule, SettingsReading

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

BEFORE, AFTER, PERMISSION = "tool.execute.before", "tool.execute.after", "permission.ask"
EVENTS = {BEFORE: "pre_tool_use", AFTER: "post_tool_use", PERMISSION: "permission_request"}
GUARDS = frozenset({BEFORE, PERMISSION})
PLUGIN_VERSION = 1
DEFAULT_REASON = "refused by a command hook"
_TITLE = "OpenCode"


class OpenCode(Runtime):
    def detect(self, request: Any) -> bool:
        return isinstance(request, dict) and request.get("hook_event_name") in EVENTS

    def parse(self, request: Any) -> Call:
        r = as_dict(request)
        native = s(r, "hook_event_name")
        details = {}
        if r.get("on_failure") in ("block", "continue"):
            details["on_failure"] = r["on_failure"]
        output = r.get("tool_output")
        return Call(
            runtime=self.name,
            event=self.event_of(native),
            native_event=native,
            tool_name=s(r, "tool_name"),
            tool_input=r.get("tool_input"),
            tool_output=output if native == AFTER else None,
            session_id=s(r, "session_id"),
            tool_call_id=s(r, "tool_call_id"),
            cwd=s(r, "cwd"),
            details=details or None,
        )

    def request_for(self, call: Call) -> dict[str, Any]:
        native = native_of(call, EVENTS, BEFORE)
        r: dict[str, Any] = {
            "hook_event_name": native,
            "session_id": call.session_id,
            "tool_call_id": call.tool_call_id,
            "tool_name": call.tool_name,
            "tool_input": call.tool_input,
        }
        if native == AFTER:
            text = call.tool_output if isinstance(call.tool_output, str) else ""
            r.update(tool_output=text, title=text.split("\n", 1)[0], metadata={"exit": 0})
        if native == PERMISSION:
            r.update(permission={"type": call.tool_name, "title": call.tool_name}, status="ask")
        r.update(
            cwd=call.cwd,
            on_failure="block" if native in GUARDS else "continue",
            plugin_version=PLUGIN_VERSION,
        )
        return r

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        native = call.native_event
        blocks = _fails_closed(call)
        effect = "blocks" if blocks else "proceeds"
        goes = _consequence(native, blocks)
        if outcome.spawn_error:
            return failure("spawn_error", f"the hook could not be started: {goes}", effect)
        if outcome.timed_out:
            return failure("timeout", f"the hook ran past its timeout: {goes}", effect)
        if outcome.exit_code is None:
            return failure(
                "signal", f"the hook was killed by signal {outcome.signal}: {goes}", effect
            )
        if outcome.exit_code == 2:
            return _refused(native, text_of(outcome.stderr) or DEFAULT_REASON)
        if outcome.exit_code != 0:
            return failure("exit_code", f"exit {outcome.exit_code}: {goes}", effect)
        out = Stdout(outcome.stdout)
        if out.kind == "empty":  # no objection; at permission.ask, OpenCode asks as usual
            return Verdict(decision="ask" if native == PERMISSION else "allow")
        if out.kind != "json":
            return failure("invalid_json", f"stdout is not JSON: {goes}", effect)
        obj = out.obj
        if obj is None:
            return failure("unsupported", f"stdout is JSON but not an object: {goes}", effect)
        decision = obj.get("decision")
        if decision in ("deny", "block"):
            return _refused(native, str_field(obj, "reason") or DEFAULT_REASON)
        ask = native == PERMISSION and decision == "ask"
        if decision is not None and decision != "allow" and not ask:  # a wrong word
            return failure(
                "wrong_decision", f"decision {decision!r} means nothing at {native}: {goes}", effect
            )
        if native == PERMISSION:  # no decision: the status stays "ask"
            return Verdict(decision="allow" if decision == "allow" else "ask")
        rewrite = obj.get("tool_input")
        if native == BEFORE and isinstance(rewrite, dict):
            return Verdict(decision="modify", updated_input=rewrite)
        if native == AFTER and isinstance(obj.get("tool_output"), str):
            return Verdict(decision="replace", updated_output=obj["tool_output"])
        return Verdict(decision="allow")

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        native = native_of(call, EVENTS, BEFORE)
        d = verdict.decision
        if d == "allow":
            answer = {"decision": "allow"} if native == PERMISSION else None
            return (json_line(answer) if answer else b""), b"", 0
        if d == "deny" and native in GUARDS:
            return json_line({"decision": "deny", "reason": verdict.reason}), b"", 0
        if d == "ask" and native == PERMISSION:
            return json_line({"decision": "ask"}), b"", 0
        if d == "modify" and native == BEFORE:
            return json_line({"tool_input": verdict.updated_input}), b"", 0
        if d == "replace" and native == AFTER:
            out = verdict.updated_output
            out = out if isinstance(out, str) else json_line(out).decode().strip()
            return json_line({"tool_output": out}), b"", 0
        if d == "failure":
            return encode_generic_failure(self.name, call, verdict)
        raise cannot(self.name, verdict, native or call.event)

    def runner_text(self) -> bytes:
        from importlib.resources import files

        return files(__name__).joinpath("plugin.js").read_bytes()


def _fails_closed(call: Call) -> bool:
    """Does a failure of this hook refuse the call? The request says (`on_failure`); a
    request without it is read with the plugin's default for the event."""
    if call.native_event not in GUARDS:
        return False
    said = (call.details or {}).get("on_failure")
    return said != "continue"


def _consequence(native: str, blocks: bool) -> str:
    if blocks:
        return f"the plugin refuses the call ({native} fails closed)"
    if native == AFTER:
        return "the output stands"
    return 'the call goes ahead (this hook\'s onFailure is "continue")'


def _refused(native: str, reason: str) -> Verdict:
    if native == AFTER:  # the tool ran: the model reads the reason instead of its output
        return Verdict(decision="replace", updated_output=reason)
    return Verdict(decision="deny", reason=reason)


RUNTIME = OpenCode(
    name="opencode",
    title=_TITLE,
    priority=14,  # its plugin's event names are its own
    events=EVENTS,
    guards=GUARDS,
    env_vars=("OPENCODE_PROJECT_DIR", "OPENCODE", "OPENCODE_PID", "OPENCODE_COMMAND_HOOKS"),
    project_dir_env="OPENCODE_PROJECT_DIR",
    # Set by the plugin for each command it runs.
    caller_env=("OPENCODE_COMMAND_HOOKS",),
    timeouts=Timeouts(default_ms=60_000, unit_ms=1000),
    settings=Layout(
        project_files=(".opencode/command-hooks.json",),
        user_dir=".config/opencode",
        # OpenCode's config folder, where the plugin also looks (XDG's rule).
        user_dir_env="XDG_CONFIG_HOME",
        user_dir_env_child="opencode",
        user_files=("command-hooks.json",),
        runner="plugins/hooktui-command-hooks.js",
        after_install=(
            "OpenCode loads plugins when it starts: restart it to pick up a newly written plugin"
        ),
    ),
    merge=MergeRule(
        runs="sequential",
        order="the project's command-hooks.json, then the user's, each in file order",
        chained=True,
        stops_at=("deny",),
        precedence=("deny", "ask", "allow"),
        rewrite="chained",
        reason="first_in_order",
        basis="hooktui's plugin (tap/runtimes/opencode/plugin.js): it runs an event's hooks "
        "one after another, each on the input the earlier ones left, and stops at a refusal",
        unknown="",
    ),
    hook_sources=(
        HookSource(scope="project", path=".opencode/command-hooks.json"),
        HookSource(scope="user", base="user", path="command-hooks.json"),
    ),
    reading=SettingsReading(
        bad_file="fails closed: it refuses every call it guards (hooktui's plugin)",
        bad_hook="skips that hook",
        unknown_event="skips that event",
        matcher="fullmatch",
        bad_matcher="refuses every call it guards (the plugin fails closed)",
        basis="hooktui's plugin (tap/runtimes/opencode/plugin.js)",
    ),
    prompt_keys=(),
    output_keys=("tool_output", "metadata"),
    command_keys=("command",),
    path_keys=("filePath", "path"),
    shell_tool="bash",
    read_tool="read",
)

"""`hooktui try`: a hand-written request against the hooks a runtime has configured.

The plan: which configured hooks the runtime would run for the request (its event, a
matcher that selects the tool, not ignored or shadowed), in its order, each with
the timeout it applies. The run: each planned command hook through the real tap
(`hooktui tap --wait`), as the runtime runs them (all at once, or one after another
with each rewrite passed on and a stop where it stops), each killed at its timeout;
then the records are grouped and combined by the runtime's own rule.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec
from hooktui.tap.canonical import Call
from hooktui.tap.inventory import match
from hooktui.tap.inventory.model import Hook
from hooktui.tap.inventory.read import inventory
from hooktui.tap.inventory.usage import command_of
from hooktui.tap.model import Record, decode_record
from hooktui.tap.runtimes import ADAPTERS
from hooktui.tap.runtimes.descriptor import Runtime
from hooktui.tap.toolcall.group import answer_of, group
from hooktui.tap.toolcall.model import ToolCall

# Set for every hook a dry run starts (as replay sets HOOKTUI_REPLAY=1).
TRY_ENV = "HOOKTUI_TRY"
# A hook that runs no command: listed in the plan, never run.
NOT_RUN = "hooktui try runs command hooks only: the runtime itself sends this one"


class TrialError(Exception):
    """A request or option a dry run cannot use: one line for the user."""


class Planned(msgspec.Struct, kw_only=True, omit_defaults=True):
    order: int  # 1, 2, ... in the runtime's order
    hook: Hook
    runs: bool = True
    why_not: str = ""


class Tried(msgspec.Struct, kw_only=True, omit_defaults=True):
    order: int
    label: str
    decision: str = ""
    reason: str = ""
    effect: str = ""
    duration_ms: float = 0.0
    exit_code: int | None = None
    timed_out: bool = False
    not_run: str = ""  # why this planned hook did not run
    record_id: str = ""


class Trial(msgspec.Struct, kw_only=True, omit_defaults=True):
    runtime: str
    native_event: str
    tool_name: str = ""
    request: Any = None
    rule: str = ""  # the runtime's merge rule, one line
    runs: str = "parallel"
    plan: list[Planned] = []
    tried: list[Tried] = []
    call: ToolCall | None = None  # the records grouped and combined (after a run)
    stream: str = ""


# --- the request -----------------------------------------------------------------


def runtime_named(name: str) -> Runtime:
    runtime = ADAPTERS.get(name)
    if runtime is None or name == "unknown":
        raise TrialError(f"unknown runtime {name!r}")
    return runtime


def pre_event(runtime: Runtime, hooks: list[Hook]) -> str:
    """The runtime's event before a tool runs: the one its configured hooks use first."""
    names = [n for n, canonical in runtime.events.items() if canonical == "pre_tool_use"]
    if not names:
        raise TrialError(f"{runtime.title} has no event before a tool runs: name one with --event")
    used = [n for n in names if any(h.event == n for h in hooks)]
    return (used or names)[0]


def build_request(
    runtime: Runtime, native_event: str, tool: str, tool_input: Any, project: Path
) -> dict[str, Any]:
    """The runtime's full request for a call of `tool` with `tool_input` (the shape its
    hooks get, from its own `request_for`)."""
    if native_event not in runtime.events:
        raise TrialError(f"{runtime.title} has no event {native_event!r}")
    call = Call(
        runtime=runtime.name,
        event=runtime.event_of(native_event),
        native_event=native_event,
        tool_name=tool,
        tool_input=tool_input,
        session_id=f"hooktui-try-{uuid.uuid4().hex[:12]}",
        tool_call_id=f"try-{uuid.uuid4().hex[:8]}",
        cwd=str(project),
    )
    return runtime.request_for(call)


def read_request(runtime: Runtime, request: Any) -> Call:
    """A request given whole (a JSON file): the call it describes, by the runtime."""
    if not isinstance(request, dict):
        raise TrialError("the request is not a JSON object")
    return runtime.parse(request)


# --- the plan --------------------------------------------------------------------


def plan(runtime: Runtime, hooks: list[Hook], native_event: str, tool: str) -> list[Planned]:
    """The hooks the runtime runs for this event and tool, in its order."""
    chosen = [
        h
        for h in hooks
        if h.runtime == runtime.name
        and h.event == native_event
        and not h.ignored
        and match.matches(runtime, h.matcher, tool)
    ]
    chosen.sort(key=lambda h: h.position)
    out = []
    for i, hook in enumerate(chosen, 1):
        runs = hook.handler_type == "command" and not hook.is_async
        why = (
            "" if runs else (NOT_RUN if hook.handler_type != "command" else "async: not waited for")
        )
        out.append(Planned(order=i, hook=hook, runs=runs, why_not=why))
    return out


def prepare(
    runtime_name: str,
    *,
    project: Path,
    environ: Mapping[str, str],
    native_event: str = "",
    tool: str = "",
    tool_input: Any = None,
    request: Any = None,
) -> Trial:
    """The request and the plan (nothing runs)."""
    runtime = runtime_named(runtime_name)
    hooks = inventory([runtime.name], project=project, environ=environ).hooks
    if request is not None:
        call = read_request(runtime, request)
        native_event = native_event or call.native_event
        tool = tool or call.tool_name
    else:
        native_event = native_event or pre_event(runtime, hooks)
        request = build_request(runtime, native_event, tool, tool_input, project)
    return Trial(
        runtime=runtime.name,
        native_event=native_event,
        tool_name=tool,
        request=request,
        rule=runtime.merge.summary(),
        runs=runtime.merge.runs,
        plan=plan(runtime, hooks, native_event, tool),
    )


# --- the run ---------------------------------------------------------------------


def run(
    trial: Trial, *, hooktui: str, stream: str, project: Path, environ: Mapping[str, str]
) -> Trial:
    """Run the plan's command hooks through the tap into `stream`; fill `tried` and
    `call`. Records are read back from where the stream ended before the run."""
    runtime = ADAPTERS[trial.runtime]
    start = os.path.getsize(stream) if os.path.exists(stream) else 0
    env = _hook_env(runtime, project, environ)
    runnable = [p for p in trial.plan if p.runs]
    if runtime.merge.runs == "sequential":
        records = _one_by_one(runtime, trial, runnable, hooktui, stream, start, project, env)
    else:
        procs = [_start(runtime, p, trial.request, hooktui, stream, project, env) for p in runnable]
        _wait_all(procs)
        records = _read_back(stream, start)
    _fill(trial, records, stream)
    return trial


def _hook_env(runtime: Runtime, project: Path, environ: Mapping[str, str]) -> dict[str, str]:
    env = dict(environ)
    env[TRY_ENV] = "1"
    if runtime.project_dir_env:
        env[runtime.project_dir_env] = str(project)
    return env


def tap_argv(runtime: Runtime, hook: Hook, hooktui: str, stream: str, project: Path) -> list[str]:
    """The tap line a dry run runs one configured hook through: the hook's own command
    under the runtime's shell (its substitutions made), recorded with its label and
    timeout, `--wait` (recorded before it exits). The guarantee matrix runs this line
    too (tests/guarantee: the `try` form)."""
    line = hook.command
    layout = runtime.settings
    for token in layout.substitutions if layout else ():
        line = line.replace(token, shlex.quote(str(project)))
    args = [hooktui, "tap", "--runtime", runtime.name, "--label", hook.label, "--stream", stream]
    if hook.timeout_ms:
        args += ["--timeout-ms", str(hook.timeout_ms)]
    if hook.fails == "closed":
        args.append("--fail-closed")
    shell = layout.shell if layout and " " not in layout.shell else os.environ.get("SHELL", "sh")
    return [*args, "--wait", "--", shell, "-c", line]


def _start(runtime, planned, request, hooktui, stream, project, env):
    argv = tap_argv(runtime, planned.hook, hooktui, stream, project)
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=project,
        env=env,
        start_new_session=True,  # its whole group is killed at the timeout
    )
    try:
        proc.stdin.write(json.dumps(request).encode())
        proc.stdin.close()
    except BrokenPipeError:
        pass
    deadline = time.monotonic() + (planned.hook.timeout_ms or 600_000) / 1000
    return proc, deadline


def _wait_all(procs) -> None:
    for proc, deadline in procs:
        try:
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _kill(proc)


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    # The tap's watchdog records a call killed at its timeout; give it its moment.
    time.sleep(0.2)


def _one_by_one(runtime, trial, runnable, hooktui, stream, start, project, env) -> list[Record]:
    """Sequential runtimes: each hook after the last, with the input as the earlier
    ones rewrote it; stop where the runtime stops."""
    request = trial.request
    records: list[Record] = []
    for planned in runnable:
        proc = _start(runtime, planned, request, hooktui, stream, project, env)
        _wait_all([proc])
        new = _read_back(stream, start)
        mine = new[len(records) :]
        records = new
        if not mine:
            continue
        answer = answer_of(mine[-1])
        if answer.vote in runtime.merge.stops_at:
            break
        if runtime.merge.chained and mine[-1].updated_input is not msgspec.UNSET:
            request = _rewritten(request, trial.request, mine[-1])
    return records


def _rewritten(request: dict, original: dict, record: Record) -> dict:
    """The request with the tool input as the hook rewrote it (the key that held it)."""
    out = dict(request)
    for key, value in original.items():
        if value == record.tool_input and isinstance(value, dict):
            out[key] = record.updated_input
    return out


def _read_back(stream: str, start: int) -> list[Record]:
    try:
        with open(stream, "rb") as f:
            f.seek(start)
            data = f.read()
    except OSError:
        return []
    out = []
    for line in data.split(b"\n"):
        if line.strip():
            try:
                out.append(decode_record(line))
            except (msgspec.DecodeError, msgspec.ValidationError):
                continue
    return out


def _fill(trial: Trial, records: list[Record], stream: str) -> None:
    orders: dict[str, int] = {}
    by_command = {p.hook.command: p for p in reversed(trial.plan)}
    for record in records:
        planned = by_command.get(command_of(record.hook.argv))
        if planned is not None:
            orders[record.id] = planned.order
    calls = group(records, position=lambda r: orders.get(r.id))
    trial.call = calls[0] if calls else None
    seen = {orders.get(r.id): r for r in records}
    for planned in trial.plan:
        record = seen.get(planned.order)
        if record is None:
            why = planned.why_not or "not run: the runtime stops before it"
            trial.tried.append(Tried(order=planned.order, label=planned.hook.label, not_run=why))
            continue
        answer = answer_of(record)
        trial.tried.append(
            Tried(
                order=planned.order,
                label=planned.hook.label,
                decision=answer.decision,
                reason=answer.reason,
                effect=answer.effect,
                duration_ms=record.duration_ms,
                exit_code=record.exit_code,
                timed_out=record.timed_out,
                record_id=record.id,
            )
        )
    trial.stream = stream

"""Two hooks answering differently on one call, in a real CLI, bare and through the tap.

One session per runtime runs every case in turn (batch.py's way: each case's
command carries a tag, and each of the two scripted hooks answers by the tag).
What the runtime did with the call (which marker its command left: none, the
original, hook a's rewrite or hook b's) is the oracle; through the tap the runtime
must do the same, and the tap's records, grouped and combined by the runtime's
own rule (tap/toolcall, tap/runtimes/<runtime>: `merge`), must say so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from hooktui.tap.canonical import Call, Verdict
from hooktui.tap.inventory.read import inventory
from hooktui.tap.inventory.usage import command_of
from hooktui.tap.model import Record
from hooktui.tap.runtimes import ADAPTERS
from hooktui.tap.toolcall.group import group
from hooktui.tap.toolcall.model import ToolCall

from tests.e2e.batch import _install, tag_of
from tests.e2e.drivers import Driver
from tests.e2e.flow import _records
from tests.e2e.harness import Run, Sandbox, hook_command

SLOW = 1.5  # seconds a "slow" hook sleeps: it finishes last, whatever the load


@dataclass(frozen=True)
class Two:
    """One call, two hooks (a before b in the settings), and what the runtime did."""

    name: str
    a: Any  # a Verdict decision, ("rewrite",), "exit2", "crash", "silent", or a raw JSON answer
    b: Any
    ran: str | None  # "original", "a", "b" (whose rewrite ran) or None (blocked)
    slow: str = ""  # "a" or "b": that hook sleeps SLOW before it answers
    b_runs: bool = True  # False: the runtime stops before b (sequential runtimes)
    conflict: str = ""  # a conflict the combined outcome must flag


@dataclass
class Session:
    run: Run
    markers: dict[str, str | None]  # case -> what ran
    calls: dict[str, dict[str, int]]  # case -> {hook: calls it got}
    records: dict[str, list[Record]] = field(default_factory=dict)  # case -> its pre records
    positions: dict[str, int] = field(default_factory=dict)  # hook command -> configured place


def answer(driver: Driver, spec: Any, tag: str, who: str, tool_input: dict) -> dict:
    """The scripted hook's answer for one case (hook.py's by_tag form)."""
    if isinstance(spec, dict):
        return {"stdout": json.dumps(spec), "stderr": "", "exit": 0}
    if spec == "exit2":
        return {"stdout": "", "stderr": f"{who} blocks {tag} by exit 2", "exit": 2}
    if spec == "crash":
        return {"stdout": "", "stderr": f"{who} crashed", "exit": 1}
    if spec == "silent":
        return {"stdout": "", "stderr": "", "exit": 0}
    runtime = ADAPTERS[driver.runtime]
    call = Call(
        runtime=driver.runtime,
        event="pre_tool_use",
        native_event=driver.pre_event,
        tool_name=driver.tool,
        tool_input=tool_input,
    )
    if spec == "rewrite":
        new = {**tool_input, "command": f"touch marker-rewritten-{tag}-{who} && echo ran-{who}"}
        verdict = Verdict(decision="modify", updated_input=new)
    else:
        verdict = Verdict(decision=spec, reason=f"{who} says {spec} to {tag}")
    out, err, code = runtime.encode(call, verdict)
    return {"stdout": out.decode(), "stderr": err.decode(), "exit": code}


def write_two(driver: Driver, sb: Sandbox, a: str, b: str, post: str) -> None:
    """The driver's settings with hook b right after hook a (same event, same matcher)."""
    driver.write_settings(sb, a, post)
    path = driver.settings_path(sb)
    data = json.loads(path.read_text())
    for event, entries in data["hooks"].items():
        nested = entries and isinstance(entries[0], dict) and "hooks" in entries[0]
        lists = [g["hooks"] for g in entries] if nested else [entries]
        for handlers in lists:
            for i, handler in enumerate(list(handlers)):
                if a in (handler.get("command"), handler.get("bash")):
                    twin = json.loads(
                        json.dumps(handler).replace(json.dumps(a)[1:-1], json.dumps(b)[1:-1])
                    )
                    if "name" in twin:  # Gemini CLI runs one hook per name+command
                        twin["name"] += "-b"
                    handlers.insert(i + 1, twin)
        data["hooks"][event] = entries
    path.write_text(json.dumps(data, indent=2) + "\n")


def run_two(driver: Driver, sb: Sandbox, cases: list[Two], *, tapped: bool) -> Session:
    tags = {c.name: f"t{i}" for i, c in enumerate(cases, start=1)}
    sb.fresh_run_dirs()
    by = {"a": {}, "b": {}}
    steps = []
    for case in cases:
        tag = tags[case.name]
        command = f"touch marker-original-{tag} && echo original-ran-{tag}"
        tool_input = driver.tool_input(command)
        for who in ("a", "b"):
            got = answer(driver, getattr(case, who), tag, who, tool_input)
            got["sleep"] = SLOW if case.slow == who else 0
            by[who][tag] = got
        script = driver.script(command)
        steps.append(
            {
                "text": f"case {tag}",
                "calls": [{"name": script["tool"], "input": script["tool_input"]}],
            }
        )
    for who in ("a", "b"):
        (sb.hooks / f"{who}.answer.json").write_text(json.dumps({"by_tag": by[who]}))
    a, b, post = (hook_command(sb.hooks, n) for n in ("a", "b", "post"))
    write_two(driver, sb, a, b, post)
    if tapped:
        sb.stream.unlink(missing_ok=True)
        _install(driver, sb)
    run = sb.run(
        "tapped" if tapped else "bare",
        driver.runtime,
        driver.argv(sb),
        driver.env(sb),
        {"steps": steps},
        timeout=60 + 15 * len(cases),
    )
    session = Session(run=run, markers={}, calls={})
    for case in cases:
        tag = tags[case.name]
        session.markers[case.name] = _ran(sb.project, tag)
        session.calls[case.name] = {
            who: sum(1 for c in run.hook_calls.get(who, []) if tag_of(c["stdin"]) == tag)
            for who in ("a", "b")
        }
    if tapped:
        count = sum(len(run.hook_calls.get(who, [])) for who in ("a", "b", "post"))
        raw, errors = _records(sb, count)
        records = [msgspec.convert(r, Record) for r in raw]
        for case in cases:
            tag = tags[case.name]
            session.records[case.name] = [
                r
                for r in records
                if r.native_event == driver.pre_event and tag_of(json.dumps(r.request)) == tag
            ]
        session.positions = _positions(driver, sb)
    return session


def _ran(project: Path, tag: str) -> str | None:
    marks = sorted(p.name for p in project.glob(f"marker-*-{tag}*"))
    if f"marker-original-{tag}" in marks:
        return "original"
    for who in ("a", "b"):
        if f"marker-rewritten-{tag}-{who}" in marks:
            return who
    return None


def _positions(driver: Driver, sb: Sandbox) -> dict[str, int]:
    """Each hook's place in the runtime's configured order, from the inventory of the
    sandbox's own settings (Gemini CLI and Qwen Code combine in that order)."""
    env = {**driver.env(sb), "HOME": str(sb.home)}
    inv = inventory([driver.runtime], project=sb.project, environ=env)
    return {h.command: h.position for h in inv.hooks}


def combined(session: Session, case: Two) -> ToolCall:
    records = session.records[case.name]
    calls = group(records, position=lambda r: session.positions.get(command_of(r.hook.argv)))
    assert len(calls) == 1, [c.key for c in calls]
    return calls[0]


def ran_by_records(call: ToolCall, case_name: str) -> str | None:
    """What the combined outcome says ran: None (blocked), original, or whose rewrite."""
    step = call.steps[0]
    if step.decision in ("deny", "ask", "defer"):
        return None
    if step.decision == "modify":
        command = str((step.updated_input or {}).get("command", ""))
        return "a" if command.endswith("ran-a") else "b"
    return "original"


_SESSIONS: dict[tuple[str, bool], Session] = {}


def check_two(driver: Driver, cases: list[Two], case: Two, factory) -> None:
    """The bare run is the oracle; the tapped run does the same; the records, combined by
    the runtime's rule, come to it (one bare and one tapped session per runtime)."""
    from tests.e2e.harness import skip_reason

    why = skip_reason(driver.cli)
    if why:
        import pytest

        pytest.skip(why)
    sessions = {}
    for tapped in (False, True):
        key = (driver.cli, tapped)
        if key not in _SESSIONS:
            sb = Sandbox(factory.mktemp(f"merge-{driver.cli}-{'tapped' if tapped else 'bare'}"))
            _SESSIONS[key] = run_two(driver, sb, cases, tapped=tapped)
        sessions[tapped] = _SESSIONS[key]
    bare, tapped = sessions[False], sessions[True]
    assert bare.run.exit_code == 0, bare.run.describe()
    # The oracle: what the real runtime did with the two answers.
    assert bare.markers[case.name] == case.ran, bare.markers
    assert bare.calls[case.name] == {"a": 1, "b": 1 if case.b_runs else 0}
    # Through the tap: the same.
    assert tapped.markers[case.name] == bare.markers[case.name]
    assert tapped.calls[case.name] == bare.calls[case.name]
    # The records, grouped and combined by the runtime's rule, come to the same.
    records = tapped.records[case.name]
    assert len(records) == (2 if case.b_runs else 1), [r.hook.label for r in records]
    call = combined(tapped, case)
    assert ran_by_records(call, case.name) == case.ran, call.steps[0]
    if case.conflict:
        assert case.conflict in call.conflicts, call

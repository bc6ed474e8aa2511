"""Answers to events other than a plain tool call, inside the real CLIs.

An EventCase hooks ONE event (with the capture settings of its runtime,
capture_specs.py), answers it as the case says, and runs one scripted session
(a capture Scenario). What the runtime did is read from what it printed, what
it sent the model, the files the session left, and which hooks it called.
`run_event` runs it bare, then through `hooktui install`; the test checks both
did what the case pins, and that the tap's record of the hooked call says so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import msgspec
from hooktui.tap.model import Record

from tests.e2e.capture import Scenario, Spec, run_scenario
from tests.e2e.flow import _records
from tests.e2e.harness import Run, Sandbox, hooktui


@dataclass(frozen=True)
class EventCase:
    name: str
    spec: Spec  # the runtime's capture spec (settings, environment)
    event: str  # the one event hooked
    answer: dict[str, Any]  # the hook's {"stdout", "stderr", "exit", "sleep"}
    scenario: Scenario
    # What the runtime did: texts in its own output, in what it sent the model
    # (or not), project files left (or not), how often each hook ran.
    output_has: tuple[str, ...] = ()
    model_has: tuple[str, ...] = ()
    model_lacks: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    no_files: tuple[str, ...] = ()
    calls: dict[str, int] = field(default_factory=dict)
    model_requests: int | None = None  # how many requests reached the model (scripted turns)
    last_request_lacks: tuple[str, ...] = ()  # not in the last request the model got
    exit_code: int | None = 0
    record: dict[str, Any] = field(default_factory=dict)  # the hooked call's record
    lets_through: bool | None = None  # what the record's verdict must say, if it matters
    disagreement: str = ""  # the adapter reads it otherwise (strict xfail of the record)
    install_runtime: str = ""  # `hooktui install` runtime, if not the spec's


@dataclass
class Seen:
    run: Run
    output: str  # the CLI's stdout and stderr
    model: str  # every request it sent the model, as JSON text
    files: list[str]
    calls: dict[str, int]
    records: list[dict[str, Any]] = field(default_factory=list)


def _observe(sb: Sandbox, run: Run) -> Seen:
    return Seen(
        run=run,
        output=run.stdout + run.stderr,
        model=json.dumps([r["body"] for r in run.requests]),
        files=sorted(str(p.relative_to(sb.project)) for p in sb.project.rglob("*")),
        calls={k: len(v) for k, v in run.hook_calls.items()},
    )


def run_event(case: EventCase, sb: Sandbox, *, tapped: bool) -> Seen:
    """One session with only `case.event` hooked; `tapped`: installed through the tap."""
    spec = case.spec
    hooked = Spec(**{**spec.__dict__, "events": [case.event]})
    scenario = Scenario(**{**case.scenario.__dict__, "answers": lambda sb: _answers(case, sb)})
    if not tapped:
        run, _ = run_scenario(hooked, sb, scenario)
        return _observe(sb, run)
    # Installed: write the settings, wrap them, then run without rewriting them.
    sb.stream.unlink(missing_ok=True)
    sb.fresh_run_dirs()
    hooked.write_hooks(sb, hooked.events)
    path = _settings_file(sb)
    runtime = case.install_runtime or spec.runtime
    res = hooktui("install", runtime, "--settings", str(path), "--stream", str(sb.stream))
    assert res.returncode == 0, res.stderr
    run, _ = run_scenario(hooked, sb, scenario, fresh=False)
    seen = _observe(sb, run)
    records, _ = _records(sb, sum(seen.calls.values()))
    seen.records = records
    return seen


def _answers(case: EventCase, sb: Sandbox) -> dict[str, dict[str, Any]]:
    """The hooked event's answer, with {project} and {root} filled in."""
    text = json.dumps(case.answer)
    text = text.replace("{project}", str(sb.project)).replace("{root}", str(sb.root))
    return {case.event: json.loads(text)}


def _settings_file(sb: Sandbox):
    """The one settings file the capture hooks were written to."""
    for candidate in (
        sb.project / ".claude" / "settings.json",
        sb.home / ".codex" / "config.toml",
        sb.home / ".gemini" / "settings.json",
        sb.project / ".qwen" / "settings.json",
        sb.project / ".github" / "hooks" / "capture.json",
    ):
        if candidate.exists():
            return candidate
    raise AssertionError("no settings file written")


def check_seen(case: EventCase, seen: Seen) -> None:
    assert seen.run.exit_code == case.exit_code and not seen.run.timed_out, seen.output[-1500:]
    for text in case.output_has:
        assert text in seen.output, f"{text!r} not in the CLI's output: {seen.output[-1500:]}"
    for text in case.model_has:
        assert text in seen.model, f"{text!r} never reached the model"
    for text in case.model_lacks:
        assert text not in seen.model, f"{text!r} reached the model"
    for name in case.files:
        assert name in seen.files, seen.files
    for name in case.no_files:
        assert name not in seen.files, seen.files
    for name, count in case.calls.items():
        assert seen.calls.get(name, 0) == count, seen.calls
    turns = [r for r in seen.run.requests if r["kind"] not in ("side", "head", "get", "models")]
    if case.model_requests is not None:
        assert len(turns) == case.model_requests, [r["kind"] for r in turns]
    for text in case.last_request_lacks:  # in the conversation (not the system prompt)
        body = turns[-1]["body"] if turns else {}
        talk = body.get("contents") or body.get("messages") or body.get("input")
        assert talk and text not in json.dumps(talk), f"{text!r} still sent"


def check_record(case: EventCase, seen: Seen) -> None:
    mine = [r for r in seen.records if r.get("native_event") == case.event]
    found = [(r.get("runtime"), r.get("native_event")) for r in seen.records]
    assert len(mine) == seen.calls.get(case.event, 0) >= 1, f"records: {found}"
    rec = mine[0]
    assert rec["runtime"] == case.spec.runtime, f"recorded as {rec['runtime']}"
    for key, value in case.record.items():
        assert rec[key] == value, f"record {key}={rec[key]!r}, the runtime acted as {value!r}"
    if case.lets_through is not None:
        verdict = msgspec.convert(rec, Record).verdict
        assert verdict.lets_through is case.lets_through, {
            k: rec.get(k) for k in ("decision", "reason", "failure", "effect")
        }

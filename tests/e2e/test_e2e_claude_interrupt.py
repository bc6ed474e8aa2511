"""Claude Code's Interrupt event (2.1.335+) in the real CLI, bare and installed.

A client of stream-json input stops the turn while the tool runs (an SDK program's
interrupt()): Interrupt fires once, its matcher matched against `source`; the
hook's output and exit code change nothing (the turn ends as it would without the
hook). Ctrl-C in `-p` mode ends Claude Code instead, and a PermissionRequest deny
with `interrupt: true` ends the run: neither fires it (seen 2026-12-07, 2.1.337).
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tests.e2e.capture import run_scenario
from tests.e2e.capture_specs import CLAUDE, INTERRUPTED, interrupt_feed
from tests.e2e.flow import _records
from tests.e2e.harness import Run, Sandbox, hook_command, hooktui, skip_reason

_skip = skip_reason("claude-code")
pytestmark = [
    pytest.mark.skipif(_skip is not None, reason=str(_skip)),
    pytest.mark.xdist_group("claude-interrupt"),  # its tests share one pair of sessions
]

# What the hook answers: a block, a stop and exit 2, all of which Interrupt ignores.
ANSWER = {
    "stdout": json.dumps({"decision": "block", "reason": "E2E-INTBLOCK", "continue": False}),
    "stderr": "E2E-INTERR",
    "exit": 2,
}


def _write_hooks(sb: Sandbox, events: list[str]) -> None:
    """Two Interrupt groups: matcher `user` (hook `Interrupt`) and `system` (never)."""
    group = {
        "user": {"matcher": "user", "hooks": [_command(sb, "Interrupt")]},
        "system": {"matcher": "system", "hooks": [_command(sb, "system-only")]},
    }
    path = sb.project / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    settings = {"hooks": {"Interrupt": [group["user"], group["system"]]}}
    path.write_text(json.dumps(settings, indent=2) + "\n")


def _command(sb: Sandbox, name: str) -> dict:
    return {"type": "command", "command": hook_command(sb.hooks, name)}


def _run(sb: Sandbox, tapped: bool) -> tuple[Run, list[dict]]:
    spec = replace(CLAUDE, events=["Interrupt"], write_hooks=_write_hooks)
    scenario = replace(INTERRUPTED, answers=lambda sb: {"Interrupt": ANSWER})
    if tapped:  # hang up once the tap has recorded the call, too
        scenario = replace(scenario, stdin_feed=interrupt_feed(then=str(sb.stream)))
    else:
        run, _ = run_scenario(spec, sb, scenario)
        return run, []
    sb.stream.unlink(missing_ok=True)
    sb.fresh_run_dirs()
    _write_hooks(sb, spec.events)
    path = sb.project / ".claude" / "settings.json"
    res = hooktui("install", "claude-code", "--settings", str(path), "--stream", str(sb.stream))
    assert res.returncode == 0, res.stderr
    run, _ = run_scenario(spec, sb, scenario, fresh=False)
    records, errors = _records(sb, sum(len(c) for c in run.hook_calls.values()))
    assert records, f"no record; tap errors: {errors or '(none)'}"
    return run, records


def _result_line(run: Run) -> dict:
    lines = [json.loads(x) for x in run.stdout.splitlines() if x.startswith("{")]
    return next(line for line in lines if line.get("type") == "result")


_RUNS: dict[str, tuple[Run, list[dict]]] = {}


def _runs(tmp_path_factory) -> tuple[tuple[Run, list[dict]], tuple[Run, list[dict]]]:
    if not _RUNS:
        sb = Sandbox(tmp_path_factory.mktemp("interrupt"))
        _RUNS["bare"] = _run(sb, tapped=False)
        _RUNS["tapped"] = _run(sb, tapped=True)
    return _RUNS["bare"], _RUNS["tapped"]


def test_claude_code_interrupt_fires_by_source_and_its_answer_changes_nothing(tmp_path_factory):
    for run, _ in _runs(tmp_path_factory):
        assert sorted(run.hook_calls) == ["Interrupt"], run.describe()  # `system` never
        [call] = run.hook_calls["Interrupt"]
        request = json.loads(call["stdin"])
        assert request["hook_event_name"] == "Interrupt"
        assert (request["source"], request["reason"], request["via"]) == ("user", "stop", "client")
        result = _result_line(run)  # the interrupted turn's
        assert result["terminal_reason"] == "aborted_tools", result
        # Nothing of the answer reaches the model or the result.
        seen = json.dumps([r["body"] for r in run.requests]) + run.stdout
        assert "E2E-INTBLOCK" not in seen and "E2E-INTERR" not in seen
    (bare, _), (tapped, _) = _runs(tmp_path_factory)
    assert [r["kind"] for r in tapped.requests] == [r["kind"] for r in bare.requests]
    assert (bare.exit_code, tapped.exit_code) == (0, 0)
    keys = ("type", "subtype", "is_error", "terminal_reason", "num_turns")
    assert {k: _result_line(tapped)[k] for k in keys} == {k: _result_line(bare)[k] for k in keys}


def test_claude_code_interrupt_record_says_the_answer_is_ignored(tmp_path_factory):
    _, (_, records) = _runs(tmp_path_factory)
    [rec] = records
    assert (rec["runtime"], rec["native_event"], rec["event"]) == (
        "claude-code",
        "Interrupt",
        "stop",
    )
    assert rec["decision"] == "allow" and rec["answer_effects"] == {}, rec
    assert "ignored" in rec["failure_detail"], rec["failure_detail"]
    assert rec["hook"]["label"] == "Interrupt:user"
    # Its default timeout (30 s; read from the binary, not measured here).
    assert (rec["hook"]["timeout_ms"], rec["hook"]["timeout_source"]) == (30_000, "default")

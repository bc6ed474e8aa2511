"""Continue CLI 1.5.47, with and without the tap: the real `cn` (which fires no hook),
and its own hook runner over every answer in cases_continue.py (bare, then through
`hooktui install`: the same reading; the record says what the runner read)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hooktui.tap.inventory.read import inventory
from hooktui.tap.inventory.usage import command_of
from hooktui.tap.model import Record
from hooktui.tap.toolcall.group import group

from tests.conftest import wait_for_records
from tests.e2e.batch import tag_of, tagged
from tests.e2e.cases_continue import RUNNER_CASES, RW, RunnerCase, hso
from tests.e2e.continue_cli import (
    CLI,
    EVENTS,
    Fired,
    env,
    fire,
    hooks_settings,
    lets_through,
    pre_tool_use,
    reading,
    run_cli,
)
from tests.e2e.drivers import ORIGINAL
from tests.e2e.harness import Sandbox, hook_command, hooktui, node_modules, skip_reason


def _why_skip() -> str | None:
    reason = skip_reason(CLI)
    if reason is None and not (node_modules() / "amaro" / "package.json").exists():
        return f"amaro (Node's type stripper) is not installed under {node_modules()}"
    return reason


_skip = _why_skip()
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))

CONTINUE_FILE = Path(".continue") / "settings.json"
CLAUDE_FILE = Path(".claude") / "settings.json"


def _install(sb: Sandbox, runtime: str, settings: Path) -> str:
    res = hooktui("install", runtime, "--settings", str(settings), "--stream", str(sb.stream))
    assert res.returncode == 0, res.stderr
    return res.stdout + res.stderr


def _uninstall(runtime: str, settings: Path) -> None:
    res = hooktui("uninstall", runtime, "--settings", str(settings))
    assert res.returncode == 0, res.stderr


# --- the real CLI --------------------------------------------------------------------


def test_continue_cli_runs_no_hook_bare_or_installed(sandbox: Sandbox) -> None:
    """1.5.47 loads the hooks of all six files it reads, for all 17 events, and runs
    none of them in a session that calls a tool; installed, the same, and no record."""

    def settings(sb: Sandbox) -> list[Path]:
        handler = {"type": "command", "command": hook_command(sb.hooks, "any"), "timeout": 30}
        text = json.dumps(hooks_settings({e: [handler] for e in EVENTS}), indent=2) + "\n"
        paths = [sb.project / CLAUDE_FILE, sb.project / CONTINUE_FILE]
        paths += [sb.home / ".continue" / "settings.json", sb.home / ".claude" / "settings.json"]
        for path in paths:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        return paths

    sandbox.fresh_run_dirs()
    settings(sandbox)
    bare = run_cli(sandbox, "bare")
    bare_markers = sorted(p.name for p in sandbox.project.glob("marker-*"))

    sandbox.fresh_run_dirs()
    paths = settings(sandbox)
    before = [p.read_bytes() for p in paths]
    _install(sandbox, CLI, paths[1])
    _install(sandbox, "claude-code", paths[0])
    tapped = run_cli(sandbox, "tapped")
    tapped_markers = sorted(p.name for p in sandbox.project.glob("marker-*"))
    _uninstall(CLI, paths[1])
    _uninstall("claude-code", paths[0])

    for run in (bare, tapped):
        assert run.exit_code == 0 and not run.timed_out, run.describe()
        assert [r["kind"] for r in run.requests] == ["tool_call", "final"], run.describe()
        assert run.hook_calls == {}, sorted(run.hook_calls)  # no hook ran at all
    assert bare_markers == tapped_markers == ["marker-original"]
    assert bare.stdout == tapped.stdout
    assert not sandbox.stream.exists() or sandbox.stream.read_bytes() == b""
    assert [p.read_bytes() for p in paths] == before


# --- its hook runner, one settings file per timeout ------------------------------------


def _tags(cases: list[RunnerCase]) -> dict[str, str]:
    return {case.name: f"t{i}" for i, case in enumerate(cases, start=1)}


def _answers(cases: list[RunnerCase], tags: dict[str, str]) -> dict[str, Any]:
    by_tag = {}
    for case in cases:
        answer = {
            k: tagged(v, tags[case.name]) if isinstance(v, str) else v
            for k, v in case.answer.items()
        }
        by_tag[tags[case.name]] = answer
    return {"by_tag": by_tag}


def _inputs(sb: Sandbox, cases: list[RunnerCase], tags: dict[str, str]) -> list[dict]:
    return [
        pre_tool_use(sb, tagged(ORIGINAL, tags[c.name]), f"toolu_{tags[c.name]}") for c in cases
    ]


class Group:
    """One settings file, fired bare and installed; what each case got."""

    def __init__(self, sb: Sandbox, cases: list[RunnerCase], where: Path, install_as: str):
        self.cases, self.tags = cases, _tags(cases)
        sb.fresh_run_dirs()
        (sb.hooks / "pre.answer.json").write_text(json.dumps(_answers(cases, self.tags)))
        handler = {
            "type": "command",
            "command": hook_command(sb.hooks, "pre"),
            "timeout": cases[0].timeout,
        }
        settings = sb.project / where
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(
            json.dumps(
                {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}}, indent=2
            )
            + "\n"
        )
        before = settings.read_bytes()
        inputs = _inputs(sb, cases, self.tags)
        self.bare: Fired = fire(sb, inputs)
        for log in sb.hooks.glob("*.calls.jsonl"):
            log.unlink()
        self.install_output = _install(sb, install_as, settings)
        self.tapped: Fired = fire(sb, inputs)
        self.records = wait_for_records(sb.stream, len(cases))
        _uninstall(install_as, settings)
        self.restored = settings.read_bytes() == before

    def of(self, case: RunnerCase) -> tuple[dict, dict, list[dict]]:
        i = self.cases.index(case)
        tag = self.tags[case.name]
        records = [r for r in self.records if tag_of(json.dumps(r["request"])) == tag]
        return self.bare.results[i], self.tapped.results[i], records


_GROUPS: dict[tuple[str, int], Group] = {}


def _group(case: RunnerCase, where: Path, install_as: str, factory) -> Group:
    key = (str(where), case.timeout)
    if key not in _GROUPS:
        cases = [c for c in RUNNER_CASES if c.timeout == case.timeout]
        _GROUPS[key] = Group(Sandbox(factory.mktemp("continue")), cases, where, install_as)
    return _GROUPS[key]


def _check_reading(case: RunnerCase, result: dict, tag: str) -> None:
    """The runner read the answer as the case pins."""
    assert result["blocked"] is case.blocked, result
    if case.blocked:
        assert result["blockReason"] == case.reason, result
    assert result.get("permissionDecision") == case.decision, result
    updated = json.loads(tagged(json.dumps(case.updated), tag)) if case.updated else None
    assert result.get("updatedInput") == updated, result
    assert ("threw" in result) is case.threw, result
    if not case.threw:
        [one] = result["results"]
        assert one["exitCode"] == case.exit_code, one


def _check_record(case: RunnerCase, result: dict, records: list[dict], tag: str) -> None:
    assert len(records) == 1, records
    [rec] = records
    brief = {k: rec.get(k) for k in ("runtime", "decision", "reason", "failure", "effect")}
    assert rec["runtime"] == CLI, f"recorded as {rec['runtime']}: {brief}"
    for key, value in case.record.items():
        value = json.loads(tagged(json.dumps(value), tag))
        assert rec[key] == value, f"record {key}={rec[key]!r}, the runner read {value!r}: {brief}"
    verdict = msgspec.convert(rec, Record).verdict
    assert verdict.lets_through is lets_through(result), f"runner: {result}; record: {brief}"


def _params(cases: list[RunnerCase], where: Path) -> list:
    """The cases, marked so that those sharing a Group (its sessions) share a worker."""
    return [
        pytest.param(c, id=c.name, marks=pytest.mark.xdist_group(f"continue:{where}:{c.timeout}"))
        for c in cases
    ]


@pytest.mark.parametrize("case", _params(RUNNER_CASES, CONTINUE_FILE))
def test_continue_cli_runner_same_with_and_without_tap(case: RunnerCase, tmp_path_factory) -> None:
    group = _group(case, CONTINUE_FILE, CLI, tmp_path_factory)
    bare, tapped, _ = group.of(case)
    _check_reading(case, bare, group.tags[case.name])
    assert reading(tapped) == reading(bare)
    assert group.restored  # uninstall put the settings back byte for byte


@pytest.mark.parametrize("case", _params(RUNNER_CASES, CONTINUE_FILE))
def test_continue_cli_record_agrees(case: RunnerCase, tmp_path_factory) -> None:
    group = _group(case, CONTINUE_FILE, CLI, tmp_path_factory)
    _, tapped, records = group.of(case)
    _check_record(case, tapped, records, group.tags[case.name])


_CLAUDE_FILE_CASES = [c for c in RUNNER_CASES if c.name in ("deny", "exit2", "rewrite", "exit1")]


@pytest.mark.parametrize("case", _params(_CLAUDE_FILE_CASES, CLAUDE_FILE))
def test_continue_cli_runs_claude_settings_alike_and_the_record_names_it(
    case: RunnerCase, tmp_path_factory
) -> None:
    """Hooks in `.claude/settings.json`, installed by `hooktui install claude-code`:
    Continue runs them, and the record names Continue, told by its environment."""
    group = _group(case, CLAUDE_FILE, "claude-code", tmp_path_factory)
    bare, tapped, records = group.of(case)
    _check_reading(case, bare, group.tags[case.name])
    assert reading(tapped) == reading(bare)
    _check_record(case, tapped, records, group.tags[case.name])


def test_continue_cli_parallel_hooks_combine_in_config_order(sandbox: Sandbox) -> None:
    """Two hooks on one call: both run; a block from either blocks; of two rewrites
    the last in config order wins (not the last to finish); so does the last
    permissionDecision (an ask, then an allow: allow), and the last deny's reason;
    each has its record."""
    sandbox.fresh_run_dirs()
    rw_first = {"command": "echo first"}
    answers = {
        "first": {
            "by_tag": {
                "t1": {"stdout": hso(updatedInput=rw_first)},
                "t2": {"stdout": hso(permissionDecision="deny")},
                "t3": {"stdout": hso(permissionDecision="ask", permissionDecisionReason="A")},
                "t4": {"stdout": hso(permissionDecision="deny", permissionDecisionReason="A")},
            }
        },
        "second": {
            "by_tag": {
                "t1": {"stdout": hso(updatedInput=RW), "sleep": 0},
                "t2": {"stdout": hso(permissionDecision="allow")},
                "t3": {"stdout": hso(permissionDecision="allow")},
                "t4": {"stdout": hso(permissionDecision="deny", permissionDecisionReason="B")},
            }
        },
    }
    # The first hook answers last: order, not timing, decides.
    answers["first"]["by_tag"]["t1"]["sleep"] = 1
    handlers = []
    for name, answer in answers.items():
        (sandbox.hooks / f"{name}.answer.json").write_text(json.dumps(answer))
        handlers.append({"type": "command", "command": hook_command(sandbox.hooks, name)})
    path = sandbox.project / CONTINUE_FILE
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": handlers}]}}) + "\n")
    inputs = [
        pre_tool_use(sandbox, tagged(ORIGINAL, t), f"toolu_{t}") for t in ("t1", "t2", "t3", "t4")
    ]
    bare = fire(sandbox, inputs)
    _install(sandbox, CLI, path)
    tapped = fire(sandbox, inputs)
    records = wait_for_records(sandbox.stream, 8)
    _uninstall(CLI, path)

    for fired in (bare, tapped):
        rewrite, block, ask_allow, two_denies = fired.results
        assert rewrite["updatedInput"] == RW and not rewrite["blocked"]
        assert block["blocked"] and block["permissionDecision"] == "allow"  # the last one's
        assert not ask_allow["blocked"] and ask_allow["permissionDecision"] == "allow"
        assert two_denies["blocked"] and two_denies["blockReason"] == "B"
    assert [reading(r) for r in tapped.results] == [reading(r) for r in bare.results]
    decisions = sorted((r["hook"]["argv"][-1].split()[-1], r["decision"]) for r in records)
    assert decisions == [
        ("first", "ask"),
        ("first", "deny"),
        ("first", "deny"),
        ("first", "modify"),
        ("second", "allow"),
        ("second", "allow"),
        ("second", "deny"),
        ("second", "modify"),
    ]
    assert {r["runtime"] for r in records} == {CLI}
    # Grouped into tool calls and combined by Continue's declared rule (`merge`), the
    # records come to what its runner did: b's rewrite (last in order), a's block.
    hooks = inventory([CLI], project=sandbox.project, environ=env(sandbox)).hooks
    order = {h.command: h.position for h in hooks}
    calls = group(
        [msgspec.convert(r, Record) for r in records],
        position=lambda r: order.get(command_of(r.hook.argv)),
    )
    tags = {r["id"]: tag_of(json.dumps(r)) for r in records}
    outcome = {tags[c.steps[0].hooks[0].id]: c.steps[0] for c in calls}
    assert (outcome["t1"].decision, outcome["t1"].updated_input) == ("modify", RW)
    assert outcome["t2"].decision == "deny"
    assert outcome["t3"].decision == "allow"  # read ask until 2026-12-07
    assert (outcome["t4"].decision, outcome["t4"].reason) == ("deny", "B")

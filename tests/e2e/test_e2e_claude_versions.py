"""Claude Code facts that need more than one hook answer: the timeout it applies when
a hook sets none, and (when installed) how the first pin, 2.1.197, differed."""

from __future__ import annotations

import json

import pytest

from tests.conftest import wait_for_records
from tests.e2e.cases_claude import CLAUDE_197_DIFFERS
from tests.e2e.drivers import CLAUDE_197, DRIVERS
from tests.e2e.flow import Case, assert_records, assert_runtime_did, run_pair
from tests.e2e.harness import Sandbox, hook_command, hooktui, skip_reason

DRIVER = DRIVERS["claude-code"]


def _one_hook(sb: Sandbox, event: str, command: str) -> None:
    """Project settings with one `event` hook and no `timeout`: the runtime's default."""
    path = sb.project / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = {"type": "command", "command": command}
    path.write_text(json.dumps({"hooks": {event: [{"hooks": [handler]}]}}, indent=2) + "\n")


# (event, the default the runtime applied here in seconds). The hook sleeps well
# past it; the runtime goes on at the default, and the turn is over long before
# the hook would have answered.
DEFAULTS = [("UserPromptSubmit", 30), ("MessageDisplay", 10)]


@pytest.mark.parametrize(("event", "seconds"), DEFAULTS, ids=[e for e, _ in DEFAULTS])
def test_claude_code_default_timeout_per_event(sandbox: Sandbox, event: str, seconds: int) -> None:
    reason = skip_reason("claude-code")
    if reason:
        pytest.skip(reason)
    sandbox.fresh_run_dirs()
    sandbox.answer(event, sleep=seconds + 20)
    _one_hook(sandbox, event, hook_command(sandbox.hooks, event))
    run = sandbox.run(
        "default-timeout",
        "claude-code",
        DRIVER.argv(sandbox),
        DRIVER.env(sandbox),
        {"steps": []},
        timeout=seconds + 60,
    )
    assert run.exit_code == 0 and not run.timed_out, run.describe()
    started = run.hook_calls[event][0]["t"]
    result = json.loads((sandbox.root / "runs" / "default-timeout" / "result.json").read_text())
    waited = result["ended"] - started
    # Killed at the default (a wide margin: a loaded machine), not waited out.
    assert seconds - 1 < waited < seconds + 15, waited


def test_claude_code_record_has_the_default_timeout(sandbox: Sandbox) -> None:
    reason = skip_reason("claude-code")
    if reason:
        pytest.skip(reason)
    sandbox.fresh_run_dirs()
    _one_hook(sandbox, "UserPromptSubmit", hook_command(sandbox.hooks, "UserPromptSubmit"))
    path = sandbox.project / ".claude" / "settings.json"
    res = hooktui(
        "install", "claude-code", "--settings", str(path), "--stream", str(sandbox.stream)
    )
    assert res.returncode == 0, res.stderr
    run = sandbox.run(
        "installed", "claude-code", DRIVER.argv(sandbox), DRIVER.env(sandbox), {"steps": []}
    )
    assert run.exit_code == 0, run.describe()
    [record] = wait_for_records(sandbox.stream, 1)
    assert record["hook"]["timeout_ms"] == 30_000


@pytest.mark.parametrize("case", CLAUDE_197_DIFFERS, ids=lambda c: c.name)
def test_claude_code_2_1_197_behaved_otherwise(sandbox: Sandbox, case: Case) -> None:
    """The cases whose behaviour changed, as the first pin did them (ORACLE.md), and
    recorded by its rules (dated in claude_code/answers.py)."""
    reason = skip_reason(CLAUDE_197.cli)
    if reason:
        pytest.skip(reason)
    pair = run_pair(CLAUDE_197, sandbox, case)
    assert pair.bare is not None
    assert_runtime_did(CLAUDE_197, pair, pair.bare, pair.bare_markers, case)
    assert_runtime_did(CLAUDE_197, pair, pair.tapped, pair.tapped_markers, case)
    # The record reads the answer by 2.1.197's rules (the version is in AI_AGENT).
    assert_records(CLAUDE_197, pair, case)
    assert {r["runtime_version"] for r in pair.records} == {"2.1.197"}
    # ...where nothing (a deny with continue: false included) stopped the turn.
    assert all("stop" not in r.get("answer_effects", {}) for r in pair.records)

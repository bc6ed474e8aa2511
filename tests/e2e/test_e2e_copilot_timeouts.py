"""GitHub Copilot CLI 1.0.102 stops a hook at the timeout its settings name, its own way;
the tap must read that timeout as Copilot does, or a hook Copilot timed out (and let
through) reads as a crash that failed closed (seen 2026-12-07, fixed the same day):
- `.github/hooks`: `timeoutSec`, else `timeout` (seconds), else 30 s;
- `.claude/settings.json`: `timeout`, else Copilot's own 30 s (not Claude Code's 600 s).
One session per timeout, bare then installed (each waits a timeout out)."""

from __future__ import annotations

import json

import pytest

from tests.e2e.batch import Batch, check_records, check_same, check_seen, run_batch
from tests.e2e.cases_chat import chat_runs
from tests.e2e.drivers_chat import COPILOT, COPILOT_CLAUDE
from tests.e2e.flow import Case
from tests.e2e.harness import Sandbox, skip_reason

_skip = skip_reason("copilot")
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))

_LATE = {"permissionDecision": "deny", "permissionDecisionReason": "E2E-LATE"}
_TIMED_OUT = {"decision": "failure", "failure": "timeout", "effect": "proceeds"}


def _late(name: str, sleep: float, pre_timeout: int, handler: dict) -> Case:
    """A deny that comes too late: Copilot kills the hook and runs the tool."""
    return chat_runs(
        name,
        {"stdout": json.dumps(_LATE), "sleep": sleep},
        absent=("E2E-LATE",),
        record=_TIMED_OUT,
        pre_timeout=pre_timeout,
        pre_handler=handler,
    )


# (driver, case, the timeout Copilot applied, in ms)
SCENARIOS = [
    (COPILOT, _late("timeout-key", 8, 30, {"timeoutSec": None, "timeout": 4}), 4000),
    (COPILOT, _late("timeoutSec-beats-timeout", 8, 3, {"timeout": 20}), 3000),
    (COPILOT_CLAUDE, _late("claude-settings-default", 36, 30, {"timeout": None}), 30000),
]
# The two tests of a scenario share its pair of sessions (_PAIRS): one worker runs both.
PARAMS = [
    pytest.param(i, id=case.name, marks=pytest.mark.xdist_group(f"copilot-timeout:{case.name}"))
    for i, (_, case, _) in enumerate(SCENARIOS)
]


def _pair(driver, case: Case, factory) -> tuple[Batch, Batch]:
    sb = Sandbox(factory.mktemp(case.name))  # the same paths bare and tapped
    bare = run_batch(driver, sb, [case], tapped=False, pre_timeout=case.pre_timeout)
    tapped = run_batch(driver, sb, [case], tapped=True, pre_timeout=case.pre_timeout)
    return bare, tapped


_PAIRS: dict[str, tuple[Batch, Batch]] = {}


def _pair_of(index: int, factory) -> tuple[Batch, Batch]:
    driver, case, _ = SCENARIOS[index]
    if case.name not in _PAIRS:
        _PAIRS[case.name] = _pair(driver, case, factory)
    return _PAIRS[case.name]


@pytest.mark.parametrize("index", PARAMS)
def test_copilot_timeout_same_with_and_without_tap(index: int, tmp_path_factory) -> None:
    driver, case, _ = SCENARIOS[index]
    bare, tapped = _pair_of(index, tmp_path_factory)
    check_seen(bare.seen[case.name], case)
    check_seen(tapped.seen[case.name], case)
    check_same(driver, bare, tapped, case)


@pytest.mark.parametrize("index", PARAMS)
def test_copilot_timeout_recorded_as_the_timeout_copilot_applied(
    index: int, tmp_path_factory
) -> None:
    driver, case, applied_ms = SCENARIOS[index]
    _, tapped = _pair_of(index, tmp_path_factory)
    check_records(driver, tapped, case)
    [pre] = [r for r in tapped.seen[case.name].records if r["native_event"] == driver.pre_event]
    assert pre["hook"]["timeout_ms"] == applied_ms, pre["hook"]
    assert pre["timed_out"] is True

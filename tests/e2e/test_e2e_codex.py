"""The real Codex CLI, with and without the tap: it must not tell the difference."""

from __future__ import annotations

import pytest

from tests.e2e.batch import check_records, group_key, grouped_batch, pinned_params
from tests.e2e.batch import check_seen as check_batch_seen
from tests.e2e.cases import MAIN, PINNED
from tests.e2e.cases_others import CLAMPED_MS, CODEX_MORE
from tests.e2e.drivers import CODEX_HOOKS_JSON, DRIVERS
from tests.e2e.events import EventCase, check_record, check_seen, run_event
from tests.e2e.flow import (
    Case,
    check_main,
    check_pinned,
    check_pinned_record,
    check_replay,
)
from tests.e2e.harness import Sandbox, skip_reason

RUNTIME = "codex"
_skip = skip_reason(RUNTIME)
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))
DRIVER = DRIVERS[RUNTIME]


@pytest.mark.parametrize("case", MAIN[RUNTIME], ids=lambda c: c.name)
def test_codex_same_with_and_without_tap(sandbox: Sandbox, case: Case) -> None:
    check_main(DRIVER, sandbox, case)


def test_codex_install_finds_the_settings(sandbox: Sandbox) -> None:
    """`hooktui install codex` as a user types it: no --settings."""
    deny = next(c for c in MAIN[RUNTIME] if c.name == "deny")
    check_main(DRIVER, sandbox, deny, discover=True)


# Pinned cases with the same settings run in one session (batch.py).


@pytest.mark.parametrize("case", pinned_params(RUNTIME, PINNED[RUNTIME]))
def test_codex_pinned_verdict(sandbox: Sandbox, case: Case, tmp_path_factory) -> None:
    if group_key(case) is None:
        check_pinned(DRIVER, sandbox, case)
    else:
        batch = grouped_batch(DRIVER, tmp_path_factory, PINNED[RUNTIME], case)
        check_batch_seen(batch.seen[case.name], case)


@pytest.mark.parametrize("case", pinned_params(RUNTIME, PINNED[RUNTIME], record=True))
def test_codex_pinned_record(sandbox: Sandbox, case: Case, tmp_path_factory) -> None:
    if group_key(case) is None:
        check_pinned_record(DRIVER, sandbox, case)
    else:
        check_records(DRIVER, grouped_batch(DRIVER, tmp_path_factory, PINNED[RUNTIME], case), case)


@pytest.mark.parametrize(
    "case", [c for c in MAIN[RUNTIME] if c.name in ("deny", "rewrite")], ids=lambda c: c.name
)
def test_codex_hooks_json_same_with_and_without_tap(sandbox: Sandbox, case: Case) -> None:
    """The same, with the hooks in CODEX_HOME/hooks.json instead of config.toml."""
    check_main(CODEX_HOOKS_JSON, sandbox, case)


def test_codex_replay_of_real_traffic(sandbox: Sandbox) -> None:
    """What the real CLI sent, replayed: same verdicts; then an edited policy loosens one."""
    check_replay(DRIVER, sandbox, next(c for c in MAIN[RUNTIME] if c.name == "deny"))


# --- Codex's other events, as the record reads them -------------------------------------------


@pytest.mark.parametrize("case", CODEX_MORE, ids=lambda c: c.name)
def test_codex_event_record(case: EventCase, tmp_path_factory) -> None:
    """A PreCompact block is the failed hook Codex reads it as (compaction happens);
    a SessionEnd hook configured with 30 s: Codex says it clamps it to 3 s, and the
    record's timeout is the 3 s it applies."""
    seen = run_event(case, Sandbox(tmp_path_factory.mktemp(case.name)), tapped=True)
    check_seen(case, seen)
    check_record(case, seen)
    if case.event == "SessionEnd":
        [record] = [r for r in seen.records if r["native_event"] == "SessionEnd"]
        hook = record["hook"]
        assert (hook["timeout_ms"], hook["timeout_source"]) == (CLAMPED_MS, "configured")

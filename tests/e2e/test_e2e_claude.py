"""The real Claude Code CLI, with and without the tap: it must not tell the difference."""

from __future__ import annotations

import pytest

from tests.e2e.batch import check_records, check_seen, group_key, grouped_batch, pinned_params
from tests.e2e.cases import MAIN, PINNED
from tests.e2e.drivers import DRIVERS
from tests.e2e.flow import (
    Case,
    check_main,
    check_pinned,
    check_pinned_record,
    check_replay,
)
from tests.e2e.harness import Sandbox, skip_reason

RUNTIME = "claude-code"
_skip = skip_reason(RUNTIME)
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))
DRIVER = DRIVERS[RUNTIME]


@pytest.mark.parametrize("case", MAIN[RUNTIME], ids=lambda c: c.name)
def test_claude_code_same_with_and_without_tap(sandbox: Sandbox, case: Case) -> None:
    check_main(DRIVER, sandbox, case)


def test_claude_code_install_finds_the_settings(sandbox: Sandbox) -> None:
    """`hooktui install claude-code` as a user types it: no --settings."""
    deny = next(c for c in MAIN[RUNTIME] if c.name == "deny")
    check_main(DRIVER, sandbox, deny, discover=True)


# Pinned cases with the same settings run in one session (batch.py); a case that
# ends the turn, cannot start its hook or carries a secret runs alone.


@pytest.mark.parametrize("case", pinned_params(RUNTIME, PINNED[RUNTIME]))
def test_claude_code_pinned_verdict(sandbox: Sandbox, case: Case, tmp_path_factory) -> None:
    if group_key(case) is None:
        check_pinned(DRIVER, sandbox, case)
    else:
        check_seen(
            grouped_batch(DRIVER, tmp_path_factory, PINNED[RUNTIME], case).seen[case.name], case
        )


@pytest.mark.parametrize("case", pinned_params(RUNTIME, PINNED[RUNTIME], record=True))
def test_claude_code_pinned_record(sandbox: Sandbox, case: Case, tmp_path_factory) -> None:
    if group_key(case) is None:
        check_pinned_record(DRIVER, sandbox, case)
    else:
        check_records(DRIVER, grouped_batch(DRIVER, tmp_path_factory, PINNED[RUNTIME], case), case)


def test_claude_code_replay_of_real_traffic(sandbox: Sandbox) -> None:
    """What the real CLI sent, replayed: same verdicts; then an edited policy loosens one."""
    check_replay(DRIVER, sandbox, next(c for c in MAIN[RUNTIME] if c.name == "deny"))

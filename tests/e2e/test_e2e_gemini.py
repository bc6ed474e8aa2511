"""The real Gemini CLI, with and without the tap: it must not tell the difference."""

from __future__ import annotations

import pytest

from tests.e2e.cases import MAIN, PINNED
from tests.e2e.drivers import DRIVERS
from tests.e2e.flow import Case, check_main, check_pinned
from tests.e2e.harness import Sandbox, skip_reason

RUNTIME = "gemini-cli"
_skip = skip_reason(RUNTIME)
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))
DRIVER = DRIVERS[RUNTIME]


@pytest.mark.parametrize("case", MAIN[RUNTIME], ids=lambda c: c.name)
def test_gemini_cli_same_with_and_without_tap(sandbox: Sandbox, case: Case) -> None:
    check_main(DRIVER, sandbox, case)


def test_gemini_cli_install_finds_the_settings(sandbox: Sandbox) -> None:
    """`hooktui install gemini-cli` as a user types it: no --settings."""
    deny = next(c for c in MAIN[RUNTIME] if c.name == "deny")
    check_main(DRIVER, sandbox, deny, discover=True)


@pytest.mark.parametrize("case", PINNED[RUNTIME], ids=lambda c: c.name)
def test_gemini_cli_pinned_verdict(sandbox: Sandbox, case: Case) -> None:
    check_pinned(DRIVER, sandbox, case)

"""The real GitHub Copilot CLI, with and without the tap: it must not tell the difference.

All cases of a dialect run in ONE Copilot session (batch.py), bare and then
tapped. Copilot reads hooks from `.github/hooks/*.json` (its own camelCase
events and answers, wrapped by `hooktui install copilot`) and from
`.claude/settings.json` (Claude's, wrapped by `hooktui install claude-code`): the
records must name Copilot and agree with what it did either way.
"""

from __future__ import annotations

import pytest

from tests.e2e.batch import Batch, check_records, check_same, check_seen, run_batch
from tests.e2e.cases_chat import COPILOT, COPILOT_CLAUDE_SETTINGS
from tests.e2e.drivers_chat import COPILOT as DRIVER
from tests.e2e.drivers_chat import COPILOT_ANTHROPIC, COPILOT_CLAUDE
from tests.e2e.flow import Case
from tests.e2e.harness import Sandbox, skip_reason

_skip = skip_reason("copilot")
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))
PRE_TIMEOUT = 4  # seconds; the timeout cases sleep past it


def _pair(driver, cases, factory) -> tuple[Batch, Batch]:
    sb = Sandbox(factory.mktemp(driver.runtime))
    bare = run_batch(driver, sb, cases, tapped=False, pre_timeout=PRE_TIMEOUT)
    tapped = run_batch(driver, sb, cases, tapped=True, pre_timeout=PRE_TIMEOUT)
    return bare, tapped


@pytest.fixture(scope="module")
def github_hooks(tmp_path_factory) -> tuple[Batch, Batch]:
    return _pair(DRIVER, COPILOT, tmp_path_factory)


@pytest.fixture(scope="module")
def claude_settings(tmp_path_factory) -> tuple[Batch, Batch]:
    return _pair(COPILOT_CLAUDE, COPILOT_CLAUDE_SETTINGS, tmp_path_factory)


@pytest.mark.parametrize("case", COPILOT, ids=lambda c: c.name)
def test_copilot_github_hooks_same_with_and_without_tap(github_hooks, case: Case) -> None:
    bare, tapped = github_hooks
    check_seen(bare.seen[case.name], case)
    check_seen(tapped.seen[case.name], case)
    check_same(DRIVER, bare, tapped, case)


@pytest.mark.parametrize("case", COPILOT, ids=lambda c: c.name)
def test_copilot_github_hooks_record_agrees(github_hooks, case: Case) -> None:
    check_records(DRIVER, github_hooks[1], case)


@pytest.mark.parametrize("case", COPILOT_CLAUDE_SETTINGS, ids=lambda c: c.name)
def test_copilot_claude_settings_same_with_and_without_tap(claude_settings, case: Case) -> None:
    """Copilot running hooks written for (and installed by `hooktui install`) Claude Code."""
    bare, tapped = claude_settings
    check_seen(bare.seen[case.name], case)
    check_seen(tapped.seen[case.name], case)
    check_same(COPILOT_CLAUDE, bare, tapped, case)


@pytest.mark.parametrize("case", COPILOT_CLAUDE_SETTINGS, ids=lambda c: c.name)
def test_copilot_claude_settings_record_agrees(claude_settings, case: Case) -> None:
    """Installed with `--runtime claude-code`, yet the record names Copilot (its
    environment says it called) and judges by Copilot's rules."""
    check_records(COPILOT_CLAUDE, claude_settings[1], case)


# The same hooks, with Copilot talking to an Anthropic-style provider (Messages API).
ANTHROPIC_CASES = [
    c for c in COPILOT if c.name in ("deny", "allow", "rewrite", "exit1", "exit2", "post-block")
]


@pytest.fixture(scope="module")
def anthropic_provider(tmp_path_factory) -> tuple[Batch, Batch]:
    return _pair(COPILOT_ANTHROPIC, ANTHROPIC_CASES, tmp_path_factory)


@pytest.mark.parametrize("case", ANTHROPIC_CASES, ids=lambda c: c.name)
def test_copilot_anthropic_provider_same_with_and_without_tap(
    anthropic_provider, case: Case
) -> None:
    bare, tapped = anthropic_provider
    check_seen(bare.seen[case.name], case)
    check_seen(tapped.seen[case.name], case)
    check_same(COPILOT_ANTHROPIC, bare, tapped, case)

"""The real Mistral Vibe, with and without the tap: it must not tell the difference.

Each case list runs in ONE `vibe -p` session (batch.py), bare and then with the
hooks wrapped by the real `hooktui install mistral-vibe`; `hooktui uninstall`
then gives back hooks.toml byte for byte. Vibe's requests are recorded as its own
and judged by its rules (a `strict` hook's failure denies).
"""

from __future__ import annotations

import pytest

from tests.e2e.batch import Batch, check_records, check_same, check_seen, run_batch
from tests.e2e.cases_vibe import TIMEOUT_S, VIBE, VIBE_STRICT
from tests.e2e.drivers_vibe import VIBE as DRIVER
from tests.e2e.flow import Case
from tests.e2e.harness import Sandbox, hooktui, skip_reason

_skip = skip_reason("mistral-vibe")
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))
LISTS = {"plain": VIBE, "strict": VIBE_STRICT}


@pytest.fixture(scope="module")
def batches(tmp_path_factory) -> dict[str, tuple[Batch, Batch, bytes]]:
    """Per list: the bare batch, the tapped one, and hooks.toml after uninstall."""
    out = {}
    for name, cases in LISTS.items():
        sb = Sandbox(tmp_path_factory.mktemp(f"vibe-{name}"))
        bare = run_batch(DRIVER, sb, cases, tapped=False, pre_timeout=TIMEOUT_S)
        tapped = run_batch(DRIVER, sb, cases, tapped=True, pre_timeout=TIMEOUT_S)
        res = hooktui("uninstall", DRIVER.runtime, "--settings", str(DRIVER.settings_path(sb)))
        assert res.returncode == 0, res.stderr
        out[name] = (bare, tapped, DRIVER.settings_path(sb).read_bytes())
    return out


def _cases() -> list:
    return [
        pytest.param(name, case, id=case.name) for name, cases in LISTS.items() for case in cases
    ]


@pytest.mark.parametrize(("group", "case"), _cases())
def test_mistral_vibe_same_with_and_without_tap(batches, group: str, case: Case) -> None:
    bare, tapped, _ = batches[group]
    check_seen(bare.seen[case.name], case)
    check_seen(tapped.seen[case.name], case)
    check_same(DRIVER, bare, tapped, case)


@pytest.mark.parametrize(("group", "case"), _cases())
def test_mistral_vibe_record_agrees(batches, group: str, case: Case) -> None:
    check_records(DRIVER, batches[group][1], case)


@pytest.mark.parametrize("group", list(LISTS))
def test_mistral_vibe_install_round_trip(batches, group: str) -> None:
    """install wrapped both [[hooks]] commands (strict kept) and uninstall gave the
    file back byte for byte."""
    _, tapped, after = batches[group]
    assert tapped.settings_installed != tapped.settings_before
    for wrapped in tapped.installed_commands:
        assert "hooktui" in wrapped and "tap" in wrapped
        assert "--runtime mistral-vibe" in wrapped
    assert ("--fail-closed" in tapped.installed_commands[0]) is (group == "strict")
    assert after == tapped.settings_before

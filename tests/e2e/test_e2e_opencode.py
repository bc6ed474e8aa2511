"""The real OpenCode running hooktui's plugin, with and without the tap: it must not
tell the difference.

Each case list runs in ONE `opencode run` session (batch.py), bare (the plugin in
place, the commands as written) and then with the commands wrapped by the real
`hooktui install opencode`; `hooktui uninstall` then gives back command-hooks.json
byte for byte and leaves the plugin, which keeps running the hooks. The records
read each answer as the plugin acted on it in OpenCode.
"""

from __future__ import annotations

import pytest
from hooktui.tap.runtimes import get_adapter

from tests.e2e.batch import Batch, check_records, check_same, check_seen, run_batch
from tests.e2e.cases_opencode import OPENCODE, OPENCODE_CONTINUE, TIMEOUT_S
from tests.e2e.drivers_opencode import OPENCODE as DRIVER
from tests.e2e.flow import Case
from tests.e2e.harness import Sandbox, hooktui, skip_reason

_skip = skip_reason("opencode")
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))
LISTS = {"plain": OPENCODE, "continue": OPENCODE_CONTINUE}


@pytest.fixture(scope="module")
def batches(tmp_path_factory) -> dict[str, tuple[Batch, Batch, bytes, bytes]]:
    """Per list: the bare batch, the tapped one, and command-hooks.json after uninstall."""
    out = {}
    for name, cases in LISTS.items():
        sb = Sandbox(tmp_path_factory.mktemp(f"opencode-{name}"))
        bare = run_batch(DRIVER, sb, cases, tapped=False, pre_timeout=TIMEOUT_S)
        tapped = run_batch(DRIVER, sb, cases, tapped=True, pre_timeout=TIMEOUT_S)
        res = hooktui("uninstall", DRIVER.runtime, "--settings", str(DRIVER.settings_path(sb)))
        assert res.returncode == 0, res.stderr
        plugin = DRIVER.plugin_path(sb).read_bytes()
        out[name] = (bare, tapped, DRIVER.settings_path(sb).read_bytes(), plugin)
    return out


def _cases() -> list:
    return [
        pytest.param(name, case, id=case.name) for name, cases in LISTS.items() for case in cases
    ]


@pytest.mark.parametrize(("group", "case"), _cases())
def test_opencode_same_with_and_without_tap(batches, group: str, case: Case) -> None:
    bare, tapped, _, _ = batches[group]
    check_seen(bare.seen[case.name], case)
    check_seen(tapped.seen[case.name], case)
    check_same(DRIVER, bare, tapped, case)


@pytest.mark.parametrize(("group", "case"), _cases())
def test_opencode_record_agrees(batches, group: str, case: Case) -> None:
    check_records(DRIVER, batches[group][1], case)


@pytest.mark.parametrize("group", list(LISTS))
def test_opencode_install_round_trip(batches, group: str) -> None:
    """install wrapped both commands (onFailure kept) and uninstall gave the file back
    byte for byte; the plugin install found in place is untouched."""
    _, tapped, after, plugin = batches[group]
    assert plugin == get_adapter("opencode").runner_text()
    assert tapped.settings_installed != tapped.settings_before
    for wrapped in tapped.installed_commands:
        assert "hooktui" in wrapped and "tap" in wrapped
        assert "--runtime opencode" in wrapped
    assert ('"onFailure": "continue"' in tapped.settings_installed.decode()) is (
        group == "continue"
    )
    assert after == tapped.settings_before

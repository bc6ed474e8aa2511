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

from tests.e2e.batch import (
    Listed,
    bare_tapped_uninstalled,
    check_records,
    check_same,
    check_seen,
    list_params,
)
from tests.e2e.cases_opencode import OPENCODE, OPENCODE_CONTINUE, TIMEOUT_S
from tests.e2e.drivers_opencode import OPENCODE as DRIVER
from tests.e2e.flow import Case
from tests.e2e.harness import skip_reason

_skip = skip_reason("opencode")
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))
LISTS = {"plain": OPENCODE, "continue": OPENCODE_CONTINUE}


@pytest.fixture(scope="module")
def sessions(tmp_path_factory) -> dict[str, Listed]:
    return bare_tapped_uninstalled(DRIVER, tmp_path_factory, LISTS, TIMEOUT_S)


@pytest.mark.parametrize(("group", "case"), list_params(LISTS))
def test_opencode_same_with_and_without_tap(sessions, group: str, case: Case) -> None:
    listed = sessions[group]
    check_seen(listed.bare.seen[case.name], case)
    check_seen(listed.tapped.seen[case.name], case)
    check_same(DRIVER, listed.bare, listed.tapped, case)


@pytest.mark.parametrize(("group", "case"), list_params(LISTS))
def test_opencode_record_agrees(sessions, group: str, case: Case) -> None:
    check_records(DRIVER, sessions[group].tapped, case)


@pytest.mark.parametrize("group", list(LISTS))
def test_opencode_install_round_trip(sessions, group: str) -> None:
    """install wrapped both commands (onFailure kept) and uninstall gave the file back
    byte for byte; the plugin install found in place is untouched."""
    listed = sessions[group]
    tapped, after = listed.tapped, DRIVER.settings_bytes(listed.sb)
    assert DRIVER.plugin_path(listed.sb).read_bytes() == get_adapter("opencode").runner_text()
    assert tapped.settings_installed != tapped.settings_before
    for wrapped in tapped.installed_commands:
        assert "hooktui" in wrapped and "tap" in wrapped
        assert "--runtime opencode" in wrapped
    assert ('"onFailure": "continue"' in tapped.settings_installed.decode()) is (
        group == "continue"
    )
    assert after == tapped.settings_before

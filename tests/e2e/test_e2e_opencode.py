"""The real OpenCode running hooktui's plugin, with and without the tap: it must not
tell the difference.

Each case list runs in ONE `opencode run` session (batch.py), bare (the plugin in
place, the commands as written) and then with the commands wrapped by the real
`hooktui install opencode`; `hooktui uninstall` then gives back command-hooks.json
byte for byte and leaves the plugin, which keeps running the hooks. The records
read each answer as the plugin acted on it in OpenCode.
"""

from __future__ import annotations

import json

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
from tests.e2e.drivers_opencode import CONFIG
from tests.e2e.drivers_opencode import OPENCODE as DRIVER
from tests.e2e.flow import Case
from tests.e2e.harness import Sandbox, hook_command, skip_reason

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


# --- permission.ask ------------------------------------------------------------------

_PROBE = """import fs from "node:fs";
const log = (name, input) => fs.appendFileSync(LOG, JSON.stringify({ name, input }) + "\\n");
export const Probe = async () => ({
  event: async ({ event }) => {
    if (String(event.type).startsWith("permission")) log(event.type, event.properties);
  },
  "permission.ask": async (input) => log("permission.ask", input),
});
"""


class _AskingOpenCode(type(DRIVER)):
    """OpenCode told to ask before any bash command (`"permission": {"bash": "ask"}`)."""

    def env(self, sb: Sandbox) -> dict[str, str]:
        config = {**CONFIG, "permission": {"bash": "ask"}}
        return super().env(sb) | {"OPENCODE_CONFIG_CONTENT": json.dumps(config)}


def test_opencode_asks_for_permission_but_never_calls_the_permission_ask_hook(tmp_path) -> None:
    """1.18.33 (seen 2026-12-07; ORACLE.md): with bash set to "ask", OpenCode asks (the
    bus event `permission.asked`, which `run --auto` answers "once"), yet no plugin's
    `permission.ask` hook is called: the binary has no trigger for it. So the command
    hooks hooktui's plugin runs for `permission.ask` never run either. A release that
    wires it up fails here (and in the drift report)."""
    sb = Sandbox(tmp_path)
    sb.fresh_run_dirs()
    driver = _AskingOpenCode()
    driver.write_settings(sb, hook_command(sb.hooks, "pre"), hook_command(sb.hooks, "post"))
    settings = json.loads(driver.settings_path(sb).read_text())
    asked = [{"type": "command", "command": hook_command(sb.hooks, "ask"), "timeout": 30}]
    settings["hooks"]["permission.ask"] = [{"matcher": "", "hooks": asked}]
    driver.settings_path(sb).write_text(json.dumps(settings, indent=2) + "\n")
    log = sb.root / "probe.jsonl"
    probe = _PROBE.replace("LOG", json.dumps(str(log)))
    (driver.plugin_path(sb).parent / "probe.js").write_text(probe)

    run = driver.run(sb, "ask")
    assert run.exit_code == 0, run.describe()
    seen = [json.loads(line) for line in log.read_text().splitlines()]
    assert [s["name"] for s in seen] == ["permission.asked", "permission.replied"], seen
    assert seen[0]["input"]["permission"] == "bash"
    assert seen[1]["input"]["reply"] == "once"  # --auto
    assert (sb.project / "marker-original").exists()  # the command ran
    assert len(run.hook_calls.get("pre", [])) == 1 and "ask" not in run.hook_calls

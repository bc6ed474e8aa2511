"""The real Mistral Vibe, with and without the tap: it must not tell the difference.

Each case list runs in ONE `vibe -p` session (batch.py), bare and then with the
hooks wrapped by the real `hooktui install mistral-vibe`; `hooktui uninstall`
then gives back hooks.toml byte for byte. Vibe's requests are recorded as its own
and judged by its rules (a `strict` hook's failure denies).
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import wait_for_records
from tests.e2e.batch import (
    Listed,
    bare_tapped_uninstalled,
    check_records,
    check_same,
    check_seen,
    list_params,
)
from tests.e2e.cases_vibe import TIMEOUT_S, VIBE, VIBE_STRICT
from tests.e2e.drivers_vibe import VIBE as DRIVER
from tests.e2e.flow import Case
from tests.e2e.harness import Sandbox, hook_command, hooktui, skip_reason

_skip = skip_reason("mistral-vibe")
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))
LISTS = {"plain": VIBE, "strict": VIBE_STRICT}


@pytest.fixture(scope="module")
def sessions(tmp_path_factory) -> dict[str, Listed]:
    return bare_tapped_uninstalled(DRIVER, tmp_path_factory, LISTS, TIMEOUT_S)


@pytest.mark.parametrize(("group", "case"), list_params(LISTS))
def test_mistral_vibe_same_with_and_without_tap(sessions, group: str, case: Case) -> None:
    listed = sessions[group]
    check_seen(listed.bare.seen[case.name], case)
    check_seen(listed.tapped.seen[case.name], case)
    check_same(DRIVER, listed.bare, listed.tapped, case)


@pytest.mark.parametrize(("group", "case"), list_params(LISTS))
def test_mistral_vibe_record_agrees(sessions, group: str, case: Case) -> None:
    check_records(DRIVER, sessions[group].tapped, case)


@pytest.mark.parametrize("group", list(LISTS))
def test_mistral_vibe_install_round_trip(sessions, group: str) -> None:
    """install wrapped both [[hooks]] commands (strict kept) and uninstall gave the
    file back byte for byte."""
    tapped, after = sessions[group].tapped, DRIVER.settings_bytes(sessions[group].sb)
    assert tapped.settings_installed != tapped.settings_before
    for wrapped in tapped.installed_commands:
        assert "hooktui" in wrapped and "tap" in wrapped
        assert "--runtime mistral-vibe" in wrapped
    assert ("--fail-closed" in tapped.installed_commands[0]) is (group == "strict")
    assert after == tapped.settings_before


def _agent_session(sb: Sandbox, tapped: bool):
    """One turn with a post_agent hook that asks for a revision once (hook.py `once`)."""
    sb.fresh_run_dirs()
    DRIVER.write_settings(sb, hook_command(sb.hooks, "pre"), hook_command(sb.hooks, "post"))
    path = DRIVER.settings_path(sb)
    agent = json.dumps(hook_command(sb.hooks, "agent"))
    path.write_text(
        path.read_text() + f'\n[[hooks]]\nname = "agent"\ntype = "post_agent"\ncommand = {agent}\n'
    )
    sb.answer("agent", stdout=json.dumps({"decision": "deny", "reason": "E2E-AGAIN"}), once=True)
    if tapped:
        sb.stream.unlink(missing_ok=True)
        res = hooktui(
            "install", DRIVER.runtime, "--settings", str(path), "--stream", str(sb.stream)
        )
        assert res.returncode == 0, res.stderr
    script = {"steps": [{"text": "a first answer"}]}
    return sb.run(
        "tapped" if tapped else "bare", DRIVER.runtime, DRIVER.argv(sb), DRIVER.env(sb), script
    )


def test_mistral_vibe_post_agent_deny_asks_for_a_revision(tmp_path):
    """post_agent `decision: "deny"` (seen 2026-12-07, 3.0.3): the model is asked again,
    the reason its last user message; the hook runs again and accepts. Alike tapped, and
    the records say deny, then allow."""
    sb = Sandbox(tmp_path)
    for tapped in (False, True):
        run = _agent_session(sb, tapped)
        assert run.exit_code == 0, run.describe()
        assert [r["kind"] for r in run.requests] == ["step0", "final"], run.describe()
        last = run.of_kind("final")[0]["body"]["messages"][-1]
        assert last == {"role": "user", "content": "E2E-AGAIN"}
        assert len(run.hook_calls["agent"]) == 2
    records = [r for r in wait_for_records(sb.stream, 2) if r["native_event"] == "post_agent"]
    assert [(r["decision"], r["reason"]) for r in records] == [("deny", "E2E-AGAIN"), ("allow", "")]
    assert all(r["runtime"] == "mistral-vibe" and r["event"] == "stop" for r in records)

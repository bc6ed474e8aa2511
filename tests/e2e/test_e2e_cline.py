"""The real Cline CLI, with and without the tap: it must not tell the difference.

Each case list runs in ONE `cline --json` session (batch.py), bare and then with
the hook files wrapped by the real `hooktui install cline`; `hooktui uninstall
cline` then puts every file back as it was. Cline's own
account of the hooks it ran (`hook_event` lines of `--json`) agrees with the
records, and the hooks it runs in the background are recorded as answers it
never read.
"""

from __future__ import annotations

import json
import os
from collections import Counter

import pytest

from tests.e2e.batch import (
    Batch,
    Listed,
    bare_tapped_uninstalled,
    check_records,
    check_same,
    check_seen,
    list_params,
)
from tests.e2e.cases_cline import BACKGROUND_CANCEL, CLINE, CLINE_POST_CANCEL
from tests.e2e.drivers_cline import BACKGROUND
from tests.e2e.drivers_cline import CLINE as DRIVER
from tests.e2e.flow import Case
from tests.e2e.harness import Sandbox, skip_reason

_skip = skip_reason("cline")
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))
LISTS = {"main": CLINE, "post-cancel": CLINE_POST_CANCEL}


def _background_cancels(name: str, sb: Sandbox) -> None:
    if name == "post-cancel":
        for hook in BACKGROUND.values():
            sb.answer(hook, **BACKGROUND_CANCEL)


@pytest.fixture(scope="module")
def sessions(tmp_path_factory) -> dict[str, Listed]:
    return bare_tapped_uninstalled(DRIVER, tmp_path_factory, LISTS, 30, _background_cancels)


@pytest.mark.parametrize(("group", "case"), list_params(LISTS))
def test_cline_same_with_and_without_tap(sessions, group: str, case: Case) -> None:
    listed = sessions[group]
    check_seen(listed.bare.seen[case.name], case)
    check_seen(listed.tapped.seen[case.name], case)
    check_same(DRIVER, listed.bare, listed.tapped, case)


@pytest.mark.parametrize(("group", "case"), list_params(LISTS))
def test_cline_record_agrees(sessions, group: str, case: Case) -> None:
    check_records(DRIVER, sessions[group].tapped, case)


@pytest.mark.parametrize("group", list(LISTS))
def test_cline_install_round_trip(sessions, group: str) -> None:
    """install put a wrapper under each hook's name and kept the hook beside it;
    uninstall gave back the files as they were (test_install_hookfiles.py: their modes,
    owners and inodes too)."""
    tapped, sb = sessions[group].tapped, sessions[group].sb
    before = json.loads(tapped.settings_before)
    installed = json.loads(tapped.settings_installed)
    for name in before:
        assert installed[name].startswith("#!/bin/sh\n# hooktui: "), name
        stem, dot, ext = name.partition(".")
        assert installed[f"{stem}.hooktui-original{dot}{ext}"] == before[name]
    assert json.loads(DRIVER.settings_bytes(sb)) == before
    assert not any("hooktui-original" in p for p in os.listdir(DRIVER.settings_path(sb)))


def _hook_events(batch: Batch) -> Counter:
    """Cline's own account: the `hook_event` lines of its --json output, by hookName."""
    lines = [json.loads(line) for line in batch.run.stdout.splitlines() if line.startswith("{")]
    return Counter(e["hookEventName"] for e in lines if e.get("type") == "hook_event")


@pytest.mark.parametrize("group", list(LISTS))
def test_cline_records_agree_with_its_hook_events(sessions, group: str) -> None:
    """Every hook event Cline reports ran a hook, and the tap recorded each one."""
    bare, tapped = sessions[group].bare, sessions[group].tapped
    assert _hook_events(tapped) == _hook_events(bare)
    recorded = Counter(r["native_event"] for s in tapped.seen.values() for r in s.records)
    for event in ("tool_call", "tool_result"):
        assert recorded[event] == _hook_events(tapped)[event], event


def test_cline_background_hooks_change_nothing(sessions) -> None:
    """TaskStart and SessionShutdown run in the background (3.0.65): their cancel is
    never read, and the records say so."""
    bare, tapped = sessions["post-cancel"].bare, sessions["post-cancel"].tapped
    assert bare.seen["post-cancel"].markers == ["marker-original"]
    calls = tapped.run.hook_calls
    assert calls.get("start") and calls.get("shutdown"), sorted(calls)
    sb = sessions["post-cancel"].sb
    records = [json.loads(line) for line in sb.stream.read_text().splitlines()]
    background = [r for r in records if r["native_event"] in ("agent_start", "session_shutdown")]
    assert {r["native_event"] for r in background} == {"agent_start", "session_shutdown"}
    for rec in background:
        assert rec["runtime"] == "cline"
        assert rec["decision"] == "allow"
        assert rec["answer_effects"] == {"async": True}

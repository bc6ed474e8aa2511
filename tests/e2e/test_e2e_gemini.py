"""The real Gemini CLI, with and without the tap: it must not tell the difference."""

from __future__ import annotations

import json

import pytest

from tests.conftest import wait_for_records
from tests.e2e.batch import check_records, group_key, grouped_batch, pinned_params
from tests.e2e.batch import check_seen as check_batch_seen
from tests.e2e.cases import MAIN, PINNED
from tests.e2e.cases_events import GEMINI_EVENTS
from tests.e2e.cases_others import GEMINI_EFFECTS
from tests.e2e.drivers import DRIVERS
from tests.e2e.events import EventCase, check_record, check_seen, run_event
from tests.e2e.flow import (
    Case,
    check_main,
    check_pinned,
    check_pinned_record,
    check_replay,
)
from tests.e2e.harness import Sandbox, hook_command, hooktui, skip_reason

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


# Pinned cases with the same settings run in one session (batch.py).


@pytest.mark.parametrize("case", pinned_params(RUNTIME, PINNED[RUNTIME]))
def test_gemini_cli_pinned_verdict(sandbox: Sandbox, case: Case, tmp_path_factory) -> None:
    if group_key(case) is None:
        check_pinned(DRIVER, sandbox, case)
    else:
        batch = grouped_batch(DRIVER, tmp_path_factory, PINNED[RUNTIME], case)
        check_batch_seen(batch.seen[case.name], case)


@pytest.mark.parametrize("case", pinned_params(RUNTIME, PINNED[RUNTIME], record=True))
def test_gemini_cli_pinned_record(sandbox: Sandbox, case: Case, tmp_path_factory) -> None:
    if group_key(case) is None:
        check_pinned_record(DRIVER, sandbox, case)
    else:
        check_records(DRIVER, grouped_batch(DRIVER, tmp_path_factory, PINNED[RUNTIME], case), case)


def test_gemini_cli_uninstall_after_the_cli_rewrote_its_settings(sandbox: Sandbox) -> None:
    """Gemini CLI rewrites a settings file that uses a deprecated key when it starts.

    A tapped run in between: the runtime keeps the wrapped hooks through its
    rewrite, and uninstall unwraps them in place, keeping the runtime's change
    (and the pre-install backup) instead of restoring a stale file.
    """
    sandbox.fresh_run_dirs()
    sandbox.answer("pre")
    sandbox.answer("post")
    pre, post = hook_command(sandbox.hooks, "pre"), hook_command(sandbox.hooks, "post")
    DRIVER.write_settings(sandbox, pre, post)
    path = DRIVER.settings_path(sandbox)
    settings = json.loads(path.read_text())
    settings["general"] = {"disableAutoUpdate": True}  # deprecated: enableAutoUpdate
    path.write_text(json.dumps(settings, indent=2) + "\n")
    before = path.read_bytes()

    res = hooktui("install", RUNTIME, "--settings", str(path), "--stream", str(sandbox.stream))
    assert res.returncode == 0, res.stderr
    wrapped = DRIVER.commands(path.read_bytes())
    run = DRIVER.run(sandbox, "tapped")
    assert run.exit_code == 0, run.describe()
    rewritten = path.read_bytes()
    assert rewritten != before  # the runtime migrated the file...
    assert json.loads(rewritten)["general"] == {"enableAutoUpdate": False}
    assert DRIVER.commands(rewritten) == wrapped  # ...and kept the tap in it
    assert [r["native_event"] for r in wait_for_records(sandbox.stream, 2)] == [
        "BeforeTool",
        "AfterTool",
    ]

    res = hooktui("uninstall", RUNTIME, "--settings", str(path))
    assert res.returncode == 0, res.stderr
    after = path.read_bytes()
    assert DRIVER.commands(after) == [pre, post]
    assert json.loads(after)["general"] == {"enableAutoUpdate": False}
    assert path.with_name(path.name + ".hooktui-backup").read_bytes() == before


def test_gemini_cli_replay_of_real_traffic(sandbox: Sandbox) -> None:
    """What the real CLI sent, replayed: same verdicts; then an edited policy loosens one."""
    check_replay(DRIVER, sandbox, next(c for c in MAIN[RUNTIME] if c.name == "deny"))


def test_gemini_cli_substitutes_into_a_wrapped_hook_as_into_a_bare_one(sandbox: Sandbox) -> None:
    """Gemini CLI runs `bash -c` on a hook's command after putting the shell-quoted
    project path where `$GEMINI_PROJECT_DIR` was: a bash-ism and a project path with
    a space in it must work the same wrapped as bare."""
    sandbox.project = sandbox.root / "my project"
    deny = next(c for c in MAIN[RUNTIME] if c.name == "deny")
    seen = []
    for wrapped in (False, True):
        sandbox.fresh_run_dirs()
        sandbox.answer("pre", **deny.answer)
        sandbox.answer("post")
        pre = "[[ -d $GEMINI_PROJECT_DIR ]] && cd $GEMINI_PROJECT_DIR && " + hook_command(
            sandbox.hooks, "pre"
        )
        DRIVER.write_settings(sandbox, pre, hook_command(sandbox.hooks, "post"))
        if wrapped:
            path = DRIVER.settings_path(sandbox)
            res = hooktui(
                "install", RUNTIME, "--settings", str(path), "--stream", str(sandbox.stream)
            )
            assert res.returncode == 0, res.stderr
        run = DRIVER.run(sandbox, "tapped" if wrapped else "bare")
        result = DRIVER.tool_result(run)
        calls = run.hook_calls.get("pre", [])
        seen.append(
            (
                result["content"],
                result["is_error"],
                len(calls),
                (sandbox.project / "marker-original").exists(),
            )
        )
    assert seen[0] == seen[1]
    assert seen[0][2] == 1 and not seen[0][3]  # the hook ran, and denied: the tool did not
    (record, *_) = wait_for_records(sandbox.stream, 1)
    assert (record["decision"], record["reason"]) == ("deny", "E2E-DENY")
    assert record["hook"]["argv"][:2] == ["bash", "-c"]
    assert f"cd '{sandbox.project}'" in record["hook"]["argv"][2]  # as Gemini CLI substituted


# --- What the model-level answers leave in the record (cases_events.GEMINI_EVENTS) -----------


@pytest.mark.parametrize("case", GEMINI_EFFECTS, ids=lambda c: c.name)
def test_gemini_cli_model_level_answer_effects_are_recorded(case: EventCase, tmp_path_factory):
    """Inside the real CLI (its own hook runner), through the tap: the runtime does what
    is pinned, and the record keeps the field it acted on in `answer_effects`."""
    seen = run_event(case, Sandbox(tmp_path_factory.mktemp(case.name)), tapped=True)
    check_seen(case, seen)
    check_record(case, seen)


def test_gemini_cli_hook_variables_are_recorded(tmp_path_factory) -> None:
    """What Gemini CLI 0.61 sets for its hooks (GEMINI_PLANS_DIR, and CLAUDE_PROJECT_DIR
    for compatibility among them) is what the record keeps as the hook's variables."""
    case = next(c for c in GEMINI_EVENTS if c.name == "before-agent-deny")
    seen = run_event(case, Sandbox(tmp_path_factory.mktemp("vars")), tapped=True)
    check_seen(case, seen)
    [call] = seen.run.hook_calls[case.event]
    # The five the runtime sets (ORACLE.md; the caller's own variables pass through too).
    sets = ("GEMINI_PROJECT_DIR", "GEMINI_PLANS_DIR", "GEMINI_CWD", "GEMINI_SESSION_ID")
    given = {k: call["env"][k] for k in (*sets, "CLAUDE_PROJECT_DIR")}
    [record] = [r for r in seen.records if r["native_event"] == case.event]
    assert {k: record["hook"]["env"].get(k) for k in given} == given

"""The replay screen, driven with Pilot over sessions recorded through the real tap."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hooktui.replay.run import Options
from hooktui.replay.session import load_session
from hooktui.tui.app.replay import (
    COLUMNS,
    PolicyPrompt,
    ReplayApp,
    ReplayHelp,
    ReplayScreen,
    open_replay,
)
from textual.app import App
from textual.widgets import DataTable, Input, Label, Static, TabbedContent

from tests.replay.helpers import (
    COMMANDS,
    PYTHON,
    V1,
    V2,
    guard_command,
    record_session,
    write_guard,
)

# A policy without paths in it, so the snapshot does not depend on tmp dirs.
DENY_ALL = 'cat >/dev/null; echo \'{"decision":"deny","reason":"frozen"}\''


@pytest.fixture
def session(tmp_path: Path) -> Path:
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    record_session(stream, "gemini-cli", [PYTHON, str(guard)], COMMANDS, tmp_path)
    return stream


def make_app(stream: Path, policy: str | None, watch: list[str] | None = None) -> ReplayApp:
    s = load_session(str(stream))
    return ReplayApp(
        s.entries, Options(policy=policy, jobs=2), session=stream.name, watch=watch or []
    )


async def finished(pilot, generation: int = 1) -> ReplayScreen:
    """The replay screen once run `generation` is complete (bounded wait, not a timing check)."""
    for _ in range(1200):
        screen = pilot.app.screen
        if (
            isinstance(screen, ReplayScreen)
            and screen.generation >= generation
            and screen.report is not None
            and not screen.running
        ):
            return screen
        await pilot.pause(0.05)
    raise AssertionError("the replay never finished")


def rows(screen: ReplayScreen) -> list[dict[str, str]]:
    table = screen.query_one(DataTable)
    return [
        dict(zip(COLUMNS, (str(c) for c in table.get_row_at(i)), strict=True))
        for i in range(table.row_count)
    ]


async def test_side_by_side_changes_only_and_keys(session: Path, tmp_path: Path):
    edited = write_guard(tmp_path / "guard2.py", V2)
    app = make_app(session, guard_command(edited))
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await finished(pilot)
        table = rows(screen)
        assert [r["tool"] for r in table] == ["run_shell_com…"] * 5
        assert [(r["before"], r["after"]) for r in table] == [
            ("allow", "allow"),
            ("deny", "allow"),
            ("deny", "deny"),
            ("allow", "allow"),
            ("allow", "deny"),
        ]
        assert (table[1]["result"], table[4]["result"]) == ("≠ ▲ loosened", "≠ ▼ tightened")
        header = str(screen.query_one("#replay-header", Static).render())
        assert "changed 2" in header and "loosened 1" in header and "tightened 1" in header

        await pilot.press("o")  # changes only
        assert [r["input"] for r in rows(screen)] == ["rm -rf build", "curl x.sh | sh"]
        await pilot.press("G", "enter")  # last row, detail
        detail = screen.query_one("#replay-detail")
        assert detail.has_class("visible")
        summary = str(screen.query_one("#detail-summary", Static).render())
        assert "curl x.sh | sh" in summary and "no pipe to shell" in summary
        diff = str(screen.query_one("#detail-diff", Static).render())
        assert '-  "decision": "allow"' in diff and '+  "decision": "deny"' in diff
        request = str(screen.query_one("#detail-request", Static).render())
        assert json.loads(request)["tool_input"]["command"] == "curl x.sh | sh"
        tabs = screen.query_one(TabbedContent)
        tabs.active = "tab-response"
        await pilot.pause()
        response = str(screen.query_one("#detail-response", Static).render())
        assert "exit 0" in response and '"decision": "deny"' in response

        await pilot.press("c")  # copy the selected result as JSON
        copied = json.loads(app.clipboard)
        assert copied["class"] == "changed" and copied["direction"] == "tightened"
        assert copied["record"]["summary"] == "curl x.sh | sh"

        await pilot.press("g", "j")
        assert screen.current_result.record.summary == "curl x.sh | sh"
        await pilot.press("k")
        assert screen.current_result.record.summary == "rm -rf build"
        await pilot.press("escape")  # closes the detail
        assert not detail.has_class("visible")
        await pilot.press("o")
        assert len(rows(screen)) == 5
        await pilot.press("q")
    report = app.return_value
    assert report is not None and report.exit_status() == 1


async def test_filter_checked_as_you_type(session: Path):
    app = make_app(session, DENY_ALL)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await finished(pilot)
        await pilot.press("slash")
        box = screen.query_one("#replay-filter", Input)
        assert box.has_focus
        await pilot.press(*"decision:(")
        error = screen.query_one("#replay-filter-error", Label)
        assert error.has_class("visible")
        await pilot.press("enter")  # a bad filter is not applied
        assert len(rows(screen)) == 5
        box.value = ""
        await pilot.press(*"decision:deny")
        assert not error.has_class("visible")
        await pilot.press("enter")
        assert [r["input"] for r in rows(screen)] == [
            "rm -rf build",
            "git push --force origin main",
        ]
        assert "filter: decision:deny" in str(screen.query_one("#replay-header", Static).render())
        await pilot.press("escape")
        assert len(rows(screen)) == 5


async def test_tab_keys_and_help(session: Path):
    app = make_app(session, DENY_ALL)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await finished(pilot)
        await pilot.press("3")  # the response tab, opening the detail
        assert screen.query_one("#replay-detail").has_class("visible")
        assert screen.query_one(TabbedContent).active == "tab-response"
        await pilot.press("5")
        assert screen.query_one(TabbedContent).active == "tab-raw"
        raw = json.loads(str(screen.query_one("#detail-raw", Static).render()))
        assert raw["after"] == {"decision": "deny", "reason": "frozen"}
        await pilot.press("question_mark")
        assert isinstance(app.screen, ReplayHelp)
        assert "changes only" in str(app.screen.query_one(Static).render())
        await pilot.press("escape")
        assert app.screen is screen


async def test_rerun_key_and_watch_mode_refresh(session: Path, tmp_path: Path):
    guard = write_guard(tmp_path / "guard.py", V1)  # the same rules the session was recorded with
    app = make_app(session, guard_command(guard), watch=[str(guard)])
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await finished(pilot)
        assert screen.report.counts()["unchanged"] == 5
        await pilot.press("j", "j", "j")
        write_guard(guard, V2)  # save an edit: the screen re-runs by itself
        screen = await finished(pilot, generation=2)
        assert screen.query_one(DataTable).cursor_row == 3  # kept across the re-run
        counts = screen.report.counts()
        assert (counts["changed"], counts["loosened"], counts["tightened"]) == (2, 1, 1)
        assert "watching (2)" in str(screen.query_one("#replay-header", Static).render())


async def test_skipped_rows_show_why(tmp_path: Path):
    from tests.replay.helpers import request_for, tap

    stream = tmp_path / "session.jsonl"
    tap(stream, "claude-code", ["true"], request_for("claude-code", "ls", str(tmp_path)))
    tap(stream, "claude-code", ["true"], b"")
    from tests.conftest import wait_for_records

    wait_for_records(stream, 2)
    app = make_app(stream, None)  # each record's own hook
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await finished(pilot)
        assert [r["result"] for r in rows(screen)] == ["=", "- skipped"]
        await pilot.press("j", "enter")
        summary = str(screen.query_one("#detail-summary", Static).render())
        assert "no request was recorded" in summary


class Host(App):
    """Stands in for `hooktui watch`: a screen with calls that `r` replays."""

    def __init__(self, records) -> None:
        super().__init__()
        self.records = records

    def compose(self):
        yield Label("watch")

    def on_key(self, event) -> None:
        if event.key == "r":
            open_replay(self, self.records, session="stream.jsonl")


async def test_open_replay_asks_for_the_policy(session: Path, tmp_path: Path):
    records = [e.record for e in load_session(str(session)).entries][:2]
    edited = write_guard(tmp_path / "guard2.py", V2)
    app = Host(records)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("r")
        assert isinstance(app.screen, PolicyPrompt)
        prompt_input = app.screen.query_one(Input)
        prompt_input.value = guard_command(edited)
        await pilot.press("enter")
        screen = await finished(pilot)
        assert [r["result"] for r in rows(screen)] == ["=", "≠ ▲ loosened"]
        await pilot.press("q")  # back to watch, not out of the app
        assert not isinstance(app.screen, ReplayScreen)
        assert app.is_running
        await pilot.press("r")
        await pilot.press("escape")  # cancelled: nothing pushed
        assert not isinstance(app.screen, (PolicyPrompt, ReplayScreen))


def test_snapshot_main_screen(session: Path, snap_compare):
    async def run_before(pilot) -> None:
        await finished(pilot)

    assert snap_compare(make_app(session, DENY_ALL), terminal_size=(110, 24), run_before=run_before)


def test_snapshot_detail(session: Path, snap_compare):
    async def run_before(pilot) -> None:
        await finished(pilot)
        await pilot.press("j", "enter")

    assert snap_compare(make_app(session, DENY_ALL), terminal_size=(110, 30), run_before=run_before)

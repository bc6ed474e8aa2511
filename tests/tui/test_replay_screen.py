"""The replay screen, driven with Pilot over sessions recorded through the real tap."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hooktui.replay.run import Options
from hooktui.replay.session import load_session
from hooktui.tui.app.help import HelpScreen
from hooktui.tui.app.replay import PolicyPrompt, ReplayApp, ReplayScreen, open_replay
from hooktui.tui.present.columns import REPLAY_COLUMNS, layout
from rich.console import Console
from textual.app import App
from textual.widgets import Input, Label, Static

from tests.replay.helpers import (
    COMMANDS,
    PYTHON,
    V1,
    V2,
    guard_command,
    record_session,
    v1_session,
    write_guard,
)

# A policy without paths in it, so the snapshot does not depend on tmp dirs.
DENY_ALL = 'cat >/dev/null; echo \'{"decision":"deny","reason":"frozen"}\''
# Denies piping curl to sh, allows the rest: over the session, line 2 is the first change.
NO_CURL = (
    'if grep curl >/dev/null; then echo \'{"decision":"deny","reason":"no pipe to shell"}\';'
    ' else echo \'{"decision":"allow"}\'; fi'
)


@pytest.fixture
def session(tmp_path: Path) -> Path:
    return v1_session(tmp_path)


def make_app(stream: Path, policy: str | None, watch: list[str] | None = None) -> ReplayApp:
    s = load_session(str(stream))
    return ReplayApp(
        s.records, Options(policy=policy, jobs=2), session=stream.name, watch=watch or []
    )


async def finished(pilot, generation: int = 1) -> ReplayScreen:
    """The replay screen once run `generation` is complete (bounded wait, not a timing check)."""
    for _ in range(1200):
        screen = pilot.app.screen
        if (
            isinstance(screen, ReplayScreen)
            and screen.run.generation >= generation
            and screen.run.report is not None
            and not screen.run.running
        ):
            return screen
        await pilot.pause(0.05)
    raise AssertionError("the replay never finished")


def rows(screen: ReplayScreen) -> list[dict[str, str]]:
    """Each row as the list draws it, cut into its columns."""
    width = screen.list.scrollable_content_region.width
    out = []
    for i in range(screen.list.row_count()):
        line = screen.list.render_row(i, width).plain
        cells, x = {}, 0
        for column, w in layout(REPLAY_COLUMNS, width):
            cells[column.name] = line[x : x + w].strip()
            x += w + 1
        out.append(cells)
    return out


async def detail_text(pilot, screen: ReplayScreen, tab: str, width: int = 200) -> str:
    """A detail tab's text once the pane shows the selected row, as a terminal prints it."""
    want = (screen.run.generation, screen.current_result.index)
    for _ in range(400):
        if screen.detail.key == want:
            break
        await pilot.pause(0.02)
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(screen.detail.body(tab).content)
    return console.export_text()


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
        assert [r["summary"] for r in rows(screen)] == ["rm -rf build", "curl x.sh | sh"]
        await pilot.press("G", "enter")  # last row, into its detail
        assert screen.detail.has_focus_within
        summary = await detail_text(pilot, screen, "summary")
        assert "curl x.sh | sh" in summary and "no pipe to shell" in summary
        diff = await detail_text(pilot, screen, "diff")
        assert '-  "decision": "allow"' in diff and '+  "decision": "deny"' in diff
        request = await detail_text(pilot, screen, "request")
        assert json.loads(request)["tool_input"]["command"] == "curl x.sh | sh"
        await pilot.press("3")
        response = await detail_text(pilot, screen, "response")
        assert "exit 0" in response and '"decision": "deny"' in response

        await pilot.press("c")  # copy the selected result as JSON
        copied = json.loads(app.clipboard)
        assert copied["class"] == "changed" and copied["direction"] == "tightened"
        assert copied["record"]["summary"] == "curl x.sh | sh"

        await pilot.press("enter")  # back to the list
        await pilot.press("g", "j")
        assert screen.current_result.record.summary == "curl x.sh | sh"
        await pilot.press("k")
        assert screen.current_result.record.summary == "rm -rf build"
        await pilot.press("enter", "escape")  # into the detail and back out
        assert screen.list.has_focus
        await pilot.press("o")
        assert len(rows(screen)) == 5
        await pilot.press("q")
    report = app.return_value
    assert report is not None and report.exit_status() == 1


async def test_opens_on_the_first_change_with_what_changed_shown(session: Path):
    """No key pressed: the cursor is on the first changed call and the detail pane,
    under the list, says before and after, the reasons, and the call."""
    app = make_app(session, NO_CURL)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await finished(pilot)
        assert screen.list.has_focus
        assert screen.current_result.line == 2  # rm -rf build: line 1 did not change
        summary = await detail_text(pilot, screen, "summary")
        lines = summary.splitlines()
        assert lines[0].startswith("rm -rf build")
        assert lines[1].split() == [
            "result",
            "changed",
            "▲",
            "loosened:",
            *"stopped before, let through now".split(),
        ]
        assert lines[2].split() == ["before", "deny", '"destructive"']
        assert lines[3].split() == ["after", "allow"]
        assert '"command": "rm -rf build"' in summary  # the call the hook judged
        detail, listed = screen.detail.region, screen.list.region
        assert detail.height >= 10 and detail.y >= listed.bottom  # shown, under the list
        assert listed.height >= 10  # and the list still shows its rows


async def test_a_move_by_the_user_is_kept(session: Path):
    """The cursor goes to the first change only until the user picks a row."""
    app = make_app(session, NO_CURL)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await finished(pilot)
        await pilot.press("k")
        assert screen.current_result.line == 1
        summary = await detail_text(pilot, screen, "summary")
        assert summary.splitlines()[1].split() == ["result", "unchanged"]
        await pilot.press("R")  # a re-run keeps the user's row
        screen = await finished(pilot, generation=2)
        assert screen.current_result.line == 1


async def test_usable_at_80x24(session: Path):
    """At 80x24: several rows of the list, and under them the decisions of the focused call
    without scrolling; z gives the detail the screen, esc gives the list back."""
    app = make_app(session, NO_CURL)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await finished(pilot)
        await pilot.pause()
        assert screen.list.region.height >= 8  # every row of this session, and more
        scroll = screen.detail.query_one("#summary-scroll")
        width = screen.detail.body("summary").content_region.width
        printed = await detail_text(pilot, screen, "summary", width=width)
        # What the pane shows before any scrolling: its first lines, at its width.
        shown = printed.splitlines()[: scroll.scrollable_content_region.height]
        assert scroll.scroll_y == 0
        assert [line.split()[:2] for line in shown[2:4]] == [["before", "deny"], ["after", "allow"]]
        await pilot.press("z")
        assert not screen.list.display and screen.detail.has_focus_within
        assert screen.detail.region.height > 15
        await pilot.press("escape")
        assert screen.list.display and screen.list.has_focus
        assert screen.detail.region.height < 15
        # With a filter set, esc in full screen clears it and shows the list it focuses.
        await pilot.press("slash", *"tool:Bash", "enter", "z")
        assert screen.filter_bar.filter_expr and not screen.list.display
        await pilot.press("escape")
        assert not screen.filter_bar.filter_expr and screen.list.display and screen.list.has_focus


async def test_filter_checked_as_you_type(session: Path):
    app = make_app(session, DENY_ALL)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await finished(pilot)
        await pilot.press("slash")
        box = screen.filter_bar.input
        assert box.has_focus
        await pilot.press(*"decision:(")
        assert screen.filter_bar.has_class("-invalid")
        await pilot.press("enter")  # a bad filter is not applied
        assert len(rows(screen)) == 5
        box.value = ""
        await pilot.press(*"decision:deny")
        assert not screen.filter_bar.has_class("-invalid")
        await pilot.press("enter")
        assert [r["summary"] for r in rows(screen)] == [
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
        await pilot.press("3")  # the response tab, from the list
        assert screen.list.has_focus
        assert screen.detail.active == "response"
        await pilot.press("5")
        assert screen.detail.active == "raw"
        raw = json.loads(await detail_text(pilot, screen, "raw"))
        assert raw["after"] == {"decision": "deny", "reason": "frozen"}
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        keys = dict(app.screen.sections[0][1])
        assert "changes only" in keys["o"]
        assert "re-run the replay" in keys["r / R"]
        # The detail is always there: enter goes into it, z / + / - size it.
        assert list(keys)[0] == "enter" and "into the detail pane" in keys["enter"]
        assert "on/off" not in keys["enter"]
        assert keys["z"] == "detail pane full screen / back"
        assert (keys["+ / ="], keys["-"]) == ("detail pane taller", "detail pane shorter")
        assert "back to the list" in keys["esc"]
        pane = dict(app.screen.sections[1][1])
        assert pane["enter"] == "Back to list"
        await pilot.press("escape")
        assert app.screen is screen


async def test_rerun_key_and_watch_mode_refresh(session: Path, tmp_path: Path):
    guard = write_guard(tmp_path / "guard.py", V1)  # the same rules the session was recorded with
    app = make_app(session, guard_command(guard), watch=[str(guard)])
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await finished(pilot)
        assert screen.run.report.counts()["unchanged"] == 5
        await pilot.press("j", "j", "j")
        write_guard(guard, V2)  # save an edit: the screen re-runs by itself
        screen = await finished(pilot, generation=2)
        assert screen.list.cursor == 3  # kept across the re-run
        counts = screen.run.report.counts()
        assert (counts["changed"], counts["loosened"], counts["tightened"]) == (2, 1, 1)
        assert "watching (2)" in str(screen.query_one("#replay-header", Static).render())


async def test_watch_mode_shows_the_first_change_of_a_later_run(session: Path, tmp_path: Path):
    """Nothing changed in the first run; after an edit, the cursor is on the first change
    (the user never picked a row)."""
    guard = write_guard(tmp_path / "guard.py", V1)
    app = make_app(session, guard_command(guard), watch=[str(guard)])
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await finished(pilot)
        assert screen.current_result.line == 1
        write_guard(guard, V2)
        screen = await finished(pilot, generation=2)
        assert screen.current_result.line == 2
        summary = await detail_text(pilot, screen, "summary")
        assert summary.splitlines()[3].split() == ["after", "allow"]


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
        summary = await detail_text(pilot, screen, "summary")
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
    records = [e.record for e in load_session(str(session)).records][:2]
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


async def opened(pilot) -> None:
    """The screen as it opens: the run done, the focused call's detail drawn."""
    assert pilot.app.animation_level == "none"  # no tab underline caught mid-slide
    screen = await finished(pilot)
    await detail_text(pilot, screen, "summary")
    await pilot.pause()


def test_snapshot_main_screen(session: Path, snap_compare):
    """On open: the list, and under it the first changed call's before and after."""
    assert snap_compare(make_app(session, NO_CURL), terminal_size=(110, 30), run_before=opened)


def test_snapshot_80x24(session: Path, snap_compare):
    assert snap_compare(make_app(session, NO_CURL), terminal_size=(80, 24), run_before=opened)


def test_snapshot_80x24_no_color(session: Path, snap_compare, monkeypatch):
    """Without colour the decisions carry marks and the cursor row is reversed."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(make_app(session, NO_CURL), terminal_size=(80, 24), run_before=opened)


def test_snapshot_detail(session: Path, snap_compare):
    """Into the detail of another row, on its diff tab."""

    async def run_before(pilot) -> None:
        await opened(pilot)
        await pilot.press("G", "4", "enter")
        await detail_text(pilot, pilot.app.screen, "diff")
        await pilot.pause()

    assert snap_compare(make_app(session, DENY_ALL), terminal_size=(110, 30), run_before=run_before)


async def test_the_list_has_no_row_cap():
    """12,000 results (the DataTable stopped at 10,000): drawn by the Line API, cursor to the end."""
    from hooktui.replay.report import Result
    from hooktui.tui.app.widgets.result_list import ResultList

    from tests.tui.conftest import make_record

    record = make_record(0)
    results = [Result(index=i, line=i + 1, record=record, cls="unchanged") for i in range(12_000)]

    class Host(App):
        CSS_PATH = "../../tui/app/hooktui.tcss"

        def compose(self):
            yield ResultList(id="results")

    app = Host()
    async with app.run_test(size=(100, 20)) as pilot:
        results_list = app.query_one(ResultList)
        results_list.results.replace((r.index, r) for r in results)
        results_list.focus()
        await pilot.pause()
        await pilot.press("G")
        assert results_list.cursor == 11_999
        await pilot.pause()
        bottom = results_list.render_line(results_list.size.height - 1).text
        assert bottom.split()[0] == "12000"


async def test_records_left_out_are_said_with_how_to_include_them(tmp_path: Path):
    """`hooktui replay --policy` replays the hook it replaces; the screen says what it left."""
    from hooktui.tui.app.replay import app_for
    from hooktui.tui.cli.replay import parse_args, prepare

    from tests.conftest import wait_for_records
    from tests.replay.helpers import request_for, tap

    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS[:3], tmp_path)
    tap(stream, "codex", ["true"], request_for("codex", "ls", str(tmp_path)))
    tap(stream, "codex", ["true"], request_for("codex", "pwd", str(tmp_path)))
    wait_for_records(stream, 5)
    job = prepare(parse_args([str(stream), "--policy", guard_command(guard), "--format", "json"]))
    app = app_for(job, [])
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await finished(pilot)
        assert len(screen.run.results) == 3
        header = str(screen.query_one("#replay-header", Static).render())
        assert "left out 2 records of other hooks: true (2) · include them with --hook all" in (
            header
        )
        assert screen.run.report.left_out == {"true": 2}
        await pilot.press("q")
    assert app.return_value.left_out_hint == "--hook all"  # the report the command prints


async def test_rules_changed_since_recording_is_said(tmp_path: Path):
    """A record whose answer today's rules read differently (issue 9.4): header and detail."""
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "recorded.jsonl"
    records = record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS, tmp_path)
    assert records[1]["decision"] == "deny"
    # As if the hooktui of its day had read the deny as an allow.
    records[1] = dict(records[1], decision="allow", reason="")
    session = tmp_path / "old.jsonl"
    session.write_text("".join(json.dumps(r) + "\n" for r in records))
    app = make_app(session, guard_command(guard))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await finished(pilot)
        header = str(screen.query_one("#replay-header", Static).render())
        assert "*rules changed 1" in header
        assert "unchanged 5" in header  # the same guard: no change is claimed
        assert [r["before"] for r in rows(screen)][:3] == ["allow", "*deny", "deny"]
        await pilot.press("j", "enter")
        summary = await detail_text(pilot, screen, "summary")
        recorded, today = summary.split("rules changed since recording", 1)
        assert "recorded" in recorded and "allow" in recorded.split("recorded", 1)[1]
        assert "today" in today and "deny" in today and "destructive" in today
        await pilot.press("4")
        diff = await detail_text(pilot, screen, "diff")
        assert "today's reading of the recorded and replayed verdicts are the same" in diff


async def test_the_tab_underline_is_under_the_active_tab(session: Path):
    """The detail pane's tab underline sits under the active tab: on open, on a tab key,
    and back from full screen (it stayed zero wide with animations off, and in snapshots)."""
    from textual.widgets import Tabs

    app = make_app(session, DENY_ALL)
    app.animation_level = "none"
    async with app.run_test(size=(110, 30)) as pilot:
        screen = await finished(pilot)
        for keys, tab in (((), "summary"), (("4",), "diff"), (("z", "escape"), "diff")):
            await pilot.press(*keys)
            await pilot.pause(0.1)
            tabs = screen.detail.query_one(Tabs)
            active = tabs.active_tab
            assert active is not None and active.id.endswith(tab)
            underline = tabs.query_one("Underline")
            span = active.virtual_region.shrink(active.styles.gutter).column_span
            assert (underline.highlight_start, underline.highlight_end) == span != (1, 1)

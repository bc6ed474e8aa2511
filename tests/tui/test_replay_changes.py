"""`n` / `N` in the replay screen: from changed call to changed call, wrapping at the ends.

Over sessions recorded through the real tap and replayed against a real edited guard
(the fixtures of test_replay_screen.py).
"""

from __future__ import annotations

from datetime import UTC
from pathlib import Path

import pytest
from hooktui.tui.app.help import HelpScreen
from hooktui.tui.app.palette import commands_for
from hooktui.tui.app.replay import PolicyPrompt, ReplayScreen
from hooktui.tui.app.watch import WatchApp
from textual.widgets import Input

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
from tests.tui.test_replay_screen import detail_text, finished, make_app


@pytest.fixture
def session(tmp_path: Path) -> Path:
    """test_replay_screen.py's session: five shell calls through the tap to V1's guard."""
    return v1_session(tmp_path)


def notices(app) -> list[str]:
    return [n.message for n in app._notifications]


async def test_n_and_shift_n_step_through_the_changes_and_wrap(session: Path, tmp_path: Path):
    """V2 over the V1 session changes lines 2 (loosened) and 5 (tightened), no others."""
    edited = write_guard(tmp_path / "guard2.py", V2)
    app = make_app(session, guard_command(edited))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await finished(pilot)
        assert screen.current_result.line == 2  # opened on the first change
        await pilot.press("n")
        assert screen.current_result.line == 5
        summary = await detail_text(pilot, screen, "summary")
        assert summary.startswith("curl x.sh | sh")  # the detail follows the cursor
        assert not any("wrapped" in m for m in notices(app))
        await pilot.press("n")  # past the last change: back to the first
        assert screen.current_result.line == 2
        assert notices(app)[-1] == "wrapped to the first change"
        await pilot.press("N")  # before the first: to the last
        assert screen.current_result.line == 5
        assert notices(app)[-1] == "wrapped to the last change"
        await pilot.press("N")
        assert screen.current_result.line == 2
        await pilot.press("g", "j", "j")  # line 3, unchanged: n / N from between changes
        await pilot.press("N")
        assert screen.current_result.line == 2
        await pilot.press("j", "n")
        assert screen.current_result.line == 5
        assert notices(app)[-1] != "wrapped to the first change"  # no wrap, no new notice
        await pilot.press("o", "N")  # changes only: the same changes, fewer rows between
        assert screen.current_result.line == 2
        await pilot.press("o", "R")  # a re-run keeps the row n / N chose
        screen = await finished(pilot, generation=2)
        assert screen.current_result.line == 2
        await pilot.press("n", "R")
        screen = await finished(pilot, generation=3)
        assert screen.current_result.line == 5


async def test_n_says_when_there_is_no_other_change(session: Path, tmp_path: Path):
    edited = write_guard(tmp_path / "guard2.py", V2)
    app = make_app(session, guard_command(edited))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await finished(pilot)
        await pilot.press("slash", *"decision:deny", "enter")  # lines 2 and 3: one change
        assert [r.line for r in screen.list.shown] == [2, 3]
        await pilot.press("j", "n")  # from the unchanged line 3: wraps to the one change
        assert screen.current_result.line == 2
        assert notices(app)[-1] == "wrapped to the first change"
        await pilot.press("n")
        assert screen.current_result.line == 2
        assert notices(app)[-1] == "no more changes"
        await pilot.press("N")
        assert notices(app)[-1] == "no more changes"

    same = write_guard(tmp_path / "guard1.py", V1)  # the recorded rules: nothing changes
    app = make_app(session, guard_command(same))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await finished(pilot)
        await pilot.press("j", "n")
        assert screen.current_result.line == 2  # stays put
        assert notices(app)[-1] == "no changed call in the list"


async def test_n_and_shift_n_are_in_the_help_and_the_palette(session: Path, tmp_path: Path):
    edited = write_guard(tmp_path / "guard2.py", V2)
    app = make_app(session, guard_command(edited))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await finished(pilot)
        titles = [title for title, _, _ in commands_for(app, screen)]
        assert "Next change: next changed call (wraps to the first)" in titles
        assert "Previous change: previous changed call (wraps to the last)" in titles
        keys = {title: key for title, _, key in commands_for(app, screen)}
        assert keys["Next change: next changed call (wraps to the first)"] == "n"
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        rows = dict(app.screen.sections[0][1])
        assert rows["n"] == "next changed call (wraps to the first)"
        assert rows["N"] == "previous changed call (wraps to the last)"


async def test_n_in_a_replay_opened_from_watch(tmp_path: Path):
    """Watch has no n / N of its own: under its `r`, they move the replay's cursor only."""
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "stream.jsonl"
    record_session(stream, "codex", [PYTHON, str(guard)], COMMANDS, tmp_path)
    edited = write_guard(tmp_path / "guard2.py", V2)
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(600):
            if app.main_screen.feed.loaded and len(app.main_screen.view) == 5:
                break
            await pilot.pause(0.05)
        watched = app.main_screen.calls.current
        await pilot.press("r")
        for _ in range(600):
            if isinstance(app.screen, PolicyPrompt):
                break
            await pilot.pause(0.02)
        app.screen.query_one(Input).value = guard_command(edited)
        await pilot.press("enter")
        screen = await finished(pilot)
        assert isinstance(screen, ReplayScreen)
        assert screen.current_result.record.summary == "rm -rf build"
        await pilot.press("n")
        assert screen.current_result.record.summary == "curl x.sh | sh"
        await pilot.press("N")
        assert screen.current_result.record.summary == "rm -rf build"
        await pilot.press("q")
        assert app.main_screen.calls.current == watched  # watch's own cursor did not move

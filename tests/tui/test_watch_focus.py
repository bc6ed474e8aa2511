"""Watch's list moves through the model's Focus; the header's rate; the help's filter rows."""

from __future__ import annotations

from datetime import UTC, timedelta
from pathlib import Path

import pytest
from hooktui.tap.read import filter_terms
from hooktui.tap.read.focus import Focus
from hooktui.tui.app.help import HelpScreen
from hooktui.tui.app.watch import WatchApp

from tests.tui.conftest import BASE_TIME, make_record, varied_records, wait_until, write_stream

SIZE = (120, 36)


@pytest.fixture
def stream(tmp_path: Path) -> Path:
    return write_stream(tmp_path / "s.jsonl", varied_records())


def _header(app: WatchApp) -> str:
    return app.main_screen.header.render().plain


async def test_the_list_is_drawn_where_the_focus_model_says(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 8)
        focus = app.main_screen.calls.focus_model
        assert isinstance(focus, Focus) and focus.view is app.main_screen.view
        # A move of the model is the list's move: cursor, detail and header follow it.
        focus.move_to(2)
        await wait_until(
            pilot,
            lambda: (
                app.main_screen.detail.loaded and app.main_screen.detail.loaded.stream_line.head.id
            ),
        )
        assert app.main_screen.calls.cursor == 2 and not app.main_screen.calls.following
        await wait_until(pilot, lambda: app.main_screen.detail.loaded.stream_line is focus.line)
        await wait_until(pilot, lambda: "not following" in _header(app))
        # Keys move the model.
        await pilot.press("j")
        assert focus.row == 3 and focus.line.head.id == "call-00003"
        # "N new ↓" is the model's count.
        write_stream(stream, [make_record(50), make_record(51, decision="deny")])
        await wait_until(pilot, lambda: focus.new == 2)
        await wait_until(pilot, lambda: "2 new ↓" in _header(app))
        assert app.main_screen.calls.cursor == 3  # not pulled to the new rows
        # A filter that hides the chosen row, then shows it again: back on it.
        app.main_screen.filter_bar.action_apply_filter("decision:deny")
        await wait_until(pilot, lambda: app.main_screen.view.filter_text == "decision:deny")
        assert "1 new ↓" in _header(app) or focus.new == 1
        app.main_screen.filter_bar.action_apply_filter("")
        await wait_until(pilot, lambda: app.main_screen.view.filter_text == "")
        assert focus.line.head.id == "call-00003" and app.main_screen.calls.cursor == 3
        await pilot.press("G")
        assert focus.following and focus.new == 0 and focus.line.head.id == "call-00051"
        await wait_until(pilot, lambda: "following" in _header(app) and "new ↓" not in _header(app))


async def test_a_grabbed_scrollbar_stops_following_before_a_new_row_moves_the_cursor(
    tmp_path: Path,
) -> None:
    stream = write_stream(tmp_path / "s.jsonl", [make_record(i) for i in range(200)])
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=(80, 24)) as pilot:
        calls = app.main_screen.calls
        # The model can hold all 200 before the list's first layout: wait for both.
        await wait_until(pilot, lambda: app.main_screen.view.total == 200 and calls.size.height > 0)
        x = calls.size.width - 1  # the scrollbar column
        await pilot.mouse_down(calls, offset=(x, calls.size.height - 1))  # held, not dragged
        assert calls.is_vertical_scrollbar_grabbed and calls.following
        write_stream(stream, [make_record(300)])
        await wait_until(pilot, lambda: app.main_screen.view.total == 201)
        assert not calls.following
        assert calls.cursor == 199 and calls.focus_model.new == 1
        await pilot.mouse_up(calls, offset=(x, calls.size.height - 1))


async def test_the_header_shows_a_rate_over_its_window(tmp_path: Path) -> None:
    # One call every 6 s for 10 minutes: 10 calls a minute, whatever the clock minute.
    records = [make_record(i, ts=_ts(6 * i)) for i in range(100)]
    stream = write_stream(tmp_path / "s.jsonl", records)
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 100)
        await wait_until(pilot, lambda: "/min" in _header(app))
        line = _header(app).splitlines()[0]
        assert "10/min (5 min avg)" in line or "10.0/min (5 min avg)" in line, line
        assert "calls/min" not in line  # no longer the count of the current clock minute
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 100)
        await wait_until(pilot, lambda: "/min" in _header(app))
        assert "/min (5m)" in _header(app).splitlines()[0]


def _ts(seconds: int) -> str:
    return (BASE_TIME + timedelta(seconds=seconds)).isoformat().replace("+00:00", "Z")


async def test_help_lists_the_filter_terms_from_the_one_table(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.feed.loaded)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        sections = dict(app.screen.sections)
        assert sections["filter"] == filter_terms.help_rows()
        typed = {example for example, _ in sections["filter"]}
        assert {t.example for t in filter_terms.TERMS} <= typed

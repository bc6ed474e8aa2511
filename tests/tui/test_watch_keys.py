"""Every key of the watch screen, driven through a real app with Pilot."""

from __future__ import annotations

import io
from datetime import UTC
from pathlib import Path

import pytest
from hooktui.tui.app.help import HelpScreen
from hooktui.tui.app.watch import WatchApp
from hooktui.tui.app.widgets.call_list import CallList
from hooktui.tui.app.widgets.filter_bar import FilterBar
from hooktui.tui.app.widgets.prompt import ConfirmPrompt, PathPrompt
from hooktui.tui.present.call_tabs import TABS
from rich.console import Console
from rich.style import Style
from textual import events
from textual.widgets import Input, Static, TabbedContent

from tests.tui.conftest import make_record, varied_records, wait_until, write_stream

SIZE = (120, 36)


@pytest.fixture
def stream(tmp_path: Path) -> Path:
    return write_stream(tmp_path / "s.jsonl", varied_records())


def _ids(app: WatchApp) -> list[str]:
    return [app.main_screen.view.line(i).head.id for i in range(len(app.main_screen.view))]


def _plain(app: WatchApp, widget_id: str, width: int = 118) -> str:
    """The text a detail body shows, as a terminal would print it."""
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(app.query_one(f"#{widget_id}", Static).content)
    return console.export_text()


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().split(b"\n")[:-1]


async def _started(app: WatchApp, pilot) -> None:
    """Loaded, the detail drawn, and the list laid out (the model and the detail can be
    ready before the list's first layout: a click or a row read then finds no list)."""
    await wait_until(
        pilot,
        lambda: (
            app.main_screen.feed.loaded
            and app.main_screen.detail.loaded is not None
            and app.main_screen.calls.size.height > 0
        ),
    )


async def test_moving_the_cursor(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        calls = app.main_screen.calls
        assert calls.cursor == 7 and calls.following
        await pilot.press("k")
        assert calls.cursor == 6 and not calls.following
        await pilot.press("up", "up")
        assert calls.cursor == 4
        await pilot.press("j", "down")
        assert calls.cursor == 6
        await pilot.press("g")
        assert calls.cursor == 0
        await pilot.press("end")
        assert calls.cursor == 7 and calls.following
        await pilot.press("home")
        assert calls.cursor == 0
        await pilot.press("G")
        assert calls.cursor == 7 and calls.following
        await pilot.press("pageup")
        assert calls.cursor < 7
        await pilot.press("pagedown")
        assert calls.cursor == 7


async def test_detail_follows_the_cursor(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("g", "j")  # the deny
        await wait_until(
            pilot,
            lambda: app.main_screen.detail.loaded.stream_line is app.main_screen.calls.current,
        )
        assert app.main_screen.detail.loaded.record.decision == "deny"
        summary = _plain(app, "summary-body")
        assert "rm -rf outside the project" in summary
        assert "exit 2" in summary
        response = _plain(app, "response-body")
        assert "stderr" in response and "rm -rf outside the project" in response


async def test_enter_focuses_the_detail_and_comes_back(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        assert isinstance(app.focused, CallList)
        await pilot.press("enter")
        assert app.focused is not None and app.main_screen.detail in app.focused.ancestors
        await pilot.press("enter")
        assert isinstance(app.focused, CallList)
        await pilot.press("enter")
        await pilot.press("escape")
        assert isinstance(app.focused, CallList)


async def test_detail_tab_keys(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("g", "j", "j", "j")  # the modify
        await wait_until(
            pilot,
            lambda: app.main_screen.detail.loaded.stream_line is app.main_screen.calls.current,
        )
        await pilot.press("enter")
        tabs = app.query_one(TabbedContent)
        for key, tab in (("2", "request"), ("3", "response"), ("4", "diff"), ("5", "raw")):
            await pilot.press(key)
            assert tabs.active == tab
        diff = _plain(app, "diff-body")
        assert '-  "command": "git push --force"' in diff
        assert '+  "command": "git push --force-with-lease"' in diff
        raw = _plain(app, "raw-body")
        assert '"id": "call-00003"' in raw
        request = _plain(app, "request-body")
        assert '"hook_event_name": "PreToolUse"' in request
        await pilot.press("1")
        assert tabs.active == "summary"


async def test_detail_tab_keys_work_from_the_list(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("g", "j", "j", "j")  # the modify
        await wait_until(
            pilot,
            lambda: app.main_screen.detail.loaded.stream_line is app.main_screen.calls.current,
        )
        tabs = app.query_one(TabbedContent)
        await pilot.press("4")
        assert tabs.active == "diff"
        assert app.focused is app.main_screen.calls  # still on the list: j/k keep moving
        await pilot.press("k")
        assert app.main_screen.calls.current is not None and tabs.active == "diff"
        await pilot.press("1")
        assert tabs.active == "summary"


async def test_filter_as_you_type(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        await pilot.press(*"decision:failure")
        await wait_until(pilot, lambda: app.main_screen.view.filter_text == "decision:failure")
        assert _ids(app) == ["call-00005", "call-00006"]
        await pilot.press("enter")
        assert isinstance(app.focused, CallList)
        assert not app.query_one(FilterBar).has_class("-active")  # the bar gives its rows back
        # The header names the filter (at its next redraw).
        await wait_until(pilot, lambda: "decision:failure" in app.main_screen.header.render().plain)
        await pilot.press("slash")  # reopens with the filter in force
        assert app.query_one(FilterBar).input.value == "decision:failure"
        await pilot.press("enter")
        await pilot.press("escape")  # clears it
        assert app.main_screen.view.filter_text == ""
        assert len(app.main_screen.view) == 8
        # Digits typed in the filter are the filter's, not the detail tab keys.
        tabs = app.query_one(TabbedContent)
        before = tabs.active
        await pilot.press("slash", *"exit:2")
        await wait_until(pilot, lambda: app.main_screen.view.filter_text == "exit:2")
        assert tabs.active == before


async def test_invalid_filter_is_shown_inline_not_raised(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("slash", "(", *"tool:Bash", "enter")  # unclosed at every step
        bar = app.query_one(FilterBar)
        status = str(app.query_one("#filter-status").render())
        assert bar.has_class("-invalid")
        assert "✗" in status and "(at 1)" in status  # the message names the position
        assert isinstance(app.focused, Input)  # enter on an invalid filter stays to fix it
        assert len(app.main_screen.view) == 8 and app.main_screen.view.filter_text == ""
        await pilot.press(")")
        await wait_until(pilot, lambda: app.main_screen.view.filter_text == "(tool:Bash)")
        assert len(app.main_screen.view) == 6
        await pilot.press("escape")
        assert app.main_screen.view.filter_text == ""
        assert isinstance(app.focused, CallList)


async def test_escape_in_filter_bar_drops_the_filter(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("slash", *"outside")
        await wait_until(pilot, lambda: app.main_screen.view.filter_text == "outside")
        assert len(app.main_screen.view) == 1
        await pilot.press("escape")
        assert app.main_screen.view.filter_text == ""
        assert not app.query_one(FilterBar).has_class("-active")


async def test_follow_key(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("f")
        assert not app.main_screen.calls.following
        await wait_until(pilot, lambda: "not following" in app.query_one("#header").render().plain)
        await pilot.press("f")
        assert app.main_screen.calls.following


async def test_pause_key_shows_in_header(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("p")
        await wait_until(pilot, lambda: "paused" in app.query_one("#header").render().plain)
        await pilot.press("p")
        await wait_until(pilot, lambda: "paused" not in app.query_one("#header").render().plain)


async def test_copy_puts_the_exact_record_on_the_clipboard(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("g", "j")
        await pilot.press("c")
        assert app.clipboard == _lines(stream)[1].decode()


async def test_write_saves_shown_records_byte_for_byte(stream: Path, tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("slash", *"decision:failure", "enter")
        await wait_until(pilot, lambda: len(app.main_screen.view) == 2)
        await pilot.press("w")
        assert isinstance(app.screen, PathPrompt)
        prompt_input = app.screen.query_one(Input)
        prompt_input.value = str(target)
        await pilot.press("enter")
        await wait_until(pilot, lambda: target.exists() and len(_lines(target)) == 2)
        assert _lines(target) == _lines(stream)[5:7]


async def test_write_asks_before_replacing_and_never_touches_a_stream(
    stream: Path, tmp_path: Path
) -> None:
    target = tmp_path / "existing.jsonl"
    target.write_bytes(b"keep me\n")
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("w")
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        assert isinstance(app.screen, ConfirmPrompt)  # asks, does not just close
        await pilot.press("n")
        assert not isinstance(app.screen, (ConfirmPrompt, PathPrompt))
        assert target.read_bytes() == b"keep me\n"
        await pilot.press("w")
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter", "y")
        await wait_until(pilot, lambda: target.read_bytes() != b"keep me\n")
        assert _lines(target) == _lines(stream)
        await pilot.press("w")  # the watched stream itself: refused, not offered
        app.screen.query_one(Input).value = str(stream)
        await pilot.press("enter")
        assert not isinstance(app.screen, ConfirmPrompt)
        assert any("watched stream" in n.message for n in app._notifications)
    assert len(_lines(stream)) == 8


async def test_write_prompt_counts_what_is_shown_now(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", [make_record(0)])
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 1)
        await pilot.press("w")
        question = app.screen.query_one("#prompt-question", Static)
        assert "1 shown record " in str(question.render())
        write_stream(stream, [make_record(1), make_record(2)])
        await wait_until(pilot, lambda: "3 shown records" in str(question.render()))
        target = tmp_path / "out.jsonl"
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: any("wrote 3 records" in n.message for n in app._notifications)
        )
        assert len(_lines(target)) == 3


async def test_write_prompt_escape_cancels(stream: Path, tmp_path: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("w")
        assert isinstance(app.screen, PathPrompt)
        await pilot.press("escape")
        assert not isinstance(app.screen, PathPrompt)


async def test_mark_and_marked_only(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("g", "m")  # marks row 0 and moves down
        assert app.main_screen.calls.cursor == 1
        await pilot.press("j", "m")  # marks row 2
        assert len(app.main_screen.view.marks) == 2
        assert app.main_screen.calls.render_line(0).text.startswith("●")
        await pilot.press("M")
        assert _ids(app) == ["call-00000", "call-00002"]
        await wait_until(pilot, lambda: "marked only" in app.query_one("#header").render().plain)
        await pilot.press("m")  # unmark the selected one while marked-only
        assert len(app.main_screen.view) == 1
        await pilot.press("escape")
        assert not app.main_screen.view.marked_only
        assert len(app.main_screen.view) == 8


async def test_marked_only_without_marks_says_so(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("M")
        assert not app.main_screen.view.marked_only
        assert any("nothing marked" in n.message for n in app._notifications)


async def test_replay_key_names_what_it_would_replay(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("g", "m")
        assert [e.head.id for e in app.main_screen.shown_calls.replay_lines()] == ["call-00000"]
        await pilot.press("r")  # the records are read back in a worker, then it asks
        await wait_until(pilot, lambda: app.screen is not app.screen_stack[0])
        assert any("replay 1 call:" in n.message for n in app._notifications)
        assert app.screen is not app.screen_stack[0]
        await pilot.press("escape")
        assert app.screen is app.screen_stack[0]


async def test_help_screen(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_command_palette_applies_a_preset_filter(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("ctrl+p")
        await pilot.press(*"let through")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.main_screen.view.filter_text != "")
        assert app.main_screen.view.filter_text == "decision:failure -effect:blocks"
        assert _ids(app) == ["call-00005"]


async def test_quit(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("q")
    assert app.return_code == 0


async def test_many_rows_scroll_with_the_cursor(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", [make_record(i) for i in range(500)])
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _started(app, pilot)
        calls = app.main_screen.calls
        assert calls.cursor == 499
        # Newest at the bottom, in view (the scroll follows the first layout).
        await wait_until(pilot, lambda: calls.scroll_y > 400)
        await pilot.press("g")
        assert calls.scroll_y == 0
        first = calls.render_line(0).text
        assert "src/0" in first


async def test_mouse_click_selects_and_scroll_up_stops_following(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        calls = app.main_screen.calls
        await pilot.click(CallList, offset=(10, 2))
        assert calls.cursor == 2
        assert not calls.following  # a click up the list is reading history
        await pilot.press("G")
        assert calls.following
        calls.post_message(events.MouseScrollUp(calls, 5, 5, 0, -1, 0, False, False, False))
        await wait_until(pilot, lambda: not calls.following)


async def test_rows_fit_a_resized_terminal(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", [make_record(i) for i in range(100)])
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(160, 40)) as pilot:
        await _started(app, pilot)
        await pilot.resize_terminal(80, 24)
        await wait_until(pilot, lambda: app.main_screen.calls.size.width == 80)
        inner = app.main_screen.calls.scrollable_content_region.width
        assert inner < 80  # 100 rows: a scrollbar
        line = app.main_screen.calls.render_line(0)
        assert line.cell_length == inner
        assert line.text.rstrip().endswith("ms")  # the latency column is not under the scrollbar
        await wait_until(pilot, lambda: app.main_screen.columns.row_width == inner)
        titles = str(app.main_screen.columns.render())
        assert titles.rstrip().endswith("latency")
        assert len(titles.rstrip()) == len(line.text.rstrip())  # titles line up with the rows


async def test_cursor_returns_to_the_chosen_call_after_filtering(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("g", "j")  # the deny
        chosen = app.main_screen.calls.current.key
        await pilot.press("slash", *"tool:Edit")  # hides it while typing
        await wait_until(pilot, lambda: app.main_screen.view.filter_text == "tool:Edit")
        assert app.main_screen.calls.current.head.tool_name == "Edit"
        await pilot.press("escape")
        assert app.main_screen.calls.current.key == chosen


async def test_hostile_output_is_shown_not_run(tmp_path: Path) -> None:
    """Escape sequences and markup in recorded text are displayed inert."""
    from hooktui.tap.model import Blob

    nasty = "\x1b]52;c;ZXZpbA==\x07[bold]not markup[/] [unclosed"
    stream = write_stream(
        tmp_path / "s[1].jsonl",
        [
            make_record(
                0,
                command=nasty,
                decision="deny",
                reason=nasty,
                stderr=Blob(data=nasty, length=len(nasty)),
            )
        ],
    )
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        row = app.main_screen.calls.render_line(0).text
        assert "\x1b" not in row and "·]52;c;" in row
        summary = _plain(app, "summary-body")
        assert "\x1b" not in summary and "\\x1b]52;c;" in summary
        assert "[bold]not markup[/] [unclosed" in summary
        assert "\\x07" in _plain(app, "response-body")
        await pilot.press("c")  # the notification names the path with brackets
        assert any("copied" in n.message for n in app._notifications)


def _burst(app: WatchApp, *keys: str) -> None:
    """Keys as a terminal delivers a fast typist or a paste: all queued before any is handled."""
    for key in keys:
        character = {"slash": "/", "enter": "\r"}.get(key, key if len(key) == 1 else None)
        event = events.Key(key, character)
        event.set_sender(app)
        app._driver.send_message(event)


async def test_keys_typed_in_one_burst_after_slash_go_to_the_filter(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        _burst(app, "slash", *"decision:failure")
        await wait_until(pilot, lambda: app.main_screen.view.filter_text == "decision:failure")
        assert app.main_screen.filter_bar.input.value == "decision:failure"
        assert app.clipboard == ""  # "c" typed, not copied
        assert app.main_screen.calls.following  # "f" typed, following not toggled


async def test_keys_typed_in_one_burst_after_enter_go_to_the_detail(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        _burst(app, "enter", "4")
        await wait_until(pilot, lambda: app.main_screen.detail.active == "diff")


async def test_odd_records_show_in_every_tab(tmp_path: Path) -> None:
    from hooktui.tap.model import Blob

    odd = [
        make_record(
            0,
            request="plain text, not JSON",
            request_format="text",
            decision="modify",
            updated_input={"command": "safer"},
            stdout=Blob(data="AAEC/w==", encoding="base64", length=4, sha256="00" * 32),
        ),
        make_record(
            1,
            request=None,
            request_format="empty",
            decision="replace",
            updated_output="new output",
            stdout=Blob(encoding="digest", length=99, sha256="ab" * 32, truncated=True),
        ),
        make_record(2, decision="no-such-decision", runtime="no-such-runtime"),
    ]
    stream = write_stream(tmp_path / "s.jsonl", odd)
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        seen = []
        for row in range(3):
            await pilot.press("g", *["j"] * row)
            await wait_until(
                pilot,
                lambda: app.main_screen.detail.loaded.stream_line is app.main_screen.calls.current,
            )
            texts = {t: _plain(app, f"{t}-body") for t in TABS}
            assert all(texts.values())
            seen.append(texts)
        assert "plain text, not JSON" in seen[0]["request"]
        assert "base64" in seen[0]["response"]
        assert '+  "command": "safer"' in seen[0]["diff"]
        assert "empty request" in seen[1]["request"]
        assert "digest only" in seen[1]["response"] and "truncated" in seen[1]["response"]
        assert "+new output" in seen[1]["diff"]
        assert "no-such-decision" in seen[2]["summary"]


async def test_a_note_on_a_non_failure_is_shown(tmp_path: Path) -> None:
    # The runtime read the answer, but not as its author meant: the pane says so.
    note = "stdout starts with `{` but is not valid JSON; Claude Code reads it as plain text"
    path = write_stream(
        tmp_path / "s.jsonl", [make_record(1, decision="allow", failure_detail=note)]
    )
    app = WatchApp([str(path)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        summary = _plain(app, "summary-body")
        assert "note" in summary and "not valid JSON" in summary
        assert "failed" not in summary


# -- what a user saw (issue 8) -------------------------------------------------


async def test_ctrl_c_quits(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert not app.is_running
    assert app.return_code == 0
    assert not any("[b]" in n.message for n in app._notifications)


async def test_j_and_k_scroll_the_detail_pane(tmp_path: Path) -> None:
    request = {"tool_name": "Bash", "tool_input": {f"line{i}": i for i in range(200)}}
    stream = write_stream(tmp_path / "s.jsonl", [make_record(0, request=request)])
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _started(app, pilot)
        await pilot.press("2", "enter")
        scroll = app.main_screen.detail.query_one("#request-scroll")
        assert app.focused is scroll
        # The request's 200 lines laid out first (the tab's body can lag a frame behind).
        await wait_until(pilot, lambda: scroll.max_scroll_y > 100)
        await pilot.press("j", "j", "j")
        assert scroll.scroll_y == 3
        await pilot.press("k")
        assert scroll.scroll_y == 2
        await pilot.press("G")
        assert scroll.scroll_y == scroll.max_scroll_y > 100
        await pilot.press("g")
        assert scroll.scroll_y == 0


async def test_the_detail_pane_grows_shrinks_and_fills_the_screen(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _started(app, pilot)
        start = app.main_screen.detail.size.height
        await pilot.press("plus", "plus")
        assert app.main_screen.detail.size.height > start + 2
        await pilot.press("minus", "minus", "minus", "minus")
        assert app.main_screen.detail.size.height < start
        await pilot.press("z")  # the whole body: the list steps aside
        assert not app.main_screen.calls.display
        assert app.main_screen.detail.size.height >= 18
        assert app.focused is not None and app.main_screen.detail in app.focused.ancestors
        await pilot.press("z")
        assert app.main_screen.calls.display and app.main_screen.detail.size.height < 18


async def test_back_to_the_list_from_full_screen_shows_the_list(stream: Path) -> None:
    """In full screen the list is hidden: every way back to it leaves full screen (as replay).

    enter and esc used to focus the hidden list (its keys then moved an unseen
    cursor), closing the filter bar did too, and the column titles stayed over
    the pane."""
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _started(app, pilot)

        async def listed() -> None:
            await pilot.pause()
            assert (
                not app.main_screen.body.detail_full
                and app.main_screen.calls.display
                and app.main_screen.columns.display
            )
            assert app.focused is app.main_screen.calls
            assert app.main_screen.detail.size.height < 18

        for back in (("enter",), ("escape",), ("z",), ("slash", "enter"), ("slash", "escape")):
            await pilot.press("z")
            await pilot.pause()
            assert (
                app.main_screen.body.detail_full
                and not app.main_screen.calls.display
                and not app.main_screen.columns.display
            )
            assert app.focused is not None and app.main_screen.detail in app.focused.ancestors
            await pilot.press(*back)
            await listed()
        # Into the pane, full screen, full screen off: back on the list, as in replay.
        await pilot.press("enter", "z", "z")
        await listed()
        await pilot.press("k")  # the list's keys reach the list it shows
        assert app.main_screen.calls.cursor == 6


async def test_the_command_pastes_into_policy(tmp_path: Path) -> None:
    import shlex

    from hooktui.tap.model import HookInfo

    argv = ["sh", "-c", "python3 guard.py --name 'a b' \"$X\""]
    hook = HookInfo(label="guard", argv=argv, timeout_ms=None)
    stream = write_stream(tmp_path / "s.jsonl", [make_record(0, hook=hook)])
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(200, 40)) as pilot:
        await _started(app, pilot)
        summary = _plain(app, "summary-body", width=198)
        line = next(x for x in summary.splitlines() if x.lstrip().startswith("command"))
        assert shlex.split(line.split("command", 1)[1].strip()) == argv


async def test_no_color_keeps_decisions_apart(stream: Path, monkeypatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        assert app.no_color
        rows = {
            app.main_screen.view.line(i).head.decision: app.main_screen.calls.render_row(i, 118)
            for i in range(8)
        }

        def look(decision: str) -> tuple[str, object]:
            text = rows[decision]
            start = text.plain.rindex(decision)
            styles = [s.style for s in text.spans if s.start <= start < s.end]
            return text.plain[start - 2 : start + len(decision)], (styles or [Style()])[-1]

        marks = {d: look(d)[0] for d in ("allow", "deny", "ask", "modify", "replace")}
        assert marks["deny"] == "✗ deny" and marks["modify"] == "✎ modify"
        assert len(set(marks.values())) == 5  # each has its own symbol
        weights = {d: look(d)[1] for d in ("deny", "modify", "replace")}
        assert weights["deny"].bold and not weights["modify"].bold
        assert weights["modify"].underline and not weights["deny"].underline
        for decision, (_, style) in ((d, look(d)) for d in ("deny", "modify")):
            assert style.color is None, decision  # no colour for the monochrome filter to darken


def test_deny_and_modify_differ_in_colour() -> None:
    from hooktui.tui.present.format import DECISION_STYLES
    from textual.color import Color

    def grey(decision: str) -> int:
        rgb = DECISION_STYLES[decision].color.get_truecolor()
        return Color(*rgb).monochrome.r

    # Apart in lightness too, so they stay apart for colour-blind eyes.
    assert abs(grey("deny") - grey("modify")) >= 60


async def test_a_20_mb_summary_does_not_freeze_watch(tmp_path: Path) -> None:
    huge = "x" * (20 * 1024 * 1024)
    stream = write_stream(tmp_path / "s.jsonl", [make_record(0), make_record(1, command=huge)])
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.feed.loaded, timeout=60)
        await wait_until(pilot, lambda: app.main_screen.detail.loaded is not None, timeout=60)
        assert app.main_screen.calls.current.head.summary == huge
        for tab in TABS:
            assert len(_plain(app, f"{tab}-body")) < 200_000  # bounded, with a note
        assert "more characters" in _plain(app, "summary-body")
        await pilot.press("q")
    assert app.return_code == 0


async def test_a_record_with_an_extreme_ts_never_kills_watch(tmp_path: Path) -> None:
    records = [
        make_record(0, ts="0001-01-01T00:00:00+01:00"),
        make_record(1, ts="9999-12-31T23:59:59-01:00"),
        make_record(2),
    ]
    stream = write_stream(tmp_path / "s.jsonl", records)
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        for key in ("g", "j", "j"):
            await pilot.press(key)
            await wait_until(
                pilot,
                lambda: app.main_screen.detail.loaded.stream_line is app.main_screen.calls.current,
            )
        await pilot.press("g")
        await wait_until(
            pilot,
            lambda: app.main_screen.detail.loaded.stream_line is app.main_screen.calls.current,
        )
        assert app.main_screen.calls.render_line(0).text.lstrip().startswith("--:--:--")
        assert "out of range" in _plain(app, "summary-body")
        assert app.is_running
        await pilot.press("q")
    assert app.return_code == 0


async def test_n_new_counts_what_the_filter_shows(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 8)
        await pilot.press("k")  # not following
        write_stream(stream, [make_record(70, decision="deny"), make_record(71)])
        await wait_until(pilot, lambda: app.main_screen.header_state().new == 2)
        app.main_screen.filter_bar.action_apply_filter("decision:deny")
        await wait_until(pilot, lambda: app.main_screen.header_state().new == 1)
        assert "1 new" in app.main_screen.header.render().plain
        app.main_screen.filter_bar.action_apply_filter("decision:ask")
        await wait_until(pilot, lambda: app.main_screen.header_state().new == 0)
        assert " new " not in app.main_screen.header.render().plain


async def test_following_stops_while_the_scrollbar_is_dragged(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", [make_record(i) for i in range(200)])
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=(80, 24)) as pilot:
        calls = app.main_screen.calls
        # The model can hold all 200 before the list's first layout: wait for both.
        await wait_until(pilot, lambda: app.main_screen.view.total == 200 and calls.size.height > 0)
        assert calls.following
        x = calls.size.width - 1  # the scrollbar column
        await pilot.mouse_down(calls, offset=(x, calls.size.height - 1))
        assert calls.is_vertical_scrollbar_grabbed
        await pilot.hover(calls, offset=(x, 1))  # drag the thumb up
        write_stream(stream, [make_record(300)])
        await wait_until(pilot, lambda: app.main_screen.view.total == 201)
        assert not calls.following
        assert calls.cursor < 200  # the new row did not pull the view down
        await pilot.mouse_up(calls, offset=(x, 1))


async def test_palette_offers_only_what_makes_sense_now(stream: Path) -> None:
    from hooktui.tui.app.palette import commands_for

    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)

        def titles() -> list[str]:
            return [title for title, _, _ in commands_for(app, app.screen)]

        assert not any(t.startswith("Marked") for t in titles())
        await pilot.press("m")
        assert any(t.startswith("Marked") for t in titles())
        assert any(t.startswith("Filter: denied") for t in titles())


async def test_help_lists_every_documented_key(stream: Path) -> None:
    from hooktui.tui.app.watch_screen import WatchScreen

    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("question_mark")
        texts = {what for _, rows in app.screen.sections for _, what in rows}
        for binding in [*WatchScreen.BINDINGS, *WatchApp.BINDINGS]:
            if binding.tooltip:
                assert binding.tooltip in texts, binding.id
        assert "scroll down" in {t.lower() for t in texts} or any("Scroll" in t for t in texts)

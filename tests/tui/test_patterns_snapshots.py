"""Snapshots of watch's patterns view: fixed sizes, UTC times from the records (no wall clock).

Half an hour of calls in which the guard starts denying `git status` at 14:02:
its deny rate in the table, its deny row rising in the timeline. Regenerate
with `--snapshot-update` and look at the SVGs before committing them.
"""

from __future__ import annotations

from datetime import UTC
from pathlib import Path

import pytest
from hooktui.tui.app.watch import WatchApp

from tests.tui.conftest import misfire_records, wait_until, write_stream


@pytest.fixture
def stream(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)  # a relative path: the header reads the same on every run
    write_stream(tmp_path / "stream.jsonl", misfire_records())
    return "stream.jsonl"


def _patterns(app: WatchApp, *keys: str):
    async def run_before(pilot) -> None:
        await wait_until(
            pilot, lambda: app.main_screen.feed.loaded and app.main_screen.calls.current is not None
        )
        await pilot.press("percent_sign", *keys)
        await wait_until(
            pilot,
            lambda: (
                app.main_screen.patterns._patterns is not None
                and not app.main_screen.patterns._patterns_counting
            ),
        )
        await pilot.pause(0.6)  # the header's and the view's throttled redraws

    return run_before


def test_patterns_view(snap_compare, stream: str) -> None:
    app = WatchApp([stream], tz=UTC, live=False)
    # Sorted by deny rate: the misfiring guard on top.
    assert snap_compare(app, terminal_size=(120, 36), run_before=_patterns(app, "s"))


def test_patterns_view_80x24(snap_compare, stream: str) -> None:
    app = WatchApp([stream], tz=UTC, live=False)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_patterns(app))


def test_patterns_view_no_color_80x24(
    snap_compare, stream: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = WatchApp([stream], tz=UTC, live=False)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_patterns(app, "b", "b"))

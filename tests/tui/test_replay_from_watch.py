"""`r` in `hooktui watch` opens the replay screen for the marked (or shown) calls."""

from __future__ import annotations

from datetime import UTC
from pathlib import Path

from hooktui.tui.app.replay import PolicyPrompt, ReplayScreen
from hooktui.tui.app.watch import WatchApp
from textual.widgets import Input

from tests.replay.helpers import PYTHON, V1, V2, guard_command, record_session, write_guard
from tests.tui.test_replay_screen import finished, rows


async def test_r_replays_the_marked_calls(tmp_path: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "stream.jsonl"
    commands = ["git status", "rm -rf build", "curl x.sh | sh"]
    record_session(stream, "codex", [PYTHON, str(guard)], commands, tmp_path)
    edited = write_guard(tmp_path / "guard2.py", V2)
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(600):
            if app.loaded:
                break
            await pilot.pause(0.05)
        await pilot.press("g", "j", "m", "m")  # mark the 2nd and 3rd calls
        assert len(app.replay_entries()) == 2
        await pilot.press("r")  # the records are read back in a worker, then it asks
        for _ in range(600):
            if isinstance(app.screen, PolicyPrompt):
                break
            await pilot.pause(0.02)
        assert isinstance(app.screen, PolicyPrompt)
        app.screen.query_one(Input).value = guard_command(edited)
        await pilot.press("enter")
        screen = await finished(pilot)
        assert [(r["summary"], r["result"]) for r in rows(screen)] == [
            ("rm -rf build", "≠ ▲ loosened"),
            ("curl x.sh | sh", "≠ ▼ tightened"),
        ]
        # The footer shows the replay's keys only, and watch's keys do nothing here.
        shown = {b.binding.description for b in screen.active_bindings.values() if b.binding.show}
        assert {"Changes only", "Re-run"} <= shown
        assert not shown & {"Follow", "Pause", "Write", "Zoom"}
        following = app.calls.following
        await pilot.press("f")
        assert app.calls.following == following  # watch's `f` did not run under the replay
        await pilot.press("q")
        assert not isinstance(app.screen, ReplayScreen)
        assert app.is_running  # back in watch

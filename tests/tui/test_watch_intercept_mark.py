"""An armed breakpoint is marked in the header, with its expression, until it is cleared.

`watch --intercept` said so only in a toast that faded: nothing on screen then
said calls were being held. Real HoldServer, real app (Pilot).
"""

from __future__ import annotations

from datetime import UTC

import pytest
from hooktui.tap.hold.server import HoldServer
from hooktui.tui.app.watch import WatchApp
from hooktui.tui.present.header import header_text

from tests.hold_helpers import private_runtime_dir
from tests.tui.conftest import wait_until

SIZE = (160, 45)


@pytest.fixture
def runtime_dir(monkeypatch):
    path = private_runtime_dir()
    monkeypatch.setenv("XDG_RUNTIME_DIR", path)
    return path


def _header(app: WatchApp) -> str:
    return str(app.main_screen.header.render())


@pytest.mark.parametrize("size", [(160, 45), (80, 24)])
async def test_intercept_is_marked_after_its_toast_and_until_cleared(runtime_dir, tmp_path, size):
    server = HoldServer()
    server.set_breakpoint("tool:Bash decision:deny")
    app = WatchApp([str(tmp_path / "s.jsonl")], tz=UTC, hold=server)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: "● intercept" in _header(app))
        app.clear_notifications()  # the toast is gone: the header still says it
        await pilot.pause()
        line = _header(app).split("\n")[0]
        assert "s.jsonl" in line and "● intercept  tool:Ba" in line, line
        assert ("tool:Bash decision:deny" in line) == (size[0] > 80), line  # else cut
        await pilot.press("i", "ctrl+a", "ctrl+k", *"tool:Read", "enter")
        await wait_until(pilot, lambda: " tool:Read" in _header(app))
        await pilot.press("i", "ctrl+a", "ctrl+k", "enter")  # empty: cleared
        await wait_until(pilot, lambda: "● intercept" not in _header(app))


async def test_i_arms_the_mark_and_no_color_keeps_it(runtime_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = WatchApp([str(tmp_path / "s.jsonl")], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        assert "● intercept" not in _header(app)
        await pilot.press("i", *"tool:Bash", "enter")
        await wait_until(pilot, lambda: "● intercept  tool:Bash" in _header(app))
        text = header_text(
            app.main_screen.view, app.main_screen.header_state(), SIZE[0], color=not app.no_color
        )
        start = text.plain.index("● intercept")
        styles = [str(s.style) for s in text.spans if s.start <= start < s.end]
        assert app.no_color and any("reverse" in s and "bold" in s for s in styles), styles


async def test_at_80_columns_the_title_stays_and_the_expression_is_cut(runtime_dir, tmp_path):
    # A long expression pushed the stream's name (and the rate) off the header line.
    server = HoldServer()
    expr = "tool:Bash and command:~'git push' and not session:sess-1"
    server.set_breakpoint(expr)
    app = WatchApp([str(tmp_path / "hooks.jsonl")], tz=UTC, hold=server)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "● intercept" in _header(app))
        line = _header(app).split("\n")[0]
        assert "hooks.jsonl" in line, line
        assert "● intercept  tool:Ba" in line and "…" in line and expr not in line, line
        assert line.rstrip().endswith("/min"), line  # the rate stays too
        assert len(line) <= 80

"""A crashed guard's error in watch: its row and its Summary tab say `KeyError: 'command'`.

`show` printed the last line of a failed hook's stderr; watch did not. The
call is recorded through the real tap, from a real crashing guard.
"""

from __future__ import annotations

import io
from datetime import UTC
from pathlib import Path

from hooktui.tui.app.watch import WatchApp
from rich.console import Console

from tests.conftest import wait_for_records
from tests.replay.helpers import PYTHON, request_for, tap
from tests.tui.conftest import wait_until

CRASHES = 'import json, sys\nprint(json.load(sys.stdin)["tool_input"]["cmd"])\n'


def _summary(app: WatchApp) -> str:
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(app.main_screen.detail.body("summary").content)
    return console.export_text()


async def test_the_row_and_the_summary_say_what_the_crash_printed(tmp_path: Path) -> None:
    guard = tmp_path / "guard.py"
    guard.write_text(CRASHES)
    stream = tmp_path / "s.jsonl"
    tap(stream, "claude-code", [PYTHON, str(guard)], request_for("claude-code", "ls", "/"))
    wait_for_records(stream, 1)
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_until(
            pilot, lambda: app.main_screen.feed.loaded and len(app.main_screen.view) == 1
        )
        await wait_until(
            pilot, lambda: "stderr: KeyError: 'cmd'" in app.main_screen.calls.render_line(0).text
        )
        await wait_until(pilot, lambda: "KeyError: 'cmd'" in _summary(app))
        line = next(x for x in _summary(app).splitlines() if "KeyError" in x)
        assert line.split() == ["stderr", "KeyError:", "'cmd'"]


async def test_the_summary_shows_the_ids_random_part_to_type(tmp_path: Path) -> None:
    guard = tmp_path / "guard.py"
    guard.write_text(CRASHES)
    stream = tmp_path / "s.jsonl"
    tap(stream, "claude-code", [PYTHON, str(guard)], request_for("claude-code", "ls", "/"))
    (record,) = wait_for_records(stream, 1)
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_until(pilot, lambda: app.main_screen.feed.loaded and "record" in _summary(app))
        line = next(x for x in _summary(app).splitlines() if x.startswith("record"))
        assert f"· id {record['id'][14:]} ({record['id']})" in line, line

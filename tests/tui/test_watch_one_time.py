"""One time: the list's time and the detail's are the same instant, and the header says which.

The list showed when each hook answered, the detail's "time" when it started: two
clocks for one call. (Rows are still in the order records were written: two racing
recorders can put .603 above .588; see the report of issue 24.) Real file, real app.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hooktui.tui.app.watch import WatchApp
from hooktui.tui.present.format import format_datetime, format_time
from rich.console import Console

from tests.tui.conftest import make_record, wait_until, write_stream

SIZE = (160, 45)
T0 = datetime(2026, 3, 14, 14, 17, 34, tzinfo=UTC)


def _call(i: int, started_ms: int, ran_ms: float, command: str):
    ts = (T0 + timedelta(milliseconds=started_ms)).isoformat().replace("+00:00", "Z")
    return make_record(i, ts=ts, duration_ms=ran_ms, command=command)


def _stream(tmp_path: Path) -> Path:
    calls = [
        _call(0, 0, 100.0, "first"),  # answered .100
        _call(1, 500, 103.0, "slow"),  # answered .603, written first
        _call(2, 580, 8.0, "quick"),  # answered .588, written second
        _call(3, 700, 10.0, "last"),  # answered .710
    ]
    return write_stream(tmp_path / "s.jsonl", calls)


async def test_the_list_and_the_detail_show_one_time(tmp_path: Path) -> None:
    app = WatchApp([str(_stream(tmp_path))], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(
            pilot, lambda: app.main_screen.feed.loaded and len(app.main_screen.view) == 4
        )
        heads = [app.main_screen.view.line(r).head for r in range(4)]
        quick = [h.summary for h in heads].index("quick")
        rows = [app.main_screen.calls.render_line(y).text for y in range(4)]
        assert rows[quick].split()[0] == "14:17:34.588"  # when it answered
        assert (
            str(app.main_screen.columns.render()).split()[0] == "answered"
        )  # the header says which
        await pilot.press("g", *"j" * quick)  # the quick call: its detail, the list's instant
        answered = format_datetime(T0.timestamp() + 0.588, UTC)
        await wait_until(pilot, lambda: answered in _summary(app))
        line = next(x for x in _summary(app).splitlines() if answered in x)
        assert line.split()[0] == "answered", line
        assert "started " + format_time(T0.timestamp() + 0.580, UTC, True) in line


def _summary(app: WatchApp) -> str:
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(app.main_screen.detail.body("summary").content)
    return console.export_text()

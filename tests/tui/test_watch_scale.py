"""Watch opens a big stream at its newest lines and indexes the rest behind the first screen."""

from __future__ import annotations

from datetime import UTC
from pathlib import Path

from hooktui.tap.read.filter import compile_filter
from hooktui.tap.read.index_load import TAIL_BYTES
from hooktui.tui.app.live import LiveStreams
from hooktui.tui.app.watch import WatchApp

from tests.tui.conftest import make_record, wait_until, write_stream

SIZE = (120, 30)


def _big(tmp_path: Path) -> tuple[Path, int]:
    path = tmp_path / "s.jsonl"
    n = 0
    while not path.exists() or path.stat().st_size < 3 * TAIL_BYTES:
        write_stream(
            path, [make_record(n + i, tool_name="Edit" if i % 5 else "Bash") for i in range(500)]
        )
        n += 500
    return path, n


def test_the_first_read_is_the_newest_lines_only(tmp_path: Path) -> None:
    path, n = _big(tmp_path)
    streams = LiveStreams([str(path)])
    try:
        first = streams.load_newest()
        assert 0 < len(first.batch) < n and first.left > 0
        assert streams.tailers[0]._offset == path.stat().st_size  # following starts at the end
        posted = []
        streams.index_older(posted.append)
        assert sum(len(m.batch) for m in posted) + len(first.batch) == n
        assert [m.left for m in posted][-1] == 0
    finally:
        streams.close()


async def test_watch_shows_the_newest_then_fills_in_with_the_filter_applied(tmp_path: Path) -> None:
    path, n = _big(tmp_path)
    app = WatchApp([str(path)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.feed.loaded)
        newest = f"call-{n - 1:05d}"
        assert app.main_screen.calls.current.head.id == newest
        app.main_screen.view.set_predicate("tool:Bash", compile_filter("tool:Bash"))
        await wait_until(pilot, lambda: app.main_screen.view.total == n, timeout=60)
        await wait_until(pilot, lambda: app.main_screen.header_state().indexing is None)
        assert len(app.main_screen.view) == n // 5  # the filter applied to every older batch
        assert (
            app.main_screen.calls.following
            and app.main_screen.calls.current.head.id == f"call-{n - 5:05d}"
        )
        assert "indexing" not in str(app.main_screen.header.render())

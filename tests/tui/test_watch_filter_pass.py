"""A filter that reads the files runs beside the UI: keys are answered while it is applied."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC
from pathlib import Path

from hooktui.tap.model import encode_record
from hooktui.tap.read.decode import decode_head
from hooktui.tap.read.filter import compile_filter
from hooktui.tui.app.watch import WatchApp
from textual import events

from tests.tui.conftest import make_record, wait_until
from tests.waits import WAIT_S

SIZE = (120, 30)
KINDS = 1000  # distinct records, repeated: a big stream, written fast
REPEAT = 200  # 200k records: a synchronous filter pass would freeze watch for seconds
EXPR = "summary:*src/77*"


def _big(tmp_path: Path) -> tuple[Path, list[bytes]]:
    lines = [encode_record(make_record(i, tool_name=("Bash", "Edit")[i % 2])) for i in range(KINDS)]
    path = tmp_path / "s.jsonl"
    # Each repeat a year later: calls in the order they answered, as a tap writes them
    # (the same times repeated would interleave every repeat with every other).
    block = b"".join(lines)
    assert block.count(b'"ts":"2026-') == KINDS
    path.write_bytes(
        b"".join(block.replace(b'"ts":"2026-', b'"ts":"%d-' % (2026 + r)) for r in range(REPEAT))
    )
    return path, lines


def _expected(lines: list[bytes]) -> list[int]:
    """Offsets of the matching lines, by the filter itself on each distinct record."""
    predicate = compile_filter(EXPR)
    hits = [predicate(decode_head(line.rstrip(b"\n"), 0)) for line in lines]
    out, offset = [], 0
    for _ in range(REPEAT):
        for hit, line in zip(hits, lines, strict=True):
            if hit:
                out.append(offset)
            offset += len(line)
    return out


async def _poll(condition, timeout: float = WAIT_S) -> None:
    """Wait for `condition` in small sleeps (a Pilot pause would wait for the app to idle)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached while the app ran"
        await asyncio.sleep(0.005)


async def test_keys_are_answered_while_a_file_filter_is_applied(tmp_path: Path) -> None:
    path, lines = _big(tmp_path)
    app = WatchApp([str(path)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(
            pilot,
            lambda: app.main_screen.feed.loaded and app.main_screen.header_state().indexing is None,
            timeout=60,
        )
        assert app.main_screen.view.total == KINDS * REPEAT
        pieces: list[float | None] = []  # the pass's progress as each piece's matches came in
        app.main_screen.view.on_prepended.append(
            lambda _rows, _shown: pieces.append(app.main_screen.view.filter_progress)
        )
        await pilot.press("/")
        await _poll(
            lambda: app.focused is app.main_screen.filter_bar.input
        )  # else enter goes elsewhere
        app.main_screen.filter_bar.input.value = EXPR
        # Keys sent as a terminal sends them: a Pilot press would wait for the app to
        # idle after each, and an app whose worker is at work is not idle.
        app._driver.send_message(events.Key("enter", "\r"))
        await _poll(
            lambda: app.focused is app.main_screen.calls
        )  # the bar closed: the filter applies
        app._driver.send_message(events.Key("p", "p"))
        await _poll(
            lambda: app.main_screen.feed.paused
        )  # pause: answered at once, not after the pass
        assert app.main_screen.view.filter_progress is not None  # the pass is still running
        assert "filtering" in str(app.main_screen.header.render())
        await wait_until(pilot, lambda: app.main_screen.view.filter_progress is None, timeout=60)
        assert [e.offset for e in app.main_screen.view.shown_lines()] == _expected(lines)
        assert (
            app.main_screen.calls.following
            and app.main_screen.calls.current.offset == _expected(lines)[-1]
        )
        await wait_until(pilot, lambda: "filtering" not in str(app.main_screen.header.render()))
        assert pieces[0] is not None and pieces[0] < 0.5  # the newest matches came first

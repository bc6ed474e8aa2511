"""A call a person decided at a breakpoint counts as what the runtime got: its row's
decision column, watch's header counts, `decision:` and show say so; the hook's own
answer stays in sight (the row's mark, the detail, `hook_decision:`). The stream is
written by real taps held by a real HoldServer."""

from __future__ import annotations

import io
import subprocess
from datetime import UTC
from pathlib import Path

import pytest
from hooktui.tap.hold import answers
from hooktui.tap.model import decode_head
from hooktui.tap.read.filter import compile_filter
from hooktui.tap.read.index import batch_of
from hooktui.tap.read.lines import load_stream
from hooktui.tap.read.view import StreamLine
from hooktui.tui.present.rows import call_row, columns_for
from rich.console import Console

from tests.conftest import HOOKTUI
from tests.hold_helpers import REQUEST, finish, holding_server, records, start_tap, wait_for


@pytest.fixture(scope="module")
def stream(tmp_path_factory) -> Path:
    """Three calls the hook allows: one denied at a breakpoint, one let through as the
    hook answered (by a person), one not held."""
    path = tmp_path_factory.mktemp("held") / "s.jsonl"
    with holding_server() as (server, runtime_dir):
        for how in ("deny", "own"):
            tap = start_tap(path, runtime_dir)
            (call,) = wait_for(lambda: server.held())
            frame = answers.deny(call, "not on main") if how == "deny" else answers.own()
            assert server.release(call.number, frame)
            finish(tap)
        server.set_breakpoint("")
        finish(start_tap(path, runtime_dir, {**REQUEST, "tool_use_id": "toolu_free"}))
    assert [r["decision"] for r in records(path)] == ["allow"] * 3  # the hook's, as written
    return path


def _text(renderable) -> str:
    console = Console(width=140, record=True, file=io.StringIO(), color_system=None)
    console.print(getattr(renderable, "renderable", renderable))
    return console.export_text()


def _heads(stream: Path):
    return [decode_head(line) for line in stream.read_bytes().splitlines()]


def test_heads_carry_what_the_runtime_got_and_what_the_hook_said(stream: Path) -> None:
    heads = _heads(stream)
    assert [(h.decision, h.hook_decision) for h in heads] == [
        ("deny", "allow"),
        ("allow", "allow"),
        ("allow", "allow"),
    ]


def test_row_column_says_deny_and_the_mark_keeps_the_hooks_answer(stream: Path) -> None:
    head = _heads(stream)[0]
    width = 140
    row = call_row(StreamLine(0, 0, head), width, UTC, False, color=False).plain
    assert "⏸ denied (hook: allow)" in row
    widths = columns_for(width)
    assert widths.decision  # the decision column is shown at this width
    assert "deny" in row and "allow " not in row.split("⏸")[0]


def test_counts_and_filters_follow_the_runtimes_verdict(stream: Path) -> None:
    from hooktui.tap.read.view import CallView

    view = CallView([str(stream)])
    heads, _ = load_stream(str(stream))
    view.replace_all(batch_of(0, heads))
    assert (view.stats.decisions["deny"], view.stats.decisions["allow"]) == (1, 2)

    def ids(expr: str) -> list[str]:
        view.set_predicate(expr, compile_filter(expr))
        return [view.line(i).head.id for i in range(len(view))]

    assert len(ids("decision:deny")) == 1 and view.stats.decisions["deny"] == 1
    assert len(ids("decision:allow")) == 2
    assert len(ids("hook_decision:allow")) == 3
    assert len(ids("said:allow decision:block")) == 1


async def test_watch_header_and_detail(stream: Path) -> None:
    from hooktui.tui.app.watch import WatchApp
    from hooktui.tui.app.widgets.header import StatsHeader

    from tests.tui.conftest import wait_until

    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(140, 36)) as pilot:
        await wait_until(
            pilot, lambda: app.main_screen.feed.loaded and len(app.main_screen.view) == 3
        )
        header = app.query_one(StatsHeader)
        # The header redraws on its next refresh after the rows land.
        await wait_until(pilot, lambda: "3/3 shown" in _text(header.render()))
        text = _text(header.render())
        assert "allow 2" in text and "deny 1" in text, text
        await pilot.press("g")  # the oldest call: the one denied at the breakpoint
        await wait_until(
            pilot,
            lambda: (
                app.main_screen.detail.loaded is not None
                and app.main_screen.detail.loaded.stream_line.offset == 0
            ),
        )
        summary = _text(app.main_screen.detail.body("summary").content)
        assert "hook said allow; denied at a breakpoint after" in summary
        assert "not on main" in summary


def test_show_counts_and_filters_the_same_way(stream: Path) -> None:
    out = subprocess.run(
        [HOOKTUI, "show", str(stream), "--filter", "decision:deny"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "1 of 3 calls | 1 deny" in out.stdout and "✗ deny" in out.stdout

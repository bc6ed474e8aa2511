"""While following, the header's rate and sparkline end at the clock, not the last call.

A stream whose calls stopped 14 minutes ago read "1.0/min (5 min avg)": the
window ended at the newest record. Driven through the real app following a real
file; the records carry real times relative to now.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

from hooktui.tap.model import encode_record
from hooktui.tap.read.tally import minute_counts, rate_of
from hooktui.tui.app.watch import WatchApp
from hooktui.tui.present.format import SPARK_BLOCKS

from tests.tui.conftest import make_record, wait_until, write_stream

SIZE = (160, 45)


def _at(i: int, seconds_ago: float):
    ts = datetime.fromtimestamp(time.time() - seconds_ago, UTC).isoformat()
    return make_record(i, ts=ts.replace("+00:00", "Z"), duration_ms=10.0)


def _rate_and_spark(app: WatchApp) -> tuple[str, str]:
    line1 = str(app.main_screen.header.render()).split("\n")[0]
    spark = "".join(c for c in line1 if c in SPARK_BLOCKS[1:])
    rate = line1.split("/min")[0].split()[-1]
    return rate, spark


async def test_an_idle_stream_reads_zero_and_a_new_call_counts(tmp_path: Path) -> None:
    # Five calls a minute for five minutes, the last 14 minutes ago.
    old = [_at(i, 14 * 60 + 60 * (i // 5) + i % 5) for i in range(25)]
    stream = write_stream(tmp_path / "s.jsonl", old)
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(
            pilot, lambda: app.main_screen.feed.loaded and app.main_screen.view.total == 25
        )
        await wait_until(pilot, lambda: _rate_and_spark(app)[0] == "0.0")
        rate, spark = _rate_and_spark(app)
        # The newest 13 minutes of the sparkline are quiet; the burst is further back.
        assert set(spark[-13:]) == {SPARK_BLOCKS[1]} and set(spark[:-13]) != {SPARK_BLOCKS[1]}
        with open(stream, "ab") as f:
            f.write(encode_record(_at(100, 1)))
        await wait_until(pilot, lambda: app.main_screen.view.total == 26)
        await wait_until(pilot, lambda: _rate_and_spark(app)[0] == "0.2")  # 1 call / 5 min
        assert _rate_and_spark(app)[1][-1] != SPARK_BLOCKS[1]


async def test_a_stream_read_once_ends_at_its_newest_call(tmp_path: Path) -> None:
    old = [_at(i, 14 * 60 + i) for i in range(5)]
    stream = write_stream(tmp_path / "s.jsonl", old)
    app = WatchApp([str(stream)], tz=UTC, live=False)  # --no-follow-files: a record
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.feed.loaded)
        await pilot.pause()
        assert _rate_and_spark(app)[0] == "5.0"  # 5 calls in their own (one) minute


def test_rate_and_minutes_by_the_clock():
    now = 1_800_000_000.0
    ends = [now - 14 * 60 - s for s in range(10)]  # newest first
    assert rate_of(ends, 5) == 10.0  # to the newest call: the calls' own minute
    assert rate_of(ends, 5, now) == 0.0
    assert minute_counts(ends, 3, now) == [0, 0, 0]
    assert sum(minute_counts(ends, 16, now)) == 10
    fresh = [now - 30, now - 120]
    assert rate_of(fresh, 5, now) == 1.0  # two calls over the stream's own 2 minutes
    assert minute_counts(fresh, 3, now) == [1, 1, 0]  # this minute has none yet

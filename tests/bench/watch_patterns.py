"""Benchmark: watch's patterns view over 100k calls: the count runs in a worker, keys answer.

    .venv/bin/python tests/bench/watch_patterns.py [N]

Runs the real app headless on a stream of N records (default 100,000), opens
the patterns view (`%`) and regroups it (`b`) a few times; while each recount
runs in its thread worker, `s` (sort) is sent every 20 ms and timed from the
key to the view having taken it, side by side with the same key when nothing
is counting. Also times the recount (key to counted) against counting the
same calls inline, to show what running it off the UI thread costs.

Not collected by pytest; exits non-zero if a goal is missed.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from hooktui.tap.read.groups import Patterns  # noqa: E402
from hooktui.tui.app.watch import WatchApp  # noqa: E402
from textual import events  # noqa: E402
from watch_burst import make_line, pct  # noqa: E402

KEY_GOAL_P95_MS = 100.0
ROUNDS = 4


def _send(app: WatchApp, key: str) -> None:
    event = events.Key(key, key)
    event.set_sender(app)
    app._driver.send_message(event)


async def _key_ms(app: WatchApp) -> float:
    """Send `s` and wait until the view sorts by the next column."""
    lst = app.main_screen.patterns.list
    before = lst.sort
    t0 = time.perf_counter()
    _send(app, "s")
    while lst.sort == before and time.perf_counter() - t0 < 5:
        await asyncio.sleep(0.002)
    return (time.perf_counter() - t0) * 1000


async def run(n: int) -> dict[str, object]:
    tmp = Path(tempfile.mkdtemp(prefix="watch-patterns-"))
    stream = tmp / "stream.jsonl"
    rng = random.Random(5)
    with open(stream, "wb") as f:
        for i in range(n):
            f.write(make_line(i, rng))
    app = WatchApp([str(stream)], tz=UTC, live=False)
    busy: list[float] = []
    idle: list[float] = []
    recount_ms: list[float] = []
    async with app.run_test(size=(120, 36)) as pilot:
        while not (app.main_screen.feed.loaded and app.main_screen.view.total == n):
            await pilot.pause(0.05)
        await pilot.press("percent_sign")
        while app.main_screen.patterns._patterns is None:
            await asyncio.sleep(0.01)
        for _ in range(ROUNDS):
            t0 = time.perf_counter()
            _send(app, "b")  # regroup: a recount of every shown call
            while not app.main_screen.patterns._patterns_counting:
                await asyncio.sleep(0.002)
            while app.main_screen.patterns._patterns_counting:
                busy.append(await _key_ms(app))
                await asyncio.sleep(0.02)
            recount_ms.append((time.perf_counter() - t0) * 1000)
            for _ in range(10):
                idle.append(await _key_ms(app))
                await asyncio.sleep(0.02)
        heads = [app.main_screen.view.line(row).head for row in range(len(app.main_screen.view))]
        by = app.main_screen.patterns.list.by
    t0 = time.perf_counter()
    Patterns(by).add_all(heads)
    inline_ms = (time.perf_counter() - t0) * 1000
    return {"busy": busy, "idle": idle, "recount": recount_ms, "inline": inline_ms}


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    r = asyncio.run(run(n))
    busy, idle = r["busy"], r["idle"]
    recount = statistics.median(r["recount"])
    print(
        f"patterns over {n:,} calls: recount (key to counted) median {recount:.0f} ms, "
        f"counting inline {r['inline']:.0f} ms ({recount / r['inline']:.2f}x)"
    )
    print(
        f"`s` while a recount runs: {len(busy)} keys, p50 {statistics.median(busy):.1f} ms, "
        f"p95 {pct(busy, 95):.1f} ms; idle: p50 {statistics.median(idle):.1f} ms, "
        f"p95 {pct(idle, 95):.1f} ms (goal p95 ≤ {KEY_GOAL_P95_MS:.0f} ms while counting)"
    )
    return 0 if busy and pct(busy, 95) <= KEY_GOAL_P95_MS else 1


if __name__ == "__main__":
    sys.exit(main())

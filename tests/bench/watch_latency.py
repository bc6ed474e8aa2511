"""Benchmark: a record appended to the stream → shown by `hooktui watch` (goal: p95 ≤ 200 ms).

    .venv/bin/python tests/bench/watch_latency.py [COUNT] [--tap]

Runs the real watch app headless (App.run_test, live tailing with watchfiles
and the stat fallback), appends COUNT records one at a time at a steady pace
(one `write()` of one line, O_APPEND, as the tap does), and times each from the
write to the moment the call list has the row and has repainted. With --tap,
each record is written by a real `hooktui tap` subprocess instead, and the time
runs from the moment the tap returned the hook's answer (it records after that,
in a detached child) to the row shown.

Not collected by pytest; exits non-zero if p95 misses the goal.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from hooktui.tap.model import Record, encode_record
from hooktui.tui.app.watch import WatchApp

GOAL_P95_MS = 200.0
INTERVAL_S = 0.05
HOOKTUI = str(Path(sys.executable).with_name("hooktui"))


def _record(i: int) -> bytes:
    now = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    return encode_record(
        Record(
            id=f"bench-{i}",
            ts=now,
            runtime="claude-code",
            event="pre_tool_use",
            tool_name="Bash",
            decision="allow",
            exit_code=0,
            duration_ms=3.0,
            summary=f"echo {i}",
            request={"tool_name": "Bash", "tool_input": {"command": f"echo {i}"}},
        )
    )


def _tap(stream: Path, i: int) -> None:
    request = (
        '{"session_id":"bench","hook_event_name":"PreToolUse","tool_name":"Bash",'
        f'"tool_input":{{"command":"echo {i}"}},"cwd":"/tmp"}}'
    )
    subprocess.run(
        [HOOKTUI, "tap", "--stream", str(stream), "--label", f"bench-{i}", "--", "true"],
        input=request.encode(),
        capture_output=True,
        check=False,
    )


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(p / 100 * len(ordered)) - 1))]


async def run(count: int, use_tap: bool) -> list[float]:
    tmp = Path(tempfile.mkdtemp(prefix="watch-latency-"))
    stream = tmp / "stream.jsonl"
    stream.write_bytes(b"")
    app = WatchApp([str(stream)], tz=UTC)
    shown_at: dict[int, float] = {}
    written_at: dict[int, float] = {}

    def on_added(first: int, n: int) -> None:
        # Called when the rows join the view; the repaint follows on this tick.
        now = time.perf_counter()
        for _ in range(n):
            shown_at[len(shown_at)] = now

    async with app.run_test(size=(120, 36)) as pilot:
        while not app.main_screen.feed.loaded:
            await pilot.pause(0.01)
        app.main_screen.view.on_added.append(on_added)
        fd = os.open(stream, os.O_WRONLY | os.O_APPEND)
        loop = asyncio.get_running_loop()
        for i in range(count):
            written_at[i] = time.perf_counter()
            if use_tap:
                await loop.run_in_executor(None, _tap, stream, i)
                # From the moment the caller has its answer: the tap records after that.
                written_at[i] = time.perf_counter()
            else:
                os.write(fd, _record(i))
            await pilot.pause(INTERVAL_S)
        os.close(fd)
        deadline = time.perf_counter() + 10
        while len(shown_at) < count and time.perf_counter() < deadline:
            await pilot.pause(0.01)
    missing = count - len(shown_at)
    if missing:
        print(f"{missing} records never showed", file=sys.stderr)
    return [(shown_at[i] - written_at[i]) * 1000 for i in range(min(count, len(shown_at)))]


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    use_tap = "--tap" in sys.argv
    count = int(args[0]) if args else 200
    latencies = asyncio.run(run(count, use_tap))
    if not latencies:
        print("nothing was shown")
        return 1
    p50, p95 = statistics.median(latencies), percentile(latencies, 95)
    how = "hooktui tap: answer returned" if use_tap else "direct O_APPEND write"
    print(
        f"append → shown ({how}), {len(latencies)} records: "
        f"p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {max(latencies):.1f} ms "
        f"(goal p95 ≤ {GOAL_P95_MS:.0f} ms)"
    )
    return 0 if p95 <= GOAL_P95_MS else 1


if __name__ == "__main__":
    sys.exit(main())

"""Counts, latencies and rates over the shown calls: what watch's header and show's tally say.

"Now" is the newest call, not the wall clock: a recorded stream reads the same
whenever it is opened.
"""

from __future__ import annotations

from hooktui.tap.canonical import fails_open
from hooktui.tap.model import RecordHead
from hooktui.tap.read.merge import end_time
from hooktui.tap.read.tally import (
    RATE_MINUTES,
    RATE_SAMPLE,
    SPARK_MINUTES,
    Tally,
    minute_counts,
    rate_of,
)

__all__ = ["Stats"]

# Minute buckets are keyed by the timestamp's text up to the minute: slicing is
# ten times cheaper than parsing, and records are written in UTC.
_MINUTE_FORMAT = "%Y-%m-%dT%H:%M"


class Stats(Tally):
    """Counts and latencies over the shown lines (heads).

    With `keep_heads=False` (show's tally over a stream of any size) it keeps
    8 bytes per call (its latency, for exact percentiles) and no rates.
    """

    def __init__(self, keep_heads: bool = True) -> None:
        self.keep_heads = keep_heads
        self.clear()

    def clear(self) -> None:
        super().clear()
        self._heads: list[RecordHead] = []  # in view order, for minutes and rates
        self._per_minute: tuple[int, list[int]] | None = None
        self._rate: tuple[int, int, float] | None = None

    def add_heads(self, calls: list[RecordHead]) -> None:
        if not calls:
            return
        self._count([h.decision for h in calls], [h.duration_ms for h in calls])
        if self.decisions["failure"]:
            self.fail_open += sum(1 for h in calls if fails_open(h.decision, h.effect))
        if self.keep_heads:
            self._heads += calls
            self._per_minute = None
            self._rate = None

    # -- over time -----------------------------------------------------------

    def rate(self, minutes: int = RATE_MINUTES) -> float:
        """Calls per minute over the last `minutes` up to the newest call (a rate, not a count).

        A stream younger than the window is averaged over its own span (at
        least one minute), so a first burst does not read as a trickle.
        """
        if self._rate is not None and self._rate[:2] == (len(self._heads), minutes):
            return self._rate[2]
        value = self._count_rate(minutes)
        self._rate = (len(self._heads), minutes, value)
        return value

    def _count_rate(self, minutes: int) -> float:
        times: list[float] = []
        for head in reversed(self._heads[-RATE_SAMPLE:]):
            t = end_time(head)
            if t == t:  # not NaN
                times.append(t)
        return rate_of(times, minutes)

    def per_minute(self, minutes: int = SPARK_MINUTES) -> list[int]:
        """Calls per minute, by when each answered, for the last `minutes` minutes up to
        the newest call. Only the tail of the view is read."""
        if self._per_minute is not None and self._per_minute[0] == minutes:
            return self._per_minute[1]
        ends = (t for t in map(end_time, reversed(self._heads)) if t == t)  # not NaN
        counts = minute_counts(ends, minutes)
        self._per_minute = (minutes, counts)
        return counts

"""What every count over calls shares: calls by decision, failures, fail-open,
latency percentiles and the calls-per-minute rate.

`Stats` (show's tally, over heads) and `ColumnStats` (watch's header, over the
index's columns) are both a `Tally`: they differ only in where a call's
decision, effect, latency and time are read from.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import chain, islice

from hooktui.tap.canonical import DECISIONS

# How many minutes of calls-per-minute history the header's sparkline shows.
SPARK_MINUTES = 30
# Out-of-order records tolerated when looking back for the newest minutes.
STRAGGLERS = 256
# The window `Tally.rate` averages over, and how many calls it reads at most
# (past that, the rate is taken over the newest RATE_SAMPLE calls' own span).
RATE_MINUTES = 5
RATE_SAMPLE = 5000


def nearest_rank(sorted_values: Sequence[float], p: float) -> float | None:
    """Nearest-rank percentile of already sorted values; None when there are none."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def rate_of(times: list[float], minutes: int, now: float | None = None) -> float:
    """Calls per minute over the last `minutes` up to `now` (the clock; None: the newest
    of `times`), given when the newest RATE_SAMPLE calls answered, newest first, NaN-free.

    A stream younger than the window is averaged over its own span (at least one
    minute), so a first burst does not read as a trickle; more calls in the window
    than the sample holds are averaged over the sample's own span. By the clock, a
    stream idle for longer than the window reads 0.
    """
    if not times:
        return 0.0
    newest = max(times[:STRAGGLERS]) if now is None else max(now, max(times[:STRAGGLERS]))
    cutoff = newest - minutes * 60
    inside = [t for t in times if cutoff < t <= newest]
    if not inside:
        return 0.0
    if len(inside) == len(times) and len(times) == RATE_SAMPLE:
        return len(inside) / max((newest - min(inside)) / 60, 1 / 60)
    span = newest - min(inside) if len(inside) == len(times) else minutes * 60
    return len(inside) / max(span / 60, 1.0)


def minute_counts(ends: Iterable[float], minutes: int, now: float | None = None) -> list[int]:
    """Calls per minute, by when each answered, for the `minutes` minutes up to the one
    of `now` (the clock; None: of the newest call). `ends`: newest first, NaN-free;
    read back only past STRAGGLERS calls older than the window (streams are in
    rough time order: a record is written when its hook ends)."""
    ends = iter(ends)
    if now is None:
        head = list(islice(ends, STRAGGLERS))
        if not head:
            return [0] * minutes
        now = max(head)
        ends = chain(head, ends)
    last = math.floor(now / 60)
    oldest = last - minutes + 1
    counts = [0] * minutes
    older = 0
    for t in ends:
        m = math.floor(t / 60)
        if m < oldest:
            older += 1
            if older > STRAGGLERS:
                break
            continue
        older = 0
        if m <= last:
            counts[m - oldest] += 1
    return counts


class Tally:
    """Calls by decision, bad lines, fail-open failures and latencies, counted so far."""

    def clear(self) -> None:
        self.decisions: Counter[str] = Counter({d: 0 for d in DECISIONS})
        self.bad = 0
        self.fail_open = 0
        self._durations = array("d")
        self._sorted: array | None = None  # 8 bytes a call, as the durations

    def _count(self, decisions: Iterable[str], durations: Iterable[float]) -> None:
        """Add calls: their decisions and their latencies (fail_open is the caller's)."""
        self.decisions.update(decisions)
        self._durations.extend(durations)
        self._sorted = None

    @property
    def calls(self) -> int:
        return len(self._durations)

    @property
    def failures(self) -> int:
        return self.decisions["failure"]

    def percentile(self, p: float) -> float | None:
        """Nearest-rank percentile of latency, in ms; None without calls."""
        if self._sorted is None:
            self._sorted = array("d", sorted(self._durations))
        return nearest_rank(self._sorted, p)

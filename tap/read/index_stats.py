"""The header's counts, latencies and rates over the shown rows of the index (`index.Columns`).

The same figures as `stats.Stats` (which show's tally keeps; both a `tally.Tally`),
read from columns instead of heads. "Now" is the clock when one is given (a live
dashboard: a stream idle for 14 minutes reads 0/min), else the newest shown call.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from hooktui.tap.canonical import fails_open
from hooktui.tap.read.index import Columns
from hooktui.tap.read.tally import (
    RATE_MINUTES,
    RATE_SAMPLE,
    SPARK_MINUTES,
    Tally,
    minute_counts,
    rate_of,
)


class ColumnStats(Tally):
    """Counts over the rows `add_rows` was given (rows of `columns`)."""

    def __init__(self, columns: Columns, shown: Sequence[int]) -> None:
        self.columns = columns
        self.shown = shown  # the view's rows in display order: the newest are read for rates
        self.clear()

    def clear(self) -> None:
        super().clear()
        self._version = 0
        self._per_minute: tuple[tuple, list[int]] | None = None
        self._rate: tuple[tuple, float] | None = None

    def rebind(self, columns: Columns, shown: Sequence[int]) -> None:
        self.columns, self.shown = columns, shown

    def add_rows(self, rows: Sequence[int]) -> None:
        """Count these rows (bad lines count as bad, calls by decision and latency)."""
        if not len(rows):
            return
        cols = self.columns
        flags, decision, effect = cols.flags, cols.text["decision"], cols.text["effect"]
        # Arrays and iterators, not lists: a million rows come in at once.
        calls = array("q", (i for i in rows if not flags[i] & 1))
        self.bad += len(rows) - len(calls)
        codes = Counter(map(decision.__getitem__, calls))
        names = cols.tables["decision"].values
        self._count(
            Counter({names[code]: n for code, n in codes.items()}),
            map(cols.duration_ms.__getitem__, calls),
        )
        for code, effects in _failing_open(cols, codes).items():
            self.fail_open += sum(1 for i in calls if decision[i] == code and effect[i] in effects)
        self._version += 1

    def _newest_ends(self, count: int) -> list[float]:
        """When the newest `count` shown calls answered (those with a time), newest first."""
        flags, end_at = self.columns.flags, self.columns.end_at
        out = []
        for i in reversed(self.shown[-count:]):
            if not flags[i] & 1:
                t = end_at(i)
                if math.isfinite(t):
                    out.append(t)
        return out

    def rate(self, minutes: int = RATE_MINUTES, now: float | None = None) -> float:
        """Calls per minute over the last `minutes` up to `now` (the clock; None: the
        newest call) (see tally.rate_of)."""
        key = (self._version, minutes, None if now is None else int(now))
        if self._rate is not None and self._rate[0] == key:
            return self._rate[1]
        value = rate_of(self._newest_ends(RATE_SAMPLE), minutes, now)
        self._rate = (key, value)
        return value

    def per_minute(self, minutes: int = SPARK_MINUTES, now: float | None = None) -> list[int]:
        """Calls per minute, by when each answered, for the last `minutes` minutes up to
        `now` (the clock; None: the newest call)."""
        key = (self._version, minutes, None if now is None else math.floor(now / 60))
        if self._per_minute is not None and self._per_minute[0] == key:
            return self._per_minute[1]
        counts = minute_counts(self._ends(), minutes, now)
        self._per_minute = (key, counts)
        return counts

    def _ends(self) -> Iterator[float]:
        """When the shown calls answered (those with a time), newest first."""
        flags, end_at = self.columns.flags, self.columns.end_at
        for i in reversed(self.shown):
            if not flags[i] & 1:
                t = end_at(i)
                if math.isfinite(t):
                    yield t


def _failing_open(cols: Columns, decisions: Iterable[int]) -> dict[int, frozenset[int]]:
    """For each decision code given, the effect codes that make it fail open (canonical's
    rule, asked once per pair of interned names: a row is then two lookups)."""
    decision_names, effect_names = cols.tables["decision"].values, cols.tables["effect"].values
    out = {}
    for code in decisions:
        effects = frozenset(
            e for e, name in enumerate(effect_names) if fails_open(decision_names[code], name)
        )
        if effects:
            out[code] = effects
    return out

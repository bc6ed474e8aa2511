"""The watch model: every entry read, the filtered view over them, marks, stats.

Kept apart from the widgets (like mitmproxy's addons/view.py): the call list
only asks "how many rows, and what is row i", the header only reads `stats`.
Listeners are plain callbacks, so the model is testable without an app.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

import msgspec
from hooktui.tap.model import DECISIONS, RecordHead
from hooktui.tap.read.reader import parse_ts, ts_sort_key

# How many minutes of calls-per-minute history the header's sparkline shows.
SPARK_MINUTES = 30
# Out-of-order records tolerated when looking back for the newest minutes.
STRAGGLERS = 256


class Entry(msgspec.Struct, gc=False):
    """One line of one stream: a decoded head, or a bad line.

    Not tracked by the garbage collector (it holds no cycles): with 100k of
    them, every full collection would otherwise walk them all.
    """

    source: int  # index into CallView.sources
    offset: int  # byte offset of the line in its stream
    head: Any  # RecordHead | hooktui.tap.read.reader.BadLine

    @property
    def is_bad(self) -> bool:
        return not isinstance(self.head, RecordHead)

    @property
    def key(self) -> tuple[int, int]:
        return (self.source, self.offset)

    @property
    def t(self) -> float:
        """Epoch seconds of the call (NaN for a bad line); parsed on demand, for shown rows."""
        head = self.head
        return parse_ts(head.ts) if isinstance(head, RecordHead) else math.nan


def make_entries(source: int, items: Iterable[tuple[int, Any]]) -> list[Entry]:
    """Entries for (offset, RecordHead | BadLine) pairs read from one stream."""
    return [Entry(source, offset, head) for offset, head in items]


def merge_by_time(per_source: list[list[Entry]]) -> list[Entry]:
    """One list ordered by time; each stream keeps its own file order.

    A bad line has no time: it takes its predecessor's, so it stays where it was.
    """

    def keyed(entries: list[Entry]):
        last = ""
        for e in entries:
            if isinstance(e.head, RecordHead):
                last = ts_sort_key(e.head.ts)
            yield last, e.source, e

    if len(per_source) == 1:
        return list(per_source[0])
    merged = heapq.merge(*(keyed(es) for es in per_source), key=lambda k: (k[0], k[1]))
    return [e for _, _, e in merged]


# Minute buckets are keyed by the timestamp's text up to the minute: slicing is
# ten times cheaper than parsing, and records are written in UTC.
_MINUTE_FORMAT = "%Y-%m-%dT%H:%M"


class Stats:
    """Counts and latencies over the shown entries."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.decisions: Counter[str] = Counter({d: 0 for d in DECISIONS})
        self.bad = 0
        self.fail_open = 0
        self._durations: list[float] = []
        self._sorted: list[float] | None = None
        self._ts: list[str] = []  # timestamps in view order, for the per-minute counts
        self._per_minute: tuple[int, list[int]] | None = None

    def add_all(self, entries: Iterable[Entry]) -> None:
        """Count many entries: a few C-speed passes, not a Python loop per entry."""
        heads = [e.head for e in entries]
        calls = [h for h in heads if isinstance(h, RecordHead)]
        self.bad += len(heads) - len(calls)
        if not calls:
            return
        self.decisions.update([h.decision for h in calls])
        if self.decisions["failure"]:
            self.fail_open += sum(
                1 for h in calls if h.decision == "failure" and h.effect != "blocks"
            )
        self._durations += [h.duration_ms for h in calls]
        self._sorted = None
        self._ts += [h.ts for h in calls]
        self._per_minute = None

    def add(self, entry: Entry) -> None:
        self.add_all((entry,))

    @property
    def calls(self) -> int:
        return len(self._durations)

    @property
    def failures(self) -> int:
        return self.decisions["failure"]

    def percentile(self, p: float) -> float | None:
        """Nearest-rank percentile of latency, in ms; None without calls."""
        if not self._durations:
            return None
        if self._sorted is None:
            self._sorted = sorted(self._durations)
        rank = max(1, math.ceil(p / 100 * len(self._sorted)))
        return self._sorted[rank - 1]

    def per_minute(self, minutes: int = SPARK_MINUTES) -> list[int]:
        """Calls per minute for the last `minutes` minutes up to the newest call.

        "Now" is the newest record, not the wall clock: a recorded stream looks
        the same whenever it is opened. Only the tail of the view is read.
        """
        if self._per_minute is not None and self._per_minute[0] == minutes:
            return self._per_minute[1]
        counts = self._count_minutes(minutes)
        self._per_minute = (minutes, counts)
        return counts

    def _count_minutes(self, minutes: int) -> list[int]:
        ts = self._ts
        if not ts:
            return [0] * minutes
        # Streams are in rough time order (a record is written when its hook
        # ends): look back from the end, past a margin of older records.
        newest = max(t[:16] for t in ts[-STRAGGLERS:])
        try:
            end = datetime.strptime(newest, _MINUTE_FORMAT)
        except ValueError:  # not a timestamp we can count back from
            return [0] * (minutes - 1) + [1]
        keys = [(end - timedelta(minutes=m)).strftime(_MINUTE_FORMAT) for m in range(minutes)]
        oldest = keys[-1]
        counts: Counter[str] = Counter()
        older = 0
        for t in reversed(ts):
            key = t[:16]
            if key < oldest:
                older += 1
                if older > STRAGGLERS:
                    break
                continue
            older = 0
            counts[key] += 1
        return [counts.get(k, 0) for k in reversed(keys)]


Predicate = Callable[[RecordHead], bool]


class CallView:
    """All entries, and the filtered, ordered view the list shows."""

    def __init__(self, sources: list[str]) -> None:
        self.sources = list(sources)
        self.entries: list[Entry] = []
        self.shown: list[int] = []  # indices into entries, in display order
        self.marks: set[tuple[int, int]] = set()  # (source, offset)
        self.marked_only = False
        self.filter_text = ""
        self._predicate: Predicate | None = None
        self.stats = Stats()
        # on_added(first_new_row, count); on_refresh(): the whole view changed.
        self.on_added: list[Callable[[int, int], None]] = []
        self.on_refresh: list[Callable[[], None]] = []

    # -- reading -------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.shown)

    @property
    def total(self) -> int:
        return len(self.entries)

    def entry(self, row: int) -> Entry:
        return self.entries[self.shown[row]]

    def is_marked(self, entry: Entry) -> bool:
        return (entry.source, entry.offset) in self.marks

    def shown_entries(self) -> list[Entry]:
        entries = self.entries
        return [entries[i] for i in self.shown]

    def marked_entries(self) -> list[Entry]:
        return [e for e in self.entries if (e.source, e.offset) in self.marks]

    # -- changing ------------------------------------------------------------

    def _accepts(self, entry: Entry) -> bool:
        if self.marked_only and (entry.source, entry.offset) not in self.marks:
            return False
        if self._predicate is None:
            return True
        head = entry.head
        # Bad lines only show unfiltered: a filter speaks about calls.
        return isinstance(head, RecordHead) and self._predicate(head)

    def add(self, entries: list[Entry]) -> int:
        """Append entries (newest last); returns how many became shown rows."""
        if not entries:
            return 0
        first_row = len(self.shown)
        base = len(self.entries)
        self.entries.extend(entries)
        accepts, shown = self._accepts, self.shown
        new_rows = [i for i, entry in enumerate(entries, base) if accepts(entry)]
        shown += new_rows
        self.stats.add_all(self.entries[i] for i in new_rows)
        added = len(new_rows)
        if added:
            for listener in self.on_added:
                listener(first_row, added)
        return added

    def replace_all(self, entries: list[Entry]) -> None:
        """Start over with these entries (the initial load)."""
        self.entries = list(entries)
        self.marks.clear()
        self.rebuild()

    def reset_source(self, source: int, entries: list[Entry]) -> None:
        """A stream was truncated or replaced: drop what it held, take `entries`."""
        kept = [e for e in self.entries if e.source != source]
        self.marks = {m for m in self.marks if m[0] != source}
        self.entries = merge_by_time([kept, entries]) if kept else list(entries)
        self.rebuild()

    def set_predicate(self, text: str, predicate: Predicate | None) -> None:
        self.filter_text = text.strip() if predicate is not None else ""
        self._predicate = predicate
        self.rebuild()

    def set_marked_only(self, on: bool) -> None:
        if on != self.marked_only:
            self.marked_only = on
            self.rebuild()

    def toggle_mark(self, row: int) -> bool:
        """Mark or unmark the entry on `row`; returns whether it is now marked."""
        entry = self.entry(row)
        key = (entry.source, entry.offset)
        if key in self.marks:
            self.marks.discard(key)
            if self.marked_only:
                self.rebuild()
            return False
        self.marks.add(key)
        return True

    def rebuild(self) -> None:
        """Recompute the shown rows and the stats (filter, marks or data changed)."""
        entries = self.entries
        predicate, marks = self._predicate, self.marks
        if predicate is None and not self.marked_only:
            shown = list(range(len(entries)))
        elif predicate is None:
            shown = [i for i, e in enumerate(entries) if (e.source, e.offset) in marks]
        else:
            # Inlined _accepts: this loop is the 100k-records refilter.
            shown = [
                i
                for i, e in enumerate(entries)
                if isinstance(e.head, RecordHead) and predicate(e.head)
            ]
            if self.marked_only:
                shown = [i for i in shown if entries[i].key in marks]
        self.shown = shown
        self.stats.clear()
        self.stats.add_all(entries[i] for i in shown)
        for listener in self.on_refresh:
            listener()

    def row_of(self, key: tuple[int, int]) -> int | None:
        """The shown row of the entry (source, offset), if it is shown."""
        entries = self.entries
        for row in range(len(self.shown) - 1, -1, -1):
            e = entries[self.shown[row]]
            if e.source == key[0] and e.offset == key[1]:
                return row
        return None

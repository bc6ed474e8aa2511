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
from typing import Any

import msgspec
from hooktui.tap.model import DECISIONS, RecordHead
from hooktui.tui.format import is_fail_open, parse_ts

# How many minutes of calls-per-minute history the header's sparkline shows.
SPARK_MINUTES = 30


class Entry(msgspec.Struct):
    """One line of one stream: a decoded head, or a bad line."""

    source: int  # index into CallView.sources
    offset: int  # byte offset of the line in its stream
    head: Any  # RecordHead | hooktui.tap.reader.BadLine
    t: float = math.nan  # epoch seconds (a bad line borrows its predecessor's)

    @property
    def is_bad(self) -> bool:
        return not isinstance(self.head, RecordHead)

    @property
    def key(self) -> tuple[int, int]:
        return (self.source, self.offset)


def make_entries(source: int, items: Iterable[tuple[int, Any]], last_t: float = math.nan):
    """Entries for (offset, RecordHead | BadLine) pairs read from one stream."""
    out: list[Entry] = []
    t = last_t
    for offset, head in items:
        if isinstance(head, RecordHead):
            parsed = parse_ts(head.ts)
            if not math.isnan(parsed):
                t = parsed
        out.append(Entry(source, offset, head, t))
    return out


def merge_by_time(per_source: list[list[Entry]]) -> list[Entry]:
    """One list ordered by time; each stream keeps its own file order."""
    if len(per_source) == 1:
        return list(per_source[0])
    return list(
        heapq.merge(*per_source, key=lambda e: (-math.inf if math.isnan(e.t) else e.t, e.source))
    )


class Stats:
    """Counts and latencies over the shown entries."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.decisions: Counter[str] = Counter({d: 0 for d in DECISIONS})
        self.bad = 0
        self.fail_open = 0
        self.minutes: Counter[int] = Counter()
        self._durations: list[float] = []
        self._sorted: list[float] | None = None
        self.last_t = math.nan

    def add(self, entry: Entry) -> None:
        head = entry.head
        if not isinstance(head, RecordHead):
            self.bad += 1
            return
        self.decisions[head.decision] += 1
        if is_fail_open(head.decision, head.effect):
            self.fail_open += 1
        self._durations.append(head.duration_ms)
        self._sorted = None
        if not math.isnan(entry.t):
            self.minutes[int(entry.t // 60)] += 1
            if math.isnan(self.last_t) or entry.t > self.last_t:
                self.last_t = entry.t

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
        the same whenever it is opened.
        """
        if math.isnan(self.last_t):
            return [0] * minutes
        end = int(self.last_t // 60)
        return [self.minutes.get(m, 0) for m in range(end - minutes + 1, end + 1)]


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
        accepts, shown, stats = self._accepts, self.shown, self.stats
        for i, entry in enumerate(entries, base):
            if accepts(entry):
                shown.append(i)
                stats.add(entry)
        added = len(shown) - first_row
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
        self.filter_text = text if predicate is not None else ""
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
        stats = self.stats
        stats.clear()
        accepts = self._accepts
        entries = self.entries
        if self._predicate is None and not self.marked_only:
            shown = list(range(len(entries)))
            for entry in entries:
                stats.add(entry)
        else:
            shown = []
            append = shown.append
            for i, entry in enumerate(entries):
                if accepts(entry):
                    append(i)
                    stats.add(entry)
        self.shown = shown
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

"""The watch model: every entry read, the filtered, ordered view over them, marks, stats.

Kept apart from the widgets (like mitmproxy's addons/view.py): the call list
only asks "how many rows, and what is row i", the header only reads `stats`.
Listeners are plain callbacks, so the model is testable without an app. The
cursor and follow mode live beside it, in `focus.Focus`.

One clock: entries are in the order hooks answered (the order records are
appended; several streams are merged by it), and `Entry.t` is that time.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import msgspec
from hooktui.tap.model import RecordHead
from hooktui.tap.read.reader import end_time, merge_lazily, time_keyed
from hooktui.tap.read.stats import SPARK_MINUTES, STRAGGLERS, Stats

__all__ = ["SPARK_MINUTES", "STRAGGLERS", "CallView", "Entry", "Stats", "make_entries"]


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
        """Epoch seconds when the hook answered (NaN for a bad line); parsed on demand.

        The list is in this order, so this is the time a row shows.
        """
        head = self.head
        return end_time(head) if isinstance(head, RecordHead) else math.nan


def make_entries(source: int, items: Iterable[tuple[int, Any]]) -> list[Entry]:
    """Entries for (offset, RecordHead | BadLine) pairs read from one stream."""
    return [Entry(source, offset, head) for offset, head in items]


def _head(entry: Entry) -> Any:
    return entry.head


def merge_by_time(per_source: list[list[Entry]]) -> list[Entry]:
    """One list ordered by when each hook answered; each stream keeps its own file order.

    A bad line has no time: it takes its predecessor's, so it stays where it was.
    """
    if len(per_source) == 1:
        return list(per_source[0])
    keyed = [time_keyed(((0, e) for e in es), _head) for es in per_source]
    return [e for _, _, e in merge_lazily(keyed)]


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

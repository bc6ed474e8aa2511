"""A filter that reads fields back from the files, applied off the UI thread, newest rows first.

The index keeps no id, time text, summary or reason (at a million records
they would cost more memory than all its columns), so a filter on those, or
on bare words, decodes them from the files: seconds at a million records.
`CallView` hands such a pass the rows to test (`add`); a worker thread runs
it (`run`) and posts `Matched` pieces, newest rows first, which the view
puts before what it shows (`CallView.apply_matches`): the first screenful of
matches appears at once, and the UI thread only ever does small steps.

A pass is never shared: changing the filter (or the marks, or the data as a
whole) starts a new one and cancels the old, whose pieces the view drops.
"""

from __future__ import annotations

import threading
from array import array
from collections import deque
from collections.abc import Callable
from typing import Any, NamedTuple

from hooktui.tap.read.index import Columns
from hooktui.tap.read.index_heads import FileHeads

# Rows tested per piece: a few first (the first screen), growing to this many,
# so a cancelled pass stops within a fraction of a second.
FIRST_PIECE = 1024
MAX_PIECE = 32768


class Matched(NamedTuple):
    filter_pass: FilterPass
    rows: array  # rows that match, ascending, as numbered when their segment was added
    base: int  # the view's count of renumberings then (rows move by what came since)
    tested: int  # rows tested in this piece (matches or not)


class _Segment:
    """Rows to test, and their keys copied: rows may be inserted into the index meanwhile."""

    def __init__(self, index: Columns, rows: array, base: int) -> None:
        self.rows = rows
        # Copies of the columns up to the last row (a memory copy: a row-by-row one
        # would cost the UI thread a fifth of a second at 200k rows).
        top = rows[-1] + 1
        self.source = index.source[:top]
        self.offset = index.offset[:top]
        self.base = base
        self.end = len(rows)  # rows[:end] are still to test, newest (highest) first


class FilterPass:
    """Rows of one filter still to test; thread-safe between the UI and one worker."""

    def __init__(self, predicate: Callable[[Any], bool], fields: frozenset[str], files: FileHeads):
        self.predicate = predicate
        self.fields = fields
        self.files = files
        self.total = 0  # rows handed to the pass (UI thread)
        self.applied = 0  # rows whose result the view has taken (UI thread)
        self.cancelled = False
        self._lock = threading.Lock()
        self._segments: deque[_Segment] = deque()
        self._running = False

    @property
    def done(self) -> bool:
        return self.applied >= self.total

    @property
    def progress(self) -> float:
        return self.applied / self.total if self.total else 1.0

    def add(self, index: Columns, rows: array, base: int) -> bool:
        """More rows to test (each segment older than the last); True: start a worker."""
        if not len(rows):
            return False
        segment = _Segment(index, rows, base)
        self.total += len(rows)
        with self._lock:
            self._segments.append(segment)
            start = not self._running
            self._running = True
        return start

    def cancel(self) -> None:
        self.cancelled = True

    def run(self, post: Callable[[Matched], Any], cancelled: Callable[[], bool] = bool) -> None:
        """Test every row handed in, newest first, posting a Matched per piece (worker thread)."""
        size = FIRST_PIECE
        while not (self.cancelled or cancelled()):
            with self._lock:
                if not self._segments:
                    self._running = False  # an `add` from now on starts a new worker
                    return
                segment = self._segments[0]
                lo = max(0, segment.end - size)
                hi, segment.end = segment.end, lo
                if lo == 0:
                    self._segments.popleft()
            post(Matched(self, self._test(segment, lo, hi), segment.base, hi - lo))
            size = min(size * 2, MAX_PIECE)
        with self._lock:
            self._running = False

    def _test(self, segment: _Segment, lo: int, hi: int) -> array:
        predicate, rows = self.predicate, segment.rows
        src, off = segment.source, segment.offset
        keys = ((src[i], off[i]) for i in rows[lo:hi])
        heads = self.files.many(keys, self.fields)
        return array(
            "q",
            (rows[lo + k] for k, h in enumerate(heads) if h is not None and predicate(h)),
        )

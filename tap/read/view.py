"""The watch model: every line read, the filtered, ordered view over them, marks, stats.

Kept apart from the widgets (like mitmproxy's addons/view.py): the call list
only asks "how many rows, and what is row i", the header only reads `stats`.
Listeners are plain callbacks, so the model is testable without an app. The
cursor and follow mode live beside it, in `focus.Focus`.

One clock: lines are in the order hooks answered (records are appended a
little after, so a late one is inserted at its place; several streams are
merged by it), and `StreamLine.t` is that time. An insertion renumbers the
rows after it: `moved` says where the shown rows went (`index_order.Renumber`).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from hooktui.tap.model import RecordHead
from hooktui.tap.read.decode import BadLine
from hooktui.tap.read.filter import filter_fields
from hooktui.tap.read.filter_pass import FilterPass, Matched
from hooktui.tap.read.index import INDEXED, Columns, end_of, merge_batches
from hooktui.tap.read.index_heads import FileHeads
from hooktui.tap.read.index_order import Renumber, merge_rows, renumbered
from hooktui.tap.read.index_select import select_indexed
from hooktui.tap.read.index_stats import ColumnStats

__all__ = ["CallView", "StreamLine"]


class StreamLine:
    """One line of one stream: where it is, and its head (decoded now, or when first read).

    The view makes these on demand for the rows asked for; the index itself
    keeps columns, not StreamLines. A head not given is read back from the file.
    """

    __slots__ = ("_head", "_load", "offset", "source")

    def __init__(
        self,
        source: int,
        offset: int,
        head: Any = None,
        load: Callable[[int, int], Any] | None = None,
    ) -> None:
        self.source = source  # index into CallView.sources
        self.offset = offset  # byte offset of the line in its stream
        self._head = head
        self._load = load

    @property
    def head(self) -> Any:
        """The RecordHead (or hooktui.tap.read.decode.BadLine) of the line."""
        if self._head is None and self._load is not None:
            self._head = self._load(self.source, self.offset)
        return self._head

    @property
    def is_bad(self) -> bool:
        return not isinstance(self.head, RecordHead)

    @property
    def key(self) -> tuple[int, int]:
        return (self.source, self.offset)

    @property
    def t(self) -> float:
        """Epoch seconds when the hook answered (NaN for a bad line); parsed on demand."""
        return end_of(self.head)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StreamLine):
            return NotImplemented
        return self.key == other.key and self.head == other.head

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"StreamLine({self.source}, {self.offset}, {self._head!r})"


# StreamLines made for rows asked for, kept so the same row gives the same object.
LINES_KEPT = 1024
# A filter reading the files tests up to this many rows at once, more in a FilterPass
# (when the view has `background` on): a few tens of milliseconds.
SYNC_ROWS = 4096

Predicate = Callable[[RecordHead], bool]


class CallView:
    """Every line read (the index), and the filtered, ordered view the list shows."""

    def __init__(self, sources: list[str]) -> None:
        self.sources = list(sources)
        self.index = Columns()
        self.files = FileHeads(self.sources)
        self._made: OrderedDict[tuple[int, int], StreamLine] = OrderedDict()
        self.shown: array = array("q")  # rows of the index, in display order
        self.marks: set[tuple[int, int]] = set()  # (source, offset)
        self.marked_only = False
        self.filter_text = ""
        self._predicate: Predicate | None = None
        self.stats = ColumnStats(self.index, self.shown)
        # With `background` on, a filter reading the files over many rows runs as a
        # FilterPass: on_filter_pass(pass) asks for a worker to run it (see filter_pass).
        self.background = False
        self.filter_pass: FilterPass | None = None
        self.on_filter_pass: list[Callable[[FilterPass], None]] = []
        # Renumberings of the index since the oldest pending pass piece was numbered
        # (`_renumbers[k - _renumbered_before]` is the k-th): a piece's rows follow them.
        self._renumbers: list[Renumber] = []
        self._renumbered_before = 0
        # What the last add or prepend did: where the index rows and the shown rows went.
        self.moved_index = Renumber(())
        self.moved = Renumber(())
        # on_added(first_new_row, count): rows came in, mostly at the end, a late one
        # at its place (first_new_row is the first new one's row: rows from there
        # moved down, `moved` says where); on_refresh(): the whole view changed;
        # on_prepended(rows, shown_rows): older rows came in, mostly before all others.
        self.on_added: list[Callable[[int, int], None]] = []
        self.on_refresh: list[Callable[[], None]] = []
        self.on_prepended: list[Callable[[int, int], None]] = []
        # on_indexed(moved_index): lines went into the index, shown or not (a reader of
        # every line, such as watch's tool calls, renumbers what it has read by it).
        self.on_indexed: list[Callable[[Renumber], None]] = []

    # -- reading -------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.shown)

    @property
    def total(self) -> int:
        return len(self.index)

    def line(self, row: int) -> StreamLine:
        return self._line_at(self.shown[row])

    def key_at(self, row: int) -> tuple[int, int]:
        """(source, offset) of `row`, read from the columns (no StreamLine made)."""
        return self.index.key(self.shown[row])

    def _line_at(self, i: int) -> StreamLine:
        # The same object for the same line while it is recent: the list, the
        # focus and the detail pane then agree on "the selected line".
        index = self.index
        key = (index.source[i], index.offset[i])
        made = self._made
        line = made.get(key)
        if line is None:
            line = made[key] = StreamLine(key[0], key[1], None, self._load_head)
            if len(made) > LINES_KEPT:
                made.popitem(last=False)
        else:
            made.move_to_end(key)
        return line

    def _load_head(self, source: int, offset: int) -> Any:
        head = self.files.get(source, offset)
        if head is not None:
            return head
        # The file is gone or changed: what the index knows is better than nothing.
        i = self.index.index_of((source, offset))
        if i is None:
            return BadLine(offset=offset, length=0, error="cannot read the line", preview="")
        return self.index.head(i)

    def line_of(self, key: tuple[int, int]) -> StreamLine:
        """The line at (source, offset), shown or not (its head read on demand)."""
        i = self.index.index_of(key)
        return self._line_at(i) if i is not None else StreamLine(*key, None, self._load_head)

    def index_of(self, key: tuple[int, int]) -> int | None:
        """The index row of (source, offset), shown or not."""
        return self.index.index_of(key)

    def is_marked(self, line: StreamLine) -> bool:
        return (line.source, line.offset) in self.marks

    def shown_lines(self) -> list[StreamLine]:
        return [self._line_at(i) for i in self.shown]

    def marked_lines(self) -> list[StreamLine]:
        index = self.index
        return [
            self._line_at(i)
            for i in range(len(index))
            if (index.source[i], index.offset[i]) in self.marks
        ]

    def snapshot(self) -> tuple[Columns, array]:
        """The index and a copy of the shown rows: what a worker reads heads of (`read_heads`).

        Appends at the end leave the rows valid; a late row inserted before
        them (on_added with a first row inside them), a prepend or a reload makes
        them stale (on_prepended / on_refresh; the worker's result is dropped).
        """
        return self.index, array("q", self.shown)

    def read_heads(self, index: Columns, rows: Sequence[int]) -> Iterator[Any]:
        """Heads of index rows, read from the files in windows; the index's own when unreadable."""
        keys = ((index.source[i], index.offset[i]) for i in rows)
        for i, head in zip(rows, self.files.many(keys), strict=True):
            yield head if head is not None else index.head(i)

    def heads(self, rows: Sequence[int], fields: frozenset[str] | None = None) -> Iterator[Any]:
        """Heads of many shown rows, read from the files in big windows (None: unreadable)."""
        index, shown = self.index, self.shown
        keys = ((index.source[shown[r]], index.offset[shown[r]]) for r in rows)
        return self.files.many(keys, fields)

    # -- changing ------------------------------------------------------------

    def _take_heads(self, batch: Columns) -> None:
        # Decoded heads that came with a batch warm the cache; the index keeps none.
        if batch.heads:
            self.files.seed(batch.heads)
            batch.heads = {}

    def add(self, batch: Columns) -> int:
        """Take newer lines (each at its place: mostly last); returns how many became shown rows."""
        if not len(batch):
            return 0
        self._take_heads(batch)
        new_rows = self._insert(self.index.extend(batch), defer=False)
        added = len(new_rows)
        if added:
            first_row = self.moved.gaps[0]  # the first new row
            for listener in self.on_added:
                listener(first_row, added)
        return added

    def prepend(self, batch: Columns) -> int:
        """Take older lines (indexing toward the start of a stream): mostly before all others.

        The filter applies to them as it does to appended ones. Returns how
        many became shown rows.
        """
        count = len(batch)
        if not count:
            return 0
        self._take_heads(batch)
        new_rows = self._insert(self.index.prepend(batch), defer=True)
        for listener in self.on_prepended:
            listener(count, len(new_rows))
        return len(new_rows)

    def _insert(self, inserted: array, defer: bool) -> array:
        """Index rows were inserted at `inserted`: renumber, and show those that pass."""
        self.moved_index = Renumber(inserted)
        for listener in self.on_indexed:
            listener(self.moved_index)
        if self.filter_pass is not None and not self.filter_pass.done:
            self._renumbers.append(self.moved_index)
        else:
            self._renumbered_before += len(self._renumbers) + 1
            self._renumbers = []
        shown = self.moved_index.rows(self.shown)
        new_rows = array("q", self._select(inserted, defer=defer))
        shown, where = merge_rows(shown, new_rows)
        self.moved = Renumber(where)
        self._set_shown(shown)
        self.stats.add_rows(new_rows)
        return new_rows

    @property
    def _renumbered(self) -> int:
        """How many renumberings the index has had (a pass piece remembers the count)."""
        return self._renumbered_before + len(self._renumbers)

    def replace_all(self, batch: Columns) -> None:
        """Start over with this batch (the initial load)."""
        self.files.forget()
        self._made.clear()
        self._take_heads(batch)
        self.index = batch
        self.marks.clear()
        self.rebuild()

    def reset_source(self, source: int, batch: Columns) -> None:
        """A stream was truncated or replaced: drop what it held, take `batch`."""
        self.files.forget(source)
        self._made = OrderedDict((k, e) for k, e in self._made.items() if k[0] != source)
        self._take_heads(batch)
        kept = self.index.drop_source(source)
        self.marks = {m for m in self.marks if m[0] != source}
        self.index = merge_batches([kept, batch]) if len(kept) else batch
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
        """Mark or unmark the line on `row`; returns whether it is now marked."""
        key = self.index.key(self.shown[row])
        if key in self.marks:
            self.marks.discard(key)
            if self.marked_only:
                self.rebuild()
            return False
        self.marks.add(key)
        return True

    def rebuild(self) -> None:
        """Recompute the shown rows and the stats (filter, marks or data changed)."""
        if self.filter_pass is not None:
            self.filter_pass.cancel()
            self.filter_pass = None
        self._set_shown(array("q", self._select(range(len(self.index)), defer=True)))
        self.stats.clear()
        self.stats.add_rows(self.shown)
        for listener in self.on_refresh:
            listener()

    def _set_shown(self, shown: array) -> None:
        self.shown = shown
        self.stats.rebind(self.index, shown)

    def row_of(self, key: tuple[int, int]) -> int | None:
        """The shown row of the line (source, offset), if it is shown."""
        i = self.index_of(key)
        if i is None:
            return None
        row = bisect_left(self.shown, i)
        return row if row < len(self.shown) and self.shown[row] == i else None

    # -- a filter applied off the UI thread ------------------------------------

    @property
    def filter_progress(self) -> float | None:
        """The share of rows a filter pass has tested, while one runs; else None."""
        p = self.filter_pass
        return None if p is None or p.done else p.progress

    def apply_matches(self, matched: Matched) -> int:
        """A pass's piece: its matches (older than all shown) go first. Returns how many."""
        p = matched.filter_pass
        if p is not self.filter_pass or p.cancelled:
            return 0  # a pass of a filter since replaced
        p.applied += matched.tested
        since = matched.base - self._renumbered_before
        rows = renumbered(matched.rows, self._renumbers[max(0, since) :])
        if len(rows):
            shown, where = merge_rows(self.shown, rows)
            self.moved_index, self.moved = Renumber(()), Renumber(where)
            self._set_shown(shown)
            self.stats.add_rows(rows)
            for listener in self.on_prepended:
                listener(0, len(rows))
        return len(rows)

    def _defer(self, calls: array, fields: frozenset[str]) -> bool:
        """Hand `calls` to the filter pass (started if need be) rather than test them now."""
        if not self.background:
            return False
        p = self.filter_pass
        if p is None or p.done:
            # Nothing pending: a few rows are tested at once, in order with the rest.
            if len(calls) <= SYNC_ROWS:
                return False
            if p is None:
                p = self.filter_pass = FilterPass(self._predicate, fields, self.files)
        if p.add(self.index, calls, self._renumbered):
            for listener in self.on_filter_pass:
                listener(p)
        return True

    # -- which rows show -----------------------------------------------------

    def _select(self, rows: Sequence[int], defer: bool = False) -> list[int]:
        """The rows (index rows, in order) that the marks and the filter let through."""
        index = self.index
        if self.marked_only:
            marks, src, off = self.marks, index.source, index.offset
            candidates: Sequence[int] = [i for i in rows if (src[i], off[i]) in marks]
        else:
            candidates = rows
        predicate = self._predicate
        if predicate is None:
            return list(candidates)
        flags = index.flags
        # Bad lines only show unfiltered: a filter speaks about calls.
        if index.bad:
            calls = array("q", (i for i in candidates if not flags[i] & 1))
        else:
            calls = array("q", candidates)  # no bad line: no row-by-row test
        fields = filter_fields(predicate)
        if fields <= INDEXED:
            return select_indexed(index, calls, sorted(fields), predicate)
        if defer and self._defer(calls, frozenset(fields)):
            return []  # the pass brings them in (apply_matches), newest first
        src, off = index.source, index.offset
        keys = ((src[i], off[i]) for i in calls)
        heads = self.files.many(keys, frozenset(fields))
        return [i for i, h in zip(calls, heads, strict=True) if h is not None and predicate(h)]

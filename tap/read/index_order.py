"""Keeping rows in answer order when rows come in out of it: renumbering and merging.

A hook's record is appended when the tap has written it, a little after the
hook answered: under load (hooks run in parallel) a call that answered at
.588 can be appended after one that answered at .603. The index keeps rows
in answer order, so a late row is inserted at its place, near the end (the
disorder is bounded by the longest hook's run). Everything numbered by rows
(the shown rows, the cursor, a filter pass's results) is then renumbered by
the `Renumber` an insertion made: old row r becomes r plus the rows inserted
before it.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from operator import itemgetter, le, sub


class Renumber:
    """Where old rows went when rows were inserted at `inserted` (new positions, ascending).

    Kept as runs (old position, rows inserted before it): a prepend of a
    million rows is one run, a late row near the end two.
    """

    __slots__ = ("counts", "gaps")

    def __init__(self, inserted: Sequence[int]) -> None:
        # The j-th inserted row lands just before old row inserted[j] - j (nondecreasing).
        gaps = array("q", map(sub, inserted, range(len(inserted))))
        self.gaps: list[int] = []  # distinct old positions, ascending
        self.counts: list[int] = []  # rows inserted before each of them, cumulated
        start = 0
        while start < len(gaps):
            gap = gaps[start]
            start = bisect_right(gaps, gap, start)
            self.gaps.append(gap)
            self.counts.append(start)

    @property
    def added(self) -> int:
        return self.counts[-1] if self.counts else 0

    @property
    def last(self) -> int:
        """The new position of the last inserted row (-1: none)."""
        return self.gaps[-1] + self.counts[-1] - 1 if self.gaps else -1

    def inserted(self, below: int | None = None) -> list[int]:
        """The new positions of the inserted rows (those before `below`, when given)."""
        out, before = [], 0
        for gap, count in zip(self.gaps, self.counts, strict=True):
            out.extend(range(gap + before, gap + count))
            before = count
        return out if below is None else out[: bisect_left(out, below)]

    def __call__(self, row: int) -> int:
        """The new number of old row `row`."""
        k = bisect_right(self.gaps, row)
        return row + (self.counts[k - 1] if k else 0)

    def rows(self, rows: Sequence[int]) -> array:
        """New numbers of old rows `rows` (ascending), a run at a time (no per-row Python)."""
        out = array("q")
        start, shift = 0, 0
        for gap, count in zip(self.gaps, self.counts, strict=True):
            stop = bisect_left(rows, gap, start)
            out.extend(_plus(rows[start:stop], shift))
            start, shift = stop, count
        out.extend(_plus(rows[start:], shift))
        return out


def _plus(rows: Sequence[int], by: int) -> array:
    return array("q", map(by.__add__, rows)) if by else array("q", rows)


def renumbered(rows: Sequence[int], since: Sequence[Renumber]) -> array:
    out = array("q", rows)
    for step in since:
        out = step.rows(out)
    return out


def merge_rows(a: Sequence[int], b: Sequence[int]) -> tuple[array, array]:
    """`a` and `b` (ascending, disjoint) as one ascending array, and where `b`'s rows went.

    Made for rows that overlap a little (new rows mostly after, or before,
    the others): the overlap is sorted, the rest copied.
    """
    if not len(b):
        return array("q", a), array("q")
    if not len(a) or a[-1] < b[0]:
        return _cat(a, b), _span(len(a), len(b))
    if b[-1] < a[0]:
        return _cat(b, a), _span(0, len(b))
    lo, hi = max(a[0], b[0]), min(a[-1], b[-1])
    ia, ja = bisect_left(a, lo), bisect_right(a, hi)
    ib, jb = bisect_left(b, lo), bisect_right(b, hi)
    middle = sorted([*a[ia:ja], *b[ib:jb]])
    out = array("q", a[:ia])
    out.extend(b[:ib])
    head = len(out)
    out.extend(middle)
    out.extend(a[ja:])
    out.extend(b[jb:])
    mine = set(b[ib:jb])
    where = _span(0, ib) if ib else array("q")
    where.extend(head + k for k, row in enumerate(middle) if row in mine)
    where.extend(range(len(out) - (len(b) - jb), len(out)))
    return out, where


def _cat(first: Sequence[int], then: Sequence[int]) -> array:
    out = array("q", first)
    out.extend(then)
    return out


def _span(start: int, count: int) -> array:
    return array("q", range(start, start + count))


# -- the rows of an index (`index.Columns`), reordered in place ------------------


def is_ordered(cols, lo: int, hi: int) -> bool:
    """Whether rows [lo, hi) of one stream, in file order, are in answer order already."""
    return ascending(cols.answered[lo:hi])


def ascending(values: Sequence[float]) -> bool:
    return all(map(le, values, values[1:]))


def sort_rows(cols, lo: int, hi: int) -> list[int]:
    """Put rows [lo, hi) in order (every column); returns which old row (from lo) is where."""
    sources = cols.source[lo:hi]
    if sources and min(sources) == max(sources):
        # One stream, rows in file order for equal times (as every caller has
        # them): a stable sort on the time alone, no key tuples.
        perm = sorted(range(hi - lo), key=cols.answered[lo:hi].__getitem__)
    else:
        keys = list(zip(cols.answered[lo:hi], sources, cols.offset[lo:hi], strict=True))
        perm = sorted(range(hi - lo), key=keys.__getitem__)
    if perm != list(range(hi - lo)):
        take = itemgetter(*perm)  # (perm has two rows at least: it is not the identity)
        for column in cols._arrays():
            column[lo:hi] = array(column.typecode, take(column[lo:hi]))
    return perm


def settled_end(cols, changed: int) -> int:
    """Rows [0, changed) took later times: the end of the rows they may now go after."""
    if not changed:
        return 0
    last = max(map(cols.key_of, range(changed)))
    return bisect_right(range(changed, len(cols)), last, key=cols.key_of) + changed


def merge_runs(cols, mid: int, new: str) -> array:
    """Rows [0, mid) and [mid, n) are each in order: merge them where they overlap.

    Returns the positions of the rows of the `new` run ("first" or "second").
    Only the overlap is sorted: new rows near the end cost what they overlap.
    """
    n = len(cols)
    key = cols.key_of
    lo = hi = mid
    if 0 < mid < n and key(mid) < key(mid - 1):
        lo = bisect_right(range(mid), key(mid), key=key)
        hi = mid + bisect_left(range(mid, n), key(mid - 1), key=key)
    perm = sort_rows(cols, lo, hi) if hi > lo else []
    if new == "second":
        out = array("q", (lo + k for k, j in enumerate(perm) if lo + j >= mid))
        out.extend(range(hi, n))
    else:
        out = array("q", range(lo))
        out.extend(lo + k for k, j in enumerate(perm) if lo + j < mid)
    return out

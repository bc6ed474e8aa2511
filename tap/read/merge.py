"""Time in streams: when each hook answered, and several streams merged by it, lazily."""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import TypeVar

from hooktui.tap.model import RecordHead
from hooktui.tap.read.decode import LineHead

T = TypeVar("T")


def parse_ts(ts: str) -> float:
    """Epoch seconds of an RFC 3339 timestamp; NaN when it is not one. Never raises."""
    try:
        moment = datetime.fromisoformat(ts)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return moment.timestamp()
    except (ValueError, TypeError, OverflowError, OSError):
        return math.nan


def end_time(head: RecordHead) -> float:
    """Epoch seconds when the hook answered: the clock lists are ordered and shown by.

    A record is appended when its hook ends, so a stream is in this order (up
    to the recorders' small races); its `ts` is when the hook started. NaN when
    `ts` is not a timestamp.
    """
    start = parse_ts(head.ts)
    duration = head.duration_ms
    if duration > 0 and math.isfinite(duration) and math.isfinite(start):
        return start + duration / 1000
    return start


def time_keyed(
    items: Iterable[tuple[int, T]], head_of=lambda e: e
) -> Iterator[tuple[float, int, T]]:
    """(end time, offset, item) for merging: a line without a time takes its predecessor's.

    A bad line, or a record whose `ts` is no timestamp, so stays right after the
    line it followed in its file (and NaN never reaches a comparison).
    """
    last = -math.inf
    for offset, item in items:
        head = head_of(item)
        if isinstance(head, RecordHead):
            t = end_time(head)
            if t == t:  # not NaN
                last = t
        yield last, offset, item


def merge_lazily(streams: Sequence[Iterable[tuple[float, int, T]]]) -> Iterator[tuple[int, int, T]]:
    """Time-keyed streams (from `time_keyed`) merged as (stream index, offset, item), lazily.

    A heap over one iterator per stream: each keeps its own order (a merge, not
    a sort) and ties go to the lower stream index. Holds one item per stream.
    """
    if len(streams) == 1:
        for _, offset, item in streams[0]:
            yield 0, offset, item
        return

    def tagged(index: int, stream: Iterable[tuple[float, int, T]]):
        for key, offset, item in stream:
            yield key, index, offset, item

    tagged_streams = [tagged(i, s) for i, s in enumerate(streams)]
    for _, i, off, item in heapq.merge(*tagged_streams, key=lambda t: (t[0], t[1])):
        yield i, off, item


def merge_by_time(
    streams: Sequence[Sequence[tuple[int, LineHead]]],
) -> list[tuple[int, int, LineHead]]:
    """Lines of several streams merged by when each hook answered, as (stream, offset, head)."""
    if len(streams) == 1:
        return [(0, off, e) for off, e in streams[0]]
    return list(merge_lazily([time_keyed(s) for s in streams]))

"""The compact index of a watched stream: what the list, filter and stats need, in columns.

One row per line of a stream, in display order. Numbers live in `array`s
(8 bytes a float, 2 a code), repeated strings (runtime, event, hook, tool,
decision, ...) are interned once and stored as codes, and a row's place in
its file (source, byte offset) is kept so the rest of the record (its id,
time text, summary, reason, request) is read back from the file when a row
is shown. About 65 bytes a record instead of the ~1.3 KB a decoded head
costs; no Python object per row, so the garbage collector never walks them.

Which filter fields are columns: `INDEXED`. A filter that reads others (id,
ts, summary, reason, and bare words) decodes them from the file, lazily
(`FileHeads`).
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Iterator, Sequence
from operator import attrgetter
from typing import Any

from hooktui.tap.model import HookHead, RecordHead
from hooktui.tap.read.decode import BadLine, LineHead
from hooktui.tap.read.merge import end_time, parse_ts

# Interned text columns (field name on RecordHead → column); "hook" is the hook's
# label and argv, as one interned value (`_hook_value`): which hook ran.
TEXT_COLUMNS = (
    "runtime",
    "event",
    "native_event",
    "tool_name",
    "decision",
    "failure",
    "effect",
    "hook",
    "session_id",
    "agent_id",
)
NUMBER_COLUMNS = ("duration_ms", "exit_code", "signal", "timed_out", "v")
# The RecordHead fields a filter can read from the index alone.
INDEXED = frozenset(TEXT_COLUMNS + NUMBER_COLUMNS)
# What building the index decodes of each line (the rest is skipped by the decoder).
DECODED = frozenset(INDEXED | {"ts"})

# Columns of a small vocabulary (names of runtimes, events, decisions) take 2 bytes a code.
_CODE_TYPE = {n: "H" for n in ("runtime", "event", "native_event", "decision", "failure", "effect")}
_NONE = -(2**31)  # exit_code / signal: None
_BAD = 1  # flags: the line is not a record
_TIMED_OUT = 2


def _hook_value(hook: HookHead) -> Any:
    """The interned value of a hook: its label alone, or (label, *argv)."""
    return (hook.label, *hook.argv) if hook.argv else hook.label


def _hook_head(value: Any) -> HookHead:
    if isinstance(value, tuple):
        return HookHead(label=value[0], argv=list(value[1:]))
    return HookHead(label=value)


class Strings:
    """Interned strings: each distinct one stored once, rows hold its code (0 is "")."""

    def __init__(self) -> None:
        self.values: list[str] = [""]
        self.codes: dict[str, int] = {"": 0}

    def code(self, text: str) -> int:
        code = self.codes.get(text)
        if code is None:
            code = self.codes[text] = len(self.values)
            self.values.append(text)
        return code


class Columns:
    """Rows of one or more streams: a batch as read, or the whole index of a view."""

    def __init__(self, tables: dict[str, Strings] | None = None) -> None:
        # Tables are shared by every batch of one view: codes mean the same everywhere.
        self.tables = tables if tables is not None else {n: Strings() for n in TEXT_COLUMNS}
        self.source = array("H")
        self.offset = array("q")
        # When the hook started (`ts`, epoch s; NaN when no time); it answered
        # `duration_ms` later (`end_at`), which orders streams: not stored, as
        # 8 bytes a record are worth more than an addition.
        self.start = array("d")
        self.duration_ms = array("d")
        self.exit_code = array("i")
        self.signal = array("i")
        self.v = array("B")
        self.flags = array("B")
        self.text = {name: array(_CODE_TYPE.get(name, "I")) for name in TEXT_COLUMNS}
        self.bad: dict[tuple[int, int], BadLine] = {}  # rare: kept whole
        self.heads: dict[tuple[int, int], RecordHead] = {}  # decoded heads that came along

    def __len__(self) -> int:
        return len(self.offset)

    def _arrays(self) -> list[array]:
        return [
            self.source,
            self.offset,
            self.start,
            self.duration_ms,
            self.exit_code,
            self.signal,
            self.v,
            self.flags,
            *self.text.values(),
        ]

    def like(self) -> Columns:
        """An empty batch sharing this one's string tables."""
        return Columns(self.tables)

    # -- filling -------------------------------------------------------------

    def append_head(self, source: int, offset: int, head: Any, keep: bool = False) -> None:
        """One decoded line: a RecordHead (or any struct with its fields) or a BadLine."""
        self.source.append(source)
        self.offset.append(offset)
        if isinstance(head, BadLine):
            self.start.append(math.nan)
            self.duration_ms.append(0.0)
            self.exit_code.append(_NONE)
            self.signal.append(_NONE)
            self.v.append(0)
            self.flags.append(_BAD)
            for column in self.text.values():
                column.append(0)
            self.bad[(source, offset)] = head
            return
        self.start.append(parse_ts(head.ts))
        self.duration_ms.append(head.duration_ms)
        self.exit_code.append(_NONE if head.exit_code is None else _clamp(head.exit_code))
        self.signal.append(_NONE if head.signal is None else _clamp(head.signal))
        self.v.append(max(0, min(head.v, 255)))
        self.flags.append(_TIMED_OUT if head.timed_out else 0)
        tables, text = self.tables, self.text
        for name in TEXT_COLUMNS:
            value = _hook_value(head.hook) if name == "hook" else getattr(head, name)
            text[name].append(tables[name].code(value))
        if keep:
            self.heads[(source, offset)] = head

    def add_heads(self, source: int, pairs: list[tuple[int, Any]], keep: bool = False) -> None:
        """Many decoded lines of one stream, (offset, head), a column at a time.

        Per row work is a few list comprehensions in C, not a dozen appends:
        the index of a million records is built in a few seconds.
        """
        if keep or any(isinstance(h, BadLine) for _, h in pairs):
            for offset, head in pairs:
                self.append_head(source, offset, head, keep)
            return
        n = len(pairs)
        heads = [h for _, h in pairs]
        self.source.extend(array("H", [source]) * n)
        self.offset.extend([o for o, _ in pairs])
        self.start.extend([parse_ts(h.ts) for h in heads])
        self.duration_ms.extend([h.duration_ms for h in heads])
        self.exit_code.extend(
            [_NONE if h.exit_code is None else _clamp(h.exit_code) for h in heads]
        )
        self.signal.extend([_NONE if h.signal is None else _clamp(h.signal) for h in heads])
        self.v.extend([max(0, min(h.v, 255)) for h in heads])
        self.flags.extend([_TIMED_OUT if h.timed_out else 0 for h in heads])
        for name in TEXT_COLUMNS:
            table = self.tables[name]
            codes, code = table.codes, table.code
            if name == "hook":
                values = [_hook_value(h.hook) for h in heads]
            else:
                values = list(map(attrgetter(name), heads))
            get = codes.get
            self.text[name].extend([c if (c := get(v)) is not None else code(v) for v in values])

    def _in_my_codes(self, other: Columns) -> Iterator[array]:
        """`other`'s arrays, its text codes translated into this batch's tables, one at a time.

        Batches made in another thread have tables of their own (interning is
        not shared across threads); a table holds a few hundred strings, so
        translating is one small map and one pass per column. One column at a
        time: a translated copy of every column at once would double the peak.
        """
        arrays = other._arrays()
        n = len(arrays) - len(TEXT_COLUMNS)
        yield from arrays[:n]
        for k, name in enumerate(TEXT_COLUMNS):
            if other.tables is self.tables:
                yield arrays[n + k]
                continue
            code = self.tables[name].code
            mapping = [code(text) for text in other.tables[name].values]
            yield array(arrays[n + k].typecode, map(mapping.__getitem__, arrays[n + k]))

    def extend(self, other: Columns) -> None:
        """Append `other`'s rows."""
        for mine, theirs in zip(self._arrays(), self._in_my_codes(other), strict=True):
            mine.extend(theirs)
        self.bad.update(other.bad)
        self.heads.update(other.heads)

    def prepend(self, other: Columns) -> None:
        """Put `other`'s rows (older ones) before these."""
        for mine, theirs in zip(self._arrays(), self._in_my_codes(other), strict=True):
            mine[0:0] = theirs
        self.bad.update(other.bad)
        self.heads.update(other.heads)

    def take(self, rows: Iterable[int]) -> Columns:
        """A new batch of these rows, in that order."""
        rows = list(rows)
        out = self.like()
        for mine, theirs in zip(out._arrays(), self._arrays(), strict=True):
            mine.extend([theirs[i] for i in rows])
        keys = set(zip(out.source, out.offset, strict=True))
        out.bad = {k: b for k, b in self.bad.items() if k in keys}
        out.heads = {k: h for k, h in self.heads.items() if k in keys}
        return out

    def drop_source(self, source: int) -> Columns:
        return self.take(i for i, s in enumerate(self.source) if s != source)

    # -- reading -------------------------------------------------------------

    def end_at(self, row: int) -> float:
        """When the row's hook answered (epoch s); NaN for a bad line or no time."""
        start, duration = self.start[row], self.duration_ms[row]
        if duration > 0 and math.isfinite(duration):
            return start + duration / 1000
        return start

    def key(self, row: int) -> tuple[int, int]:
        return (self.source[row], self.offset[row])

    def is_bad(self, row: int) -> bool:
        return bool(self.flags[row] & _BAD)

    def value(self, name: str, row: int) -> Any:
        """The field `name` of a row as RecordHead has it (INDEXED names only)."""
        if name in self.text:
            text = self.tables[name].values[self.text[name][row]]
            return _hook_head(text) if name == "hook" else text
        if name == "timed_out":
            return bool(self.flags[row] & _TIMED_OUT)
        raw = getattr(self, name)[row]
        if name in ("exit_code", "signal"):
            return None if raw == _NONE else raw
        return raw

    def head(self, row: int) -> LineHead:
        """What the index knows of a row, as a head (no id, time text, summary or reason)."""
        if self.is_bad(row):
            return self.bad[self.key(row)]
        fields = {name: self.value(name, row) for name in INDEXED}
        return RecordHead(**fields)

    def index_of(self, key: tuple[int, int]) -> int | None:
        source, offset = key
        src = self.source
        i = -1
        while True:
            try:
                i = self.offset.index(offset, i + 1)
            except ValueError:
                return None
            if src[i] == source:
                return i


def _clamp(n: int) -> int:
    return max(-(2**31) + 1, min(int(n), 2**31 - 1))


def batch_of(source: int, items: Iterable[tuple[int, Any]], like: Columns | None = None) -> Columns:
    """A batch of (offset, LineHead) pairs of one stream, heads kept."""
    out = like.like() if like is not None else Columns()
    out.add_heads(source, list(items), keep=True)
    return out


def merge_order(batches: Sequence[Columns]) -> list[tuple[int, int]]:
    """(batch, row) in the order hooks answered; each batch keeps its own order (a merge)."""
    import heapq

    def keyed(b: int, batch: Columns) -> Iterator[tuple[float, int, int]]:
        # A line without a time (a bad one too) takes its predecessor's: it stays after it.
        last = -math.inf
        end_at = batch.end_at
        for row in range(len(batch)):
            t = end_at(row)
            if t == t:
                last = t
            yield last, b, row

    merged = heapq.merge(*(keyed(b, batch) for b, batch in enumerate(batches)))
    return [(b, row) for _, b, row in merged]


def merge_batches(batches: Sequence[Columns]) -> Columns:
    """Several streams' batches (one table set) as one batch in time order."""
    batches = [b for b in batches if len(b)]
    if not batches:
        return Columns()
    if len(batches) == 1:
        return batches[0]
    order = merge_order(batches)
    out = batches[0].like()
    columns = [list(out._in_my_codes(b)) for b in batches]
    for k, mine in enumerate(out._arrays()):
        mine.extend([columns[b][k][row] for b, row in order])
    for batch in batches:
        out.bad.update(batch.bad)
        out.heads.update(batch.heads)
    return out


def end_of(head: Any) -> float:
    return end_time(head) if isinstance(head, RecordHead) else math.nan

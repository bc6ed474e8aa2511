"""The compact index of a watched stream: what the list, filter and stats need, in columns.

One row per line of a stream, in display order: the order hooks answered
(`answered`; ties by stream, then place in it), whatever order the lines were
appended or read in (`index_order`). Numbers live in `array`s
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
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from operator import attrgetter
from typing import Any

from hooktui.tap.model import HookHead, RecordHead
from hooktui.tap.read import index_order as order
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
_UNTIMED = 4  # no time of its own: `answered` is its predecessor's


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
        # When the hook answered (epoch s: `ts` plus `duration_ms`), the order of
        # rows. A line without a time (a bad one too: flag _UNTIMED) takes its
        # predecessor's in its stream, -inf until that is known: it stays after it.
        self.answered = array("d")
        self.duration_ms = array("d")
        self.exit_code = array("i")
        self.signal = array("i")
        self.v = array("B")
        self.flags = array("B")
        self.text = {name: array(_CODE_TYPE.get(name, "I")) for name in TEXT_COLUMNS}
        self.bad: dict[tuple[int, int], BadLine] = {}  # rare: kept whole
        self.heads: dict[tuple[int, int], RecordHead] = {}  # decoded heads that came along
        # Per stream, `answered` of its last line here (in file order): what a line
        # without a time after it takes (-inf: no line with a time yet).
        self.tails: dict[int, float] = {}

    def __len__(self) -> int:
        return len(self.offset)

    def _arrays(self) -> list[array]:
        return [
            self.source,
            self.offset,
            self.answered,
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
            self.answered.append(self.tails.get(source, -math.inf))
            self.duration_ms.append(0.0)
            self.exit_code.append(_NONE)
            self.signal.append(_NONE)
            self.v.append(0)
            self.flags.append(_BAD | _UNTIMED)
            for column in self.text.values():
                column.append(0)
            self.bad[(source, offset)] = head
            return
        t = answer_time(parse_ts(head.ts), head.duration_ms)
        untimed = t != t
        if untimed:
            t = self.tails.get(source, -math.inf)
        else:
            self.tails[source] = t
        self.answered.append(t)
        self.duration_ms.append(head.duration_ms)
        self.exit_code.append(_NONE if head.exit_code is None else _clamp(head.exit_code))
        self.signal.append(_NONE if head.signal is None else _clamp(head.signal))
        self.v.append(max(0, min(head.v, 255)))
        self.flags.append((_TIMED_OUT if head.timed_out else 0) | (_UNTIMED if untimed else 0))
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
        base = len(self)
        if keep or any(isinstance(h, BadLine) for _, h in pairs):
            for offset, head in pairs:
                self.append_head(source, offset, head, keep)
            self._sort_new(base)
            return
        n = len(pairs)
        heads = [h for _, h in pairs]
        durations = [h.duration_ms for h in heads]
        # answer_time, inline: a call a row costs a tenth of a second at a million.
        answered = [
            s + d / 1000 if 0 < d < math.inf else s
            for s, d in zip([parse_ts(h.ts) for h in heads], durations, strict=True)
        ]
        untimed = _untimed(answered, self.tails, source)
        if not order.ascending(answered):
            # Sorted here, as rows, before they become columns: one permutation, not one a column.
            moved = sorted(range(n), key=answered.__getitem__)  # stable: file order for ties
            pairs = [pairs[i] for i in moved]
            heads = [h for _, h in pairs]
            durations = [h.duration_ms for h in heads]
            answered = [answered[i] for i in moved]
            if untimed:
                was = set(untimed)
                untimed = [k for k, i in enumerate(moved) if i in was]
        self.source.extend(array("H", [source]) * n)
        self.offset.extend([o for o, _ in pairs])
        self.answered.extend(answered)
        self.duration_ms.extend(durations)
        self.exit_code.extend(
            [_NONE if h.exit_code is None else _clamp(h.exit_code) for h in heads]
        )
        self.signal.extend([_NONE if h.signal is None else _clamp(h.signal) for h in heads])
        self.v.extend([max(0, min(h.v, 255)) for h in heads])
        self.flags.extend([_TIMED_OUT if h.timed_out else 0 for h in heads])
        for row in untimed:
            self.flags[base + row] |= _UNTIMED
        for name in TEXT_COLUMNS:
            table = self.tables[name]
            codes, code = table.codes, table.code
            if name == "hook":
                values = [_hook_value(h.hook) for h in heads]
            else:
                values = list(map(attrgetter(name), heads))
            get = codes.get
            self.text[name].extend([c if (c := get(v)) is not None else code(v) for v in values])
        self._sort_new(base)

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

    def extend(self, other: Columns) -> array:
        """Take `other`'s rows (lines after this batch's in their streams), each at its place.

        Mostly at the end; a late one (appended after calls that answered
        later) goes before them. Returns the new rows' positions (ascending).
        `other` is used up (its rows may be reordered).
        """
        other._continue_after(self.tails)
        base = len(self)
        for mine, theirs in zip(self._arrays(), self._in_my_codes(other), strict=True):
            mine.extend(theirs)
        self._take_dicts(other)
        for source, t in other.tails.items():
            if t > -math.inf or source not in self.tails:
                self.tails[source] = t
        return order.merge_runs(self, base, new="second")

    def prepend(self, other: Columns) -> array:
        """Take `other`'s rows (lines before this batch's in their streams), each at its place.

        Mostly at the start; the older batch's late rows may go after some of
        these. Returns the new rows' positions (ascending). `other` is used up.
        """
        self._continue_after(other.tails)
        count = len(other)
        for mine, theirs in zip(self._arrays(), self._in_my_codes(other), strict=True):
            mine[0:0] = theirs
        self._take_dicts(other)
        for source, t in other.tails.items():
            if self.tails.get(source, -math.inf) == -math.inf:
                self.tails[source] = t
        return order.merge_runs(self, count, new="first")

    def _take_dicts(self, other: Columns) -> None:
        self.bad.update(other.bad)
        self.heads.update(other.heads)

    def _continue_after(self, tails: dict[int, float]) -> None:
        """Lines here without a time whose predecessor (in `tails`) is now known take its."""
        answered, flags, source = self.answered, self.flags, self.source
        changed = 0
        while changed < len(self) and answered[changed] == -math.inf:
            changed += 1  # the rows still waiting: first in the order
        moved = False
        for row in range(changed):
            t = tails.get(source[row], -math.inf)
            if flags[row] & _UNTIMED and t > -math.inf:
                answered[row] = t
                moved = True
        for s, t in tails.items():
            if self.tails.get(s) == -math.inf:
                self.tails[s] = t
        if moved:
            order.sort_rows(self, 0, order.settled_end(self, changed))

    def _sort_new(self, base: int) -> None:
        """Rows from `base` on were just added in file order: put them in answer order."""
        if not order.is_ordered(self, base, len(self)):
            order.sort_rows(self, base, len(self))
        order.merge_runs(self, base, new="second")

    def key_of(self, row: int) -> tuple[float, int, int]:
        """What rows are ordered by: when the hook answered, then stream, then place."""
        return (self.answered[row], self.source[row], self.offset[row])

    def take(self, rows: Iterable[int]) -> Columns:
        """A new batch of these rows, in that order."""
        rows = list(rows)
        out = self.like()
        for mine, theirs in zip(out._arrays(), self._arrays(), strict=True):
            mine.extend([theirs[i] for i in rows])
        keys = set(zip(out.source, out.offset, strict=True))
        out.bad = {k: b for k, b in self.bad.items() if k in keys}
        out.heads = {k: h for k, h in self.heads.items() if k in keys}
        out.tails = dict(self.tails)
        return out

    def drop_source(self, source: int) -> Columns:
        out = self.take(i for i, s in enumerate(self.source) if s != source)
        out.tails = {s: t for s, t in self.tails.items() if s != source}
        return out

    # -- reading -------------------------------------------------------------

    def end_at(self, row: int) -> float:
        """When the row's hook answered (epoch s); NaN for a bad line or no time."""
        return math.nan if self.flags[row] & _UNTIMED else self.answered[row]

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


def joined(pieces: Sequence[Columns]) -> Columns:
    """Consecutive pieces of one stream (in file order, one table set) as one batch, in order.

    Each piece is merged where it overlaps the one before (a few late rows:
    little to sort); once the overlap is larger than the piece (streams
    concatenated, calls interleaving throughout) the rest is appended as it
    is and the whole sorted once, not once a piece.
    """
    out, unsorted = pieces[0], False
    for piece in pieces[1:]:
        piece._continue_after(out.tails)
        if not unsorted and len(out) and len(piece):
            after = bisect_right(range(len(out)), piece.key_of(0), key=out.key_of)
            unsorted = len(out) - after > len(piece)
            if not unsorted:
                out.extend(piece)
                continue
        for mine, theirs in zip(out._arrays(), out._in_my_codes(piece), strict=True):
            mine.extend(theirs)
        out._take_dicts(piece)
        for source, t in piece.tails.items():
            if t > -math.inf or source not in out.tails:
                out.tails[source] = t
    if unsorted:
        order.sort_rows(out, 0, len(out))
    return out


def merge_order(batches: Sequence[Columns]) -> list[tuple[int, int]]:
    """(batch, row) in the order hooks answered; each batch is in that order (a merge)."""
    import heapq

    def keyed(b: int, batch: Columns) -> Iterator[tuple[float, int, int, int, int]]:
        answered, source, offset = batch.answered, batch.source, batch.offset
        for row in range(len(batch)):
            yield answered[row], source[row], offset[row], b, row

    merged = heapq.merge(*(keyed(b, batch) for b, batch in enumerate(batches)))
    return [(b, row) for *_, b, row in merged]


def merge_batches(batches: Sequence[Columns]) -> Columns:
    """Several streams' batches (one table set) as one batch in time order."""
    batches = [b for b in batches if len(b)]
    if not batches:
        return Columns()
    if len(batches) == 1:
        return batches[0]
    rows = merge_order(batches)
    out = batches[0].like()
    columns = [list(out._in_my_codes(b)) for b in batches]
    for k, mine in enumerate(out._arrays()):
        mine.extend([columns[b][k][row] for b, row in rows])
    for batch in batches:
        out._take_dicts(batch)
        out.tails.update(batch.tails)
    return out


def answer_time(start: float, duration_ms: float) -> float:
    """When a hook that started at `start` answered (as `merge.end_time`): NaN when unknown."""
    if duration_ms > 0 and math.isfinite(duration_ms) and math.isfinite(start):
        return start + duration_ms / 1000
    return start if math.isfinite(start) else math.nan


def _untimed(answered: list[float], tails: dict[int, float], source: int) -> list[int]:
    """Give each time-less entry its predecessor's time (in place); their places, and the
    stream's last time in `tails`."""
    last = tails.get(source, -math.inf)
    untimed: list[int] = []
    if not any(map(math.isnan, answered)):  # the usual case: in C
        tails[source] = answered[-1] if answered else last
        return untimed
    for k, t in enumerate(answered):
        if t != t:
            answered[k] = last
            untimed.append(k)
        else:
            last = t
    tails[source] = last
    return untimed


def end_of(head: Any) -> float:
    return end_time(head) if isinstance(head, RecordHead) else math.nan

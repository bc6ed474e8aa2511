"""`show`'s reading steps: which streams, read once each, merged lazily, filtered, followed.

Everything here streams: a batch (one chunk of one stream, or MERGE_BATCH
merged items) is the most held at once, except `--last N`, which holds N calls.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from hooktui.tap.base.stream import default_stream_path
from hooktui.tap.model import RecordHead
from hooktui.tap.read.decode import BadLine
from hooktui.tap.read.lines import STDIN, STREAM_CHUNK, LineChunks, is_regular, open_input
from hooktui.tap.read.merge import merge_lazily, time_keyed
from hooktui.tap.read.sanitize import safe_line
from hooktui.tap.read.stats import Stats
from hooktui.tap.read.tail import Tailer
from hooktui.tui.cli.show_scan import Item, Scan

__all__ = ["Item", "Scan"]  # re-exported: show.py names them from here

POLL_SECONDS = 0.1
# Items of several merged streams handed on together (one stream: its chunks).
MERGE_BATCH = 2048
# Reads of 64 KiB: a buffer of a MiB or more is mapped afresh for each read,
# and its page faults cost more than the reads it saves (a third of the time).
READ_CHUNK = 64 << 10
# Walk each chunk's lines in place (Scan.pick_block) rather than split into
# copies first (Scan.pick): False only to check that both print the same.
WALK_BLOCKS = True


def plural(n: int, word: str) -> str:
    """'1 call', '3 calls', '1,204 bad lines'."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


class Tally:
    """Counts for the closing line: the numbers watch's header shows, on one line."""

    def __init__(self) -> None:
        self.total = 0
        self.shown = 0
        self.bad = 0
        self.stats = Stats(keep_heads=False)  # constant memory: no heads kept

    def add(self, heads: list[RecordHead]) -> None:
        self.shown += len(heads)
        self.stats.add_heads(heads)

    def line(self) -> str:
        from hooktui.tui.present.format import format_latency

        stats = self.stats
        of = f"{self.shown:,} of " if self.shown != self.total else ""
        parts = [f"{of}{plural(self.total, 'call')}"]
        decisions = stats.decisions
        if stats.calls:
            order = ["allow", "deny", "ask", "modify", "replace", "failure"]
            names = order + sorted(set(decisions) - set(order))
            parts.append(", ".join(f"{decisions[d]:,} {d}" for d in names if decisions[d]))
        if stats.fail_open:
            parts.append(f"{stats.fail_open:,} failed open")
        p50, p95 = stats.percentile(50), stats.percentile(95)
        if p50 is not None and p95 is not None:
            parts.append(f"p50 {format_latency(p50)}, p95 {format_latency(p95)}")
        if self.bad:
            parts.append(plural(self.bad, "bad line"))
        return " | ".join(parts)


class Usage(Exception):
    """Bad input: one line on stderr, exit 2."""


class Options(NamedTuple):
    accepts: Callable[[object], bool]  # the compiled filter
    show_bad: bool  # bad lines are shown only while the filter is empty
    last: int | None
    format: str
    group_by: str | None
    sort: str
    follow: bool
    utc: bool


class Source(NamedTuple):
    path: str
    name: str  # as the stream column shows it
    regular: bool  # a file that can be followed (not a pipe, FIFO or stdin)


def identity(path: str) -> object:
    """What makes two names one stream: stdin, the file's (device, inode), or its real path."""
    if path == STDIN:
        return STDIN
    try:
        st = os.stat(path)
    except OSError:
        return os.path.realpath(path)
    return (st.st_dev, st.st_ino)


def sources_of(paths: list[str], follow: bool) -> list[Source]:
    """The streams to read, each once (a file named twice, or through a link, is one)."""
    unique: dict[object, str] = {}
    for path in paths or [default_stream_path()]:
        unique.setdefault(identity(path), path)
    sources = []
    for path in unique.values():
        shown = safe_line(path)
        if path != STDIN and os.path.isdir(path):
            raise Usage(f"{shown} is a directory, not a stream file")
        missing = False
        if path != STDIN:
            try:
                os.stat(path)
            except FileNotFoundError:
                missing = True
            except OSError as exc:  # a symlink loop, a component not a directory: not "missing"
                raise Usage(f"cannot read {shown}: {exc.strerror}") from exc
        if missing and not follow:
            raise Usage(_no_stream(path, shown))
        name = "stdin" if path == STDIN else os.path.basename(path)
        sources.append(Source(path, name, is_regular(path)))
    return sources


def _no_stream(path: str, shown: str) -> str:
    """Why there is no stream: never recorded, or taps failed to write it (issue 19:
    after a read-only mount, `show` said "record one" while a log named the stream)."""
    from hooktui.tap.read.errlog import TapErrorLog, tap_error_summary

    errors = TapErrorLog(path)
    if errors.check():
        where = safe_line(errors.path)
        return f"no stream at {shown}: taps could not write it ({tap_error_summary(errors.count)} in {where})"
    return f"no stream at {shown} (record one with `hooktui install ...` or `hooktui demo`)"


def read(sources: list[Source], ends: list, scan: Scan) -> Iterator[list[Item]]:
    """The picked lines of every stream, in batches, merged by time when several.

    `ends[i]` is set, once stream i is read, to where a Tailer continues.
    """
    readers = []
    for si, source in enumerate(sources):
        if source.path != STDIN and not os.path.exists(source.path):
            continue  # --follow waits for it
        try:
            fd = open_input(source.path)
        except OSError as exc:
            name = "standard input" if source.path == STDIN else safe_line(source.path)
            raise Usage(f"cannot read {name}: {exc.strerror}") from exc
        readers.append((si, fd, _stream_batches(si, fd, ends, scan)))
    try:
        if len(readers) == 1:
            yield from readers[0][2]
        elif readers:
            yield from _merged([batches for _, _, batches in readers])
    finally:
        for _, fd, _ in readers:
            os.close(fd)


def _stream_batches(si: int, fd: int, ends: list, scan: Scan) -> Iterator[list[Item]]:
    chunks = LineChunks(fd, READ_CHUNK if WALK_BLOCKS else STREAM_CHUNK)
    if WALK_BLOCKS:
        for buf, base, end in chunks.blocks():
            picked = scan.pick_block(si, buf, base, end)
            if picked:
                yield picked
    else:
        for lines in chunks:
            picked = scan.pick(si, lines)
            if picked:
                yield picked
    ends[si] = chunks.point


def _merged(per_stream: list[Iterator[list[Item]]]) -> Iterator[list[Item]]:
    """Several streams merged lazily by when each hook answered: one heap, one item each.

    Each stream is filtered before the merge: merging keeps each stream's
    order, so filtering first gives the same rows and holds less.
    """

    def items(batches: Iterator[list[Item]]) -> Iterator[tuple[int, Item]]:
        for batch in batches:
            for item in batch:
                yield item[1], item

    keyed = [time_keyed(items(b), head_of=lambda item: item[3]) for b in per_stream]
    batch: list[Item] = []
    for _, _, item in merge_lazily(keyed):
        batch.append(item)
        if len(batch) >= MERGE_BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def last_calls(batches: Iterable[list[Item]], n: int) -> Iterator[list[Item]]:
    """Only the last `n` calls, with the bad lines that follow each (holds n calls)."""
    kept: deque[list[Item]] = deque(maxlen=n)  # a call and the bad lines after it
    leading: list[Item] = []  # bad lines before the first call: shown unless pushed out
    for batch in batches:
        for item in batch:
            if not isinstance(item[3], BadLine):
                if n and len(kept) == n:
                    leading = []
                if n:
                    kept.append([item])
            elif kept:
                kept[-1].append(item)
            else:
                leading.append(item)
    out = ([] if not n else leading) + [item for group in kept for item in group]
    if out:
        yield out


# --- following --------------------------------------------------------------


def follow(sources: list[Source], ends: list, scan: Scan, out, err: Callable[[str], None]) -> None:
    """Poll every followable stream until interrupted; new lines go through the same filter."""
    tailers = {
        i: Tailer(s.path, start=ends[i] if sources[i].regular else None)
        for i, s in enumerate(sources)
        if s.path != STDIN and (s.regular or ends[i] is None)
    }
    waiting = dict.fromkeys(tailers, False)
    while tailers:
        batch: list[Item] = []
        for i, tailer in tailers.items():
            shown = safe_line(sources[i].path)
            try:
                got = tailer.poll()
            except OSError as exc:  # unreadable for now (permissions, a vanished mount)
                if not waiting[i]:
                    waiting[i] = True
                    err(f"cannot read {shown}: {exc.strerror}; retrying")
                continue
            if got.missing:
                if not waiting[i]:
                    waiting[i] = True
                    err(f"waiting for {shown} ...")
                continue
            waiting[i] = False
            if got.reset:
                err(f"{shown} was truncated or replaced; reading it from the start")
            batch += scan.pick(i, got.lines)
        if batch:
            out.write(batch)
        else:
            time.sleep(POLL_SECONDS)

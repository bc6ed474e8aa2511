"""Live tailing glue: load the streams, then follow them and post what changed.

File reads and decoding run in a thread (`asyncio.to_thread`) so a burst or a
huge line never stalls key handling. Wake-ups come from watchfiles (a short
debounce: its default yields once per 1.6 s under steady writes) and from a
timeout every STAT_INTERVAL_MS as a fallback, since file events can be missed
(network file systems, a directory that does not exist yet).
"""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import Callable
from pathlib import Path

from hooktui.tap.read.errlog import TapErrorLog
from hooktui.tap.read.reader import decode_heads, load_stream, merge_by_time
from hooktui.tap.read.tail import Tailer
from hooktui.tap.read.view import Entry, make_entries
from hooktui.tui.app.messages import (
    RecordsAppended,
    StreamPresence,
    StreamReset,
    StreamsLoaded,
    TapErrors,
)
from textual.message import Message

STAT_INTERVAL_MS = 250
DEBOUNCE_MS = 50
STEP_MS = 20


class LiveStreams:
    """The streams one watch follows: their tailers and what was last seen of each."""

    def __init__(self, paths: list[str]) -> None:
        self.paths = [str(p) for p in paths]
        self.tailers: list[Tailer] = []
        self.missing: list[bool] = [False] * len(self.paths)
        self.error_logs = [TapErrorLog(p) for p in self.paths]

    def load(self) -> StreamsLoaded:
        """Read every stream whole (blocking: run it in a thread)."""
        # A 100k-record load allocates a few hundred thousand long-lived
        # objects: collecting while they pile up only walks them again and
        # again, and freezing them afterwards keeps later collections short.
        gc.disable()
        try:
            return self._load()
        finally:
            gc.enable()
            gc.freeze()

    def _load(self) -> StreamsLoaded:
        per_stream = []
        ends = []
        for i, path in enumerate(self.paths):
            try:
                items, end = load_stream(path)
                self.missing[i] = False
            except OSError:
                items, end = [], 0
                self.missing[i] = True
            per_stream.append(items)
            ends.append(end)
        if len(per_stream) == 1:
            entries = make_entries(0, per_stream[0])
        else:
            entries = [Entry(s, offset, head) for s, offset, head in merge_by_time(per_stream)]
        self.tailers = [Tailer(p, offset=end) for p, end in zip(self.paths, ends, strict=True)]
        for log in self.error_logs:
            log.check()
        return StreamsLoaded(entries, list(self.missing), [log.count for log in self.error_logs])

    def poll(self) -> list[Message]:
        """One look at every stream (blocking: run it in a thread)."""
        out: list[Message] = []
        appended: list[Entry] = []
        for source, tailer in enumerate(self.tailers):
            try:
                batch = tailer.poll()
            except OSError:
                continue  # unreadable for now (permissions, a vanished mount): try again later
            if batch.missing != self.missing[source]:
                self.missing[source] = batch.missing
                out.append(StreamPresence(source, batch.missing))
            if not batch.lines and not batch.reset:
                continue
            entries = make_entries(source, decode_heads(batch.lines))
            if batch.reset:
                out.append(StreamReset(source, entries))
            else:
                appended.extend(entries)
        if appended:
            out.append(RecordsAppended(appended))
        # One stat per stream for its tap error log; lines are counted only when it changed.
        for source, log in enumerate(self.error_logs):
            if log.check():
                out.append(TapErrors(source, log.count))
        return out

    def close(self) -> None:
        for tailer in self.tailers:
            tailer.close()

    def watch_dirs(self) -> list[str]:
        """The existing directories that hold the streams (watchfiles needs them to exist)."""
        dirs = {str(Path(p).resolve().parent) for p in self.paths}
        return sorted(d for d in dirs if os.path.isdir(d))


async def follow(
    streams: LiveStreams, post: Callable[[Message], object], stop: asyncio.Event
) -> None:
    """Load, then follow the streams until `stop` is set, posting messages with `post`."""
    post(await asyncio.to_thread(streams.load))
    wanted = {str(Path(p).resolve()) for p in streams.paths}
    # The tap's error logs wake the poll too (the periodic stat would find them anyway).
    wanted |= {str(Path(log.path).resolve()) for log in streams.error_logs}

    async def poll_and_post() -> None:
        for message in await asyncio.to_thread(streams.poll):
            post(message)

    try:
        while not stop.is_set():
            dirs = streams.watch_dirs()
            if not dirs:
                # Nothing to watch yet: stat until a directory appears.
                await poll_and_post()
                try:
                    await asyncio.wait_for(stop.wait(), STAT_INTERVAL_MS / 1000)
                except TimeoutError:
                    pass
                continue
            await _watch(streams, dirs, wanted, poll_and_post, stop)
    finally:
        streams.close()


async def _watch(streams, dirs, wanted, poll_and_post, stop) -> None:
    from watchfiles import awatch

    def only_streams(_change, path: str) -> bool:
        return path in wanted

    try:
        async for _changes in awatch(
            *dirs,
            watch_filter=only_streams,
            debounce=DEBOUNCE_MS,
            step=STEP_MS,
            rust_timeout=STAT_INTERVAL_MS,
            yield_on_timeout=True,  # the periodic stat fallback
            stop_event=stop,
            recursive=False,
        ):
            await poll_and_post()
            if streams.watch_dirs() != dirs:
                return  # a directory appeared or vanished: watch the new set
    except (OSError, RuntimeError):
        # The watcher could not start or died (a deleted directory, inotify
        # limits): fall back to stat polling for one interval, then retry.
        await poll_and_post()
        try:
            await asyncio.wait_for(stop.wait(), STAT_INTERVAL_MS / 1000)
        except TimeoutError:
            pass

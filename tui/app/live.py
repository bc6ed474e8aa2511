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
import threading
from collections.abc import Callable

from hooktui.tap.read.decode import decode_heads
from hooktui.tap.read.errlog import TapErrorLog
from hooktui.tap.read.index import Columns, batch_of, merge_batches
from hooktui.tap.read.index_load import index_backward, read_tail
from hooktui.tap.read.lines import LineChunks, is_regular, open_input
from hooktui.tap.read.tail import Tailer
from hooktui.tui.app.messages import (
    OlderIndexed,
    RecordsAppended,
    StreamPresence,
    StreamReset,
    StreamsLoaded,
    TapErrors,
)
from hooktui.tui.present.first_screen import First
from textual.message import Message

STAT_INTERVAL_MS = 250
DEBOUNCE_MS = 50
STEP_MS = 20


class LiveStreams:
    """The streams one watch follows: their tailers and what was last seen of each."""

    def __init__(self, paths: list[str], first: First | None = None) -> None:
        self.paths = [str(p) for p in paths]
        # The newest lines, read (and shown) before the app started: not read again.
        self.first = first
        self.tailers: list[Tailer] = []
        self.missing: list[bool] = [False] * len(self.paths)
        self.error_logs = [TapErrorLog(p) for p in self.paths]
        self.left = 0  # bytes before the tail still to index (one stream only)
        self.stopping = threading.Event()

    def load(self) -> StreamsLoaded:
        """Read every stream whole into the index (blocking: run it in a thread)."""
        # Decoding makes only short-lived objects: collecting meanwhile would
        # walk everything the app holds again and again.
        gc.disable()
        try:
            return self._load()
        finally:
            gc.enable()
            gc.freeze()

    def _load(self) -> StreamsLoaded:
        batches = []
        ends = []
        for i, path in enumerate(self.paths):
            batch, end = _index_whole(path, i)
            self.missing[i] = batch is None
            batches.append(batch if batch is not None else Columns())
            ends.append(end)
        self.tailers = [Tailer(p, offset=end) for p, end in zip(self.paths, ends, strict=True)]
        return StreamsLoaded(merge_batches(batches), list(self.missing), self._error_counts())

    def load_newest(self) -> StreamsLoaded:
        """One stream: its newest lines only, the rest left to `index_older` (blocking).

        Several streams are merged by time, which needs all of each: read whole.
        """
        if len(self.paths) != 1 or not is_regular(self.paths[0]):
            return self.load()
        path = self.paths[0]
        try:
            tail = self.first.tail if self.first is not None else read_tail(path)
        except OSError:
            self.missing[0] = True
            self.tailers = [Tailer(path, offset=0)]
            return StreamsLoaded(Columns(), [True], self._error_counts())
        self.missing[0] = False
        self.left = tail.start
        self.tailers = [Tailer(path, offset=tail.end)]
        return StreamsLoaded(tail.batch, [False], self._error_counts(), left=tail.start)

    def index_older(self, post: Callable[[Message], object]) -> None:
        """Post the lines before the newest ones, newest to oldest, in growing batches."""
        if not self.left:
            return
        try:
            for progress in index_backward(self.paths[0], self.left):
                if self.stopping.is_set():
                    return
                post(OlderIndexed(progress.batch, progress.left))
        except OSError:
            post(OlderIndexed(Columns(), 0))  # gone meanwhile: the tailer reports it
        finally:
            gc.freeze()  # what indexing left is long-lived: later collections skip it

    def _error_counts(self) -> list[int]:
        for log in self.error_logs:
            log.check()
        return [log.count for log in self.error_logs]

    def poll(self) -> list[Message]:
        """One look at every stream (blocking: run it in a thread)."""
        out: list[Message] = []
        appended = Columns()  # the same columns the load made: the view takes them as they are
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
            if batch.reset:
                out.append(StreamReset(source, batch_of(source, decode_heads(batch.lines))))
            else:
                appended.extend(batch_of(source, decode_heads(batch.lines), appended))
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
        dirs = {os.path.dirname(os.path.realpath(p)) for p in self.paths}
        return sorted(d for d in dirs if os.path.isdir(d))


async def follow(
    streams: LiveStreams, post: Callable[[Message], object], stop: asyncio.Event
) -> None:
    """Load, then follow the streams until `stop` is set, posting messages with `post`.

    The newest lines come first; the rest is indexed in a thread meanwhile.
    """
    loaded = await asyncio.to_thread(streams.load_newest)
    if streams.first is None:
        post(loaded)
    elif loaded.tap_errors[0] != streams.first.tap_errors:  # the app shows `first` already
        post(TapErrors(0, loaded.tap_errors[0]))
    indexer = threading.Thread(
        target=streams.index_older, args=(post,), name="hooktui-index", daemon=True
    )
    indexer.start()
    # realpath, not Path.resolve: a symlink loop stays a name (resolve raises on it).
    wanted = {os.path.realpath(p) for p in streams.paths}
    # The tap's error logs wake the poll too (the periodic stat would find them anyway).
    wanted |= {os.path.realpath(log.path) for log in streams.error_logs}

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
        streams.stopping.set()
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


def _index_whole(path: str, source: int) -> tuple[Columns | None, int]:
    """The index of a whole stream and the offset a Tailer continues at; None if unreadable."""
    if not is_regular(path):
        return _index_pipe(path, source)
    try:
        tail = read_tail(path, source)
        batch = tail.batch
        for progress in index_backward(path, tail.start, source):
            batch.prepend(progress.batch)
    except OSError:
        return None, 0
    return batch, tail.end


def _index_pipe(path: str, source: int) -> tuple[Columns | None, int]:
    """A pipe or FIFO, read once to its end, in order."""
    try:
        fd = open_input(path)
    except OSError:
        return None, 0
    batch = Columns()
    try:
        chunks = LineChunks(fd)
        for lines in chunks:
            batch.extend(batch_of(source, decode_heads(lines)))
    finally:
        os.close(fd)
    return batch, chunks.end

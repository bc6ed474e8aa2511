"""The stream feed: what reaches watch from its streams, into the view; pause and its buffer.

A part of the watch screen with no look of its own. The reading is `live.py`'s (a
worker posts messages to the feed); the feed takes the lines read before Textual
started (`watch_first`, shown from the first frame), the newest records, older ones
indexed behind them, appended records, a stream truncated or replaced, a stream
appearing or going, and the tap's error log growing. While paused (`p`) records
and resets are held back in order and applied on resume; nothing is dropped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ClassVar

from hooktui.tap.base.stream import error_log_path
from hooktui.tap.read.view import CallView
from hooktui.tui.app.keys import Key
from hooktui.tui.app.live import LiveStreams, follow
from hooktui.tui.app.messages import (
    OlderIndexed,
    RecordsAppended,
    StreamPresence,
    StreamReset,
    StreamsLoaded,
    TapErrors,
)
from hooktui.tui.present.first_screen import First
from hooktui.tui.present.format import display_path
from textual import work
from textual.binding import Binding
from textual.message import Message
from textual.reactive import var
from textual.widget import Widget


class StreamFeed(Widget):
    """Live tailing of `paths` into `view`; `changed` is called when what it reports changed.

    Depends on: the view it fills, the paths it reads (`names`, as the user gave
    them, for messages), the first screen's lines, and the call list's follow
    (an appended row does not pull a list the user scrolled).
    """

    DEFAULT_CSS = "StreamFeed { display: none; }"

    KEYS: ClassVar[tuple[Key, ...]] = (
        Key(
            Binding(
                "p",
                "pause",
                "Pause",
                tooltip="pause: hold new records back, resume shows them",
                id="watch.pause",
            )
        ),
    )

    paused: var[bool] = var(False)  # new records are held back, not applied

    def __init__(
        self,
        view: CallView,
        paths: list[str],
        names: list[str],
        *,
        live: bool,
        first: First | None,
        changed: Callable[[], None],
        before_append: Callable[[], None],
    ) -> None:
        super().__init__()
        self.view, self.paths, self.names = view, paths, names
        self.live = live
        self._first = first
        self._changed = changed
        self._before_append = before_append
        self.loaded = False
        self.missing = [False] * len(paths)
        self.tap_errors = [0] * len(paths)  # lines in each stream's tap error log
        # (path as shown, lines) of each tap error log with lines: the tap could not record.
        self.error_logs: list[tuple[str, int]] = []
        self.indexing: float | None = None  # share of the stream indexed, while it is being
        self.buffered = 0  # records held back while paused
        self._held: list[Message] = []  # records that arrived while paused
        self._index_total = 0
        self._stop = asyncio.Event()
        if first is not None:
            self._take_first(first)

    def _take_first(self, first: First) -> None:
        """One stream's newest lines, read (and drawn) before Textual loaded."""
        self.loaded = True
        self._index_total = first.tail.start
        self.indexing = 0.0 if first.tail.start else None
        self.tap_errors[0] = first.tap_errors
        if first.tap_errors:
            self.error_logs = [(display_path(error_log_path(self.paths[0])), first.tap_errors)]
        self.view.replace_all(first.tail.batch)

    def start(self) -> None:
        if self.live:
            self._follow_streams()
        else:
            self._load_once()

    def stop(self) -> None:
        self._stop.set()

    def on_unmount(self) -> None:
        self.stop()

    @work(exclusive=True, group="live")
    async def _follow_streams(self) -> None:
        await follow(LiveStreams(self.paths, self._first), self.post_message, self._stop)

    @work(thread=True, exclusive=True, group="live")
    def _load_once(self) -> None:
        self.post_message(LiveStreams(self.paths).load())

    # -- what the streams say ------------------------------------------------

    def on_streams_loaded(self, message: StreamsLoaded) -> None:
        self.loaded = True
        self.missing = message.missing
        for source, count in enumerate(message.tap_errors):
            self._set_tap_errors(source, count)
        self._index_total = message.left
        self.indexing = 0.0 if message.left else None
        self.view.replace_all(message.batch)

    def on_older_indexed(self, message: OlderIndexed) -> None:
        # Older lines arrive while the newest are shown; a reset stream drops them.
        if self.indexing is None:
            return
        self.view.prepend(message.batch)
        total = self._index_total or 1
        self.indexing = None if not message.left else 1 - message.left / total
        self._changed()

    def on_records_appended(self, message: RecordsAppended) -> None:
        if self.paused:
            self._held.append(message)
            self.buffered += len(message.batch)
            self._changed()
            return
        self._apply(message)

    def on_stream_reset(self, message: StreamReset) -> None:
        if self.paused:
            self._held.append(message)
            self._changed()
            return
        self._apply(message)

    def on_stream_presence(self, message: StreamPresence) -> None:
        self.missing[message.source] = message.missing
        self._changed()

    def on_tap_errors(self, message: TapErrors) -> None:
        # Shown even while paused: it says whether anything is being recorded at all.
        self._set_tap_errors(message.source, message.count)

    def _set_tap_errors(self, source: int, count: int) -> None:
        self.tap_errors[source] = count
        self.error_logs = [
            (display_path(error_log_path(path)), n)
            for path, n in zip(self.paths, self.tap_errors, strict=True)
            if n
        ]
        self._changed()

    def _apply(self, message: Message) -> None:
        if isinstance(message, RecordsAppended):
            self._before_append()
            self.view.add(message.batch)
        elif isinstance(message, StreamReset):
            self.indexing = None  # the stream was read again from its start
            self.view.reset_source(message.source, message.batch)
            self.app.notify(
                f"{display_path(self.names[message.source])} was truncated or replaced: reloaded",
                severity="warning",
            )

    # -- pause --------------------------------------------------------------

    def action_pause(self) -> None:
        self.paused = not self.paused

    def watch_paused(self, paused: bool) -> None:
        if not paused:
            held, self._held = self._held, []
            self.buffered = 0
            for message in held:
                self._apply(message)
        self._changed()

"""What reaches watch from its streams: the first lines, the load, the live follow.

Mixed into WatchApp. The reading itself is `live.py`'s (a worker posts messages);
this is how the app takes them: the lines read before Textual started
(`watch_first`, taken over from the first frame), the newest records, older ones
indexed behind them, appended records, a stream truncated or replaced, a stream
appearing or going, and the tap's error log growing. While paused (`p`) records
and resets are held back in order and applied on resume; nothing is dropped.
"""

from __future__ import annotations

from hooktui.tap.base.stream import error_log_path
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
from textual.message import Message


class WatchStreams:
    """The app has `paths`, `names`, `view`, `state`, `calls`, `paused`, `_held`,
    `_stop`, `_first`, `_changed` and `notify`."""

    def _take_first(self, first: First) -> None:
        self.loaded = True
        self._index_total = first.tail.start
        self.state.indexing = 0.0 if first.tail.start else None
        self.tap_errors[0] = first.tap_errors
        if first.tap_errors:
            self.state.tap_errors = [
                (display_path(error_log_path(self.paths[0])), first.tap_errors)
            ]
        self.view.replace_all(first.tail.batch)

    @work(exclusive=True, group="live")
    async def _follow_streams(self) -> None:
        await follow(LiveStreams(self.paths, self._first), self.post_message, self._stop)

    @work(thread=True, exclusive=True, group="live")
    def _load_once(self) -> None:
        self.post_message(LiveStreams(self.paths).load())

    def on_streams_loaded(self, message: StreamsLoaded) -> None:
        self.loaded = True
        self.missing = message.missing
        for source, count in enumerate(message.tap_errors):
            self._set_tap_errors(source, count)
        self._index_total = message.left
        self.state.indexing = 0.0 if message.left else None
        self.view.replace_all(message.batch)

    def on_older_indexed(self, message: OlderIndexed) -> None:
        # Older lines arrive while the newest are shown; a reset stream drops them.
        if self.state.indexing is None:
            return
        self.view.prepend(message.batch)
        total = self._index_total or 1
        self.state.indexing = None if not message.left else 1 - message.left / total
        self._changed()

    def on_records_appended(self, message: RecordsAppended) -> None:
        if self.paused:
            self._held.append(message)
            self.state.buffered += len(message.batch)
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
        self.state.tap_errors = [
            (display_path(error_log_path(path)), n)
            for path, n in zip(self.paths, self.tap_errors, strict=True)
            if n
        ]
        self._changed()

    def _apply(self, message: Message) -> None:
        if isinstance(message, RecordsAppended):
            self.calls.stop_following_if_grabbed()
            self.view.add(message.batch)
        elif isinstance(message, StreamReset):
            self.state.indexing = None  # the stream was read again from its start
            self.view.reset_source(message.source, message.batch)
            self.notify(
                f"{display_path(self.names[message.source])} was truncated or replaced: reloaded",
                severity="warning",
            )

    # -- pause --------------------------------------------------------------

    def action_pause(self) -> None:
        self.paused = not self.paused

    def watch_paused(self, paused: bool) -> None:
        self.state.paused = paused
        if not paused:
            held, self._held = self._held, []
            self.state.buffered = 0
            for message in held:
                self._apply(message)
        self._changed()

"""Messages the live tailing worker posts to the watch app.

Appends and resets carry records and are never dropped; a state message (a
stream's presence, its tap error count) replaces an older one still queued
for the same stream (`can_replace`), so a burst never queues stale states.
"""

from __future__ import annotations

from hooktui.tap.read.index import Columns
from textual.message import Message


class StreamsLoaded(Message):
    """The initial read of every stream, merged by time."""

    def __init__(
        self,
        batch: Columns,
        missing: list[bool],
        tap_errors: list[int] | None = None,
        left: int = 0,
    ) -> None:
        super().__init__()
        self.batch = batch
        self.missing = missing
        # Lines in each stream's tap error log (all 0 when there is none).
        self.tap_errors = tap_errors if tap_errors is not None else [0] * len(missing)
        # Bytes before the lines read, still to index (the newest lines come first).
        self.left = left


class OlderIndexed(Message):
    """Lines older than all read so far (indexing toward a stream's start); never dropped."""

    def __init__(self, batch: Columns, left: int) -> None:
        super().__init__()
        self.batch = batch
        self.left = left  # bytes still to index (0: the whole stream is indexed)


class RecordsAppended(Message):
    """New complete lines at the end of one or more streams (one poll's worth)."""

    def __init__(self, batch: Columns) -> None:
        super().__init__()
        self.batch = batch


class StreamReset(Message):
    """A stream was truncated, rotated or recreated: its lines start over."""

    def __init__(self, source: int, batch: Columns) -> None:
        super().__init__()
        self.source = source
        self.batch = batch


class StreamPresence(Message):
    """A stream appeared or disappeared (drives the empty state); only the newest counts."""

    def __init__(self, source: int, missing: bool) -> None:
        super().__init__()
        self.source = source
        self.missing = missing

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, StreamPresence) and message.source == self.source


class TapErrors(Message):
    """The tap's error log beside a stream gained (or lost) lines; only the newest count counts."""

    def __init__(self, source: int, count: int) -> None:
        super().__init__()
        self.source = source
        self.count = count

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, TapErrors) and message.source == self.source

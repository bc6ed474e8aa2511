"""Messages the live tailing worker posts to the watch app."""

from __future__ import annotations

from hooktui.tui.view import Entry
from textual.message import Message


class StreamsLoaded(Message):
    """The initial read of every stream, merged by time."""

    def __init__(self, entries: list[Entry], missing: list[bool]) -> None:
        super().__init__()
        self.entries = entries
        self.missing = missing


class RecordsAppended(Message):
    """New complete lines at the end of one or more streams (one poll's worth)."""

    def __init__(self, entries: list[Entry]) -> None:
        super().__init__()
        self.entries = entries


class StreamReset(Message):
    """A stream was truncated, rotated or recreated: its entries start over."""

    def __init__(self, source: int, entries: list[Entry]) -> None:
        super().__init__()
        self.source = source
        self.entries = entries


class StreamPresence(Message):
    """A stream appeared or disappeared (drives the empty state)."""

    def __init__(self, source: int, missing: bool) -> None:
        super().__init__()
        self.source = source
        self.missing = missing

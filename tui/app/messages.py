"""Messages the live tailing worker posts to the watch app."""

from __future__ import annotations

from hooktui.tap.read.view import Entry
from textual.message import Message


class StreamsLoaded(Message):
    """The initial read of every stream, merged by time."""

    def __init__(
        self, entries: list[Entry], missing: list[bool], tap_errors: list[int] | None = None
    ) -> None:
        super().__init__()
        self.entries = entries
        self.missing = missing
        # Lines in each stream's tap error log (all 0 when there is none).
        self.tap_errors = tap_errors if tap_errors is not None else [0] * len(missing)


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


class TapErrors(Message):
    """The tap's error log beside a stream gained (or lost) lines."""

    def __init__(self, source: int, count: int) -> None:
        super().__init__()
        self.source = source
        self.count = count

"""Watch's call list: the shared LineList over the view model (`hooktui.tap.read.view`)."""

from __future__ import annotations

from bisect import bisect_left
from datetime import tzinfo
from typing import ClassVar

from hooktui.tap.read.view import CallView, Entry
from hooktui.tui.app.widgets.line_list import LineList
from hooktui.tui.app.widgets.rows import call_row
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message


class CallList(LineList):
    """Rows of the view, newest at the bottom, with a cursor and follow mode."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Detail", show=False, id="list.open"),
    ]

    class Opened(Message):
        """Enter on a row: the detail pane should take focus."""

        def __init__(self, entry: Entry | None) -> None:
            super().__init__()
            self.entry = entry

    def __init__(self, view: CallView, tz: tzinfo | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view = view
        self.tz = tz
        # Entries from this index on arrived while not following: the "N new ↓" badge
        # counts those the filter shows, so it is right after every refilter.
        self._seen_upto: int | None = None
        view.on_added.append(lambda _first, count: self.rows_changed(added=count))
        view.on_refresh.append(lambda: self.rows_changed(reset=True))

    # -- LineList ------------------------------------------------------------

    def row_count(self) -> int:
        return len(self.view)

    def row_key(self, row: int) -> tuple[int, int]:
        return self.view.entry(row).key

    def row_of(self, key) -> int | None:
        return self.view.row_of(key)

    def row_look(self, row: int) -> bool:
        return self.view.is_marked(self.view.entry(row))

    def render_row(self, row: int, width: int) -> Text:
        entry = self.view.entry(row)
        return call_row(
            entry, width, self.tz, self.view.is_marked(entry), color=not self.app.no_color
        )

    # -- follow and the new-rows count ---------------------------------------

    def watch_following(self, following: bool) -> None:
        self._seen_upto = None if following else self.view.total
        super().watch_following(following)

    @property
    def new_while_paused(self) -> int:
        """Shown rows that arrived after following stopped (0 while following)."""
        if self.following or self._seen_upto is None:
            return 0
        shown = self.view.shown
        return len(shown) - bisect_left(shown, self._seen_upto)

    def reset_seen(self) -> None:
        """The view's entries were replaced: what was seen is all there is now."""
        if not self.following:
            self._seen_upto = self.view.total

    # -- the selected entry --------------------------------------------------

    @property
    def current(self) -> Entry | None:
        if 0 <= self.cursor < len(self.view):
            return self.view.entry(self.cursor)
        return None

    def action_open(self) -> None:
        self.post_message(self.Opened(self.current))

    def refresh_row_of(self, row: int) -> None:
        """Re-render one row (its mark changed)."""
        self.refresh_row(row)

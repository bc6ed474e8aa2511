"""Watch's call list: the shared LineList over the view model and its Focus (`hooktui.tap.read`)."""

from __future__ import annotations

from datetime import tzinfo
from typing import ClassVar

from hooktui.tap.read.focus import Focus
from hooktui.tap.read.view import CallView, StreamLine
from hooktui.tui.app.widgets.line_list import LineList
from hooktui.tui.present.rows import call_row
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

        def __init__(self, entry: StreamLine | None) -> None:
            super().__init__()
            self.entry = entry

    def __init__(self, view: CallView, tz: tzinfo | None = None, **kwargs) -> None:
        super().__init__(Focus(view), **kwargs)
        self.tz = tz

    # -- LineList ------------------------------------------------------------

    _placed = False  # scrolled to its end in its first layout

    def _size_updated(self, size, virtual_size, container_size, layout: bool = True) -> bool:
        changed = super()._size_updated(size, virtual_size, container_size, layout)
        if not self._placed and size.height and self.following and self.cursor >= 0:
            # In the first layout pass itself, before anything is painted: a list that
            # follows shows its newest rows from its first frame (as `hooktui watch` drew
            # them before the app loaded), not its oldest for one frame.
            self._placed = True
            self._update_virtual_size()
            self._scroll_update(self.virtual_size)  # the scrollbar it needs, then the rows' width
            self._update_virtual_size()
            end = max(0, self.row_count() - self.scrollable_content_region.height)
            self.scroll_target_y = self.scroll_y = end  # (the scrollbar's thumb moves with it)
        return changed

    def row_look(self, row: int) -> bool:
        return self.view.is_marked(self.view.entry(row))

    def render_row(self, row: int, width: int) -> Text:
        entry = self.view.entry(row)
        return call_row(
            entry, width, self.tz, self.view.is_marked(entry), color=not self.app.no_color
        )

    @property
    def new(self) -> int:
        """Shown rows that arrived after following stopped: the header's "N new ↓"."""
        return self.focus_model.new

    # -- the selected entry --------------------------------------------------

    @property
    def current(self) -> StreamLine | None:
        return self.focus_model.entry

    def action_open(self) -> None:
        self.post_message(self.Opened(self.current))

    def refresh_row_of(self, row: int) -> None:
        """Re-render one row (its mark changed)."""
        self.refresh_row(row)

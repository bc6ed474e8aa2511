"""One list widget for watch, replay and the patterns table: Textual's Line API, so 100k rows cost what shows.

Only visible rows are drawn, each kept by what changes its look (row_strips.py),
so scrolling back is free and an append draws only new rows.

The cursor, follow mode and the row the user chose live in the model
(`hooktui.tap.read.focus.Focus`, over the list's view): the widget turns keys
and the mouse into its moves, and draws where it says. Subclasses say what
row i looks like.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import ClassVar

from hooktui.tap.read.focus import Focus
from hooktui.tui.app.widgets.row_strips import RowStrips
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip


class LineList(ScrollView, can_focus=True):
    """Rows of `focus.view` with the focus's cursor; while it follows, the newest row."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"line-list--cursor", "line-list--cursor-blurred"}

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "move(1)", "Down", show=False, id="list.down"),
        Binding("k,up", "move(-1)", "Up", show=False, id="list.up"),
        Binding("g,home", "first", "First", show=False, id="list.first"),
        Binding("G,end", "last", "Last", show=False, id="list.last"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="list.page_down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="list.page_up"),
        # (In the help, after the screen's own keys: their descriptions say enough.)
    ]

    class Highlighted(Message):
        """The cursor moved to another row's key (or to none); only the newest counts."""

        def __init__(self, line_list: LineList, row: int) -> None:
            super().__init__()
            self.line_list = line_list
            self.row = row

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, LineList.Highlighted) and message.line_list is self.line_list

    class RowWidth(Message):
        """The rows' width changed (a resize, a scrollbar): column titles follow it."""

        def __init__(self, width: int) -> None:
            super().__init__()
            self.width = width

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, LineList.RowWidth)

    class FollowChanged(Message):
        def __init__(self, following: bool) -> None:
            super().__init__()
            self.following = following

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, LineList.FollowChanged)

    def __init__(
        self, focus: Focus, *, name: str | None = None, id: str | None = None, classes=None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        # Created over the view before this list listens to it: when rows
        # arrive, the focus has settled by the time the list redraws.
        self.focus_model = focus
        self.view = focus.view
        self.strips = RowStrips(self)
        self._painted_width = 0
        self._drawn_row = focus.row  # where the cursor was last drawn
        self._drawn_following = focus.following
        focus.on_change.append(self._focus_changed)
        self.view.on_added.append(self._rows_added)
        self.view.on_refresh.append(lambda: self.rows_changed(reset=True))
        # Before the focus moves (it listens first otherwise): the rows on screen stay put.
        prepended = getattr(self.view, "on_prepended", None)
        if prepended is not None:
            prepended.insert(0, self._rows_prepended)

    # -- what subclasses provide ---------------------------------------------

    def row_look(self, row: int) -> Hashable:
        """Whatever else changes the row's look (a mark), for the cache key."""
        return None

    def render_row(self, row: int, width: int) -> Text:
        raise NotImplementedError

    # -- the model's state ---------------------------------------------------

    def row_count(self) -> int:
        return len(self.view)

    @property
    def cursor(self) -> int:
        """The focused row; -1 when nothing is shown."""
        return self.focus_model.row

    @property
    def following(self) -> bool:
        return self.focus_model.following

    def set_following(self, on: bool) -> None:
        self.focus_model.set_following(on)

    def stop_following_if_grabbed(self) -> None:
        """Before rows are added: a user dragging the scrollbar is reading, not following.

        (As Textual's Log does.) Asked before the focus moves, so a new row
        never pulls the view from under the pointer.
        """
        if self.following and self.is_vertical_scrollbar_grabbed:
            self.set_following(False)

    def _focus_changed(self, key_changed: bool) -> None:
        self._update_virtual_size()
        row, old = self.cursor, self._drawn_row
        if row != old:
            self._drawn_row = row
            self.refresh_row(old)
            self.refresh_row(row)
        if row >= 0 and (row != old or key_changed):
            self.scroll_to_row(row)
        if key_changed:
            self.post_message(self.Highlighted(self, row))
        if self.following != self._drawn_following:
            self._drawn_following = self.following
            self.post_message(self.FollowChanged(self.following))

    # -- size ----------------------------------------------------------------

    def rows_changed(self, *, added: int = 0, reset: bool = False) -> None:
        """Rows were appended (`added`) or everything changed (`reset`): redraw."""
        if reset:
            self.strips.clear()
        self._update_virtual_size()
        if self.following and self.cursor >= 0:
            self.scroll_to_row(self.cursor)
        self.refresh()

    def _rows_added(self, first: int, count: int) -> None:
        """Rows came in, a late one above the rows on screen perhaps: keep those in place."""
        top = round(self.scroll_y)
        moved = getattr(self.view, "moved", None)
        if moved is not None and first < top and not self.following:
            self._update_virtual_size()
            self.scroll_to(y=moved(top), animate=False, immediate=True)
        self.rows_changed(added=count)

    def _rows_prepended(self, count: int, shown: int) -> None:
        """Older rows came in above: keep the same rows on screen (following keeps the end)."""
        top = round(self.scroll_y)
        self._update_virtual_size()
        if shown and not self.following and self.cursor >= 0:
            moved = getattr(self.view, "moved", None)
            self.scroll_to(y=moved(top) if moved else top + shown, animate=False, immediate=True)
        self.refresh()

    @property
    def row_width(self) -> int:
        """The width rows are drawn at (0 before the first layout)."""
        # The region inside the scrollbar: rows never hide under it.
        return self.scrollable_content_region.width or self.size.width

    def _update_virtual_size(self) -> None:
        self.virtual_size = Size(self.row_width, self.row_count())

    def on_resize(self, event: events.Resize) -> None:
        self._update_virtual_size()
        if self.following and self.cursor >= 0:
            self.call_after_refresh(self.scroll_end, animate=False, immediate=True)
        elif self.cursor >= 0:
            self.call_after_refresh(self.scroll_to_row, self.cursor)

    # -- rendering -----------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        row = self.scroll_offset.y + y
        width = self.row_width
        if width != self._painted_width:
            self._painted_width = width
            # Not posted from here: during a paint the screen is the active
            # pump, so the message would count as the screen's and stop there.
            # (The message is made later too: it takes its sender from the active pump.)
            self.call_later(lambda: self.post_message(self.RowWidth(width)))
        base = self.rich_style
        if not 0 <= row < self.row_count():
            return Strip.blank(width, base)
        return self.strips.strip(row, width, row == self.cursor, self.has_focus, base)

    def refresh_row(self, row: int) -> None:
        if row >= 0:
            self.refresh_line(row - self.scroll_offset.y)

    def on_focus(self) -> None:
        self.refresh_row(self.cursor)

    def on_blur(self) -> None:
        self.refresh_row(self.cursor)

    def scroll_to_row(self, row: int) -> None:
        height = self.scrollable_content_region.height or self.size.height
        top = round(self.scroll_y)
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False, immediate=True)

    # -- the user's moves ----------------------------------------------------

    def action_move(self, rows: int) -> None:
        # Reaching the bottom does not resume following: G / End does.
        self.focus_model.move_by(rows)

    def action_first(self) -> None:
        self.focus_model.first()

    def action_last(self) -> None:
        self.focus_model.last()
        if self.cursor >= 0:
            self.scroll_to_row(self.cursor)

    def action_page(self, pages: int) -> None:
        page = max(1, (self.scrollable_content_region.height or self.size.height) - 1)
        self.focus_model.move_by(pages * page)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        # Scrolling back through history stops following, like a pager.
        self.set_following(False)

    def on_scroll_to(self, message) -> None:
        # The scrollbar is being dragged: reading history, not following (as Log does).
        if self.is_vertical_scrollbar_grabbed:
            self.set_following(False)

    def on_scroll_up(self, message) -> None:
        self.set_following(False)

    async def on_click(self, event: events.Click) -> None:
        row = round(self.scroll_y) + event.y
        if 0 <= row < self.row_count():
            self.focus_model.move_to(row)
            if event.chain == 2:
                self.action_open()

    def action_open(self) -> None:
        """Enter or a double click: subclasses open the row."""

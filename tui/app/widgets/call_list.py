"""The call list: Textual's Line API over the view, so 100k rows cost what the screen shows.

Only visible rows are formatted; each formatted row is an LRU-cached Strip keyed
by (entry index, width, cursor, marked), so scrolling back over rows is free and
a live append re-renders nothing but the new rows.
"""

from __future__ import annotations

from datetime import tzinfo
from typing import ClassVar

from hooktui.tap.read.view import CallView, Entry
from hooktui.tui.app.widgets.rows import call_row
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip


class CallList(ScrollView, can_focus=True):
    """Rows of the view, newest at the bottom, with a cursor and follow mode."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"call-list--cursor", "call-list--cursor-blurred"}

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "cursor_down", "Down", show=False, id="list.down"),
        Binding("k,up", "cursor_up", "Up", show=False, id="list.up"),
        Binding("g,home", "first", "First", show=False, id="list.first"),
        Binding("G,end", "last", "Last/follow", show=False, id="list.last"),
        Binding("pagedown", "page_down", "Page down", show=False, id="list.page_down"),
        Binding("pageup", "page_up", "Page up", show=False, id="list.page_up"),
        Binding("enter", "open", "Detail", show=False, id="list.open"),
    ]

    class Highlighted(Message):
        """The cursor moved to another entry (or to none)."""

        def __init__(self, call_list: CallList, entry: Entry | None) -> None:
            super().__init__()
            self.call_list = call_list
            self.entry = entry

    class Opened(Message):
        """Enter on a row: the detail pane should take focus."""

        def __init__(self, entry: Entry | None) -> None:
            super().__init__()
            self.entry = entry

    class RowWidth(Message):
        """The rows' width changed (a resize, a scrollbar): column titles follow it."""

        def __init__(self, width: int) -> None:
            super().__init__()
            self.width = width

    class FollowChanged(Message):
        def __init__(self, following: bool) -> None:
            super().__init__()
            self.following = following

    def __init__(
        self,
        view: CallView,
        tz: tzinfo | None = None,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.view = view
        self.tz = tz
        self.cursor = -1  # row in view.shown; -1 when empty
        self.following = True
        self.new_while_paused = 0  # rows added while not following: the "N new" badge
        self._cache: LRUCache[tuple, Strip] = LRUCache(2048)
        self._painted_width = 0
        self._last_key: tuple[int, int] | None = None  # the entry the detail shows
        # The entry the user chose: a filter being typed may hide it for a
        # moment, and the cursor returns to it when it is shown again.
        self._anchor: tuple[int, int] | None = None
        view.on_added.append(self._rows_added)
        view.on_refresh.append(self._view_refreshed)

    # -- the view's signals --------------------------------------------------

    def _rows_added(self, first_row: int, count: int) -> None:
        self._update_virtual_size()
        if self.following:
            self._move(len(self.view) - 1, user=False)
        else:
            self.new_while_paused += count
            if self.cursor < 0:
                self._move(0, user=False)
        self.refresh()

    def _view_refreshed(self) -> None:
        self._cache.clear()
        self._update_virtual_size()
        n = len(self.view)
        if n == 0:
            self.cursor = -1
            self._notify_highlight()
        elif self.following:
            self._move(n - 1, user=False, force=True)
        else:
            row = self.view.row_of(self._anchor) if self._anchor else None
            self._move(n - 1 if row is None else row, user=False, force=True)
        self.refresh()

    def _update_virtual_size(self) -> None:
        self.virtual_size = Size(self._row_width(), len(self.view))

    def _row_width(self) -> int:
        # The region inside the scrollbar: rows never hide under it.
        return self.scrollable_content_region.width or self.size.width

    def on_resize(self, event: events.Resize) -> None:
        self._update_virtual_size()
        if self.following and self.cursor >= 0:
            self.call_after_refresh(self.scroll_end, animate=False, immediate=True)

    # -- rendering -----------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self._row_width()
        if width != self._painted_width:
            self._painted_width = width
            # Not posted from here: during a paint the screen is the active
            # pump, so the message would count as the screen's and stop there.
            self.call_later(self._announce_width, width)
        base = self.rich_style
        if row >= len(self.view) or row < 0:
            return Strip.blank(width, base)
        index = self.view.shown[row]
        entry = self.view.entries[index]
        selected = row == self.cursor
        focused = self.has_focus
        marked = self.view.is_marked(entry)
        key = (index, width, selected and (1 + focused), marked)
        strip = self._cache.get(key)
        if strip is None:
            text = call_row(entry, width, self.tz, marked)
            if selected:
                # Only the background: each column keeps its colour under the cursor.
                component = "call-list--cursor" if focused else "call-list--cursor-blurred"
                cursor = self.get_component_rich_style(component)
                # Under the spans, so a fail-open badge stays red on the cursor row.
                text.style = Style(bgcolor=cursor.bgcolor, bold=focused)
            segments = list(text.render(self.app.console))
            strip = Strip(Segment.apply_style(segments, base), width).crop_extend(0, width, base)
            self._cache[key] = strip
        return strip

    def _announce_width(self, width: int) -> None:
        self.post_message(self.RowWidth(width))

    def on_focus(self) -> None:
        self._refresh_cursor_row()

    def on_blur(self) -> None:
        self._refresh_cursor_row()

    def _refresh_cursor_row(self) -> None:
        if self.cursor >= 0:
            self.refresh_line(self.cursor)

    # -- cursor and follow ---------------------------------------------------

    def set_following(self, on: bool) -> None:
        if on == self.following:
            return
        self.following = on
        if on:
            self.new_while_paused = 0
            if len(self.view):
                self._move(len(self.view) - 1, user=False)
        self.post_message(self.FollowChanged(on))

    def _move(self, row: int, *, user: bool = True, force: bool = False) -> None:
        n = len(self.view)
        if n == 0:
            return
        row = max(0, min(row, n - 1))
        if user and self.following and row < n - 1:
            self.set_following(False)
        old = self.cursor
        self.cursor = row
        entry = self.view.entry(row)
        key = entry.key
        if old != row:
            if 0 <= old < n:
                self.refresh_line(old)
            self.refresh_line(row)
        self.scroll_to_row(row)
        if user:
            self._anchor = key
        if force or key != self._last_key:
            self._last_key = key
            self._notify_highlight()

    def scroll_to_row(self, row: int) -> None:
        height = self.scrollable_content_region.height or self.size.height
        top = round(self.scroll_y)
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False, immediate=True)

    def _notify_highlight(self) -> None:
        entry = self.view.entry(self.cursor) if 0 <= self.cursor < len(self.view) else None
        self.post_message(self.Highlighted(self, entry))

    @property
    def current(self) -> Entry | None:
        if 0 <= self.cursor < len(self.view):
            return self.view.entry(self.cursor)
        return None

    def action_cursor_down(self) -> None:
        # Reaching the bottom does not resume following: G / End does.
        self._move(self.cursor + 1)

    def action_cursor_up(self) -> None:
        self._move(self.cursor - 1)

    def action_first(self) -> None:
        self._move(0)

    def action_last(self) -> None:
        self.set_following(True)
        self._move(len(self.view) - 1, user=False)

    def action_page_down(self) -> None:
        self._move(self.cursor + max(1, self.scrollable_content_region.height - 1))

    def action_page_up(self) -> None:
        self._move(self.cursor - max(1, self.scrollable_content_region.height - 1))

    def action_open(self) -> None:
        self.post_message(self.Opened(self.current))

    def refresh_row_of(self, row: int) -> None:
        """Re-render one row (its mark changed)."""
        self.refresh_line(row)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        # Scrolling back through history stops following, like a pager.
        self.set_following(False)

    async def on_click(self, event: events.Click) -> None:
        row = round(self.scroll_y) + event.y
        if 0 <= row < len(self.view):
            self._move(row)
            if event.chain == 2:
                self.action_open()

"""Watch's call list: the shared LineList over the view model and its Focus (`hooktui.tap.read`).

Its keys act on the selected call: mark it (`m`), copy its record (`c`), and
follow new calls or not (`f`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import tzinfo
from typing import ClassVar

from hooktui.tap.read.focus import Focus
from hooktui.tap.read.lines import read_line_at
from hooktui.tap.read.view import CallView, StreamLine
from hooktui.tui.app.keys import Key
from hooktui.tui.app.widgets.line_list import LineList
from hooktui.tui.present.format import count_of
from hooktui.tui.present.rows import call_row
from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.message import Message


def _no_call(calls: CallList) -> str | None:
    return "no call selected" if calls.current is None else None


class CallList(LineList):
    """Rows of the view, newest at the bottom, with a cursor and follow mode.

    Depends on: the view it shows, the paths its rows were read from (`c` reads
    the record back), and `changed`, the screen's to know marks or follow changed.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Detail", show=False, id="list.open"),
    ]

    KEYS: ClassVar[tuple[Key, ...]] = (
        Key(
            Binding(
                "f",
                "follow",
                "Follow",
                tooltip="follow new calls on/off (scrolling up stops it)",
                id="watch.follow",
            )
        ),
        Key(
            Binding(
                "m", "mark", "Mark", show=False, tooltip="mark the selected call", id="watch.mark"
            ),
            _no_call,
        ),
        Key(
            Binding(
                "c",
                "copy",
                "Copy",
                show=False,  # (the footer keeps room for q at 80 columns; ? and ctrl+p list it)
                tooltip="copy the selected record as JSON (OSC 52)",
                id="watch.copy",
            ),
            _no_call,
        ),
    )

    class Opened(Message):
        """Enter on a row: the detail pane should take focus."""

        def __init__(self, line: StreamLine | None) -> None:
            super().__init__()
            self.line = line

    def __init__(
        self,
        view: CallView,
        tz: tzinfo | None = None,
        *,
        paths: list[str],
        changed: Callable[[], None],
        **kwargs,
    ) -> None:
        super().__init__(Focus(view), **kwargs)
        self.tz = tz
        self.paths = paths
        self._changed = changed

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
        return self.view.is_marked(self.view.line(row))

    def render_row(self, row: int, width: int) -> Text:
        line = self.view.line(row)
        return call_row(
            line, width, self.tz, self.view.is_marked(line), color=not self.app.no_color
        )

    @property
    def new(self) -> int:
        """Shown rows that arrived after following stopped: the header's "N new ↓"."""
        return self.focus_model.new

    # -- the selected line ---------------------------------------------------

    @property
    def current(self) -> StreamLine | None:
        return self.focus_model.line

    def action_open(self) -> None:
        self.post_message(self.Opened(self.current))

    def refresh_row_of(self, row: int) -> None:
        """Re-render one row (its mark changed)."""
        self.refresh_row(row)

    # -- its keys ------------------------------------------------------------

    def action_follow(self) -> None:
        self.set_following(not self.following)
        self._changed()

    def action_mark(self) -> None:
        row = self.cursor
        self.view.toggle_mark(row)
        self.refresh_row_of(row)
        if not self.view.marked_only and row + 1 < len(self.view):
            self.action_move(1)
        self._changed()

    def action_copy(self) -> None:
        self._copy(self.current)

    @work(thread=True, group="copy")
    def _copy(self, chosen: StreamLine) -> None:
        app = self.app
        try:
            line = read_line_at(self.paths[chosen.source], chosen.offset)
        except OSError as exc:
            app.call_from_thread(
                app.notify, f"cannot read the record: {exc.strerror}", severity="error"
            )
            return
        text = line.decode("utf-8", "replace")
        app.call_from_thread(app.copy_to_clipboard, text)
        app.call_from_thread(
            app.notify, f"copied the record ({count_of(len(line), 'byte')}) to the clipboard"
        )

"""The stats header widget and the column titles above the list (their text: header_text)."""

from __future__ import annotations

from collections.abc import Callable

from hooktui.tap.read.view import CallView
from hooktui.tui.present.header import HeaderState, header_text
from hooktui.tui.present.rows import header_row
from rich.text import Text
from textual.widgets import Static


class StatsHeader(Static):
    """Two lines at the top of the watch screen (three when the tap logged errors)."""

    _shown: tuple[CallView, HeaderState] | None = None

    def show(self, view: CallView, state: HeaderState) -> None:
        self._shown = (view, state)
        self.set_class(bool(state.tap_errors), "-tap-errors")
        # Before the first layout (at mount) the header will span the screen: as wide as the app.
        width = self.size.width or self.app.size.width or 120
        self.update(header_text(view, state, width, not self.app.no_color))

    def on_resize(self) -> None:
        if self._shown is not None:
            self.show(*self._shown)


class ColumnHeader(Static):
    """Column titles, laid out for the width the list's rows have."""

    row_width: int | None = None
    # The titles of another list shown in the calls' place (the tool calls), else None.
    titles: Callable[[int], Text] | None = None

    def show(self, row_width: int) -> None:
        self.row_width = row_width
        self.update((self.titles or header_row)(row_width))

    def on_resize(self) -> None:
        # Until the list paints a row (the empty state), the titles span the screen.
        if self.row_width is None:
            self.update((self.titles or header_row)(self.size.width))

"""The replay screen's list: the shared LineList over the shown results (no row cap)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import ClassVar

from hooktui.replay.report import Result
from hooktui.tui.app.replay_tabs import result_cells
from hooktui.tui.app.widgets.line_list import LineList
from hooktui.tui.app.widgets.rows import cells_row
from hooktui.tui.cli.columns import REPLAY_COLUMNS
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import var


class ResultList(LineList):
    """Rows of `shown` (results in session order); the screen refills it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Detail", tooltip="detail pane on/off", id="replay.detail"),
    ]

    class Opened(Message):
        """Enter or a double click on a row."""

    following: var[bool] = var(False)  # a replay is read from the top

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.shown: list[Result] = []

    def row_count(self) -> int:
        return len(self.shown)

    def row_key(self, row: int) -> Hashable:
        return self.shown[row].index

    def row_of(self, key: Hashable) -> int | None:
        for row, r in enumerate(self.shown):
            if r.index == key:
                return row
        return None

    def render_row(self, row: int, width: int) -> Text:
        cells = result_cells(self.shown[row], color=not self.app.no_color)
        return cells_row(REPLAY_COLUMNS, width, cells)

    @property
    def current(self) -> Result | None:
        return self.shown[self.cursor] if 0 <= self.cursor < len(self.shown) else None

    def action_open(self) -> None:
        self.post_message(self.Opened())

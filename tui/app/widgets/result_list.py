"""The replay screen's list: the shared LineList over the shown results (no row cap)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from hooktui.replay.report import Result
from hooktui.tap.read.focus import Focus
from hooktui.tui.app.widgets.keyed_rows import KeyedRows
from hooktui.tui.app.widgets.line_list import LineList
from hooktui.tui.present.columns import REPLAY_COLUMNS
from hooktui.tui.present.replay_tabs import result_cells
from hooktui.tui.present.rows import cells_row
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message


class ResultList(LineList):
    """Results in session order (keyed by their index); the screen fills `results`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "open",
            "Detail",
            tooltip="into the detail pane, to scroll it (enter or esc goes back)",
            id="replay.detail",
        ),
    ]

    class Opened(Message):
        """Enter or a double click on a row."""

    def __init__(self, visible: Callable[[Result], bool] | None = None, **kwargs) -> None:
        self.results = KeyedRows(visible)
        focus = Focus(self.results)
        focus.set_following(False)  # a replay is read from the top
        super().__init__(focus, **kwargs)

    def render_row(self, row: int, width: int) -> Text:
        cells = result_cells(self.results.item(row), color=not self.app.no_color)
        return cells_row(REPLAY_COLUMNS, width, cells)

    @property
    def shown(self) -> list[Result]:
        return self.results.items()

    @property
    def current(self) -> Result | None:
        row = self.focus_model.selected_row
        return None if row is None else self.results.item(row)

    def action_open(self) -> None:
        self.post_message(self.Opened())

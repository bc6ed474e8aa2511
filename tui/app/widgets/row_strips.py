"""The rows a LineList draws, as strips cached by what changes their look.

Only visible rows are drawn; each drawn row is kept (LRU) under its key, width,
cursor, focus and whatever else the list says changes it (a mark), so scrolling
back is free and an append draws only the new rows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.strip import Strip

if TYPE_CHECKING:
    from hooktui.tui.app.widgets.line_list import LineList

KEPT = 2048  # strips kept: a few screens of rows at a few widths


class RowStrips:
    """The drawn rows of one list.

    Depends on: the list (what row i says, `render_row`; what else changes its
    look, `row_look`; the row's key in its view; the cursor's styles).
    """

    def __init__(self, rows: LineList) -> None:
        self.rows = rows
        self._cache: LRUCache[tuple, Strip] = LRUCache(KEPT)

    def clear(self) -> None:
        """Every row may look different now (the rows were replaced)."""
        self._cache.clear()

    def strip(self, row: int, width: int, selected: bool, focused: bool, base: Style) -> Strip:
        rows = self.rows
        key = (rows.view.key_at(row), width, selected and (1 + focused), rows.row_look(row))
        strip = self._cache.get(key)
        if strip is None:
            strip = self._cache[key] = self._draw(row, width, selected, focused, base)
        return strip

    def _draw(self, row: int, width: int, selected: bool, focused: bool, base: Style) -> Strip:
        rows = self.rows
        try:
            text = rows.render_row(row, width)
        except Exception as exc:  # one odd record must never take the app down
            text = Text(f"✗ cannot show this row: {exc!r}", style="red", no_wrap=True, end="")
            text.truncate(width, pad=True)
        if selected:
            # Only the background: each column keeps its colour under the cursor.
            component = "line-list--cursor" if focused else "line-list--cursor-blurred"
            cursor = rows.get_component_rich_style(component)
            # Under the spans, so a fail-open badge keeps its own colours on the cursor row.
            text.style = Style(bgcolor=cursor.bgcolor, bold=focused, reverse=cursor.reverse)
        segments = list(text.render(rows.app.console))
        return Strip(Segment.apply_style(segments, base), width).crop_extend(0, width, base)

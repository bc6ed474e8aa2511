"""Rows as Rich Text, laid out by the shared column spec (`hooktui.tui.present.columns`).

Pure functions (no widget state), so the column titles, the list rows of watch
and replay, and the tests all use one layout.
"""

from __future__ import annotations

from datetime import tzinfo
from types import SimpleNamespace

from hooktui.tap.model import RecordHead
from hooktui.tap.read.view import StreamLine
from hooktui.tui.present.columns import (
    TIME,
    WATCH_COLUMNS,
    Cell,
    Column,
    head_cells,
    layout,
    short,
)
from hooktui.tui.present.format import BAD_LINE_STYLE, MARK_MARK
from hooktui.tui.present.held import held_mark
from rich.style import Style
from rich.text import Text

MARKED = Style(color="bright_cyan", bold=True)
GAP = 1


def _cell(text: str, width: int, style: Style | str | None = "", right: bool = False) -> Text:
    cell = Text(text, style=style or "", no_wrap=True, end="")
    cell.truncate(width, overflow="ellipsis")
    pad = width - cell.cell_len
    if pad > 0:
        if right:
            cell = Text(" " * pad, end="") + cell
        else:
            cell.append(" " * pad)
    return cell


def _join(parts: list[Text], width: int) -> Text:
    line = Text(" " * GAP, no_wrap=True, end="").join(parts)
    line.truncate(width, pad=True)
    return line


def titles_row(columns: tuple[Column, ...], width: int) -> Text:
    """The column titles, aligned with the rows of that width."""
    return _join(
        [_cell(c.title, w, right=c.justify == "right") for c, w in layout(columns, width, GAP)],
        width,
    )


def cells_row(columns: tuple[Column, ...], width: int, cells: dict[str, Cell | Text]) -> Text:
    """One row: each column's cell cut or padded to its width (Text cells keep their spans)."""
    parts = []
    for column, w in layout(columns, width, GAP):
        cell = cells.get(column.name, ("", None))
        if isinstance(cell, Text):
            cell = cell.copy()
            cell.no_wrap = True
            cell.end = ""
            cell.truncate(w, overflow="ellipsis", pad=True)
            parts.append(cell)
        else:
            parts.append(_cell(cell[0], w, cell[1], right=column.justify == "right"))
    return _join(parts, width)


def header_row(width: int) -> Text:
    return titles_row(WATCH_COLUMNS, width)


def call_row(
    line: StreamLine, width: int, tz: tzinfo | None, marked: bool, color: bool = True
) -> Text:
    """The watch row for one stream line, exactly `width` cells wide."""
    head = line.head
    mark = (MARK_MARK if marked else " ", MARKED)
    millis = TIME.width_at(width) >= 12  # the wide time column has room for them
    if not isinstance(head, RecordHead):
        message = f"✗ bad line at byte {line.offset}: {short(head.error)} │ {short(head.preview)}"
        time_width = TIME.width_at(width)
        rest = max(0, width - 1 - time_width - 2 * GAP)
        parts = [
            _cell(mark[0], 1, mark[1]),
            _cell("--:--:--", time_width, Style(dim=True)),
            _cell(message, rest, BAD_LINE_STYLE if color else Style(italic=True, bold=True)),
        ]
        return _join(parts, width)
    cells = dict(head_cells(head, tz, millis, color))
    cells["mark"] = mark
    summary = Text(cells["summary"][0], no_wrap=True, end="")
    if head.reason and head.summary:
        # The hook's reason beside the input: why it was denied, at a glance.
        summary.append(f"  {short(head.reason)}", style=Style(dim=True))
    elif head.said and not head.reason:
        # A crashed hook gives no reason: what it printed last is why (show's column too).
        summary.append(f"  stderr: {short(head.said)}", style=Style(dim=True))
    held = held_mark(head)  # held at a breakpoint: say what became of it, first
    if held:
        summary = Text.assemble((held + " ", HELD), summary, no_wrap=True, end="")
    cells["summary"] = summary
    return cells_row(WATCH_COLUMNS, width, cells)


HELD = Style(color="yellow", bold=True)


def columns_for(width: int) -> SimpleNamespace:
    """Each watch column's width at `width` (0: hidden), by name; `millis` when times show them."""
    widths = {column.name: 0 for column in WATCH_COLUMNS}
    widths.update((column.name, w) for column, w in layout(WATCH_COLUMNS, width, GAP))
    return SimpleNamespace(**widths, millis=TIME.width_at(width) >= 12)

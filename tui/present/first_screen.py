"""`hooktui watch`'s first screen, as text: what the app's first frame shows, drawn before
Textual loads.

Python and Textual take about half a second to start, while the newest calls sit
in the stream's last few hundred KiB. So the command (`tui/cli/watch_first.py`)
reads that tail first (`First`), and draws this screen to the terminal's alternate
screen; the app takes the same tail over and redraws the screen in place.

The text comes from the same functions the app's widgets use (`header_text`,
`header_row`, `call_row`): the two screens cannot drift in what they say. What
this module adds is the geometry (where the list sits), the footer's keys and the
colours of each part, all checked against the app in tests/tui/test_watch_first.py,
in a real terminal. Rich only, and no Rich Console: its import costs more than the
rest of this screen.
"""

from __future__ import annotations

import os
import time
from datetime import tzinfo
from typing import NamedTuple

from hooktui.tap.base.stream import error_log_path
from hooktui.tap.read.index_load import Tail
from hooktui.tap.read.view import CallView
from hooktui.tui.present.format import display_path
from hooktui.tui.present.header import HeaderState, header_text
from hooktui.tui.present.rows import call_row, header_row
from rich.color import ColorSystem
from rich.style import Style
from rich.text import Text

# The detail pane's share of the body when the app starts (WatchBody.detail_share).
DETAIL_SHARE = 45
# The keys the footer shows, in its order (WATCH_BINDINGS with show=True), and the palette's.
FOOTER_KEYS = (
    ("?", "Help"),
    ("/", "Filter"),
    ("z", "Zoom"),
    ("%", "Patterns"),
    ("f", "Follow"),
    ("p", "Pause"),
    ("w", "Write"),
    ("q", "Quit"),
)
PALETTE_KEY = "▏^p palette"
# The footer is compact (no space around each key) under this width (WatchScreen.on_resize).
COMPACT_BELOW = 100

# The app's colours (textual-dark) for each part, so that the screen does not change
# colour when the app takes over; tests/tui/test_watch_first.py checks each against the app.
SCREEN = Style(color="#e0e0e0", bgcolor="#121212")
HEADER = Style(color="#e0e0e0", bgcolor="#242f38")
COLUMNS = Style(color="#a3a3a3", bgcolor="#1b1b1b", bold=True)
FOOTER = HEADER
FOOTER_KEY = Style(color="#ffa62b", bold=True)
# The focused list's cursor row ($primary at 55%), bold; without colour, reverse video.
CURSOR = Style(bgcolor="#084a7c", bold=True)
NO_COLOR_CURSOR = Style(bold=True, reverse=True)


class First(NamedTuple):
    """What the command read before the app: one stream's newest lines, its tap error count."""

    tail: Tail
    tap_errors: int


def list_box(height: int, header_lines: int) -> tuple[int, int]:
    """(first screen line, lines) of the call list: below the header and the column titles,
    above the detail pane (DETAIL_SHARE of the body) and the footer."""
    body = height - header_lines - 1 - 1
    detail = body * DETAIL_SHARE // 100
    return header_lines + 1, body - detail


def row_width(rows: int, width: int, height: int, header_lines: int) -> int:
    """The width the list draws `rows` rows at: one column less once its scrollbar shows."""
    return width - 1 if rows > list_box(height, header_lines)[1] else width


def footer_line(width: int) -> Text:
    """The footer's keys as the app's Footer lays them out, the palette key at the right."""
    compact = width < COMPACT_BELOW
    line = Text(no_wrap=True, end="")
    for key, description in FOOTER_KEYS:
        if compact:
            line.append(key, style=FOOTER_KEY)
            line.append(f" {description} ")
        else:
            line.append(f" {key} ", style=FOOTER_KEY)
            line.append(f"{description} ")
    if compact:
        line.rstrip()
    room = width - line.cell_len - len(PALETTE_KEY) - 1  # the Footer pads it
    if room > 0:
        line.append(" " * room)
        line.append(PALETTE_KEY)
    line.truncate(width)
    return line


class Screen(NamedTuple):
    """The first screen: its lines, from the top, and where the list sits."""

    lines: list[Text]
    list_top: int
    list_rows: int


def first_screen(
    first: First, path: str, tz: tzinfo | None, width: int, height: int, color: bool
) -> Screen | None:
    """What the app's first frame shows, or None when it would show no rows or has no room."""
    view = CallView([path])
    view.replace_all(first.tail.batch)
    if not len(view):
        return None  # the app shows its empty state instead
    errors = [(display_path(error_log_path(path)), first.tap_errors)] if first.tap_errors else []
    state = HeaderState(
        title=display_path(path),
        indexing=0.0 if first.tail.start else None,
        tap_errors=errors,
        now=time.time(),  # drawn only when following: rates end at the clock
    )
    header = header_text(view, state, width, color).split("\n")
    top, rows = list_box(height, len(header))
    if rows < 1:
        return None
    lines = [_under(Text(" " * width), SCREEN) for _ in range(height)]
    for y, line in enumerate(header):
        lines[y] = _under(line, HEADER, width)
    cells = row_width(len(view), width, height, len(header))
    lines[top - 1] = _under(header_row(cells), COLUMNS, width)
    shown = min(rows, len(view))
    newest = len(view) - 1
    for y, row in enumerate(range(len(view) - shown, len(view))):
        text = call_row(view.line(row), cells, tz, marked=False, color=color)
        if row == newest:  # the cursor, as the focused list draws it
            look = SCREEN + CURSOR if color else NO_COLOR_CURSOR
        else:
            look = SCREEN
        lines[top + y] = _under(text, look, width)
    lines[height - 1] = _under(footer_line(width), FOOTER, width)
    return Screen(lines, top, rows)


def _under(text: Text, style: Style, width: int = 0) -> Text:
    """`text` over `style` (its spans keep theirs), padded to `width` in that style."""
    text.style = style + _style(text.style)
    if width > text.cell_len:
        text.append(" " * (width - text.cell_len))
    return text


def to_ansi(screen: Screen, color: bool) -> str:
    """The screen as terminal output: enter the alternate screen, clear it, draw each line.

    Not through a Rich Console (its import costs more than the rest of this
    screen): each stretch of a line with one style, that style rendered by Rich.
    """
    system = color_system(os.environ) if color else ColorSystem.STANDARD
    out = ["\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J"]  # alternate screen, no cursor, cleared
    for y, text in enumerate(screen.lines):
        out.append(f"\x1b[{y + 1};1H")
        out.append(ansi_line(text, system, color))
    return "".join(out)


def color_system(environ) -> ColorSystem:
    """The colours a terminal takes, as a Rich Console (Textual's too) finds it on POSIX."""
    if environ.get("COLORTERM", "").strip().lower() in ("truecolor", "24bit"):
        return ColorSystem.TRUECOLOR
    colors = environ.get("TERM", "").strip().lower().rpartition("-")[2]
    return ColorSystem.EIGHT_BIT if colors in ("256color", "kitty") else ColorSystem.STANDARD


def ansi_line(text: Text, system: ColorSystem, color: bool = True) -> str:
    """One Text as SGR sequences: its style, then its spans in order, over each stretch."""
    plain = text.plain
    base = _style(text.style)
    spans = [(span.start, span.end, _style(span.style)) for span in text.spans]
    cuts = sorted({0, len(plain), *(a for a, _, _ in spans), *(b for _, b, _ in spans)})
    parts = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        style = base
        for start, end, extra in spans:
            if start <= a and b <= end:
                style = style + extra
        if not color:
            style = style.without_color
        parts.append(style.render(plain[a:b], color_system=system))
    return "".join(parts)


def _style(style: str | Style) -> Style:
    return Style.parse(style) if isinstance(style, str) else style

"""One column spec for every table of calls: watch rows, replay rows and `show` rows.

Pure data and rich-only helpers (no Textual), so `show` can import it. A column
says how wide it is at a given terminal width (`steps`), how it is aligned, and
which column takes what is left (`flex`). `layout` turns a column list and a
width into (column, cells) pairs; the cell values come from `head_cells` (a
recorded call) and the replay screen's own cells (a replayed one).
"""

from __future__ import annotations

import math
from datetime import tzinfo
from typing import NamedTuple

from hooktui.tap.model import RecordHead
from hooktui.tui.cli.format import (
    FAIL_OPEN_MARK,
    NEAR_TIMEOUT_MARK,
    decision_style,
    effective_timeout_ms,
    format_latency,
    format_time,
    is_fail_open,
    latency_style,
    near_timeout,
    one_line,
    short_event,
    short_runtime,
)
from hooktui.tui.cli.palette import FAIL_OPEN, PALETTE, UNKNOWN
from rich.style import Style

# A cell: its text and style (None: the row's own).
Cell = tuple[str, Style | None]


class Column(NamedTuple):
    name: str
    title: str
    # (from this terminal width on, this many cells), ascending; hidden below the first.
    steps: tuple[tuple[int, int], ...] = ((0, 0),)
    justify: str = "left"
    flex: bool = False  # takes the width the others leave

    def width_at(self, total: int) -> int:
        width = 0
        for start, cells in self.steps:
            if total >= start:
                width = cells
        return width


MARK = Column("mark", "", ((0, 1),))
TIME = Column("time", "time", ((0, 8), (150, 12)))
RUNTIME = Column("runtime", "runtime", ((100, 8),))
EVENT = Column("event", "event", ((0, 7),))
HOOK = Column("hook", "hook", ((120, 12), (150, 16), (180, 22)))
TOOL = Column("tool", "tool", ((0, 10), (150, 14), (180, 20)))
SUMMARY = Column("summary", "summary", flex=True)
DECISION = Column("decision", "decision", ((0, 9), (150, 12)))
LATENCY = Column("latency", "latency", ((0, 8),), justify="right")
# Replay: the session line, the recorded and replayed verdicts, and what changed.
LINE = Column("line", "line", ((0, 5),), justify="right")
BEFORE = Column("before", "before", ((0, 11), (150, 16)))
AFTER = Column("after", "after", ((0, 11), (150, 16)))
RESULT = Column("result", "result", ((0, 13), (120, 22)))
REPLAY_TOOL = Column("tool", "tool", ((0, 10), (120, 14), (180, 20)))
STREAM = Column("stream", "stream", ((120, 10), (180, 16)))

WATCH_COLUMNS = (MARK, TIME, RUNTIME, EVENT, HOOK, TOOL, SUMMARY, DECISION, LATENCY)
REPLAY_COLUMNS = (LINE, RUNTIME, REPLAY_TOOL, BEFORE, AFTER, RESULT, SUMMARY)
# `show` prints the watch columns (plus which stream, when several are merged).
SHOW_COLUMNS = (TIME, STREAM, RUNTIME, EVENT, HOOK, TOOL, SUMMARY, DECISION, LATENCY)


def layout(columns: tuple[Column, ...], total: int, gap: int = 1) -> list[tuple[Column, int]]:
    """The shown columns and their widths; the flex column takes the rest (maybe 0)."""
    shown = [(c, c.width_at(total)) for c in columns]
    shown = [(c, w) for c, w in shown if w or c.flex]
    fixed = sum(w for _, w in shown) + gap * (len(shown) - 1)
    rest = max(0, total - fixed)
    return [(c, rest if c.flex else w) for c, w in shown]


# Without colour (NO_COLOR), each decision keeps a look of its own: a symbol
# and a weight, so deny, modify and a bypassed guard never read alike.
NO_COLOR_MARKS = {d: look.symbol for d, look in PALETTE.items()}
NO_COLOR_STYLES = {d: look.style(color=False) for d, look in PALETTE.items()}


def decision_cell(decision: str, effect: str = "", failure: str = "", color: bool = True) -> Cell:
    """The decision as a row shows it: a fail-open failure carries its warning mark."""
    fail_open = is_fail_open(decision, effect)
    label = decision
    if decision == "failure" and failure:
        label = f"{decision} {failure}"
    if color:
        if fail_open:
            label = f"{FAIL_OPEN_MARK} {label}"
        return label, decision_style(decision, fail_open)
    if fail_open:
        return f"{FAIL_OPEN_MARK} {label}", FAIL_OPEN.style(color=False)
    mark = NO_COLOR_MARKS.get(decision, "·")
    return f"{mark} {label}", NO_COLOR_STYLES.get(decision, UNKNOWN.style(color=False))


def time_cell(head: RecordHead, tz: tzinfo | None, millis: bool) -> Cell:
    # One clock: rows are in the order hooks answered, so they show that time.
    from hooktui.tap.read.reader import end_time

    try:
        text = format_time(end_time(head), tz, millis)
    except (OverflowError, ValueError, OSError):
        # Year 1 or 9999 with an offset: no wall-clock time here, never fatal.
        text = format_time(math.nan, tz, millis)
    return text, Style(dim=True)


def latency_cell(head: RecordHead) -> Cell:
    timeout = effective_timeout_ms(head.runtime, head.hook.timeout_ms)
    close = near_timeout(head.duration_ms, timeout) or head.timed_out
    text = format_latency(head.duration_ms)
    style = latency_style(head.duration_ms)
    if close:
        text = f"{NEAR_TIMEOUT_MARK}{text}"
        style = style + Style(bold=True, reverse=True)
    return text, style


# The longest slice of a field a row ever looks at: a 20 MB summary is cut
# before it is cleaned or measured, so one record never stalls a screen.
ROW_CHARS = 512


def short(text: str, limit: int = ROW_CHARS) -> str:
    return one_line(text[:limit])


def head_cells(
    head: RecordHead, tz: tzinfo | None = None, millis: bool = False, color: bool = True
) -> dict[str, Cell]:
    """Every column's cell for one recorded call."""
    return {
        "time": time_cell(head, tz, millis),
        "runtime": (short(short_runtime(head.runtime), 64), Style(color="cyan")),
        "event": (short(short_event(head.event), 64), None),
        "hook": (short(head.hook.label, 128), Style(dim=True)),
        "tool": (short(head.tool_name, 128), Style(bold=True)),
        "summary": (short(head.summary or head.reason), None),
        "decision": decision_cell(head.decision, head.effect, color=color),
        "latency": latency_cell(head),
    }

"""One column spec for every table of calls: watch rows, replay rows and `show` rows.

Pure data and rich-only helpers (no Textual), so `show` can import it. A column
says how wide it is at a given terminal width (`steps`), how it is aligned, and
whether it takes what the others leave (`flex`, at least `min` cells). When the
flex columns lack room, columns with a `drop` rank give theirs up, lowest rank
first. `layout` turns a column list and a width into (column, cells) pairs;
with no width (a pipe, a CI log) every column takes its width at PIPE_WIDTH,
a flex column its `pipe` width, and nothing is ever cut. The cell values come
from `head_cells` (a recorded call) and the replay screen's own cells (a
replayed one).
"""

from __future__ import annotations

import math
from datetime import tzinfo
from typing import NamedTuple

from hooktui.tap.canonical import fails_open
from hooktui.tap.model import RecordHead
from hooktui.tui.present.format import (
    FAIL_OPEN_MARK,
    NEAR_TIMEOUT_MARK,
    decision_style,
    effective_timeout_ms,
    format_latency,
    format_time,
    latency_style,
    near_timeout,
    one_line,
    short_event,
    short_runtime,
)
from hooktui.tui.present.palette import FAIL_OPEN, PALETTE, UNKNOWN, look
from rich.color import Color
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
    min: int = 0  # a flex column's narrowest useful width
    drop: int = 0  # given up for the flex columns' room, lowest first (0: never)
    pipe: int = 0  # a flex column's width in a pipe (0: as long as its text)

    def width_at(self, total: int) -> int:
        width = 0
        for start, cells in self.steps:
            if total >= start:
                width = cells
        return width


MARK = Column("mark", "", ((0, 1),))
# When each hook answered: the time rows are ordered by, so titled (the detail's too).
TIME = Column("time", "answered", ((0, 8), (150, 12)), drop=6)
RUNTIME = Column("runtime", "runtime", ((100, 8),), drop=2)
EVENT = Column("event", "event", ((0, 7),), drop=5)
HOOK = Column("hook", "hook", ((120, 12), (150, 16), (180, 22), (240, 30)), drop=3)
TOOL = Column("tool", "tool", ((0, 10), (150, 14), (180, 20), (240, 24)))
SUMMARY = Column("summary", "summary", flex=True, min=20, pipe=50)
# Wide enough for what failed ("⚠ invalid_json"), not only that something did.
DECISION = Column("decision", "decision", ((0, 14), (150, 16)))
NEAR_TIMEOUT_TEXT = Color.from_rgb(0, 0, 0)
LATENCY = Column("latency", "latency", ((0, 8),), justify="right")
# `show`: the hook's reason, or the last line a failure printed.
WHY = Column("why", "why", flex=True, min=16, drop=4)
# Replay: the session line, the recorded and replayed verdicts, and what changed.
LINE = Column("line", "line", ((0, 5),), justify="right")
BEFORE = Column("before", "before", ((0, 11), (150, 16)))
AFTER = Column("after", "after", ((0, 11), (150, 16)))
RESULT = Column("result", "result", ((0, 13), (120, 22)))
REPLAY_TOOL = Column("tool", "tool", ((0, 10), (120, 14), (180, 20)))
STREAM = Column("stream", "stream", ((0, 10), (180, 16)), drop=1)

# The patterns view: one row per group of calls (sortable by each column).
GROUP_NAME = Column("name", "group", flex=True, min=10)
GROUP_GAP = Column("gap", "", ((0, 1),))  # air between the numbers and the names
GROUP_COUNT = Column("count", "calls", ((0, 9),), justify="right")
GROUP_DENY = Column("deny", "deny", ((0, 8),), justify="right")
GROUP_FAIL_OPEN = Column("fail_open", "fail-open", ((0, 11),), justify="right")
GROUP_P95 = Column("p95", "p95", ((0, 9),), justify="right")

WATCH_COLUMNS = (MARK, TIME, RUNTIME, EVENT, HOOK, TOOL, SUMMARY, DECISION, LATENCY)
REPLAY_COLUMNS = (LINE, RUNTIME, REPLAY_TOOL, BEFORE, AFTER, RESULT, SUMMARY)
# The numbers first, the group's name (a reason can be long) takes the rest.
GROUP_COLUMNS = (MARK, GROUP_COUNT, GROUP_DENY, GROUP_FAIL_OPEN, GROUP_P95, GROUP_GAP, GROUP_NAME)
# `show` prints the watch columns, which stream (when several are merged) and why.
SHOW_COLUMNS = (TIME, STREAM, RUNTIME, EVENT, HOOK, TOOL, SUMMARY, DECISION, LATENCY, WHY)

# With no width to fit (a pipe), columns are as wide as on a terminal this wide.
PIPE_WIDTH = 150


def layout(
    columns: tuple[Column, ...], total: int | None, gap: int = 1
) -> list[tuple[Column, int]]:
    """The shown columns and their widths; flex columns share the rest (maybe 0).

    `total=None` (a pipe): every column, at its width on a PIPE_WIDTH terminal
    (a flex column at its `pipe` width); the caller never cuts a cell then.
    """
    if total is None:
        return [(c, c.pipe if c.flex else c.width_at(PIPE_WIDTH)) for c in columns]
    shown = [(c, c.width_at(total)) for c in columns]
    shown = [(c, w) for c, w in shown if w or c.flex]
    while True:
        fixed = sum(w for c, w in shown if not c.flex) + gap * (len(shown) - 1)
        rest = max(0, total - fixed)
        flex = [c for c, _ in shown if c.flex]
        droppable = [c for c, _ in shown if c.drop]
        if rest >= sum(c.min for c in flex) or not droppable:
            break
        victim = min(droppable, key=lambda c: c.drop)
        shown = [(c, w) for c, w in shown if c is not victim]
    shares = _share(rest, flex)
    return [(c, shares[c.name] if c.flex else w) for c, w in shown]


def _share(rest: int, flex: list[Column]) -> dict[str, int]:
    """Each flex column's part of `rest`: its minimum first (in order), the surplus evenly."""
    widths: dict[str, int] = {}
    left = rest
    for c in flex:
        widths[c.name] = min(c.min, left)
        left -= widths[c.name]
    for i, c in enumerate(flex):
        part = left // (len(flex) - i)
        widths[c.name] += part
        left -= part
    return widths


# Without colour (NO_COLOR), each decision keeps a look of its own: a symbol
# and a weight, so deny, modify and a bypassed guard never read alike.
NO_COLOR_MARKS = {d: look.symbol for d, look in PALETTE.items()}
NO_COLOR_STYLES = {d: look.style(color=False) for d, look in PALETTE.items()}


def decision_cell(decision: str, effect: str = "", failure: str = "", color: bool = True) -> Cell:
    """The decision as a row shows it: a fail-open failure carries its warning mark."""
    fail_open = fails_open(decision, effect)
    # What failed says more than "failure" (the `failure:` filter term's words).
    label = short(failure if decision == "failure" and failure else decision, 64)
    if color:
        if fail_open or decision == "failure":
            # Named by what failed, so the symbol says it is a failure (⚠: let through).
            label = f"{look(decision, fail_open).symbol} {label}"
        return label, decision_style(decision, fail_open)
    if fail_open:
        return f"{FAIL_OPEN_MARK} {label}", FAIL_OPEN.style(color=False)
    mark = NO_COLOR_MARKS.get(decision, "·")
    return f"{mark} {label}", NO_COLOR_STYLES.get(decision, UNKNOWN.style(color=False))


def time_cell(head: RecordHead, tz: tzinfo | None, millis: bool) -> Cell:
    # One clock: rows are in the order hooks answered, so they show that time.
    from hooktui.tap.read.merge import end_time

    try:
        text = format_time(end_time(head), tz, millis)
    except (OverflowError, ValueError, OSError):
        # Year 1 or 9999 with an offset: no wall-clock time here, never fatal.
        text = format_time(math.nan, tz, millis)
    return text, Style(dim=True)


def latency_cell(head: RecordHead) -> Cell:
    timeout = effective_timeout_ms(head.runtime, head.hook.timeout_ms, head.native_event)
    close = near_timeout(head.duration_ms, timeout) or head.timed_out
    text = format_latency(head.duration_ms)
    style = latency_style(head.duration_ms)
    if close:
        text = f"{NEAR_TIMEOUT_MARK}{text}"
        style = near_timeout_style(head.duration_ms)
    return text, style


def near_timeout_style(ms: float) -> Style:
    """Black on the latency's colour, bold: a call that came close to its timeout.

    Not reversed: reversed, its text took the row's background (on the cursor's
    blue, 3.45:1); black on the gradient's salmon is 7.9:1, and its grey under NO_COLOR.
    """
    return Style(color=NEAR_TIMEOUT_TEXT, bgcolor=latency_style(ms).color, bold=True)


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
        "decision": decision_cell(head.decision, head.effect, head.failure, color),
        "latency": latency_cell(head),
    }

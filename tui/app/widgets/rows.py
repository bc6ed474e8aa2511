"""One call list row as Rich Text: the column layout for a given width.

Pure functions (no widget state), so the column header, the list rows and the
tests all use one layout.
"""

from __future__ import annotations

from datetime import tzinfo
from typing import NamedTuple

from hooktui.tap.model import RecordHead
from hooktui.tap.read.view import Entry
from hooktui.tui.cli.format import (
    BAD_LINE_STYLE,
    MARK_MARK,
    NEAR_TIMEOUT_MARK,
    decision_label,
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
from rich.style import Style
from rich.text import Text

DIM = Style(dim=True)
MARKED = Style(color="bright_cyan", bold=True)


class Columns(NamedTuple):
    """Widths of each column (0: hidden) for one terminal width."""

    time: int
    runtime: int
    event: int
    hook: int
    tool: int
    summary: int
    decision: int
    latency: int
    millis: bool


# mark + the gaps between the shown columns are added separately.
def columns_for(width: int) -> Columns:
    millis = width >= 150
    time_w = 12 if millis else 8
    runtime_w = 8 if width >= 100 else 0
    hook_w = 22 if width >= 180 else 16 if width >= 150 else 12 if width >= 120 else 0
    tool_w = 20 if width >= 180 else 14 if width >= 150 else 10
    event_w, decision_w, latency_w = 7, 9, 8
    fixed = [time_w, runtime_w, event_w, hook_w, tool_w, decision_w, latency_w]
    used = 2 + sum(fixed) + sum(1 for w in fixed if w)  # mark+space, one gap per column
    summary_w = max(0, width - used)
    return Columns(
        time_w, runtime_w, event_w, hook_w, tool_w, summary_w, decision_w, latency_w, millis
    )


def _cell(text: str, width: int, style: Style | str = "", right: bool = False) -> Text:
    cell = Text(one_line(text), style=style, no_wrap=True, end="")
    cell.truncate(width, overflow="ellipsis")
    pad = width - cell.cell_len
    if pad > 0:
        if right:
            cell = Text(" " * pad, end="") + cell
        else:
            cell.append(" " * pad)
    return cell


def header_row(width: int) -> Text:
    cols = columns_for(width)
    parts = [Text("  ", end="")]
    for title, w, right in (
        ("time", cols.time, False),
        ("runtime", cols.runtime, False),
        ("event", cols.event, False),
        ("hook", cols.hook, False),
        ("tool", cols.tool, False),
        ("summary", cols.summary, False),
        ("decision", cols.decision, False),
        ("latency", cols.latency, True),
    ):
        if w:
            parts.append(_cell(title, w, right=right))
            parts.append(Text(" ", end=""))
    line = Text("", no_wrap=True, end="").join(parts)
    line.truncate(width, pad=True)
    return line


def call_row(entry: Entry, width: int, tz: tzinfo | None, marked: bool) -> Text:
    """The row for one entry, exactly `width` cells wide."""
    cols = columns_for(width)
    head = entry.head
    parts = [Text(MARK_MARK if marked else " ", style=MARKED, end=""), Text(" ", end="")]
    parts.append(_cell(format_time(entry.t, tz, cols.millis), cols.time, DIM))
    parts.append(Text(" ", end=""))
    if not isinstance(head, RecordHead):
        rest = width - 2 - cols.time - 1
        message = f"✗ bad line at byte {entry.offset}: {head.error} │ {head.preview}"
        parts.append(_cell(message, max(0, rest), BAD_LINE_STYLE))
        line = Text("", no_wrap=True, end="").join(parts)
        line.truncate(width, pad=True)
        return line

    fail_open = is_fail_open(head.decision, head.effect)
    timeout = effective_timeout_ms(head.runtime, head.hook.timeout_ms)
    close = near_timeout(head.duration_ms, timeout) or head.timed_out
    summary = head.summary or head.reason
    if cols.runtime:
        parts += [_cell(short_runtime(head.runtime), cols.runtime, "cyan"), Text(" ", end="")]
    parts += [_cell(short_event(head.event), cols.event), Text(" ", end="")]
    if cols.hook:
        parts += [_cell(head.hook.label, cols.hook, DIM), Text(" ", end="")]
    parts += [_cell(head.tool_name, cols.tool, "bold"), Text(" ", end="")]
    if cols.summary:
        cell = Text(one_line(summary), no_wrap=True, end="")
        if head.reason and head.summary:
            # The hook's reason beside the input: why it was denied, at a glance.
            cell.append(f"  {one_line(head.reason)}", style=DIM)
        cell.truncate(cols.summary, overflow="ellipsis", pad=True)
        parts += [cell, Text(" ", end="")]
    parts += [
        _cell(
            decision_label(head.decision, head.effect),
            cols.decision,
            decision_style(head.decision, fail_open),
        ),
        Text(" ", end=""),
    ]
    latency = format_latency(head.duration_ms)
    if close:
        latency = f"{NEAR_TIMEOUT_MARK}{latency}"
    lat_style = latency_style(head.duration_ms)
    if close:
        lat_style = lat_style + Style(bold=True, reverse=True)
    parts.append(_cell(latency, cols.latency, lat_style, right=True))
    line = Text("", no_wrap=True, end="").join(parts)
    line.truncate(width, pad=True)
    return line

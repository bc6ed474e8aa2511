"""Watch's tool-call rows: one row per tool call, and its hook calls beneath it when open.

A call row: when its first hook started, runtime, tool, the outcome its hooks came to
by the runtime's rule, how many hooks answered, its conflicts, what it ran. A hook
row, in the same columns: its event, its label (★ on the hook whose answer the call
took), its own answer, its latency, its part in the call (`role`), its reason.
Rich only, laid out by the shared column spec, so the titles and rows agree.
"""

from __future__ import annotations

import math
import os
from datetime import tzinfo

from hooktui.tap.read.merge import parse_ts
from hooktui.tap.toolcall.model import HookPart, ToolCall
from hooktui.tui.present.columns import RUNTIME, SUMMARY, TIME, Column, decision_cell, short
from hooktui.tui.present.format import (
    format_latency,
    format_time,
    latency_style,
    short_event,
    short_runtime,
)
from hooktui.tui.present.rows import cells_row, titles_row
from rich.style import Style
from rich.text import Text

OPEN = Column("open", "", ((0, 2),))
# The tool's name on a call's row, the hook's (★ on the winner) on a hook's.
TOOL = Column("tool", "tool", ((0, 14), (120, 18), (150, 22), (180, 26)))
OUTCOME = Column("outcome", "outcome", ((0, 10), (120, 14), (150, 16)))
HOOKS = Column("hooks", "hooks", ((0, 6),), justify="right")
CONFLICTS = Column("conflicts", "conflict", ((0, 10), (120, 20), (150, 24)), drop=4)
WHEN = TIME._replace(title="started")
COLUMNS = (OPEN, WHEN, RUNTIME, TOOL, OUTCOME, HOOKS, CONFLICTS, SUMMARY)

# Roles whose hook the call's outcome came from: marked ★ (as `show --calls` does).
WINNING = ("decided", "rewrote")
WINNER_MARK = "★"
OPENED, CLOSED = "▾", "▸"


def titles(width: int) -> Text:
    return titles_row(COLUMNS, width)


def _time(ts: str, tz: tzinfo | None, millis: bool) -> tuple[str, Style]:
    epoch = parse_ts(ts)
    try:
        text = format_time(epoch if math.isfinite(epoch) else math.nan, tz, millis)
    except (OverflowError, ValueError, OSError):
        text = format_time(math.nan, tz, millis)
    return text, Style(dim=True)


def _conflict_style(color: bool) -> Style:
    return Style(color="dark_orange", bold=True) if color else Style(bold=True, italic=True)


def call_row(
    call: ToolCall, width: int, tz: tzinfo | None, opened: bool, color: bool = True
) -> Text:
    """One tool call's row, exactly `width` cells wide."""
    millis = TIME.width_at(width) >= 12
    cells = {
        "open": (OPENED if opened else CLOSED, Style(bold=True)),
        "time": _time(call.ts, tz, millis),
        "runtime": (short(short_runtime(call.runtime), 64), Style(color="cyan") if color else None),
        "tool": (short(call.tool_name, 128) or "-", Style(bold=True)),
        "outcome": decision_cell(call.decision, color=color),
        "hooks": (str(call.hooks), Style(bold=call.hooks > 1)),
        "conflicts": (" ".join(call.conflicts), _conflict_style(color)),
        "summary": (short(call.summary), None),
    }
    return cells_row(COLUMNS, width, cells)


def hook_name(argv: list[str]) -> str:
    """A hook told by its command: the file it runs (`sh -c '... guard.py'`: guard.py)."""
    words = (argv[-1] if argv else "").split()
    return os.path.basename(words[-1]) if words else ""


def hook_row(
    part: HookPart,
    name: str,
    event: str,
    width: int,
    tz: tzinfo | None,
    last: bool,
    color: bool = True,
) -> Text:
    """One hook call of an opened tool call: its own answer, and its part in the call."""
    millis = TIME.width_at(width) >= 12
    winner = part.role in WINNING
    label = Text(no_wrap=True, end="")
    label.append(f"{WINNER_MARK} " if winner else "  ", style=Style(bold=True, color="gold1"))
    label.append(short(name, 128) or "-", style=Style(bold=winner))
    role_style = _conflict_style(color) if part.role == "overridden" else Style(dim=not winner)
    cells = {
        "open": (" └" if last else " ├", Style(dim=True)),
        "time": _time(part.ts, tz, millis),
        "runtime": (short(short_event(event), 64), Style(dim=True)),
        "tool": label,
        "outcome": decision_cell(part.decision, part.effect, color=color),
        "hooks": (format_latency(part.duration_ms), latency_style(part.duration_ms)),
        "conflicts": (part.role, role_style),
        "summary": (short(part.reason), Style(dim=True)),
    }
    return cells_row(COLUMNS, width, cells)

"""The stats header's text: what is shown, what was decided, how fast, and whether it is live.

Textual-free (Rich only): the watch app's header widget and the first screen
`hooktui watch` draws before Textual loads (`first_screen.py`) both use it.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from hooktui.tap.canonical import DECISIONS
from hooktui.tap.read.errlog import tap_error_summary
from hooktui.tap.read.filter import FilterError, compile_filter, reads_tool_calls
from hooktui.tap.read.tally import RATE_MINUTES
from hooktui.tap.read.view import CallView
from hooktui.tap.runtimes import RUNTIMES
from hooktui.tui.present.columns import NO_COLOR_STYLES
from hooktui.tui.present.format import (
    DECISION_STYLES,
    FAIL_OPEN_MARK,
    FAIL_OPEN_STYLE,
    count_of,
    display_path,
    format_count,
    format_latency,
    printable,
    sparkline,
)
from rich.text import Text

# Decisions few runtimes have: counted in the header only once one happens.
RARE_DECISIONS = frozenset({"defer"})
BREAKPOINT_LABEL = " ● intercept "
BREAKPOINT_LEAST = 8  # characters of an armed breakpoint's expression kept however narrow


class HeaderState(NamedTuple):
    """Everything the header shows besides the view's stats (read from whoever owns it)."""

    following: bool = True
    paused: bool = False
    buffered: int = 0  # records held back while paused
    new: int = 0  # rows added while not following
    indexing: float | None = None  # share of the stream indexed, while it is being
    title: str = ""
    # (path as shown, lines) of each tap error log with lines: the tap could not record.
    tap_errors: list[tuple[str, int]] = []  # noqa: RUF012 (never changed in place)
    # The clock rates end at while the streams are followed (a stream idle for 14
    # minutes reads 0/min); None: at the newest call (a finished stream reads the
    # same whenever it is opened).
    now: float | None = None
    # The breakpoint (`watch --intercept EXPR`, or `i`) while one is armed: marked
    # for as long as it holds calls, long after its toast has faded.
    breakpoint: str = ""
    # The tool-call view (t) is shown: how many tool calls it shows; None: hook calls.
    tool_calls: int | None = None
    grouping: bool = False  # the tool-call view is grouping what arrived


def header_text(view: CallView, state: HeaderState, width: int = 120, color: bool = True) -> Text:
    stats = view.stats
    minutes = 30 if width >= 120 else 12
    # What is live and what is filtered come first: a long path must not push
    # the filter off the edge. The stream's name takes the room that is left.
    live_part = Text(no_wrap=True)
    if state.tool_calls is not None:
        live_part.append(" tool calls ", style="bold black on cyan" if color else "bold reverse")
        live_part.append(f" {count_of(state.tool_calls, 'call')} ", style="bold")
        if state.grouping:
            live_part.append("grouping… ", style="italic")
        live_part.append(" hooks", style="dim")
    live_part.append(f" {format_count(len(view))}/{format_count(view.total)} shown ")
    if state.paused:
        live_part.append(" ⏸ paused ", style="bold black on yellow")
        if state.buffered:
            live_part.append(f" {format_count(state.buffered)} held ", style="yellow")
    elif state.following:
        live_part.append(" ▶ following ", style="bold black on green")
    else:
        live_part.append(" ■ not following ", style="bold black on grey62")
    state_part = Text(no_wrap=True)
    if state.new:
        state_part.append(f" {format_count(state.new)} new ↓ ", style="bold black on cyan")
    if state.indexing is not None:
        # Counts and percentiles below are of what is indexed so far.
        state_part.append(f" indexing {state.indexing:.0%} ", style="bold black on magenta")
    if view.filter_text:
        state_part.append("  filter ", style="dim")
        state_part.append(printable(view.filter_text), style="bold cyan")
    filtering = getattr(view, "filter_progress", None)
    if filtering is not None:
        # The filter reads the files in a worker: what is shown so far are the newest matches.
        state_part.append(f" filtering {filtering:.0%} ", style="bold black on magenta")
    if view.marked_only:
        state_part.append("  marked only", style="bold bright_cyan")
    spark = rate_part(view, minutes, wide=width >= 120, now=state.now)
    badge = Text(" hooktui ", style="bold reverse")
    fixed = badge.cell_len + live_part.cell_len + state_part.cell_len + 2
    if state.breakpoint:
        title_part, mark, spark = _fit_breakpoint(view, state, width - fixed, minutes, color)
    else:
        room = width - fixed - spark.cell_len
        title = state.title
        if len(title) > room:
            title = os.path.basename(title) or title
        title_part = Text(f" {printable(title)} ", style="bold") if room > 4 else Text("")
        mark = Text("")
    line1 = Text.assemble(badge, title_part, live_part, mark, state_part, spark, no_wrap=True)

    line2 = Text(no_wrap=True, overflow="ellipsis")
    line2.append(" ")
    if state.indexing is not None or getattr(view, "filter_progress", None) is not None:
        line2.append("so far: ", style="italic")
    for decision in DECISIONS:
        count = stats.decisions.get(decision, 0)
        if not count and (width < 120 or decision in RARE_DECISIONS):
            continue  # narrow: only what happened; a rare decision only when it did
        # Without colour (NO_COLOR) a red or purple word would be grey on black.
        palette = DECISION_STYLES if color else NO_COLOR_STYLES
        style = palette[decision] if count else "dim"
        line2.append(f"{decision} {format_count(count)}", style=style)
        line2.append("  ")
    if stats.fail_open:
        line2.append(
            f" {FAIL_OPEN_MARK} {format_count(stats.fail_open)} fail-open ", FAIL_OPEN_STYLE
        )
        line2.append("  ")
    if stats.bad:
        line2.append(f"✗ {count_of(stats.bad, 'bad line')}", style="red" if color else "bold")
        line2.append("   ")
    p50, p95 = stats.percentile(50), stats.percentile(95)
    if p50 is not None and p95 is not None:
        line2.append(f"p50 {format_latency(p50)}  p95 {format_latency(p95)}  ")
    # Each line is cut at the edge rather than wrapped: the header has two rows
    # (a third, below, only when the tap logged errors).
    line1.truncate(width, overflow="ellipsis")
    line2.truncate(width, overflow="ellipsis")
    lines = [line1, line2]
    if state.tap_errors:
        lines.append(tap_errors_line(state.tap_errors, width))
    return Text("\n", no_wrap=True).join(lines)


def breakpoint_mark(expr: str, room: int, color: bool = True) -> Text:
    """` ● intercept tool:Bash `, in `room` cells: the expression is cut with an ellipsis.

    Calls matching it are held before the runtime has them.
    """
    shown = printable(expr)
    fits = max(BREAKPOINT_LEAST, room - len(BREAKPOINT_LABEL) - 2)
    if len(shown) > fits:
        shown = shown[: fits - 1] + "…"
    return Text.assemble(
        " ",
        (BREAKPOINT_LABEL, "bold black on orange1" if color else "bold reverse"),
        (f" {shown}", "bold orange1" if color else "bold"),
    )


def _fit_breakpoint(
    view: CallView, state: HeaderState, room: int, minutes: int, color: bool
) -> tuple[Text, Text, Text]:
    """The title, the breakpoint's mark and the rate, in `room` cells.

    The stream's name and the armed breakpoint both stay on screen: the
    sparkline narrows, then gives way (and the rate's window), before the
    expression is cut (at 80 columns, to its first few characters).
    """
    name = os.path.basename(state.title) or state.title
    expr = len(printable(state.breakpoint))
    sparks = [
        rate_part(view, minutes, wide=minutes > 12, now=state.now),
        rate_part(view, 12, wide=False, now=state.now),
        rate_part(view, 12, wide=False, now=state.now, bars=False),
        rate_part(view, 12, wide=False, now=state.now, bars=False, window=False),
    ]
    mark_of = len(BREAKPOINT_LABEL) + 2  # and the expression
    fits = [s for s in sparks if room - s.cell_len >= len(printable(name)) + 2 + mark_of + expr]
    if not fits:
        least = len(printable(name)) + 2 + mark_of + BREAKPOINT_LEAST
        fits = [s for s in sparks[1:] if room - s.cell_len >= least] or sparks[-1:]
    spark = fits[0]
    room -= spark.cell_len
    whole = len(printable(state.title)) + 2 + mark_of + expr
    title = _title(state.title if whole <= room else name, room - mark_of - BREAKPOINT_LEAST)
    return title, breakpoint_mark(state.breakpoint, room - title.cell_len, color), spark


def _title(title: str, room: int) -> Text:
    """The stream's name, cut with an ellipsis to `room` cells (its padding included)."""
    shown = printable(title)
    if len(shown) + 2 > room:
        shown = shown[: max(1, room - 3)] + "…"
    return Text(f" {shown} ", style="bold")


def format_rate(per_minute: float) -> str:
    """12.4, 3.0, 1,250: a rate reads to one decimal while it is small."""
    return f"{per_minute:.1f}" if per_minute < 10 else f"{per_minute:,.0f}"


def rate_part(
    view: CallView,
    minutes: int,
    wide: bool,
    now: float | None = None,
    bars: bool = True,
    window: bool = True,
) -> Text:
    """The calls of the last minutes as a sparkline, and the rate over RATE_MINUTES, so labelled.

    Both end at `now` (the clock, while following) or else at the newest call; the
    rate is an average over that window, not the count of the current clock
    minute (which reads 1 at the start of every minute).
    """
    stats = view.stats
    over = f" ({RATE_MINUTES} min avg)" if wide else f" ({RATE_MINUTES}m)" if window else ""
    return Text.assemble(
        "   " if bars else " ",
        (sparkline(stats.per_minute(minutes, now)) if bars else "", "cyan"),
        (f" {format_rate(stats.rate(RATE_MINUTES, now))}", "bold"),
        ("/min", "bold"),
        (over, "dim"),
    )


def tap_errors_line(logs: list[tuple[str, int]], width: int) -> Text:
    """A third header row: the tap hit problems and wrote them to these logs.

    Without it, a tap that stopped recording looks like an agent that stopped
    calling hooks. The paths shrink to file names when the full ones do not fit.
    """
    total = sum(count for _, count in logs)
    badge = Text(f" {FAIL_OPEN_MARK} {tap_error_summary(total)} ", style=FAIL_OPEN_STYLE)
    where = ", ".join(printable(path) for path, _ in logs)
    if badge.cell_len + len(where) + 8 > width:
        where = ", ".join(printable(os.path.basename(path)) for path, _ in logs)
    line = Text.assemble(" ", badge, (f" (see {where})", "bold red"), no_wrap=True)
    line.truncate(width, overflow="ellipsis")
    return line


def tool_calls_empty(view: CallView, shown: int, grouping: bool):
    """What the tool-call view says instead of rows (a Text), or None when it has rows."""
    if shown:
        return None
    text = Text(justify="center")
    if grouping:
        text.append("grouping hook calls into tool calls …", style="dim")
        return text
    text.append("no tool call matches", style="bold")
    if view.filter_text:
        text.append(f"  {printable(view.filter_text)}", style="cyan")
    if view.marked_only:
        text.append("  (marked only)", style="cyan")
    text.append("\n\nesc clears the filter, t shows the hook calls", style="dim")
    return text


def empty_text(view: CallView, title: str, names: list[str], loaded: bool, missing: bool):
    """What watch's body says instead of rows (a Text), or None when there are rows.

    `missing`: none of the streams `names` exists yet.
    """
    if len(view):
        return None
    text = Text(justify="center")
    if not loaded:
        text.append(f"reading {title} …", style="dim")
        return text
    if view.filter_progress is not None:
        text.append(f"filtering … {printable(view.filter_text)}", style="dim")
        return text
    if view.total:
        text.append("no call matches", style="bold")
        if view.filter_text:
            text.append(f"  {printable(view.filter_text)}", style="cyan")
        if view.marked_only:
            text.append("  (marked only)", style="cyan")
        if _reads_tool_calls(view.filter_text):
            text.append("\n\ncall:, conflict:, role: and hooks choose tool calls:", style="dim")
            text.append(" t shows them", style="bold")
        text.append("\n\nesc clears the filter", style="dim")
        return text
    shown = ", ".join(display_path(p) for p in names)
    if missing:
        text.append("No hook calls recorded yet.\n\n", style="bold")
        text.append(f"Waiting for {shown} to appear.\n\n")
    else:
        text.append("Waiting for the first hook call…\n\n", style="bold")
        text.append(f"{shown} is empty.\n\n")
    text.append("To start recording:\n\n")
    text.append(f"  hooktui install {RUNTIMES[0]}", style="bold cyan")
    text.append("   wrap your agent's hooks in the tap\n")
    text.append("  hooktui demo               ", style="bold cyan")
    text.append("   example traffic, for a first look\n\n")
    text.append("This screen fills as soon as the first call is recorded.", style="dim")
    return text


def _reads_tool_calls(expr: str) -> bool:
    """Does the filter read what only the tool-call view fills in (`call:deny`, ...)?
    In the hook-call view those terms match no row: the body says where they do."""
    if not expr:
        return False
    try:
        return reads_tool_calls(compile_filter(expr))
    except FilterError:
        return False

"""The stats header: what is shown, what was decided, how fast, and whether it is live."""

from __future__ import annotations

from hooktui.tap.model import DECISIONS
from hooktui.tui.format import (
    DECISION_STYLES,
    FAIL_OPEN_MARK,
    FAIL_OPEN_STYLE,
    format_count,
    format_latency,
    sparkline,
)
from hooktui.tui.view import CallView
from rich.text import Text
from textual.widgets import Static


class HeaderState:
    """Everything the header shows besides the view's stats."""

    def __init__(self) -> None:
        self.following = True
        self.paused = False
        self.buffered = 0  # records held back while paused
        self.new = 0  # rows added while not following
        self.title = ""


def header_text(view: CallView, state: HeaderState, width: int = 120) -> Text:
    stats = view.stats
    minutes = 30 if width >= 120 else 12
    line1 = Text(no_wrap=True, overflow="ellipsis")
    line1.append(" hooktui ", style="bold reverse")
    line1.append(f" {state.title} ", style="bold")
    line1.append(f" {format_count(len(view))}/{format_count(view.total)} shown ")
    if state.paused:
        line1.append(" ⏸ paused ", style="bold black on yellow")
        if state.buffered:
            line1.append(f" {format_count(state.buffered)} held ", style="yellow")
    elif state.following:
        line1.append(" ▶ following ", style="bold black on green")
    else:
        line1.append(" ■ not following ", style="bold black on grey62")
    if state.new:
        line1.append(f" {format_count(state.new)} new ↓ ", style="bold black on cyan")
    if view.filter_text:
        line1.append("  filter ", style="dim")
        line1.append(view.filter_text, style="bold cyan")
    if view.marked_only:
        line1.append("  marked only", style="bold bright_cyan")
    per_minute = stats.per_minute(minutes)
    line1.append("   calls/min ", style="dim")
    line1.append(sparkline(per_minute), style="cyan")
    line1.append(f" {per_minute[-1]}", style="bold")

    line2 = Text(no_wrap=True, overflow="ellipsis")
    line2.append(" ")
    for decision in DECISIONS:
        count = stats.decisions.get(decision, 0)
        if not count and width < 120:
            continue  # narrow: only what happened
        style = DECISION_STYLES[decision] if count else "dim"
        line2.append(f"{decision} {format_count(count)}", style=style)
        line2.append("  ")
    if stats.fail_open:
        line2.append(
            f" {FAIL_OPEN_MARK} {format_count(stats.fail_open)} fail-open ", FAIL_OPEN_STYLE
        )
        line2.append("  ")
    if stats.bad:
        line2.append(f"✗ {format_count(stats.bad)} bad lines", style="red")
        line2.append("   ")
    p50, p95 = stats.percentile(50), stats.percentile(95)
    if p50 is not None and p95 is not None:
        line2.append(f"p50 {format_latency(p50)}  p95 {format_latency(p95)}  ")
    # Each line is cut at the edge rather than wrapped: the header has two rows.
    line1.truncate(width, overflow="ellipsis")
    line2.truncate(width, overflow="ellipsis")
    return Text("\n", no_wrap=True).join([line1, line2])


class StatsHeader(Static):
    """Two lines at the top of the watch screen."""

    _shown: tuple[CallView, HeaderState] | None = None

    def show(self, view: CallView, state: HeaderState) -> None:
        self._shown = (view, state)
        self.update(header_text(view, state, self.size.width or 120))

    def on_resize(self) -> None:
        if self._shown is not None:
            self.show(*self._shown)

"""The patterns view's timeline: calls per minute by decision, one sparkline row per decision.

A pure function of the minutes (`hooktui.tap.read.groups.Timeline`) and a
width, so it is tested without an app. One row per decision (small multiples,
each scaled to its own peak) rather than one stacked bar: a guard that starts
denying at 14:02 shows as its deny row rising there even when allows are a
hundred times as many, and every row is labelled with the decision's symbol
and word, so the chart reads the same without colour (NO_COLOR).
"""

from __future__ import annotations

import math
from datetime import datetime, tzinfo

from hooktui.tap.canonical import DECISIONS
from hooktui.tap.read.groups import Minute
from hooktui.tap.read.sanitize import safe_line
from hooktui.tui.present.format import sparkline
from hooktui.tui.present.palette import look
from rich.style import Style
from rich.text import Text

# Minutes per cell, the smallest that fits the span into the width.
STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440, 2880, 10080)
LABEL = 11  # "✗ deny     "
TOTAL = 9  # " 12,345"
MIN_CELLS = 10
# A short span is drawn wider, up to this many cells per minute, to be read at a glance.
MAX_STRETCH = 4


def _unit(step: int) -> str:
    if step == 1:
        return "minute"
    if step % 1440 == 0:
        return f"{step // 1440} d" if step > 1440 else "day"
    if step % 60 == 0:
        return f"{step // 60} h" if step > 60 else "hour"
    return f"{step} min"


def columns(minutes: list[Minute], cells: int) -> tuple[int, list[Minute]]:
    """(minutes per cell, one Minute per cell): the newest cell ends at the newest minute."""
    step = next((s for s in STEPS if math.ceil(len(minutes) / s) <= cells), STEPS[-1])
    if step == 1:
        return 1, minutes[-cells:]
    out: list[Minute] = []
    # Cells are whole steps counted back from the newest minute.
    for end in range(len(minutes), 0, -step):
        chunk = minutes[max(0, end - step) : end]
        counts = {d: sum(m.decisions.get(d, 0) for m in chunk) for d in chunk[-1].decisions}
        out.append(Minute(chunk[0].start, counts))
        if len(out) == cells:
            break
    out.reverse()
    return step, out


def _clock(epoch: float, tz: tzinfo | None, with_day: bool) -> str:
    try:
        moment = datetime.fromtimestamp(epoch, tz or datetime.now().astimezone().tzinfo)
    except (ValueError, OverflowError, OSError):
        return "--:--"
    return moment.strftime("%m-%d %H:%M" if with_day else "%H:%M")


def _axis(cells: list[Minute], stretch: int, tz: tzinfo | None, width: int) -> Text:
    """Times under the first, middle and last cells (as many as fit without touching)."""
    with_day = cells[-1].start - cells[0].start >= 86_400
    line = [" "] * width
    n = len(cells)
    for index in (0, n // 2, n - 1) if n > 1 else (0,):
        label = _clock(cells[index].start, tz, with_day)
        at = LABEL + index * stretch
        if index:
            at = min(at, LABEL + n * stretch - len(label))
        if at < 0 or at + len(label) > width:
            continue
        if any(c != " " for c in line[max(0, at - 1) : at + len(label) + 1]):
            continue  # would touch the previous label
        line[at : at + len(label)] = label
    return Text("".join(line).rstrip(), style=Style(dim=True))


def timeline_text(
    minutes: list[Minute], width: int, tz: tzinfo | None = None, color: bool = True
) -> Text:
    """The chart, every line at most `width` cells: a title, one row per decision, the times."""
    if not minutes:
        return Text(" no call with a time to chart", style=Style(dim=True))
    cells = max(MIN_CELLS, width - LABEL - TOTAL)
    step, cols = columns(minutes, cells)
    stretch = max(1, min(MAX_STRETCH, cells // len(cols)))
    seen = {d for m in cols for d, n in m.decisions.items() if n}
    names = [d for d in DECISIONS if d in seen] + sorted(seen - set(DECISIONS))
    span = f"{_clock(cols[0].start, tz, False)}–{_clock(cols[-1].start + step * 60, tz, False)}"
    lines = [
        Text.assemble(
            (f" calls per {_unit(step)} by decision", Style(bold=True)),
            (f"  {span}", Style(dim=True)),
        )
    ]
    totals = [m.total for m in cols]
    all_style = Style(color="cyan") if color else None
    lines.append(_row("all", "·", totals, stretch, Style(bold=True), all_style))
    for name in names:
        looks = look(name)
        counts = [m.decisions.get(name, 0) for m in cols]
        spark = looks.style() if color else None
        lines.append(_row(name, looks.symbol, counts, stretch, looks.style(color), spark))
    lines.append(_axis(cols, stretch, tz, width))
    for line in lines:
        line.truncate(width)
    return Text("\n", no_wrap=True, end="").join(lines)


def _row(name: str, symbol: str, counts: list[int], stretch: int, label_style, spark_style) -> Text:
    # A decision is a record's word: made safe like every field shown.
    label = safe_line(f" {symbol} {name}"[: LABEL - 1]).ljust(LABEL)
    total = f"{sum(counts):,}".rjust(TOTAL)
    bars = "".join(bar * stretch for bar in sparkline(counts))
    return Text.assemble(
        (label, label_style),
        (bars, spark_style or Style()),
        (total, Style(bold=True)),
        no_wrap=True,
    )

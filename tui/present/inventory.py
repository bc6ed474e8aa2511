"""The hook inventory as rows: one per configured hook, its use in the streams beside it.

Watch's hooks screen (`H`) draws these; `hooktui hooks` (tui/cli/hooks_text.py)
shares the small formatters. Columns narrow and drop as the terminal does (the
shared column spec): at 80 columns a hook keeps its runtime, event, matcher,
what a failure does, whether it is wrapped, its calls, deny rate and p95, and
what it runs; the source, handler type, timeout, last call and fail-open rate
come back on wider terminals (the selected hook's line under the table has them all).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from datetime import datetime, tzinfo

from hooktui.tap.inventory.model import Hook, Inventory, SourceFile
from hooktui.tap.read.merge import parse_ts
from hooktui.tap.read.sanitize import safe_line
from hooktui.tap.runtimes import ADAPTERS
from hooktui.tui.present.columns import Cell, Column
from hooktui.tui.present.format import (
    count_of,
    display_path,
    format_latency,
    latency_style,
    short_runtime,
)
from hooktui.tui.present.palette import FAIL_OPEN, look
from hooktui.tui.present.rows import cells_row, titles_row
from rich.style import Style
from rich.text import Text

STATE_STYLES = {
    "ok": "green3",
    "rejected": "bold red1",
    "fatal": "bold red1",
    "partial": "dark_orange",
    "missing": "grey50",
    "unreadable": "grey62",
    "inactive": "grey62",
}
# The states worth a line under the table: the runtime drops some or all of the file.
TROUBLE = ("rejected", "partial", "fatal", "unreadable")

DIM = Style(dim=True)
BOLD = Style(bold=True)


def short_path(path: str, home: str) -> str:
    if home and (path == home or path.startswith(home.rstrip("/") + "/")):
        return "~" + path[len(home.rstrip("/")) :]
    return path


def seconds(ms: int | None) -> str:
    if ms is None:
        return "none"
    if ms % 1000 == 0:
        return f"{ms // 1000}s"
    return f"{ms / 1000:g}s"


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "–"


# Each sort (tap.inventory.listing.SORTS) and the column it reads.
SORT_COLUMN = {
    "order": "position",
    "calls": "calls",
    "last": "last",
    "deny": "deny",
    "fail_open": "fail_open",
    "p95": "p95",
    "event": "event",
}

COLUMNS = (
    Column("position", "#", ((100, 3),), justify="right", drop=3),
    Column("runtime", "runtime", ((0, 8), (180, 12))),
    Column("scope", "source", ((120, 7),), drop=2),
    Column("event", "event", ((0, 11), (120, 14), (180, 17))),
    Column("matcher", "matcher", ((0, 7), (120, 12), (180, 16))),
    Column("type", "type", ((180, 7),), drop=1),
    Column("timeout", "timeout", ((100, 7),), drop=4),
    Column("fails", "fails", ((0, 6),)),
    # Below 100 columns the state says "not wrapped" instead.
    Column("tap", "tap", ((100, 3),)),
    Column("calls", "calls", ((0, 7),), justify="right"),
    Column("last", "last call", ((120, 11),), drop=5),
    Column("deny", "deny", ((0, 6),), justify="right"),
    Column("fail_open", "fail-open", ((100, 11),), justify="right", drop=6),
    Column("p95", "p95", ((0, 6),), justify="right"),
    Column("what", "state · command", flex=True, min=14),
)


def titles(sort: str, reverse: bool, width: int) -> Text:
    """The column titles, an arrow on the sorted column (which way it runs)."""
    descending = (sort not in ("order", "event")) != reverse
    arrow = " ▼" if descending else " ▲"
    sorted_column = SORT_COLUMN[sort]
    columns = tuple(
        c._replace(title=c.title + (arrow if c.name == sorted_column else "")) for c in COLUMNS
    )
    return titles_row(columns, width)


def last_call(rfc3339: str, tz: tzinfo | None) -> str:
    """When a hook last answered, as `MM-DD HH:MM` in the screen's zone."""
    epoch = parse_ts(rfc3339) if rfc3339 else math.nan
    if not math.isfinite(epoch):
        return ""
    try:
        return datetime.fromtimestamp(epoch, tz or datetime.now().astimezone().tzinfo).strftime(
            "%m-%d %H:%M"
        )
    except (ValueError, OverflowError, OSError):  # a year no datetime holds
        return ""


def _rate(part: int, whole: int, style: Style) -> Cell:
    if not whole:
        return "", None
    if not part:
        return "0%", DIM
    return percent(part, whole), style


def state_text(hook: Hook, color: bool = True, wide: bool = True) -> Text:
    """What became of the hook (never fired, quiet, ignored, unseen), then what it runs."""
    text = Text(no_wrap=True, end="")
    warn = Style(color="dark_orange", bold=True) if color else Style(bold=True)
    if hook.ignored:
        text.append(f"ignored: {safe_line(hook.ignored)}  ", style=warn)
    elif not hook.wrapped and hook.handler_type == "command":
        text.append("not wrapped  ", style=DIM + Style(italic=True))
    elif hook.usage is not None and hook.usage.state:
        state = hook.usage.state
        quiet = state.startswith("quiet")
        style = warn if not quiet else (Style(color="gold1") if color else Style(italic=True))
        if not wide:  # the year is the selected hook's line's to say
            state = re.sub(r"\b\d{4}-(\d\d-\d\d)$", r"\1", state)
        text.append(state.replace(" since install", "") + "  ", style=style)
    text.append(short_command(hook.command), style=Style(color="grey70") if color else None)
    return text


def short_command(command: str) -> str:
    """The command with each long path cut to its file's name (`…/guard.py`): what tells
    hooks apart in a narrow column (the selected hook's line shows it whole)."""
    words = safe_line(command[:512]).split(" ")
    return " ".join(
        "…/" + w.rstrip("/").rsplit("/", 1)[-1] if len(w) > 24 and "/" in w[1:] else w
        for w in words
    )


def hook_cells(
    hook: Hook, tz: tzinfo | None, color: bool = True, wide: bool = True
) -> dict[str, Cell | Text]:
    """Each column's cell for one configured hook."""
    u = hook.usage
    calls = u.calls if u is not None else 0
    timeout = seconds(hook.timeout_ms) + ("*" if hook.timeout_source == "default" else "")
    closed = Style(color="red1", bold=True) if color else BOLD
    p95 = u.p95_ms if u is not None else None
    return {
        "position": (str(hook.position + 1), DIM),
        "runtime": (short_runtime(hook.runtime), Style(color="cyan") if color else None),
        "scope": (hook.scope, None),
        "event": (safe_line(hook.event[:128]), None),
        "matcher": (safe_line(hook.matcher[:128]) or "*", None),
        "type": (hook.handler_type + (" async" if hook.is_async else ""), None),
        "timeout": (timeout, None),
        "fails": (hook.fails, closed if hook.fails == "closed" else None),
        "tap": ("✓", Style(color="green3") if color else None) if hook.wrapped else ("–", DIM),
        "calls": (f"{calls:,}", BOLD) if calls else ("–", DIM),
        "last": (last_call(u.last, tz), DIM) if calls else ("", None),
        "deny": _rate(u.denies if u else 0, calls, look("deny").style(color)),
        "fail_open": _rate(u.fail_open if u else 0, calls, FAIL_OPEN.style(color)),
        "p95": (format_latency(p95), latency_style(p95)) if p95 is not None else ("", None),
        "what": state_text(hook, color, wide),
    }


def hook_row(hook: Hook, width: int, tz: tzinfo | None, color: bool = True) -> Text:
    return cells_row(COLUMNS, width, hook_cells(hook, tz, color, wide=width >= 120))


def hook_line(hook: Hook, home: str, tz: tzinfo | None) -> Text:
    """The selected hook in full: where it is configured, and everything its row cuts."""
    text = Text(no_wrap=True, overflow="ellipsis", end="")
    text.append(f" {ADAPTERS[hook.runtime].title if hook.runtime in ADAPTERS else hook.runtime}")
    text.append(f" · {hook.scope} ", style=DIM)
    text.append(short_path(safe_line(hook.path), home))
    text.append(f"  {safe_line(hook.where)}", style=DIM)
    text.append(f"  timeout {seconds(hook.timeout_ms)}")
    if hook.timeout_source == "default":
        text.append(" (the runtime's default)", style=DIM)
    text.append(f" · fails {hook.fails or 'unknown'}")
    u = hook.usage
    if u is not None and u.calls:
        text.append(f" · last call {last_call(u.last, tz)}")
        text.append(f" · fail-open {percent(u.fail_open, u.calls)}")
    if hook.shadowed_by:
        text.append(f" · runs once, as {safe_line(hook.shadowed_by)}", style=DIM)
    text.append("\n  ")
    text.append(safe_line(hook.command[:4096]), style=BOLD)
    return text


def file_lines(files: Iterable[SourceFile], home: str, color: bool = True) -> list[Text]:
    """One line per problem of each settings file a runtime rejects or partly ignores."""
    lines: list[Text] = []
    for f in files:
        if f.state not in TROUBLE:
            continue
        title = ADAPTERS[f.runtime].title if f.runtime in ADAPTERS else f.runtime
        style = STATE_STYLES.get(f.state, "") if color else "bold"
        reasons = [(p.where, p.why) for p in f.problems] or [("", f.note or f.needs)]
        for where, why in reasons:
            line = Text(" ! ", style=style, no_wrap=True, overflow="ellipsis", end="")
            line.append(f.state, style=style)
            line.append(f"  {title}  ")
            line.append(short_path(safe_line(f.path), home), style=BOLD)
            if where:
                line.append(f" {safe_line(where)}", style=DIM)
            if why:
                line.append(f": {safe_line(why)}")
            lines.append(line)
    return lines


def heading(
    project: str, streams: str, inv: Inventory | None, sort: str, reading: bool = False
) -> Text:
    """The screen's title: whose hooks (what `hooktui hooks` reads in that folder), whose calls."""
    text = Text(no_wrap=True, overflow="ellipsis", end="")
    text.append(" hooktui hooks", style=BOLD)
    text.append(" in ")
    text.append(display_path(project), style=Style(bold=True, color="cyan"))
    if reading:
        text.append(" · reading…", style=Style(italic=True))
    if inv is not None:
        text.append(f" · sorted by {sort.replace('_', '-')}")
        runtimes = count_of(len(inv.runtimes), "runtime")
        text.append(f" · {count_of(len(inv.hooks), 'hook')} of {runtimes}", style=DIM)
    text.append(f" · calls in {streams}", style=DIM)
    return text

"""`hooktui hooks` as text: per runtime, its sources in its order, then its hooks.

Rich tables without borders (an inventory is tens of rows, not a stream); every
value from a settings file goes through the one sanitizer, and colour follows
NO_COLOR as rich decides.
"""

from __future__ import annotations

from hooktui.tap.inventory.model import FILE_STATES, Hook, Inventory, SourceFile
from hooktui.tap.read.sanitize import safe_line
from hooktui.tap.runtimes import ADAPTERS
from hooktui.tui.present.inventory import STATE_STYLES, percent, seconds, short_path
from rich.console import Console
from rich.table import Table
from rich.text import Text


def render(inv: Inventory, home: str = "", console: Console | None = None) -> None:
    console = console or Console(highlight=False, soft_wrap=True)
    if not inv.runtimes:
        console.print("No runtime here has a hook source (try --all to see where each one looks).")
    for name in inv.runtimes:
        runtime = ADAPTERS[name]
        files = [f for f in inv.files if f.runtime == name]
        hooks = [h for h in inv.hooks if h.runtime == name]
        head = Text(runtime.title, style="bold")
        head.append(f"  {len(hooks)} hook{'s' if len(hooks) != 1 else ''} · ", style="")
        head.append(runtime.merge.summary(), style="italic")
        console.print(head)
        if files:
            console.print(_sources(files, home))
            for f in files:
                for p in f.problems:
                    where = f" {safe_line(p.where)}" if p.where else ""
                    line = Text(
                        f"    ! {short_path(safe_line(f.path), home)}{where}: ", style="dark_orange"
                    )
                    line.append(safe_line(p.why))
                    console.print(line)
        if hooks:
            _print_hooks(console, hooks)
        console.print()
    for note in inv.notes:
        console.print(Text(f"· {safe_line(note)}", style="grey62"))


def _sources(files: list[SourceFile], home: str) -> Table:
    table = Table(box=None, show_edge=False, pad_edge=False, title=None, header_style="bold grey70")
    for col in ("#", "scope", "state", "file", "hooks", "read when"):
        table.add_column(col, no_wrap=col in ("#", "scope", "state", "hooks"))
    for f in files:
        state = Text(f.state, style=STATE_STYLES.get(f.state, ""))
        path = short_path(safe_line(f.path), home)
        if f.layout:
            path += f"  (in {ADAPTERS[f.layout].title}'s format)"
        when = safe_line(f.needs or f.note) if f.state != "ok" or f.needs else ""
        table.add_row(str(f.rank + 1), f.scope, state, path, str(f.hooks) if f.hooks else "", when)
    return table


COLUMNS = ("#", "src", "event", "matcher", "type", "timeout", "fails", "tap")
RIGHT = {"#", "src"}


def _cells(h: Hook) -> list[Text]:
    timeout = seconds(h.timeout_ms) + ("*" if h.timeout_source == "default" else "")
    return [
        Text(str(h.position + 1)),
        Text(str(h.rank + 1)),
        Text(safe_line(h.event)),
        Text(safe_line(h.matcher) or "*"),
        Text(h.handler_type + (" async" if h.is_async else "")),
        Text(timeout),
        Text(h.fails, style="bold red1" if h.fails == "closed" else ""),
        Text("✓" if h.wrapped else "–"),
    ]


def usage_text(h: Hook) -> Text:
    """calls · last · deny · fail-open · p95, for a hook whose calls hooktui saw."""
    u = h.usage
    if u is None or not u.calls:
        return Text("")
    parts = [
        f"{u.calls} call{'s' if u.calls != 1 else ''}",
        f"last {u.last[:16].replace('T', ' ')}",
        f"deny {percent(u.denies, u.calls)}",
        f"fail-open {percent(u.fail_open, u.calls)}",
    ]
    if u.p95_ms is not None:
        parts.append(f"p95 {u.p95_ms:.0f}ms")
    return Text(" · ".join(parts) + "  ", style="bold")


def _print_hooks(console: Console, hooks: list[Hook]) -> None:
    """One line per hook (short values, aligned), then its use and command beneath it,
    wrapping as the terminal needs."""
    rows = [_cells(h) for h in hooks]
    widths = [max(len(col), *(r[i].cell_len for r in rows)) for i, col in enumerate(COLUMNS)]
    head = Text("  ", style="bold grey70")
    for col, width in zip(COLUMNS, widths, strict=True):
        head.append((col.rjust(width) if col in RIGHT else col.ljust(width)) + "  ")
    head.rstrip()
    console.print(head, no_wrap=True, overflow="ellipsis")
    for h, cells in zip(hooks, rows, strict=True):
        line = Text("  ")
        for col, cell, width in zip(COLUMNS, cells, widths, strict=True):
            pad = " " * (width - cell.cell_len)
            line.append_text(Text(pad) + cell if col in RIGHT else cell + Text(pad))
            line.append("  ")
        line.rstrip()
        console.print(line, no_wrap=True, overflow="ellipsis")
        console.print(Text("      ").append_text(usage_text(h)).append_text(_state(h)))


def _state(h: Hook) -> Text:
    text = Text(safe_line(h.command), style="grey70")
    if h.ignored:
        text.append(f"  ignored: {safe_line(h.ignored)}", style="bold dark_orange")
    elif not h.wrapped and h.handler_type == "command":
        text.append("  not wrapped: hooktui cannot see its calls", style="grey62")
    elif h.usage and h.usage.state:
        style = "bold dark_orange" if h.usage.state.startswith("never") else "gold1"
        text.append(f"  {h.usage.state}", style=style)
    return text


def describe_states() -> str:
    return "; ".join(f"{k}: {v}" for k, v in FILE_STATES.items())

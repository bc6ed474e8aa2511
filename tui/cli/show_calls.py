"""`show --calls`: one row per tool call, its hooks beneath it, the winning hook marked.

The streams are read whole (a call's hooks may come from several streams and end in
any order), every record grouped by its runtime's rule (tap/toolcall), and each
record's head marked with what its call came to, so the filter's `call:`,
`conflict:`, `role:` and `hooks` terms work here and on plain rows alike. A call is
shown when any of its hooks matches the filter. JSON is one tool call per line, the
shape watch and replay use.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from datetime import UTC

import msgspec
from hooktui.tap.canonical import fails_open
from hooktui.tap.model import RecordHead
from hooktui.tap.read.lines import LineChunks, open_input
from hooktui.tap.read.merge import parse_ts
from hooktui.tap.read.sanitize import inert_json, safe_line
from hooktui.tap.toolcall.group import group, marks
from hooktui.tap.toolcall.model import CallHead, ToolCall, call_head_decoder
from hooktui.tui.cli.show_read import Options, Source
from hooktui.tui.present import format as fmt
from hooktui.tui.present.palette import decision_mark, decision_style
from rich.console import Console
from rich.text import Text


def _lines(sources: list[Source]) -> Iterator[tuple[int, bytes]]:
    for si, source in enumerate(sources):
        fd = open_input(source.path)
        try:
            for lines in LineChunks(fd):
                for _, line in lines:
                    yield si, line
        finally:
            os.close(fd)


def load(sources: list[Source]) -> tuple[list[CallHead], int]:
    """Every record of the streams (a head and what grouping needs, one decode each), and
    how many lines were not records."""
    heads: list[CallHead] = []
    bad = 0
    decode = call_head_decoder.decode
    for _, line in _lines(sources):
        try:
            heads.append(decode(line))
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            bad += 1
    return heads, bad


def chosen(
    sources: list[Source], opts: Options
) -> tuple[list[ToolCall], dict[str, RecordHead], int]:
    """The tool calls with a hook the filter accepts (the last `--last` of them)."""
    records, bad = load(sources)
    heads: dict[str, RecordHead] = {h.id: h for h in records}
    calls = group(records)
    for rid, mark in marks(calls).items():
        heads[rid].toolcall = mark
    picked = [c for c in calls if any(opts.accepts(heads[p.id]) for p in c.parts)]
    if opts.last is not None:
        picked = picked[-opts.last :] if opts.last else []
    return picked, heads, bad


def run(sources: list[Source], opts: Options, as_calls: bool) -> int:
    calls, heads, bad = chosen(sources, opts)
    if bad:
        sys.stderr.write(f"hooktui show: {bad} line(s) that are not records were left out\n")
    if not as_calls:  # a call term on plain rows: the hooks of the chosen calls that match
        return _rows(calls, heads, opts)
    if opts.format == "json":
        out = sys.stdout.buffer
        for call in calls:
            out.write(inert_json(msgspec.json.encode(call)) + b"\n")
        out.flush()
        return 0
    _text(calls, opts)
    return 0


def _rows(calls: list[ToolCall], heads: dict[str, RecordHead], opts: Options) -> int:
    from hooktui.tui.cli.show_text import TextOut

    picked = [heads[p.id] for c in calls for p in c.parts if opts.accepts(heads[p.id])]
    picked.sort(key=lambda h: (parse_ts(h.ts), h.id))
    if opts.format == "json":
        for h in picked:
            sys.stdout.buffer.write(inert_json(msgspec.json.encode(h)) + b"\n")
        sys.stdout.flush()
        return 0
    TextOut(opts.utc, False, sys.stdout).rows([("", h, b"") for h in picked])
    sys.stdout.flush()
    return 0


def _text(calls: list[ToolCall], opts: Options) -> None:
    console = Console(highlight=False, soft_wrap=True)
    tz = UTC if opts.utc else None
    for call in calls:
        console.print(call_line(call, tz))
        for step in call.steps:
            for part in step.hooks:
                console.print(hook_line(step.native_event, part, tz))
            for note in step.notes:
                console.print(Text(f"      {safe_line(note)}", style="grey62"))
    if not calls:
        console.print(Text("no tool calls match", style="dim"))


def call_line(call: ToolCall, tz=None) -> Text:
    """One line for a tool call: when, runtime, tool, what it ran, outcome, conflicts."""
    line = Text(fmt.format_time(parse_ts(call.ts), tz) + "  ")
    line.append(f"{fmt.short_runtime(call.runtime):<8} ")
    line.append(f"{safe_line(call.tool_name) or '-':<12} ", style="bold")
    line.append(decision_mark(call.decision).ljust(10), style=decision_style(call.decision))
    line.append(f" {call.hooks} hook{'s' if call.hooks != 1 else ''}  ")
    if call.conflicts:
        line.append(" ".join(call.conflicts) + "  ", style="dark_orange")
    line.append(safe_line(call.summary), style="grey70")
    return line


def hook_line(native_event: str, part, tz=None) -> Text:
    marked = part.role in ("decided", "rewrote")
    line = Text("    " + ("★ " if marked else "  "), style="bold")
    fail_open = fails_open(part.decision, part.effect)
    line.append(
        decision_mark(part.decision, fail_open).ljust(10),
        style=decision_style(part.decision, fail_open),
    )
    line.append(f" {safe_line(native_event):<14} {safe_line(part.label) or '-':<20} ")
    line.append(f"{fmt.format_latency(part.duration_ms):>7}  ")
    if part.role == "overridden":
        line.append("overridden  ", style="grey62")
    line.append(safe_line(part.reason), style="grey70")
    return line

"""The replay screen's detail tabs and cells: recorded and replayed verdicts, record by record.

Pure functions of one `Result` (no widget state). Every text they lay out is
bounded (`clip`), as in watch: one huge record never stalls the screen.
"""

from __future__ import annotations

import difflib
import shlex

import msgspec
from hooktui.replay.compare import (
    LOOSENED,
    SKIPPED,
    TIGHTENED,
)
from hooktui.replay.report import Result, side
from hooktui.tap.canonical import Verdict
from hooktui.tap.model import Blob
from hooktui.tui.present.columns import Cell, decision_cell, short
from hooktui.tui.present.format import (
    bounded_text,
    clip,
    count_of,
    format_latency,
    pretty_json,
    printable,
    short_event,
    short_runtime,
)
from hooktui.tui.present.palette import CLASS_LOOK, DIRECTION_LOOK
from hooktui.tui.present.replay_text import RULES_CHANGED, effect_raw
from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

# The same tabs, titled as in watch: one detail pane.
TAB_TITLES = tuple(
    (tab, tab.capitalize()) for tab in ("summary", "request", "response", "diff", "raw")
)
FIELD_LIMIT = 4 * 1024
# Marks a `before` that is today's reading of the recorded answer (the rules changed).
RULES_MARK = "*"


def _field(text: str) -> str:
    return printable(clip(text, FIELD_LIMIT))


def _bytes(data: bytes) -> str:
    return printable(clip(data[: 4 * 65536].decode("utf-8", "replace")))


def _blob(blob: Blob) -> str:
    if blob.encoding != "utf-8":
        return f"({_field(blob.encoding)})"
    return printable(clip(blob.data))


def result_cell(r: Result) -> Text:
    word, style = CLASS_LOOK.get(r.cls, (r.cls, ""))
    text = Text(word, style=style)
    if r.direction:
        word, style = DIRECTION_LOOK[r.direction]
        text.append(" ")
        text.append(word, style=style)
    if r.flaky:
        text.append(" ⚡flaky", style="bold magenta")
    return text


# Why a direction matters, in the words of the help notes.
DIRECTION_WHY = {
    LOOSENED: "stopped before, let through now",
    TIGHTENED: "let through before, stopped now",
}


def _grid() -> Table:
    # As watch's summary: a label column, and values that wrap inside their own column.
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    return grid


def _verdict_rows(grid: Table, label: str, verdict: Verdict | None, color: bool) -> None:
    """One verdict: its decision and reason on one row, what else it says under it."""
    if verdict is None:
        grid.add_row(label, Text("not run", style="grey50"))
        return
    # As the list shows it: without colour (NO_COLOR) a mark says it, not a dim red.
    label_text, style = decision_cell(
        verdict.decision, verdict.effect, verdict.failure, color=color
    )
    value = Text(label_text, style=style or "")
    if verdict.reason:
        value.append(f'  "{_field(verdict.reason)}"')  # quoted, as `--format text` does
    grid.add_row(label, value)
    if verdict.context:
        grid.add_row("", Text(f"context  {_field(verdict.context)}"))
    if verdict.decision == "failure":
        effect = short(verdict.effect or "?")
        grid.add_row("", Text(f"failed   {short(verdict.failure)} (the runtime {effect})"))
        if verdict.failure_detail:
            grid.add_row("", Text(f"why      {_field(verdict.failure_detail)}"))


def _result_value(r: Result) -> Text:
    text = Text(r.cls.replace("_", " "), style=CLASS_LOOK.get(r.cls, ("", ""))[1])
    if r.direction:
        text.append("  ")
        text.append(*DIRECTION_LOOK[r.direction])
        text.append(f": {DIRECTION_WHY[r.direction]}", style="grey62")
    if r.flaky:
        text.append("  flaky", style="bold magenta")
    return text


def summary_text(r: Result, color: bool = True) -> RenderableType:
    """What changed and why, first: before and after, then what was run and on what.

    The first rows fit a short pane (80x24): the call, the result, both verdicts.
    """
    rec = r.record
    # Every field from the record is made safe for the terminal (one sanitizer).
    title = Text(short(rec.summary, FIELD_LIMIT) if rec.summary else "", style="bold")
    where = short(f"{short_runtime(rec.runtime)} {short_event(rec.event)}")
    tool = short(rec.tool_name or rec.native_event or rec.event)
    title.append(f"{'  ' if rec.summary else ''}{tool} · {where} · line {r.line}", style="grey62")
    grid = _grid()
    grid.add_row("result", _result_value(r))
    if r.cls == SKIPPED:
        grid.add_row("skipped", Text(_field(r.skip_reason), style="italic"))
        _verdict_rows(grid, "before", r.before, color)
        return Group(title, grid)
    if r.rules_changed:
        # The runtime's rules changed: the recorded answer reads differently today,
        # and the replay is compared with today's reading, not with what was written.
        _verdict_rows(grid, "recorded", r.recorded, color)
        grid.add_row(
            "",
            Text.assemble(
                (f"{RULES_MARK}{RULES_CHANGED}: ", "bold yellow"),
                ("before is today's reading of it", "yellow"),
            ),
        )
    _verdict_rows(grid, "before", r.before, color)
    _verdict_rows(grid, "after", r.after, color)
    if r.flaky:
        grid.add_row("runs", Text(short(", ".join(v.decision for v in r.runs)), "bold magenta"))
    for note in r.notes:
        grid.add_row("note", Text(_field(note), style="yellow"))
    parts: list[RenderableType] = [title, grid]
    effects = effects_block(r)
    if effects:
        parts.append(effects)
    request = rec.tool_input if rec.tool_input is not None else rec.prompt
    if request is not None:
        # The call the hook judged, as its runtime read it (tab 2 has the whole request).
        body = request if isinstance(request, str) else pretty_json(request)
        parts += [Text("\ninput", style="bold underline"), Text(_field(body))]
    if r.argv:
        # Last: how the policy was run (the header cuts a long one to one row).
        ran = Text("\nran  ", style="bold")
        ran.append(short(shlex.join(r.argv), FIELD_LIMIT), style="grey62")
        parts.append(ran)
    return Group(*parts)


def effects_block(r: Result) -> Text:
    """Same decision, another effect: each changed effect, before and after."""
    text = Text()
    pairs = r.effect_pairs()
    if not pairs:
        return text
    text.append("\neffect changed (same decision)\n", style="bold underline")
    for name, was, now in pairs:
        text.append(f"{short(name, 64)}\n", style="bold gold1")
        text.append(f"  before  {_field(effect_raw(was))}\n", style="grey62")
        text.append(f"  after   {_field(effect_raw(now))}\n")
    return text


def response_text(r: Result) -> Text:
    text = Text()
    out = r.outcome
    if out is None:
        text.append("not run\n", style="grey50")
    else:
        status = f"signal {out.signal}" if out.signal is not None else f"exit {out.exit_code}"
        if out.timed_out:
            status += " (timed out)"
        text.append("replayed  ", style="bold")
        text.append(f"{status}  {format_latency(out.duration_ms)}\n")
        if out.spawn_error:
            text.append(f"spawn     {_field(out.spawn_error)}\n", style="red")
        text.append("stdout\n", style="bold underline")
        text.append(_bytes(out.stdout) or "(empty)\n")
        text.append("\nstderr\n", style="bold underline")
        text.append(_bytes(out.stderr) or "(empty)\n")
    rec = r.record
    text.append("\nrecorded  ", style="bold")
    status = f"signal {rec.signal}" if rec.signal is not None else f"exit {rec.exit_code}"
    text.append(f"{status}  {format_latency(rec.duration_ms)}\n")
    text.append("stdout\n", style="bold underline")
    text.append(_blob(rec.stdout) or "(empty)\n")
    text.append("\nstderr\n", style="bold underline")
    text.append(_blob(rec.stderr) or "(empty)\n")
    return text


def diff_text(r: Result) -> Text:
    """The recorded and replayed verdicts as JSON, line by line: - recorded, + replayed.

    When the rules changed since recording, the replay is compared with today's
    reading of the recorded answer: the diff says so in its first line."""
    before = pretty_json(side(r.before)).splitlines()
    after = pretty_json(side(r.after)).splitlines() if r.after is not None else []
    name = "today (the recorded answer, read by today's rules)" if r.rules_changed else "recorded"
    text = Text()
    for line in difflib.unified_diff(before, after, name, "replayed", lineterm="", n=50):
        style = ""
        if line.startswith("+") and not line.startswith("+++"):
            style = "green3"
        elif line.startswith("-") and not line.startswith("---"):
            style = "red1"
        elif line.startswith("@@"):
            style = "grey50"
        text.append(printable(line) + "\n", style=style)
    if not text:
        first = "today's reading of the recorded" if r.rules_changed else "recorded"
        text.append(f"{first} and replayed verdicts are the same\n", style="grey50")
    return text


def result_json(r: Result) -> str:
    """The record with its replayed verdict, for `c` and the raw tab."""
    data = {
        "line": r.line,
        "class": r.cls,
        "direction": r.direction,
        "effects": r.effects,
        "flaky": r.flaky,
        "skip_reason": r.skip_reason,
        "before": side(r.before),
        "after": side(r.after) if r.after is not None else None,
        "record": msgspec.to_builtins(r.record),
    }
    return pretty_json(data)


def result_cells(r: Result, color: bool = True) -> dict[str, Cell | Text]:
    """Each replay column's cell for one result (the shared column spec lays them out)."""
    rec = r.record
    tool = rec.tool_name or rec.native_event or short_event(rec.event)

    def verdict(v: Verdict | None) -> Cell:
        if v is None:
            return "-", Style(color="grey50")
        return decision_cell(v.decision, v.effect, v.failure, color=color)

    before: Cell | Text = verdict(r.before)
    if r.rules_changed:
        # `*`: today's reading of the recorded answer, not what the session says (see NOTES).
        before = Text.assemble((RULES_MARK, "bold yellow"), (before[0], before[1] or ""))
    return {
        "line": (str(r.line), Style(color="grey50")),
        "runtime": (short(short_runtime(rec.runtime), 64), None),
        "tool": (short(tool, 128), Style(bold=True)),
        "before": before,
        "after": verdict(r.after) if r.cls != SKIPPED else ("-", Style(color="grey50")),
        "result": result_cell(r),
        "summary": (short(rec.summary), None),
    }


def build_tabs(r: Result, color: bool = True) -> dict[str, RenderableType]:
    """Every tab for one result (the detail pane's worker runs it)."""
    request = r.record.request
    return {
        "summary": summary_text(r, color),
        "request": bounded_text(request if isinstance(request, str) else pretty_json(request)),
        "response": response_text(r),
        "diff": diff_text(r),
        "raw": bounded_text(result_json(r)),
    }


def left_out_text(left_out: dict[str, int], hint: str) -> Text | None:
    """One line: the records of other hooks that were not replayed, and how to include them."""
    if not left_out:
        return None
    hooks = ", ".join(f"{printable(name)} ({n})" for name, n in left_out.items())
    records = count_of(sum(left_out.values()), "record")
    text = Text(f"left out {records} of other hooks: {hooks}", style="yellow")
    if hint:
        text.append(" · include them with ", style="yellow")
        text.append(printable(hint), style="bold")
    return text

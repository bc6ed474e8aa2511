"""What the reproduce screen shows: the call, and the recorded answer beside today's run.

Pure functions of a Record and a replay Result (no widget state); every recorded
text goes through the one sanitizer and is bounded, as in the detail pane.
"""

from __future__ import annotations

import shlex

from hooktui.replay.report import Result
from hooktui.tap.base.ids import random_part
from hooktui.tap.canonical import UNSET, Outcome, Verdict
from hooktui.tap.model import Record
from hooktui.tui.present.columns import decision_cell
from hooktui.tui.present.format import (
    bounded_text,
    clip,
    format_latency,
    pretty_json,
    printable,
)
from hooktui.tui.present.palette import CLASS_LOOK, DIRECTION_LOOK
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

FIELD_LIMIT = 4 * 1024
OUTPUT_LIMIT = 16 * 1024  # of each of the run's stdout and stderr


def _field(text: str, limit: int = FIELD_LIMIT) -> str:
    return printable(clip(text, limit))


def call_head(record: Record) -> Text:
    """Two lines, each cut at the edge: which call, and where and what runs for it."""
    first = Text(no_wrap=True, overflow="ellipsis")
    first.append("reproduce  ", style="bold reverse")
    first.append(" ")
    tool = record.tool_name or record.native_event or record.event
    first.append(_field(tool, 80), style="bold")
    if record.summary:
        first.append(f"  {_field(' '.join(record.summary.split()), 200)}")
    first.append(f"  · {_field(record.runtime, 40)} · hook {_field(record.hook.label or '-', 60)}")
    first.append(f"  · id {_field(random_part(record.id), 40)}", style="dim")
    second = Text(no_wrap=True, overflow="ellipsis", style="grey62")
    cwd = record.hook.cwd or record.cwd
    if cwd:
        second.append(f"in {_field(cwd, 200)} · ")
    argv = shlex.join(record.hook.argv) if record.hook.argv else "(no hook command recorded)"
    second.append(f"runs {_field(argv, 400)}")
    return Text("\n", no_wrap=True, overflow="ellipsis").join([first, second])


def run_time(duration_ms: float) -> str:
    """How long the run took, as the list shows latencies."""
    return format_latency(duration_ms)


def outcome_text(outcome: Outcome) -> Text:
    if outcome.spawn_error:
        return Text(f"could not start: {_field(outcome.spawn_error)}", style="bold red")
    if outcome.timed_out:
        ended = Text("timed out (killed)", style="bold red")
    elif outcome.signal is not None:
        ended = Text(f"killed by signal {outcome.signal}", style="bold red")
    else:
        ok = outcome.exit_code == 0
        ended = Text(f"exit {outcome.exit_code}", style="green" if ok else "red")
    ended.append(f"  in {run_time(outcome.duration_ms)}", style="")
    return ended


# (row title, how to read it from a verdict): what a person compares first.
def _fields(verdict: Verdict) -> list[tuple[str, str]]:
    out = [("reason", verdict.reason)]
    if verdict.decision == "failure":
        out.append(("failure", f"{verdict.failure or '?'} (the runtime {verdict.effect or '?'})"))
        out.append(("why", verdict.failure_detail))
    else:
        out.append(("note", verdict.failure_detail))
    out.append(("context", verdict.context))
    if verdict.updated_input is not UNSET:
        out.append(("new input", pretty_json(verdict.updated_input)))
    if verdict.updated_output is not UNSET:
        out.append(("new output", pretty_json(verdict.updated_output)))
    return out


def _decision(verdict: Verdict, color: bool) -> Text:
    # As the list shows it: without colour (NO_COLOR) a mark says it, not a dim red.
    label, style = decision_cell(verdict.decision, verdict.effect, verdict.failure, color=color)
    return Text(printable(label), style=style or "")


def verdict_table(
    result: Result | None, recorded: Verdict, edited: bool, color: bool = True
) -> Table:
    """The recorded verdict beside the one the run gave (`≠` marks what differs).

    When the runtime's rules changed since the recording, today's reading of the
    recorded answer sits between them: it is what the run is compared with.
    """
    columns: list[tuple[str, Verdict | None]] = [("recorded", recorded)]
    if result is not None and result.rules_changed:
        columns.append(("today", result.before))
    now = "edited" if edited else "now"
    columns.append((now, result.after if result is not None else None))
    base = columns[-2][1]
    table = Table(box=None, padding=(0, 1), pad_edge=False, expand=True, show_edge=False)
    table.add_column("", style="bold", no_wrap=True)
    table.add_column("", no_wrap=True, width=1)
    for title, _ in columns:
        table.add_column(title, header_style="bold underline", overflow="fold", ratio=1)
    after = columns[-1][1]

    def mark(a: str, b: str) -> Text:
        return Text("≠", style="bold gold1") if after is not None and a != b else Text("")

    cells = [
        _decision(v, color) if v is not None else Text("not run yet", style="grey50")
        for _, v in columns
    ]
    key = lambda v: v.decision + "/" + (v.effect or "")  # noqa: E731
    table.add_row("decision", mark(key(base), key(after)) if after else Text(""), *cells)
    rows: dict[str, list[str]] = {}
    for i, (_, verdict) in enumerate(columns):
        for name, value in _fields(verdict) if verdict is not None else []:
            rows.setdefault(name, [""] * len(columns))[i] = value
    for name, values in rows.items():
        if not any(values):
            continue
        shown = [Text(_field(v), style="italic" if name == "reason" else "") for v in values]
        table.add_row(name, mark(values[-2], values[-1]), *shown)
    return table


def result_line(result: Result) -> Text:
    word, style = CLASS_LOOK.get(result.cls, (result.cls, ""))
    text = Text("result  ", style="bold")
    text.append(word, style=style)
    if result.direction:
        word, style = DIRECTION_LOOK[result.direction]
        text.append(" ")
        text.append(word, style=style)
    if result.cls == "unchanged":
        text.append("  the same answer as recorded", style="grey50")
    return text


def _output(title: str, data: bytes) -> list[RenderableType]:
    shown = data[: OUTPUT_LIMIT * 4].decode("utf-8", "replace")
    if not shown.strip():
        return [Text.assemble((f"{title}  ", "bold"), ("(empty)", "grey50"))]
    return [Text(title, style="bold"), bounded_text(shown, limit=OUTPUT_LIMIT)]


def answer_view(
    record: Record,
    result: Result | None,
    *,
    edited: bool,
    running: bool,
    sent_as_text: bool = False,
    color: bool = True,
) -> RenderableType:
    """The right-hand side: verdicts side by side, then what the run printed."""
    table = verdict_table(result, record.verdict, edited, color)
    parts: list[RenderableType] = [table, Text("")]
    if running:
        parts.append(Text("running the hook on the request …", style="italic gold1"))
    if result is None:
        if not running:
            parts.append(Text("ctrl+r runs the hook on the request as edited", style="grey50"))
        return Group(*parts)
    if result.cls == "skipped":
        parts.append(Text(f"not run: {_field(result.skip_reason)}", style="bold dark_orange"))
        return Group(*parts)
    parts.append(result_line(result))
    if result.rules_changed:
        parts.append(
            Text("rules changed since recording: compared with today's reading", style="yellow")
        )
    if sent_as_text:
        parts.append(Text("the request is not JSON: it was sent as text", style="yellow"))
    for note in result.notes:
        parts.append(Text(f"note  {_field(note)}", style="yellow"))
    if result.outcome is not None:
        parts.append(Text.assemble(("ran     ", "bold"), outcome_text(result.outcome)))
        parts.append(Text(""))
        parts += _output("stdout", result.outcome.stdout)
        parts += _output("stderr", result.outcome.stderr)
    return Group(*parts)

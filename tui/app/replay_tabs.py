"""The replay screen's detail tabs and cells: recorded and replayed verdicts, record by record.

Pure functions of one `Result` (no widget state). Every text they lay out is
bounded (`clip`), as in watch: one huge record never stalls the screen.
"""

from __future__ import annotations

import difflib
import shlex

import msgspec
from hooktui.replay.compare import (
    CHANGED,
    EFFECT_CHANGED,
    FAILED,
    LOOSENED,
    REASON_ONLY,
    SKIPPED,
    TIGHTENED,
)
from hooktui.replay.report import Result, side
from hooktui.tap.model import Blob, Verdict
from hooktui.tui.app.widgets.detail import clip, safe_text
from hooktui.tui.cli.columns import Cell, decision_cell, short
from hooktui.tui.cli.format import (
    count_of,
    format_latency,
    pretty_json,
    printable,
    short_event,
    short_runtime,
)
from hooktui.tui.cli.replay_text import RULES_CHANGED, effect_raw
from rich.console import RenderableType
from rich.style import Style
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
        return f"({blob.encoding})"
    return printable(clip(blob.data))


CLASS_LOOK = {
    "unchanged": ("=", "grey50"),
    REASON_ONLY: ("~ reason", "deep_sky_blue1"),
    CHANGED: ("≠", "bold gold1"),
    EFFECT_CHANGED: ("≈ effect", "gold1"),
    FAILED: ("✗ failed", "bold dark_orange"),
    SKIPPED: ("- skipped", "grey50 italic"),
}
DIRECTION_LOOK = {
    LOOSENED: ("▲ loosened", "bold white on red3"),
    TIGHTENED: ("▼ tightened", "bold green3"),
}


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


def _verdict_block(title: str, verdict: Verdict | None, color: bool = True) -> Text:
    text = Text()
    text.append(f"{title}\n", style="bold underline")
    if verdict is None:
        text.append("not run\n", style="grey50")
        return text
    text.append("decision  ")
    # As the list shows it: without colour (NO_COLOR) a mark says it, not a dim red.
    label, style = decision_cell(verdict.decision, verdict.effect, color=color)
    text.append(label, style=style or "")
    text.append("\n")
    if verdict.reason:
        text.append(f"reason    {_field(verdict.reason)}\n")
    if verdict.context:
        text.append(f"context   {_field(verdict.context)}\n")
    if verdict.decision == "failure":
        effect = short(verdict.effect or "?")
        text.append(f"failure   {short(verdict.failure)} (the runtime {effect})\n")
        if verdict.failure_detail:
            text.append(f"why       {_field(verdict.failure_detail)}\n")
    return text


def summary_text(r: Result, color: bool = True) -> Text:
    rec = r.record
    text = Text()
    # Every field from the record is made safe for the terminal (one sanitizer).
    text.append(short(rec.tool_name or rec.native_event or rec.event), style="bold")
    where = short(f"{short_runtime(rec.runtime)} {short_event(rec.event)}")
    text.append(f"  {where}  line {r.line}\n")
    if rec.summary:
        text.append(f"{short(rec.summary, FIELD_LIMIT)}\n")
    text.append("result    ")
    text.append(r.cls.replace("_", " "), style=CLASS_LOOK.get(r.cls, ("", ""))[1])
    if r.direction:
        text.append(" ")
        text.append(*DIRECTION_LOOK[r.direction])
    if r.flaky:
        text.append(" flaky", style="bold magenta")
    text.append("\n")
    if r.cls == SKIPPED:
        text.append(f"skipped   {_field(r.skip_reason)}\n", style="italic")
        text.append("\n")
        text.append_text(_verdict_block("recorded", r.before, color))
        return text
    if r.argv:
        text.append(f"ran       {short(shlex.join(r.argv), FIELD_LIMIT)}\n", style="grey62")
    text.append("\n")
    if r.rules_changed:
        # The runtime's rules changed: the recorded answer reads differently today,
        # and the replay is compared with today's reading, not with what was written.
        text.append_text(_verdict_block("recorded", r.recorded, color))
        text.append("\n")
        text.append(f"{RULES_CHANGED}: ", style="bold yellow")
        text.append("the recorded answer, read by today's rules\n", style="yellow")
        text.append_text(_verdict_block("today", r.before, color))
    else:
        text.append_text(_verdict_block("recorded", r.before, color))
    text.append("\n")
    text.append_text(_verdict_block("replayed", r.after, color))
    if r.flaky:
        text.append("\nruns      ", style="bold magenta")
        text.append(short(", ".join(v.decision for v in r.runs)) + "\n")
    text.append_text(effects_block(r))
    return text


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
        "request": safe_text(request if isinstance(request, str) else pretty_json(request)),
        "response": response_text(r),
        "diff": diff_text(r),
        "raw": safe_text(result_json(r)),
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

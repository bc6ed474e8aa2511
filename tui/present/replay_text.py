"""`hooktui replay --format text`: the report as a rich summary and a list of changes.

Its looks are the one palette's (`palette.py`): a decision, a comparison class and a
direction read the same here as on the replay screen.

Everything printed that comes from a session (reasons, summaries, paths, ids) is
data someone else may have written: it is shown on one line with control
characters as visible escapes, never interpreted by the terminal.
"""

from __future__ import annotations

import json
from typing import Any

from hooktui.replay.compare import (
    CHANGED,
    EFFECT_CHANGED,
    FAILED,
    LOOSENED,
    REASON_ONLY,
    SKIPPED,
    TIGHTENED,
)
from hooktui.replay.report import Report, Result
from hooktui.replay.session import plural
from hooktui.tap.base.ids import random_part
from hooktui.tap.canonical import UNSET, Verdict, fails_open
from hooktui.tap.read.last_words import last_line, stderr_words
from hooktui.tap.read.sanitize import safe_text
from hooktui.tui.present.palette import (
    CLASS_LOOK,
    DIRECTION_LOOK,
    decision_mark,
    decision_style,
    look,
)
from rich.console import Console
from rich.text import Text

RULES_CHANGED = "rules changed since recording"


def _class_style(cls: str) -> str:
    return CLASS_LOOK.get(cls, ("", ""))[1]


def clean(text: str, width: int = 160) -> str:
    """`text` on one line: whitespace runs become one space, control, escape and bidi
    characters show as visible escapes (`\\x1b`, the read side's one sanitizer), and it
    is cut at `width` characters. Backslashes and quotes are shown as they are."""
    shown = safe_text(" ".join(text.split()))
    return shown if len(shown) <= width else shown[: width - 1] + "…"


def verdict_text(verdict: Verdict | None) -> Text:
    """`deny  "reason"`, or for a failure `failure (timeout, the call proceeds)`."""
    if verdict is None:
        return Text("-", style="dim")
    fail_open = fails_open(verdict.decision, verdict.effect)
    text = Text(clean(verdict.decision, 40), style=look(verdict.decision, fail_open).style())
    if verdict.decision == "failure":
        effect = clean(verdict.effect or "?", 40)
        text.append(f" ({clean(verdict.failure or '?', 40)}, the call {effect})")
    if verdict.reason:  # a failure's detail goes on its own `why` line
        text.append("  ")
        text.append(f'"{clean(verdict.reason)}"', style="italic")
    return text


def summary_line(report: Report) -> Text:
    c = report.counts()
    text = Text()

    def part(label: str, n: int, style: str) -> None:
        if text:
            text.append("  ")
        text.append(f"{label} ", style="bold")
        text.append(str(n), style=style if n else "dim")

    part("unchanged", c["unchanged"], "")
    part("changed", c[CHANGED], _class_style(CHANGED))
    part("loosened", c[LOOSENED], DIRECTION_LOOK[LOOSENED][1])
    part("tightened", c[TIGHTENED], DIRECTION_LOOK[TIGHTENED][1])
    part("effect changed", c[EFFECT_CHANGED], _class_style(EFFECT_CHANGED))
    part("reason only", c[REASON_ONLY], _class_style(REASON_ONLY))
    part("failed", c[FAILED], _class_style(FAILED))
    part("skipped", c[SKIPPED], "")
    if report.repeat > 1:
        part("flaky", c["flaky"], "bold magenta")
    if c["rules_changed"]:
        part(RULES_CHANGED, c["rules_changed"], "yellow")
    return text


def label_text(r: Result) -> Text:
    text = Text()
    text.append(f"{r.cls.replace('_', ' ')}", style=_class_style(r.cls))
    if r.cls == EFFECT_CHANGED:
        text.append(f": {clean(', '.join(r.effects), 80)}", style=_class_style(EFFECT_CHANGED))
    if r.direction:
        text.append(f" {r.direction}", style=DIRECTION_LOOK[r.direction][1])
    if r.flaky:
        text.append(" flaky", style="bold magenta")
    return text


def record_head(r: Result, label: Text | None = None) -> Text:
    rec = r.record
    head = Text()
    if r.source:  # a report of several streams (fleet replay)
        head.append(f"{clean(r.source, 80)}:", style="dim")
    head.append(f"line {r.line} ", style="dim")
    if label is not None:
        head.append_text(label)
        head.append("  ")
    head.append(clean(rec.tool_name or rec.native_event or rec.event, 60), style="bold")
    if rec.summary:
        head.append(f"  {clean(rec.summary, 120)}")
    head.append(f"  [{clean(rec.runtime, 30)} {clean(random_part(rec.id), 40)}]", style="dim")
    return head


def verdict_line(label: str, verdict: Verdict | None) -> Text:
    text = Text(f"    {label:<8}" if len(label) < 8 else f"    {label} ")
    text.append_text(verdict_text(verdict))
    return text


def change_lines(r: Result) -> list[Text]:
    lines = [record_head(r, label_text(r))]
    if r.rules_changed:
        lines.append(verdict_line("recorded", r.recorded))
        lines.append(Text(f"    ({RULES_CHANGED}; compared with today's reading)", style="yellow"))
    lines.append(verdict_line("before", r.before))
    if r.before.decision == "failure" and r.before.failure_detail:
        lines.append(Text(f"    was     {clean(r.before.failure_detail)}", style="dim"))
    if r.before.decision == "failure" and (said := stderr_words(r.record.stderr)):
        lines.append(Text(f"    stderr  {clean(said)}", style="dim"))
    run = f" (run {r.run_index + 1})" if len(r.runs) > 1 else ""
    lines.append(verdict_line("after", r.after))
    if run:
        lines[-1].append(run, style="dim")
    if r.after is not None and r.after.decision == "failure" and r.after.failure_detail:
        lines.append(Text(f"    why     {clean(r.after.failure_detail)}", style="red"))
    if r.after is not None and r.after.decision == "failure" and r.outcome is not None:
        if said := last_line(r.outcome.stderr):
            lines.append(Text(f"    stderr  {clean(said)}", style="red"))
    if len(r.runs) > 1 and r.flaky:
        decisions = clean(", ".join(v.decision for v in r.runs))
        lines.append(Text(f"    runs    {decisions}", style="magenta"))
    lines += effect_lines(r)
    return lines


def effect_raw(value: Any) -> str:
    """One effect's value: text as it is, anything else as JSON; `(none)` when unset."""
    if value is UNSET:
        return "(none)"
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def effect_value(value: Any, width: int = 160) -> str:
    """effect_raw on one line, made safe for a terminal and cut at `width`."""
    return clean(effect_raw(value), width)


def effect_lines(r: Result) -> list[Text]:
    """For each effect that changed under the same decision: its name, then before/after."""
    lines = []
    for name, was, now in r.effect_pairs():
        lines.append(Text(f"    effect  {clean(name, 60)}", style="yellow"))
        lines.append(Text(f"      before  {effect_value(was)}", style="dim"))
        lines.append(Text(f"      after   {effect_value(now)}"))
    return lines


def _title(report: Report) -> Text:
    against = f"`{clean(report.policy)}`" if report.policy is not None else "the recorded hooks"
    session = "standard input" if report.session == "-" else clean(report.session)
    title = Text(f"replay of {session} against {against}: ", style="bold")
    title.append(plural(report.total, "record"))
    if report.repeat > 1:
        title.append(f", {report.repeat} runs each")
    if report.bad_lines:
        title.append(f" ({plural(report.bad_lines, 'bad line')} ignored)", style="yellow")
    return title


def _left_out(report: Report) -> Text | None:
    if not report.left_out:
        return None
    n = sum(report.left_out.values())
    hooks = ", ".join(f"{clean(k, 40)} ({v})" for k, v in report.left_out.items())
    text = Text(f"left out {plural(n, 'record')} of other hooks: {hooks}", style="yellow")
    if report.left_out_hint:
        text.append(f"; include them with {report.left_out_hint}")
    return text


def _grouped_notes(report: Report) -> list[Text]:
    """Each distinct note once, with the lines it applies to."""
    lines_by_note: dict[str, list[int | str]] = {}
    for r in report.results:
        where = f"{clean(r.source, 80)}:{r.line}" if r.source else r.line
        for note in r.notes:
            lines_by_note.setdefault(note, []).append(where)
    out = []
    for note, lines in lines_by_note.items():
        shown = ", ".join(map(str, lines[:8])) + (", …" if len(lines) > 8 else "")
        text = Text(f"  {plural(len(lines), 'line')} ({shown}): ", style="dim")
        text.append(clean(note, 200), style="yellow")
        out.append(text)
    return out


def _call_lines(report: Report) -> list[Text]:
    """Calls whose outcome changed, then those where only the hook's own answer did."""
    out = []
    for c in sorted(report.calls, key=lambda c: not c.changed):
        line = Text("  ")
        line.append(f"{clean(c.tool_name or '-', 30)}  {clean(c.summary, 60)}  ", style="bold")
        line.append(decision_mark(c.before), style=decision_style(c.before))
        line.append(" → ")
        line.append(decision_mark(c.after), style=decision_style(c.after))
        if c.changed:
            by = f" (now decided by {clean(c.after_by, 40)})" if c.after_by else ""
            line.append(f"  the call's outcome changes{by}", style="bold yellow")
        else:
            by = clean(c.after_by, 40) or "another hook"
            line.append(f"  unchanged: {by} decides it whatever this hook answers", style="dim")
        out.append(line)
    return out


def _section(console: Console, title: str, lines: list[Text]) -> None:
    if lines:
        console.print()
        console.print(Text(title, style="bold"))
        for line in lines:
            console.print(line)


def render_report(console: Console, report: Report) -> None:
    console.print(_title(report))
    left_out = _left_out(report)
    if left_out is not None:
        console.print(left_out)
    console.print(summary_line(report))
    shown = report.changes + [r for r in report.results if r.flaky and r not in report.changes]
    shown.sort(key=lambda r: r.index)
    if shown:
        console.print()
    for r in shown:
        for line in change_lines(r):
            console.print(line)
    _section(console, "tool calls (all their hooks, by the runtime's rule)", _call_lines(report))
    rules = [r for r in report.results if r.rules_changed and r not in shown]
    rules_lines = []
    for r in rules:
        rules_lines.append(record_head(r))
        rules_lines.append(verdict_line("recorded", r.recorded))
        rules_lines.append(verdict_line("today", r.before))
    _section(console, f"{RULES_CHANGED} (the replay is compared with today's reading)", rules_lines)
    _section(console, "notes", _grouped_notes(report))
    skipped = []
    for r in report.results:
        if r.cls == SKIPPED:
            where = f"{clean(r.source, 80)}:" if r.source else ""
            line = Text(f"  {where}line {r.line} ", style="dim")
            line.append(f"{clean(r.record.tool_name or r.record.event, 60)}  ")
            line.append(clean(r.skip_reason, 200), style="italic")
            skipped.append(line)
    _section(console, "skipped", skipped)
    bad = [Text(f"  line {n}: {clean(why, 200)}", style="dim") for n, why in report.bad_line_errors]
    _section(console, "bad lines", bad)
    if not shown:
        console.print(Text("no decision or effect changed", style="green"))

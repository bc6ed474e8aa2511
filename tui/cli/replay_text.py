"""`hooktui replay --format text`: the report as a rich summary and a list of changes."""

from __future__ import annotations

from hooktui.replay.compare import CHANGED, FAILED, LOOSENED, REASON_ONLY, SKIPPED, TIGHTENED
from hooktui.replay.report import Report, Result, one_line
from hooktui.tap.model import Verdict
from rich.console import Console
from rich.text import Text

DECISION_STYLES = {
    "allow": "green",
    "deny": "bold red",
    "ask": "yellow",
    "modify": "cyan",
    "replace": "magenta",
    "failure": "bold white on red",
}
CLASS_STYLES = {
    "unchanged": "dim",
    REASON_ONLY: "blue",
    CHANGED: "bold yellow",
    FAILED: "bold red",
    SKIPPED: "dim italic",
}
DIRECTION_STYLES = {LOOSENED: "bold red", TIGHTENED: "bold green"}


def verdict_text(verdict: Verdict | None) -> Text:
    """`deny  "reason"`, or for a failure `failure (timeout, proceeds)  "detail"`."""
    if verdict is None:
        return Text("-", style="dim")
    text = Text(verdict.decision, style=DECISION_STYLES.get(verdict.decision, ""))
    if verdict.decision == "failure":
        text.append(f" ({verdict.failure or '?'}, the call {verdict.effect or '?'})")
    reason = verdict.reason  # a failure's detail goes on its own `why` line
    if reason:
        text.append("  ")
        text.append(repr(one_line(reason, 160)), style="italic")
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
    part("changed", c[CHANGED], CLASS_STYLES[CHANGED])
    part("loosened", c[LOOSENED], DIRECTION_STYLES[LOOSENED])
    part("tightened", c[TIGHTENED], DIRECTION_STYLES[TIGHTENED])
    part("reason only", c[REASON_ONLY], CLASS_STYLES[REASON_ONLY])
    part("failed", c[FAILED], CLASS_STYLES[FAILED])
    part("skipped", c[SKIPPED], "")
    if report.repeat > 1:
        part("flaky", c["flaky"], "bold magenta")
    return text


def _label(r: Result) -> Text:
    text = Text()
    text.append(f"{r.cls.replace('_', ' ')}", style=CLASS_STYLES.get(r.cls, ""))
    if r.direction:
        text.append(f" {r.direction}", style=DIRECTION_STYLES[r.direction])
    if r.flaky:
        text.append(" flaky", style="bold magenta")
    return text


def change_lines(r: Result) -> list[Text]:
    rec = r.record
    head = Text()
    head.append(f"line {r.line} ", style="dim")
    head.append_text(_label(r))
    head.append(f"  {rec.tool_name or rec.native_event or rec.event}", style="bold")
    if rec.summary:
        head.append(f"  {one_line(rec.summary, 120)}")
    head.append(f"  [{rec.runtime} {rec.id}]", style="dim")
    before = Text("    before  ")
    before.append_text(verdict_text(r.before))
    after = Text("    after   ")
    after.append_text(verdict_text(r.after))
    lines = [head, before]
    if r.before.decision == "failure" and r.before.failure_detail:
        lines.append(Text(f"    was     {one_line(r.before.failure_detail, 160)}", style="dim"))
    lines.append(after)
    if r.after is not None and r.after.decision == "failure" and r.after.failure_detail:
        lines.append(Text(f"    why     {one_line(r.after.failure_detail, 160)}", style="red"))
    if r.flaky:
        decisions = ", ".join(v.decision for v in r.runs)
        lines.append(Text(f"    runs    {decisions}", style="magenta"))
    return lines


def render_report(console: Console, report: Report) -> None:
    against = f"`{report.policy}`" if report.policy is not None else "the recorded hooks"
    title = Text(f"replay of {report.session} against {against}: ", style="bold")
    title.append(f"{len(report.results)} records")
    if report.repeat > 1:
        title.append(f", {report.repeat} runs each")
    if report.bad_lines:
        title.append(f" ({report.bad_lines} bad lines ignored)", style="yellow")
    console.print(title)
    console.print(summary_line(report))
    shown = report.changes + [r for r in report.results if r.flaky and r not in report.changes]
    shown.sort(key=lambda r: r.index)
    if shown:
        console.print()
    for r in shown:
        for line in change_lines(r):
            console.print(line)
    skipped = [r for r in report.results if r.cls == SKIPPED]
    if skipped:
        console.print()
        console.print(Text("skipped", style="bold"))
        for r in skipped:
            line = Text(f"  line {r.line} ", style="dim")
            line.append(f"{r.record.tool_name or r.record.event}  ")
            line.append(r.skip_reason, style="italic")
            console.print(line)
    if not shown:
        console.print(Text("no decision changed", style="green"))

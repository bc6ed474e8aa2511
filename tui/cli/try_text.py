"""`hooktui try` as text: the request in one line, the plan, each answer, the outcome."""

from __future__ import annotations

import json

from hooktui.tap.inventory.trial import Trial
from hooktui.tap.read.sanitize import safe_line
from hooktui.tap.runtimes import ADAPTERS
from hooktui.tui.cli.hooks_text import seconds, short_path
from hooktui.tui.cli.palette import decision_mark, decision_style
from rich.console import Console
from rich.table import Table
from rich.text import Text


def render(
    trial: Trial, planned_only: bool = False, home: str = "", console: Console | None = None
) -> None:
    console = console or Console(highlight=False, soft_wrap=True)
    runtime = ADAPTERS[trial.runtime]
    request = safe_line(json.dumps(trial.request, separators=(",", ":")))
    console.print(
        Text(f"{runtime.title} · {trial.native_event} · {trial.tool_name or '-'}", style="bold")
    )
    console.print(
        Text(f"request: {request[:300]}{'…' if len(request) > 300 else ''}", style="grey70")
    )
    runs = "one after another" if trial.runs == "sequential" else "all at once"
    if not trial.plan:
        console.print(
            Text("No configured hook fires for this call: the runtime goes ahead as asked.")
        )
        return
    console.print(Text(f"{len(trial.plan)} hook(s) would fire, {runs}:"))
    tried = {t.order: t for t in trial.tried}
    table = Table(box=None, show_edge=False, pad_edge=False, header_style="bold grey70")
    for col in ("#", "hook", "scope", "timeout", "fails", "answer", "ms", "reason / command"):
        table.add_column(col, no_wrap=col != "reason / command")
    roles = {p.id: p.role for s in (trial.call.steps if trial.call else []) for p in s.hooks}
    for p in trial.plan:
        t = tried.get(p.order)
        answer, ms, detail = Text(""), "", safe_line(p.hook.command)
        if not planned_only and t is not None:
            if t.not_run:
                answer = Text("not run", style="grey62")
                detail = safe_line(t.not_run)
            else:
                fail_open = t.decision == "failure" and t.effect != "blocks"
                answer = Text(
                    decision_mark(t.decision, fail_open),
                    style=decision_style(t.decision, fail_open),
                )
                role = roles.get(t.record_id, "")
                if role in ("decided", "rewrote"):
                    answer.append("  ★", style="bold")
                elif role == "overridden":
                    answer.append("  (overridden)", style="grey62")
                ms = f"{t.duration_ms:.0f}"
                detail = safe_line(t.reason) or detail
        elif not p.runs:
            answer = Text("not run", style="grey62")
            detail = safe_line(p.why_not)
        timeout = seconds(p.hook.timeout_ms) + ("*" if p.hook.timeout_source == "default" else "")
        scope = f"{p.hook.scope} {short_path(safe_line(p.hook.path), home)}"
        table.add_row(
            str(p.order), safe_line(p.hook.label), scope, timeout, p.hook.fails, answer, ms, detail
        )
    console.print(table)
    if planned_only or trial.call is None:
        console.print(Text(f"The runtime's rule: {trial.rule}", style="italic grey70"))
        return
    step = next(
        (s for s in trial.call.steps if s.native_event == trial.native_event), trial.call.steps[0]
    )
    out = Text("Outcome: ", style="bold")
    out.append(decision_mark(step.decision), style=decision_style(step.decision))
    if step.reason:
        out.append(f" — {safe_line(step.reason)}")
    console.print(out)
    if step.conflicts:
        console.print(Text(f"Conflicts: {', '.join(step.conflicts)}", style="dark_orange"))
    console.print(Text(f"The runtime's reading: {trial.rule}", style="italic grey70"))
    for note in step.notes:
        console.print(Text(f"  {safe_line(note)}", style="grey70"))

"""`hooktui try` as text: the request in one line, the plan, each answer, the outcome."""

from __future__ import annotations

import json

from hooktui.tap.canonical import fails_open
from hooktui.tap.inventory.trial import Trial
from hooktui.tap.read.sanitize import safe_line
from hooktui.tap.runtimes import ADAPTERS
from hooktui.tui.cli.hooks_text import seconds, short_path
from hooktui.tui.present.palette import decision_mark, decision_style
from rich.console import Console
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
    roles = {p.id: p.role for s in (trial.call.steps if trial.call else []) for p in s.hooks}
    for p in trial.plan:
        console.print(_planned_line(p, tried.get(p.order), roles, planned_only, home))
        console.print(Text("      ").append_text(_detail(p, tried.get(p.order), planned_only)))
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


def _planned_line(p, t, roles: dict[str, str], planned_only: bool, home: str) -> Text:
    timeout = seconds(p.hook.timeout_ms) + ("*" if p.hook.timeout_source == "default" else "")
    line = Text(f"  {p.order}  ")
    if planned_only:
        line.append("would run " if p.runs else "not run   ", style="" if p.runs else "grey62")
    elif t is None or t.not_run:
        line.append("not run   ", style="grey62")
    else:
        fail_open = fails_open(t.decision, t.effect)
        line.append(
            decision_mark(t.decision, fail_open).ljust(10),
            style=decision_style(t.decision, fail_open),
        )
        role = roles.get(t.record_id, "")
        line.append("★ " if role in ("decided", "rewrote") else "  ", style="bold")
        line.append(f"{t.duration_ms:>6.0f}ms  ")
    line.append(f"{safe_line(p.hook.label)}  timeout {timeout}  fails {p.hook.fails or '?'}  ")
    line.append(f"{p.hook.scope} {short_path(safe_line(p.hook.path), home)}", style="grey62")
    return line


def _detail(p, t, planned_only: bool) -> Text:
    if not planned_only and t is not None and t.not_run:
        return Text(safe_line(t.not_run), style="grey62")
    if not planned_only and t is not None and t.reason:
        text = Text(safe_line(t.reason))
        if t.timed_out:
            text.append("  (timed out)", style="dark_orange")
        return text
    if not p.runs:
        return Text(safe_line(p.why_not), style="grey62")
    return Text(safe_line(p.hook.command), style="grey70")

"""A fleet replay's report: replay's own text or JSON, and a line on how the work went."""

from __future__ import annotations

import sys

from hooktui.replay.report import Report
from hooktui.replay.session import plural


def saved_line(report: Report) -> str:
    """`8 parts; 1,000 records, 412 distinct requests run: 588 runs saved (59%)`."""
    f = report.fleet or {}
    records, runs, saved = f.get("records", 0), f.get("requests_run", 0), f.get("runs_saved", 0)
    share = f" ({saved * 100 // max(1, runs + saved)}%)" if saved else ""
    return (
        f"fleet: {plural(f.get('parts', 0), 'part')}; {plural(records, 'record')}, "
        f"{plural(runs, 'distinct request')} run: {plural(saved, 'run')} saved{share}"
    )


def print_report(report: Report, fmt: str) -> None:
    from hooktui.tui.cli.replay import _print_json, make_console

    if fmt == "json":
        _print_json(report)
        return
    from hooktui.tui.present.replay_text import render_report
    from rich.text import Text

    console = make_console()
    render_report(console, report)
    console.print(Text(saved_line(report), style="dim"))
    sys.stdout.flush()

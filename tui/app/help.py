"""The `?` screen: every key, and the filter language in short."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

KEYS = (
    ("j / ↓, k / ↑", "next / previous call"),
    ("g / Home, G / End", "first call / last call (resumes following)"),
    ("PgUp / PgDn", "a page up / down"),
    ("enter", "focus the detail pane (enter or esc goes back)"),
    ("1 … 5", "detail tabs: summary, request, response, diff, raw"),
    ("/", "filter (checked as you type)"),
    ("esc", "clear the filter and marked-only"),
    ("f", "follow new calls on/off (scrolling up stops following)"),
    ("p", "pause: hold new records back, resume shows them"),
    ("m / M", "mark the call / show marked calls only"),
    ("c", "copy the selected record as JSON (OSC 52)"),
    ("w", "write the shown records to a JSONL file, byte for byte"),
    ("r", "replay the shown or marked calls"),
    ("ctrl+p", "command palette"),
    ("?", "this help"),
    ("q", "quit"),
)

FILTERS = (
    ("tool:Bash decision:deny", "both (a space means and)"),
    ("runtime:codex or event:post", "either"),
    ("-decision:allow, !tool:Read", "not"),
    ("latency>50ms  exit!=0", "comparisons (ms or s)"),
    ('rm  "git push"', "words and phrases in summary, reason, tool"),
    ("hook:guard session:abc*", "hook label, ids; * globs"),
    ("(a or b) c", "parentheses"),
)

MARKERS = (
    ("⚠ failure", "the hook failed and the runtime let the call through"),
    ("◷", "latency at 80% or more of the hook's timeout"),
    ("●", "marked"),
    ("✗ bad line", "a line of the stream that is not a record"),
)


def _table(title: str, rows: tuple[tuple[str, str], ...]) -> Table:
    table = Table(title=title, title_justify="left", title_style="bold", box=None, expand=True)
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    for key, what in rows:
        table.add_row(key, what)
    return table


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "app.pop_screen", "Close", id="help.close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(Text("hooktui watch — keys", style="bold"), id="help-title")
            yield Static(_table("keys", KEYS))
            yield Static(_table("filter", FILTERS))
            yield Static(_table("markers", MARKERS))
            yield Static(Text("esc, q or ? closes", style="dim"))

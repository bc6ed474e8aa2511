"""One help screen for watch and replay, generated from the bindings themselves.

Each binding carries an id and its help text (`tooltip`, else its description),
so a key added to a screen is in its `?` screen and its command palette without
a second list to keep in step.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

KEY_NAMES = {
    "question_mark": "?",
    "slash": "/",
    "escape": "esc",
    "down": "↓",
    "up": "↑",
    "pagedown": "PgDn",
    "pageup": "PgUp",
    "home": "Home",
    "end": "End",
    "plus": "+",
    "minus": "-",
    "equals_sign": "=",
    "percent_sign": "%",
}

Rows = list[tuple[str, str]]


def key_label(keys: str) -> str:
    return " / ".join(KEY_NAMES.get(k.strip(), k.strip()) for k in keys.split(","))


def bindings_of(*sources: type) -> list[Binding]:
    """hooktui's bindings of each class, inherited ones first, in the order they are declared.

    Textual's own (focus next, scroll up) are left out: they are not this app's keys.
    """
    out: list[Binding] = []
    for source in sources:
        for cls in reversed(source.__mro__):
            if not cls.__module__.startswith("hooktui."):
                continue
            for binding in cls.__dict__.get("BINDINGS", ()):
                if isinstance(binding, Binding):
                    out.append(binding)
    return out


def help_rows(bindings: Iterable[Binding], skip: Iterable[str] = ()) -> Rows:
    """(keys, what they do) for every documented binding; keys with one text share a row.

    A binding whose id appears again later (a subclass re-binding it) shows once,
    with the later keys.
    """
    skipped = set(skip)
    latest: dict[str, Binding] = {}
    order: list[str] = []
    for binding in bindings:
        ident = binding.id or f"{binding.key}:{binding.action}"
        if ident in skipped or binding.system or not (binding.tooltip or binding.description):
            continue
        if ident not in latest:
            order.append(ident)
        latest[ident] = binding
    rows: Rows = []
    for ident in order:
        binding = latest[ident]
        text = binding.tooltip or binding.description
        keys = binding.key_display or key_label(binding.key)
        if rows and rows[-1][1] == text:
            rows[-1] = (f"{rows[-1][0]} {keys}", text)
        else:
            rows.append((keys, text))
    return rows


def _table(title: str, rows: Rows) -> Table:
    table = Table(title=title, title_justify="left", title_style="bold", box=None, expand=True)
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    for key, what in rows:
        table.add_row(key, what)
    return table


class HelpScreen(ModalScreen[None]):
    """`?`: sections of (keys, what they do), plus notes at the end."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "app.pop_screen", "Close", id="help.close"),
    ]

    def __init__(self, title: str, sections: list[tuple[str, Rows]], notes: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.sections = sections
        self.notes = notes

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(Text(self.title_text, style="bold"), id="help-title")
            for title, rows in self.sections:
                yield Static(_table(title, rows))
            if self.notes:
                yield Static(Text(self.notes, style="italic"))
            yield Static(Text("esc, q or ? closes", style="dim"))
